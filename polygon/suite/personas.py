"""Persona coverage and the offline generator: which personas to make, and how without a model.

The model requests live in :mod:`polygon.app.personas` (this layer calls no models).

Coverage is decided here, not by the model: personas cycle through the six types, the four
intended outcomes and difficulties 1–5; the model (or, offline, the deterministic generator)
fills in the goal and the ground-truth facts. One failed request loses one persona, never
the batch. Every persona records the hash of the prompt it came from, so a changed prompt
marks it stale.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from polygon.suite.schema import OUTCOMES, PERSONA_TYPES, PersonaSpec

OFFLINE_GENERATOR = "scripted/personas"
_NAMES = (
    "Ana Kovac",
    "Ivan Horvat",
    "Marta Novak",
    "Luka Babic",
    "Petra Juric",
    "Marko Vuk",
    "Sara Maric",
    "Tomislav Kos",
    "Iva Pavic",
    "Dario Radic",
    "Nina Bilic",
    "Josip Ilic",
)
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


def _digits(seed: bytes, n: int) -> str:
    return "".join(str(b % 10) for b in hashlib.blake2b(seed, digest_size=n).digest())


def offline_persona(slot: Slot, prompt: str, prompt_hash: str) -> PersonaSpec:
    """A deterministic persona from the prompt text (no model involved)."""
    goals = goals_from_prompt(prompt)
    seed = f"{prompt_hash}:{slot.index}".encode()
    pick = int.from_bytes(hashlib.blake2b(seed, digest_size=4).digest(), "big")
    phone = _digits(seed, 9)
    facts = {
        "name": _NAMES[pick % len(_NAMES)],
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
