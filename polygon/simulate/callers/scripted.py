"""The scripted caller: the offline, deterministic simulated caller (``scripted/caller``).

It plays a persona like a person on the phone — short sentences, interruptions,
digressions — and differently per type, in any domain: it answers the fact the agent asks
for by matching the question to its facts' keys, shapes and goal
(:mod:`~polygon.simulate.callers.understanding`), says it does not know in its type's
manner when nothing matches, corrects a fact read back wrong (a distrustful caller insists,
a confused one may give in — recorded as its choice), and recognises its outcome from what
the agent says, not from one business's words. It is an honest baseline, not a model:
transcripts say so.

Randomness comes from (conversation seed, turn) alone, so a call replays exactly.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field

from polygon.events.families import PersonaSnapshot
from polygon.similarity import sentences
from polygon.simulate.callers import Utterance
from polygon.simulate.callers.packs import caller_pack
from polygon.simulate.callers.understanding import (
    Misheard,
    asked,
    asks_what_is_wanted,
    content,
    in_goal,
    is_offer,
    is_question,
    misheard,
    settled,
)

SCRIPTED_CALLER = "scripted/caller"


@dataclass
class _State:
    turn: int = 0
    given: set[str] = field(default_factory=set)
    reassured: bool = False
    last: str = ""
    last_intent: str = ""
    pushed: int = 0
    corrected: dict[str, int] = field(default_factory=dict)
    """Fact key → how often the caller has corrected the agent on it."""


_INTRODUCES = ("this is", "my name is", "speaking", "calling from", "you've reached", "you have reached")


def _has(text: str, phrases: tuple[str, ...]) -> bool:
    return any(w in text for w in phrases)


class ScriptedCaller:
    """A deterministic caller for one conversation."""

    def __init__(self, persona: PersonaSnapshot, seed: int) -> None:
        self.persona = persona
        self.seed = seed
        self.pack = caller_pack(persona.language)
        self._s = _State()

    def _rng(self) -> random.Random:
        data = f"caller\x00{self.seed}\x00{self._s.turn}".encode()
        return random.Random(int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big"))

    def fact_named(self, *names: str) -> tuple[str, str] | None:
        """The first fact whose key contains one of ``names`` (``name``, ``phone``), if any."""
        for key in sorted(self.persona.facts):
            if any(n in key.lower() for n in names):
                return key, self.persona.facts[key]
        return None

    def next(self, agent_text: str | None) -> Utterance:
        """The caller's next turn, given what the agent last said (None at the start)."""
        self._s.turn += 1
        rng = self._rng()
        out = self._opening() if agent_text is None else self._respond(agent_text, rng)
        out = self._flavour(out, rng)
        self._s.last, self._s.last_intent = out.text, out.intent
        return out

    # -- opening ---------------------------------------------------------------------

    def _opening(self) -> Utterance:
        goal = self.persona.goal.rstrip(".")
        kind = self.persona.type
        name = self.fact_named("name")
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

    def _respond(self, agent_text: str, rng: random.Random) -> Utterance:
        said = agent_text.lower()
        return self._settle(agent_text, said, rng) or self._answer(agent_text, said, rng)

    def _settle(self, agent_text: str, said: str, rng: random.Random) -> Utterance | None:
        """A wrong read-back to correct, or a reason to end the call; else None."""
        wrong = misheard(agent_text, self.persona.facts, self.pack)
        if wrong:
            return self._correct(wrong[0], rng)
        ended = self._outcome_reached(agent_text, said)
        if ended is not None:
            return ended
        if _has(said, ("goodbye", "bye", "have a nice day", "have a great day")):
            return Utterance("Okay. Bye.", "goodbye", ends_call="done")
        limit = 10 - self.persona.difficulty if self.persona.type == "busy" else 18 - self.persona.difficulty
        if self._s.turn > limit:
            return Utterance("I don't have time for this. Bye.", "hangup", ends_call="hangup")
        return None

    def _answer(self, agent_text: str, said: str, rng: random.Random) -> Utterance:
        """What was asked: a fact, a repeat, an offer's answer, the goal, or "I don't know"."""
        wanted, named = asked(agent_text, self.persona.facts, self.persona.goal, self.pack)
        if self.persona.type == "distrustful" and not self._s.reassured:
            if _has(said, _INTRODUCES):
                self._s.reassured = True
            elif wanted:
                return Utterance("Why do you need that? Who is this?", "challenge")
        offer = is_offer(agent_text, self.pack)
        if wanted and named and not self._pursuing(wanted):
            return self._give(wanted, rng)  # "I didn't catch your name": the name, not a repeat
        if _has(said, ("repeat", "say that again", "didn't catch", "did not catch", "pardon", "sorry?")):
            return Utterance(self._s.last or "I said I need help.", "repeat")
        if self._s.last_intent == "correct" and is_question(agent_text, self.pack) and not wanted:
            return Utterance(self._s.last, "repeat")  # "what should I correct?": say it again
        if wanted and not offer and not self._pursuing(wanted):
            return self._give(wanted, rng)
        if offer:
            return self._answer_offer()
        if asks_what_is_wanted(agent_text, self.pack):
            return Utterance(f"I'd like to {self.persona.goal.rstrip('.')}.", "restate_goal")
        questions = " ".join(s for s in sentences(said) if "?" in s)
        if questions and _asks_for_something(questions):
            return Utterance(self.pack.unknown.get(self.persona.type, "Sorry, I don't have that."), "no_fact")
        return self._push_goal()

    def _correct(self, wrong: Misheard, rng: random.Random) -> Utterance:
        """The agent read a fact back wrong: say so, insist, or (a confused caller) give in."""
        times = self._s.corrected.get(wrong.key, 0)
        self._s.corrected[wrong.key] = times + 1
        fill = {"right": wrong.right, "said": wrong.said}
        if times and self.persona.type == "confused" and rng.random() < 0.5:
            return Utterance(self.pack.correct["accept"].format(**fill), "accept_wrong")
        template = "insist" if times or self.persona.type == "distrustful" else "first"
        return Utterance(self.pack.correct[template].format(**fill), "correct")

    def _pursuing(self, asked: str) -> bool:
        """Callback and transfer callers stop answering questions after a while."""
        key = asked.lower()
        if self.persona.outcome not in ("callback", "transfer") or "name" in key:
            return False
        if self.persona.outcome == "callback" and ("phone" in key or "number" in key):
            return False
        return self._s.turn >= 3

    def _outcome_reached(self, agent_text: str, said: str) -> Utterance | None:
        outcome = self.persona.outcome
        if outcome == "success" and settled(agent_text, self.persona.goal, self.persona.facts, self.pack):
            return Utterance("Great, thank you. Bye!", "goodbye", ends_call="done")
        if outcome == "callback" and _has(
            said, ("call you back", "calls you back", "callback is", "call back")
        ):
            return Utterance("Perfect, I'll wait for the call. Bye.", "goodbye", ends_call="done")
        if outcome == "transfer" and _has(said, ("transfer", "connect you", "put you through")):
            return Utterance("Yes, please, put me through.", "accept_transfer")
        if (
            outcome == "refusal"
            and _has(said, self.pack.cannot)
            and content(said, self.pack) & content(self.persona.goal, self.pack)
        ):
            return Utterance("Oh, that's a pity. Never mind then. Bye.", "refuse", ends_call="hangup")
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
        phone = self.fact_named("phone", "number")
        if phone and phone[0] not in self._s.given:
            self._s.given.add(phone[0])
            return Utterance(f"Can someone call me back instead? My number is {phone[1]}.", "ask_callback")
        return Utterance("Can someone just call me back later?", "ask_callback")

    def _give(self, key: str, rng: random.Random) -> Utterance:
        if self.persona.type == "confused" and rng.random() < 0.12 * self.persona.difficulty:
            return Utterance("Sorry, what do you need from me?", "clarify")
        self._s.given.add(key)
        value = self.persona.facts[key]
        text = self._phrase(key, value)
        if self.persona.type == "confused" and rng.random() < 0.5:
            other = self._ungiven()
            if other is not None:
                self._s.given.add(other)
                text = f"Oh, and {self.persona.facts[other]}. Wait, you asked... {text}"
        if self.persona.type == "busy":
            text = value + "."
        return Utterance(text, "give_fact")

    def _phrase(self, key: str, value: str) -> str:
        """A fact as a caller says it: "My name is …", "I'd like …" for what the goal names."""
        label = " ".join(w for w in re.split(r"[\W_]+", key.lower()) if w)
        if "name" in label:
            return f"My name is {value}."
        if "phone" in label:
            return f"My number is {value}."
        if in_goal(value, self.persona.goal, self.pack):
            return f"I'd like {value}."
        return f"My {label} is {value}." if label else f"{value}."

    def _ungiven(self) -> str | None:
        """The next fact the caller has not given yet (its name first)."""
        keys = sorted(self.persona.facts, key=lambda k: ("name" not in k.lower(), k))
        return next((k for k in keys if k not in self._s.given), None)

    def _push_goal(self) -> Utterance:
        self._s.pushed += 1
        outcome = self.persona.outcome
        if outcome == "transfer":
            return Utterance("Can I speak to a real person, please?", "ask_transfer")
        if outcome == "callback":
            return self._ask_callback()
        nxt = self._ungiven()
        if nxt is not None:
            self._s.given.add(nxt)
            return Utterance(self._phrase(nxt, self.persona.facts[nxt]), "give_fact")
        if outcome == "refusal" and self._s.pushed > 1:
            return Utterance("You know what, never mind. Bye.", "refuse", ends_call="hangup")
        return Utterance(f"So, can you help me {self.persona.goal.rstrip('.')}?", "restate_goal")

    # -- personality ---------------------------------------------------------------

    def _flavour(self, out: Utterance, rng: random.Random) -> Utterance:
        if out.ends_call or out.intent in ("correct", "accept_wrong"):
            return out
        kind, level, pack = self.persona.type, self.persona.difficulty, self.pack
        text = out.text
        if kind == "aggressive" and rng.random() < 0.25 + 0.1 * level:
            text = f"{rng.choice(pack.complaints)} {text}"
            if rng.random() < 0.1 * level:
                text = f"{text} {rng.choice(pack.threats)}"
        if kind == "chatty" and rng.random() < 0.12 * level:
            text = f"{text} {rng.choice(pack.digressions)}"
        if kind in ("confused", "distrustful", "chatty") and rng.random() < 0.05 * level:
            text = f"{text} {rng.choice(pack.worries)}"
        if kind in ("busy", "aggressive") and self._s.turn > 1 and rng.random() < 0.06 * level:
            text = f"Sorry, wait — {text}"
        return Utterance(text, out.intent, out.ends_call)


def _asks_for_something(said: str) -> bool:
    """A question that asks the caller for information (not "anything else?")."""
    return _has(
        said, ("your", "what", "which", "where", "when", "who", "how many", "can i have", "may i have")
    )
