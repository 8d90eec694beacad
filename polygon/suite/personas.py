"""Persona coverage and the offline generator: which personas to make, and how without a model.

The model requests live in :mod:`polygon.app.personas` (this layer calls no models).

Coverage is decided here, not by the model: personas cycle through the six types, the four
intended outcomes and difficulties 1–5; the model (or, offline, the deterministic generator)
fills in the goal and the ground-truth facts. The offline generator's names are package data
(``persona_names.yaml``: one list, since an offline persona has no language). One failed
request loses one persona, never the batch. Every persona records the hash of the prompt it
came from, so a changed prompt marks it stale.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

import yaml

from polygon.errors import PolygonError
from polygon.suite.schema import OUTCOMES, PERSONA_TYPES, PersonaSpec

OFFLINE_GENERATOR = "scripted/personas"
NAMES_FILE = "persona_names.yaml"
"""The offline personas' names: package data beside this module, one list for every language."""
_PRONOUNS = frozenset({"it", "them", "him", "her", "you", "me", "us", "that", "this"})
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_VERB = re.compile(
    r"\b(book|cancel|reschedule|change|check|order|return|refund|pay|register|report|"
    r"schedule|update|renew|open|close|transfer|track)\b\s+([a-z][a-z ]{2,40}?)(?=[.,;:\n]|\band\b|$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Slot:
    """What the generator fixes before asking for a persona."""

    index: int
    type: str
    outcome: str
    difficulty: int


def coverage(count: int) -> Iterator[Slot]:
    """Types × outcomes × difficulties, spread as evenly as ``count`` allows."""
    for i in range(count):
        yield Slot(
            i,
            PERSONA_TYPES[i % len(PERSONA_TYPES)],
            OUTCOMES[(i // len(PERSONA_TYPES) + i) % len(OUTCOMES)],
            1 + (i * 2) % 5,
        )


def goals_from_prompt(prompt: str) -> list[str]:
    """Tasks the prompt says the agent handles ("book appointments" → "book appointments")."""
    found = []
    for verb, obj in _VERB.findall(prompt):
        goal = f"{verb.lower()} {obj.strip().lower()}"
        if obj.strip().lower() in _PRONOUNS or verb.lower() == "transfer":
            continue  # "transfer them" is something the agent does, not a caller's goal
        if goal not in found:
            found.append(goal)
    return found or ["get help with a question"]


@functools.cache
def persona_names() -> tuple[str, ...]:
    """The names offline personas are given, in the file's order (read and checked once per process)."""
    try:
        text = resources.files("polygon.suite").joinpath(NAMES_FILE).read_text(encoding="utf-8")
    except OSError as exc:  # a packaging fault, not the user's
        raise PolygonError(f"{NAMES_FILE}: {exc}") from exc
    return parse_persona_names(text)


def parse_persona_names(text: str) -> tuple[str, ...]:
    """The ``names`` a persona names file lists, or :class:`PolygonError` saying what is wrong.

    A persona's name is picked by index, so the list must be whole: one or more distinct names.
    """
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PolygonError(f"{NAMES_FILE}: {exc}") from exc
    names = data.get("names") if isinstance(data, dict) and set(data) == {"names"} else None
    if not isinstance(names, list) or not names or not all(_is_name(n) for n in names):
        raise PolygonError(f"{NAMES_FILE}: expected only `names:`, a list of one or more names")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise PolygonError(f"{NAMES_FILE}: listed twice: {', '.join(twice)}")
    return tuple(names)


def _is_name(value: object) -> bool:
    return isinstance(value, str) and value.strip() == value != ""


def _digits(seed: bytes, n: int) -> str:
    return "".join(str(b % 10) for b in hashlib.blake2b(seed, digest_size=n).digest())


def offline_persona(slot: Slot, prompt: str, prompt_hash: str) -> PersonaSpec:
    """A deterministic persona from the prompt text (no model involved)."""
    goals = goals_from_prompt(prompt)
    seed = f"{prompt_hash}:{slot.index}".encode()
    pick = int.from_bytes(hashlib.blake2b(seed, digest_size=4).digest(), "big")
    phone = _digits(seed, 9)
    names = persona_names()
    facts = {
        "name": names[pick % len(names)],
        "phone": f"0{phone[:2]} {phone[2:5]} {phone[5:9]}",
        "preferred_day": _DAYS[pick % len(_DAYS)],
        "request": goals[pick % len(goals)],
    }
    return PersonaSpec(
        id=f"gen-{slot.index:02d}-{slot.type}-{slot.outcome}",
        type=slot.type,
        outcome=slot.outcome,
        difficulty=slot.difficulty,
        goal=goals[pick % len(goals)],
        facts=facts,
        prompt_hash=prompt_hash,
    )
