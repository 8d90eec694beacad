"""The starter suite that ``polygon init`` copies."""
