"""Sweeps: points (one configuration each) made from a sweep file, and the tokens they cost."""
