"""Suites: the file schema, loading with clear errors, persona coverage, and the names of built-ins."""
