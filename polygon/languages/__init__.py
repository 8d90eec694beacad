"""Languages: one data file each (``polygon/languages/<code>.yaml``).

A language file holds what the caller needs to understand an agent in that language (stop
words, question words and the concepts they ask for, the phrases of each dialogue act) and
every sentence the caller can say in it (goal, facts, confirmations, corrections, closings,
each type's manner), plus the spoken label of a fact key's abbreviations. Nothing names a
business: the same caller orders pizza, reports a power cut or refills a prescription.

Every file is validated by one model on load and all have the same fields; a language
without a file falls back to English. The scripted caller speaks and understands through
them; the offline probe detectors read an agent's dialogue acts through them
(:mod:`polygon.languages.acts`).
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from polygon.errors import PolygonError

CALLER_TYPES = ("cooperative", "busy", "distrustful", "confused", "aggressive", "chatty")
LANGUAGES = ("en", "hr", "ru")
"""The languages with their own file."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Understand(_Strict):
    """What the caller understands of an agent."""

    stop_words: frozenset[str]
    weekdays: frozenset[str]
    wh_words: frozenset[str]
    question_hints: dict[str, tuple[str, ...]]
    """A question word → the concepts (or value shapes) it asks for."""
    concepts: dict[str, tuple[str, ...]]
    """A concept → the words (or word starts) that name it, in a question or a fact key."""
    person_nouns: frozenset[str]
    """A fact key of one of these words alone holds the caller's name."""
    demands: dict[str, str]
    """A question word → a mark the answer must carry ("email" → "@")."""
    ask_goals: frozenset[str]
    """Goal verbs of a caller who only wants to know something."""
    stem: int = Field(ge=3, le=8)
    """How many letters of a word are its stem (fewer where words inflect more: "pizzu", "pizza")."""

    @field_validator("stop_words", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return value.split() if isinstance(value, str) else value


class Acts(_Strict):
    """The phrases of each dialogue act an agent's sentence can do (lower case)."""

    introduces: tuple[str, ...]
    greeting: tuple[str, ...]
    closing: tuple[str, ...]
    offer: tuple[str, ...]
    confirm: tuple[str, ...]
    wants: tuple[str, ...]
    asks: tuple[str, ...]
    requests: tuple[str, ...]
    """Phrases that ask for something without a question mark ("Tell me your …")."""
    choice: tuple[str, ...]
    done: tuple[str, ...]
    refuse: tuple[str, ...]
    reason: tuple[str, ...]
    transfer: tuple[str, ...]
    callback: tuple[str, ...]
    repeat: tuple[str, ...]


class Say(_Strict):
    """Every sentence the caller says outside its type's own manner."""

    open_named: str
    open: str
    restate_goal: str
    push_goal: str
    fact_name: str
    fact_phone: str
    fact_email: str
    fact_address: str
    fact_birth: str
    fact_last4: str
    fact_time: str
    fact_count: str
    fact_want: str
    fact_labeled: str
    also: str
    confirm_yes: str
    offer_yes: str
    offer_no: str
    ask_transfer: str
    ask_person: str
    accept_transfer: str
    callback_with_number: str
    callback: str
    callback_done: str
    done_bye: str
    bye: str
    refused_bye: str
    never_mind: str
    already_done: str
    out_of_time: str
    correct_first: str
    correct_insist: str
    correct_accept: str
    interrupt: str


class Manner(_Strict):
    """One caller type's own sentences."""

    opening: str
    unknown: str
    clarify: str
    give_up: str
    challenge: str = ""


class SmallTalk(_Strict):
    """What a caller says beside the point, by its type's manner."""

    digressions: tuple[str, ...] = Field(min_length=1)
    complaints: tuple[str, ...] = Field(min_length=1)
    threats: tuple[str, ...] = Field(min_length=1)
    worries: tuple[str, ...] = Field(min_length=1)


class CallerPack(_Strict):
    """One language."""

    code: str
    understand: Understand
    acts: Acts
    labels: dict[str, str]
    """A fact key's word → how it is said ("dob" → "date of birth")."""
    say: Say
    types: dict[str, Manner]
    small_talk: SmallTalk

    @field_validator("types")
    @classmethod
    def _every_type(cls, value: dict[str, Manner]) -> dict[str, Manner]:
        missing = [t for t in CALLER_TYPES if t not in value]
        if missing:
            raise ValueError(f"no manner for caller type(s) {', '.join(missing)}")
        if not value["distrustful"].challenge:
            raise ValueError("the distrustful caller needs a challenge")
        return value

    def manner(self, kind: str) -> Manner:
        """A caller type's sentences (a cooperative caller's for a type the pack lacks)."""
        return self.types.get(kind, self.types["cooperative"])

    # Shorthands the caller's understanding reads often.
    @property
    def stop_words(self) -> frozenset[str]:
        """Words that carry no meaning."""
        return self.understand.stop_words

    @property
    def weekdays(self) -> frozenset[str]:
        """The names of the days."""
        return self.understand.weekdays

    @property
    def wh_words(self) -> frozenset[str]:
        """Words of an open question."""
        return self.understand.wh_words


class LanguagePackError(PolygonError):
    """A caller language file is broken (a packaging fault, not the user's)."""


@functools.lru_cache(maxsize=8)
def _load(code: str) -> CallerPack:
    path = resources.files("polygon.languages").joinpath(f"{code}.yaml")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return CallerPack.model_validate(raw)
    except (OSError, yaml.YAMLError, ValueError) as exc:
        raise LanguagePackError(f"caller language {code!r}: {exc}") from exc


def caller_pack(language: str) -> CallerPack:
    """The pack of a language (English for one without its own file)."""
    code = (language or "en").lower().split("-")[0]
    return _load(code if code in LANGUAGES else "en")
