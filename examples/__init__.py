"""Bundled example suites (package data for ``polygon demo`` and ``polygon init``)."""
