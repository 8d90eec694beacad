"""Phone behaviour in text: barge-in, silence and self-corrections.

Each has its own knob (a probability per caller turn) and, like the noise, draws from a
generator derived from (run seed, scenario and trial, turn) alone, so every configuration
under comparison meets the same interruptions at the same turn:

* **barge-in** — the caller cuts in: it heard the agent's reply only up to a word boundary
  (the event records where), and answers what it heard;
* **silence** — the caller says nothing this turn; what it meant to say waits for the next
  turn, and the agent has to re-prompt;
* **self-correction** — the caller says a wrong value first and corrects itself ("Tuesday —
  no, Wednesday"); only a weekday, a time or a number of its own is ever corrected.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_DAY = re.compile(r"\b(" + "|".join(_WEEKDAYS) + r")\b", re.IGNORECASE)
_NUMBER = re.compile(r"\b\d{3,}\b")


@dataclass(frozen=True)
class PhoneSettings:
    """The three knobs, probabilities per caller turn."""

    barge_in: float = 0.0
    silence: float = 0.0
    self_correction: float = 0.0

    @property
    def active(self) -> bool:
        """Whether any behaviour can happen."""
        return bool(self.barge_in or self.silence or self.self_correction)


def phone_rng(run_seed: int, conversation: str, turn: int) -> random.Random:
    """The generator of one turn's phone behaviour (stable across processes)."""
    data = f"phone\x00{run_seed}\x00{conversation}\x00{turn}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big"))


@dataclass(frozen=True)
class TurnDraw:
    """What happens at one caller turn (each decision drawn, used or not)."""

    barge_in_at: int
    """Words of the agent's last reply the caller heard before cutting in; 0: no barge-in."""
    silent: bool
    self_correction: bool
    pick: float
    """A spare draw for choosing the wrong value of a self-correction."""


def draw(settings: PhoneSettings, run_seed: int, conversation: str, turn: int, agent_words: int) -> TurnDraw:
    """The decisions for ``turn``; the first turn is never silent or cut in on."""
    rng = phone_rng(run_seed, conversation, turn)
    barge, silent, correct, where, pick = (rng.random() for _ in range(5))
    cut = 0
    if turn > 1 and agent_words >= 4 and barge < settings.barge_in:
        cut = 1 + int(where * (agent_words - 2))  # at least one word heard, at least one lost
    return TurnDraw(
        barge_in_at=cut,
        silent=turn > 1 and silent < settings.silence,
        self_correction=correct < settings.self_correction,
        pick=pick,
    )


def cut_reply(text: str, words: int) -> str:
    """The agent's reply as a caller who cut in heard it: its first ``words`` words."""
    return " ".join(text.split()[:words])


ENGLISH_CORRECTION = "{wrong} — no, {right}"


def self_correct(text: str, pick: float, said_as: str = ENGLISH_CORRECTION) -> tuple[str, str, str]:
    """``text`` with its first day, time or number said wrong first: (new text, wrong, right).

    ``said_as`` is how the caller's language says it (the packs' ``say.self_correct``: a
    Russian caller says "19:40 — нет, 18:40", never an English "no"). Unchanged (and empty
    wrong/right) when it has none: a self-correction always says a wrong value first.
    """
    for pattern, wrong_of in ((_DAY, _other_day), (_TIME, _other_time), (_NUMBER, _other_number)):
        found = pattern.search(text)
        if found:
            right = found.group(0)
            wrong = wrong_of(right, pick)
            said = f"{text[: found.start()]}{said_as.format(wrong=wrong, right=right)}{text[found.end() :]}"
            return said, wrong, right
    return text, "", ""


def _other_day(day: str, pick: float) -> str:
    others = [d for d in _WEEKDAYS if d.lower() != day.lower()]
    return others[int(pick * len(others))]


def _other_time(time: str, pick: float) -> str:
    hours, minutes = time.split(":")
    return f"{(int(hours) + 1 + int(pick * 3)) % 24}:{minutes}"


def _other_number(number: str, pick: float) -> str:
    last = (int(number[-1]) + 1 + int(pick * 8)) % 10
    return number[:-1] + str(last)
