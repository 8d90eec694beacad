"""Polygon: test phone (voice) AI agents by simulating whole calls."""

__version__ = "0.1.0"
