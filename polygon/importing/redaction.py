"""Redaction before anything is written: phone numbers, e-mail addresses, card-like numbers."""

from __future__ import annotations

import re

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")
_PHONE = re.compile(r"(?<![\w])\+?\d[\d ().-]{5,}\d(?![\w])")


def redact(text: str) -> str:
    """Mask every e-mail, card-like number and phone number in ``text``."""
    text = _EMAIL.sub("[EMAIL]", text)
    text = _CARD.sub(lambda m: "[CARD]" if len(re.sub(r"\D", "", m.group())) >= 13 else m.group(), text)
    return _PHONE.sub(lambda m: "[PHONE]" if len(re.sub(r"\D", "", m.group())) >= 6 else m.group(), text)


def redact_value(value: object) -> object:
    """Redact every string inside a JSON-like value."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    return value
