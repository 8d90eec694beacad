"""The dental clinic receptionist example: suite, prompts and two agent versions."""
