"""Importing production calls: transcript formats and redaction."""
