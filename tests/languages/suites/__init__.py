"""A German and a Spanish phone line, each a suite with a correct agent and buggy ones."""
