"""Rubric files, shipped as package data."""
