"""Projections: pure folds over the event log, and the reports rendered from them."""
