"""The scripted caller: the offline, deterministic simulated caller (``scripted/caller``).

It plays a persona like a person on the phone — short sentences, interruptions,
digressions — and differently per type. It pursues its intended outcome, answers only
from its facts (a question about anything else gets "I don't have that"), and ends the
call as a person would. It is an honest baseline, not a model: transcripts say so.

Randomness comes from (conversation seed, turn) alone, so a call replays exactly.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from polygon.events.families import PersonaSnapshot
from polygon.simulate.callers import Utterance

SCRIPTED_CALLER = "scripted/caller"


@dataclass
class _State:
    turn: int = 0
    given: set[str] = field(default_factory=set)
    reassured: bool = False
    last: str = ""
    pushed: int = 0


_FACT_WORDS = {
    "name": ("name", "who am i", "who is calling", "your name"),
    "phone": ("phone", "number", "reach you", "contact"),
    "date": ("when", "what day", "which day", "date", "prefer", "time"),
    "reason": (
        "reason",
        "what is it for",
        "problem",
        "what brings",
        "what can i do",
        "how can i help",
    ),
}
_FACT_KEYS = {
    "name": ("name",),
    "phone": ("phone", "number"),
    "date": ("date", "day", "time", "when"),
    "reason": ("request", "reason", "problem"),
}
_DIGRESSIONS = (
    "By the way, my neighbour had a root canal last week. Terrible story.",
    "Oh, and it's raining again here, can you believe it?",
    "My cat knocked my phone off the table earlier, sorry if it sounds odd.",
    "I used to come to you years ago, back when the old doctor was there.",
)
_COMPLAINTS = (
    "This is taking forever.",
    "I've been on hold for ages.",
    "Honestly, this is ridiculous.",
)
_THREATS = ("Or I'll just go to another clinic.", "Otherwise I'm taking my business elsewhere.")
_WORRIES = ("Will it hurt?", "Is it free?", "Can you promise it's painless?")


def _has(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


class ScriptedCaller:
    """A deterministic caller for one conversation."""

    def __init__(self, persona: PersonaSnapshot, seed: int) -> None:
        self.persona = persona
        self.seed = seed
        self._s = _State()

    def _rng(self) -> random.Random:
        data = f"caller\x00{self.seed}\x00{self._s.turn}".encode()
        return random.Random(int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big"))

    def fact(self, kind: str) -> tuple[str, str] | None:
        """The persona's fact of a kind, as (key, value), if it has one."""
        for key in sorted(self.persona.facts):
            if any(k in key.lower() for k in _FACT_KEYS[kind]):
                return key, self.persona.facts[key]
        return None

    def next(self, agent_text: str | None) -> Utterance:
        """The caller's next turn, given what the agent last said (None at the start)."""
        self._s.turn += 1
        rng = self._rng()
        out = self._opening(rng) if agent_text is None else self._respond(agent_text.lower(), rng)
        out = self._flavour(out, rng)
        self._s.last = out.text
        return out

    # -- opening ---------------------------------------------------------------------

    def _opening(self, rng: random.Random) -> Utterance:
        goal = self.persona.goal.rstrip(".")
        kind = self.persona.type
        name = self.fact("name")
        if kind == "distrustful":
            return Utterance("Hello? Who am I speaking with?", "challenge")
        if kind == "busy":
            return Utterance(f"Hi. I need to {goal}. Quickly, please.", "state_goal")
        if kind == "confused":
            return Utterance(f"Um, hello? Is this the right number? I think I need to {goal}?", "state_goal")
        if kind == "aggressive":
            return Utterance(f"Finally someone picks up. I need to {goal}. Now.", "state_goal")
        if kind == "chatty":
            return Utterance(f"Oh hello there! How are you today? So, I'd love to {goal}.", "state_goal")
        intro = f"Hi, this is {name[1]}. " if name else "Hi. "
        if name:
            self._s.given.add(name[0])
        return Utterance(f"{intro}I'd like to {goal}.", "state_goal")

    # -- responding ------------------------------------------------------------------

    def _respond(self, said: str, rng: random.Random) -> Utterance:
        ended = self._outcome_reached(said)
        if ended is not None:
            return ended
        if _has(said, ("goodbye", "bye", "have a nice day", "have a great day")):
            return Utterance("Okay. Bye.", "goodbye", ends_call="done")
        limit = 10 - self.persona.difficulty if self.persona.type == "busy" else 18 - self.persona.difficulty
        if self._s.turn > limit:
            return Utterance("I don't have time for this. Bye.", "hangup", ends_call="hangup")
        if self.persona.type == "distrustful" and not self._s.reassured:
            if _has(said, ("clinic", "this is", "my name is", "speaking", "calling from", "dental")):
                self._s.reassured = True
            elif _has(said, ("name", "phone", "number", "date", "when")):
                return Utterance("Why do you need that? Who is this?", "challenge")
        if _has(said, ("repeat", "say that again", "didn't catch", "did not catch", "pardon", "sorry?")):
            return Utterance(self._s.last or "I said I need help.", "repeat")
        confirm = _has(
            said,
            (
                "shall i",
                "should i",
                "would you like",
                "does that work",
                "is that correct",
                "is that right",
                "do you want",
                "can i book",
                "confirm",
            ),
        )
        if confirm:
            return self._answer_offer()
        asked = self._asked_fact(said)
        if asked and not self._pursuing(asked):
            return self._give(asked, rng)
        return self._push_goal(rng)

    def _pursuing(self, asked: str) -> bool:
        """Callback and transfer callers stop answering booking questions after a while."""
        if self.persona.outcome not in ("callback", "transfer") or asked == "name":
            return False
        if self.persona.outcome == "callback" and asked == "phone":
            return False
        return self._s.turn >= 3 or self.fact(asked) is None

    def _outcome_reached(self, said: str) -> Utterance | None:
        outcome = self.persona.outcome
        if outcome == "success" and _has(
            said,
            (
                "booked",
                "you're all set",
                "you are all set",
                "confirmed for",
                "see you on",
                "scheduled",
            ),
        ):
            return Utterance("Great, thank you. Bye!", "goodbye", ends_call="done")
        if outcome == "callback" and _has(
            said, ("call you back", "calls you back", "callback is", "call back")
        ):
            return Utterance("Perfect, I'll wait for the call. Bye.", "goodbye", ends_call="done")
        if outcome == "transfer" and _has(said, ("transfer", "connect you", "put you through")):
            return Utterance("Yes, please, put me through.", "accept_transfer")
        return None

    def _answer_offer(self) -> Utterance:
        outcome = self.persona.outcome
        if outcome == "success":
            return Utterance("Yes, that works.", "confirm")
        if outcome == "refusal":
            return Utterance(
                "No, that doesn't work for me. I'll think about it. Bye.",
                "refuse",
                ends_call="hangup",
            )
        if outcome == "callback":
            return self._ask_callback()
        return Utterance("Actually, can I just talk to a person?", "ask_transfer")

    def _ask_callback(self) -> Utterance:
        phone = self.fact("phone")
        if phone and phone[0] not in self._s.given:
            self._s.given.add(phone[0])
            return Utterance(f"Can someone call me back instead? My number is {phone[1]}.", "ask_callback")
        return Utterance("Can someone just call me back later?", "ask_callback")

    def _asked_fact(self, said: str) -> str:
        for kind in ("name", "phone", "date", "reason"):
            if _has(said, _FACT_WORDS[kind]):
                return kind
        return ""

    def _give(self, kind: str, rng: random.Random) -> Utterance:
        if self.persona.type == "confused" and rng.random() < 0.12 * self.persona.difficulty:
            return Utterance("Sorry, what do you need from me?", "clarify")
        fact = self.fact(kind)
        if fact is None:
            return Utterance("I don't have that with me, sorry.", "no_fact")
        self._s.given.add(fact[0])
        text = _phrase(kind, fact[1])
        if self.persona.type == "confused" and rng.random() < 0.5:
            other = self._ungiven_fact(exclude=kind)
            if other is not None:
                self._s.given.add(other[0])
                text = f"Oh, and {other[1]}. Wait, you asked... {text}"
        if self.persona.type == "busy":
            text = fact[1] + "."
        return Utterance(text, "give_fact")

    def _ungiven_fact(self, *, exclude: str) -> tuple[str, str] | None:
        for kind in ("name", "phone", "date"):
            fact = self.fact(kind)
            if kind != exclude and fact and fact[0] not in self._s.given:
                return fact
        return None

    def _push_goal(self, rng: random.Random) -> Utterance:
        self._s.pushed += 1
        outcome = self.persona.outcome
        if outcome == "transfer":
            return Utterance("Can I speak to a real person, please?", "ask_transfer")
        if outcome == "callback":
            return self._ask_callback()
        nxt = self._ungiven_fact(exclude="")
        if nxt is not None:
            self._s.given.add(nxt[0])
            kind = next(k for k in ("name", "phone", "date") if self.fact(k) == nxt)
            return Utterance(_phrase(kind, nxt[1]), "give_fact")
        if outcome == "refusal" and self._s.pushed > 1:
            return Utterance("You know what, never mind. Bye.", "refuse", ends_call="hangup")
        return Utterance(f"So, can you help me {self.persona.goal.rstrip('.')}?", "restate_goal")

    # -- personality ---------------------------------------------------------------

    def _flavour(self, out: Utterance, rng: random.Random) -> Utterance:
        if out.ends_call:
            return out
        kind, level = self.persona.type, self.persona.difficulty
        text = out.text
        if kind == "aggressive" and rng.random() < 0.25 + 0.1 * level:
            text = f"{rng.choice(_COMPLAINTS)} {text}"
            if rng.random() < 0.1 * level:
                text = f"{text} {rng.choice(_THREATS)}"
        if kind == "chatty" and rng.random() < 0.12 * level:
            text = f"{text} {rng.choice(_DIGRESSIONS)}"
        if kind in ("confused", "distrustful", "chatty") and rng.random() < 0.05 * level:
            text = f"{text} {rng.choice(_WORRIES)}"
        if kind in ("busy", "aggressive") and self._s.turn > 1 and rng.random() < 0.06 * level:
            text = f"Sorry, wait — {text}"
        return Utterance(text, out.intent, out.ends_call)


def _phrase(kind: str, value: str) -> str:
    if kind == "name":
        return f"My name is {value}."
    if kind == "phone":
        return f"My number is {value}."
    if kind == "date":
        return f"{value} would be best."
    return f"It's about {value}."
