"""Suites: the file schema, loading with clear errors, and persona generation."""
