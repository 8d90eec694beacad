"""The choices and defaults that command options show, spelled here so ``--help`` imports nothing.

Each mirrors a value owned by a use case or library (named beside it); importing the owner
would load pydantic, the log or the suite loader before a command even parses its options.
``tests/cli/test_startup.py`` keeps every copy equal to its owner.
"""

from __future__ import annotations

DEMO_EXAMPLES = ("clinic", "pizza", "pizzeria")
"""``sorted(polygon.app.demo.EXAMPLES)``."""

IMPORT_FORMATS = (
    "polygon-jsonl",
    "openai-chat",
    "text",
    "vapi",
    "retell",
    "elevenlabs",
    "livekit",
    "otel-genai",
)
"""``polygon.importing.formats.FORMATS``."""

LINT_DEFAULT_TIERS = ("rules", "embeddings")
"""``polygon.app.lint.DEFAULT_TIERS``."""

NOISE_LANGUAGES = ("de", "en", "es", "hr", "ru")
"""``polygon.app.noise.languages()``."""

OFFLINE_PERSONA_GENERATOR = "scripted/personas"
"""``polygon.suite.personas.OFFLINE_GENERATOR``."""

REPORT_FORMATS = ("html", "json", "junit", "markdown", "text")
"""``sorted(polygon.render.RENDERERS)``."""

SCHEMA_KINDS = ("suite", "rubric", "sweep")
"""``list(polygon.app.schema.KINDS)``."""
