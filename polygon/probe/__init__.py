"""Behaviour probes: the library and its detectors, and answering by a model or offline."""
