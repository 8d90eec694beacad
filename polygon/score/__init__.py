"""Scoring: deterministic checks, the rubric and its verdict math, and the judges."""
