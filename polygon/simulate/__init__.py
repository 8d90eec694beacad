"""Simulation: the run plan, the conversation engine, agents, callers, ASR noise, stub tools, loops."""
