"""Judges: the heuristic baseline and the model judge, behind one protocol."""
