"""The bundled examples as tests use them."""

from pathlib import Path

from polygon.app.demo import example_suite_path


def clinic_suite_path() -> Path:
    """The bundled clinic suite (package data): most end-to-end tests run it."""
    return example_suite_path("clinic")
