"""Comparison: where two calls part (one rule set, used by ``compare`` and ``rerun``)."""
