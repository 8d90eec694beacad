"""The scripted caller: the offline, deterministic simulated caller (``scripted/caller``).

It plays a persona like a person on the phone — short sentences, interruptions,
digressions — differently per type, in any domain and in the persona's language (``en``,
``hr``, ``ru``; others fall back to English). Each agent turn is first read as dialogue
acts (:func:`~polygon.simulate.callers.understanding.read_turn`), then the caller decides:

* a value read back wrong (compared with a fact of the same kind) is corrected; a caller
  insists at most as often as its type allows, then gives up in its manner (its intent
  ``give_up:<reason>`` records why);
* the goal is done only on an outcome report that settles it — never on a greeting or a
  question — and once done it is never asked for again;
* a question gets the fact it asks for, matched by the key's concepts (abbreviations and
  synonyms), the value's shape and what the question names; a key is never spoken, a
  fact is said through the language's sentences;
* offers, confirmation requests, refusals, transfers and closings get their answers;
* the confused caller's confusion is bounded by its difficulty.

It is an honest baseline, not a model: transcripts say so. Randomness comes from
(conversation seed, turn) alone, so a call replays exactly.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from polygon.events import PersonaSnapshot
from polygon.languages import Language, Turn, caller_language
from polygon.similarity import word_tuple
from polygon.simulate.callers import Utterance
from polygon.simulate.callers.understanding import (
    Misheard,
    asked,
    asked_about,
    asked_each,
    asks_something,
    asks_what_wanted,
    heard_turn,
    in_first_person,
    in_goal,
    key_concepts,
    key_label,
    misheard,
    names_the_caller,
    refuses_goal,
    respelled,
    settled,
    spelling_map,
)
from polygon.simulate.seeded import seeded

SCRIPTED_CALLER = "scripted/caller"
INSISTS = {"cooperative": 2, "busy": 1, "distrustful": 3, "confused": 2, "aggressive": 2, "chatty": 2}
"""How many times a caller type corrects the same wrong value before it gives up."""
RESTATES = 4
"""How many times a caller asks for its goal again with no progress before it gives up."""
_ANSWER_WORDS = 4
"""A statement of so many words answers a distrustful caller's challenge ("Sorry." does not)."""
_SMALL_NUMBER = re.compile(r"^\d{1,2}$")
_CLOCK = re.compile(r"^\d{1,2}[:.]\d{2}$")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_T = TypeVar("_T")
_EIGHT_BYTES = hashlib.blake2b(digest_size=8)
"""An empty hasher of 8-byte digests: each turn's draws are seeded from a copy of it."""


@dataclass
class _State:
    turn: int = 0
    given: set[str] = field(default_factory=set)
    reassured: bool = False
    last: str = ""
    last_intent: str = ""
    stated: bool = False
    restated: int = 0
    volunteered: int = 0
    refused: int = 0
    done: bool = False
    confusions: int = 0
    corrected: dict[str, int] = field(default_factory=dict)
    """Fact key → how often the caller has corrected the agent on it."""
    unknown: frozenset[str] = frozenset()
    """What the last question the caller could not answer asked about (:func:`asked_about`)."""
    cut: bool = False
    """The caller cut in on the agent's last reply: it heard only its first words."""


class _Dice:
    """One turn's random draws: seeded from (conversation seed, turn) at the first draw.

    Most turns of most callers draw nothing (a cooperative caller never does), and seeding a
    generator costs more than the rest of such a turn's choice; the draws are the same either way.
    """

    def __init__(self, key: str) -> None:
        self._key = key
        self._rng: random.Random | None = None

    def _drawn(self) -> random.Random:
        if self._rng is None:
            hashed = _EIGHT_BYTES.copy()  # a copy costs less than a new blake2b (its arguments parsed)
            hashed.update(self._key.encode())
            self._rng = seeded(int.from_bytes(hashed.digest(), "big"))
        return self._rng

    def random(self) -> float:
        """As :meth:`random.Random.random`."""
        return self._drawn().random()

    def choice(self, options: Sequence[_T]) -> _T:
        """As :meth:`random.Random.choice`."""
        return self._drawn().choice(options)


class ScriptedCaller:
    """A deterministic caller for one conversation."""

    def __init__(self, persona: PersonaSnapshot, seed: int) -> None:
        self.persona = persona
        self.seed = seed
        self.pack: Language = caller_language(persona.language)
        self.manner = self.pack.manner(persona.type)
        self.goal = persona.goal.strip().rstrip(".")
        self._goal_said = in_first_person(self.goal, self.pack)
        """The goal as the caller says it: in its own words, the persona's third person made "I"."""
        self._s = _State()
        own = word_tuple(" ".join((self.goal, *persona.facts.values())))
        self._spelled = spelling_map(self.pack, own)
        """The agent's words as written without the language's letters ("fuer") → as spelled."""

    def _rng(self) -> _Dice:
        return _Dice(f"caller\x00{self.seed}\x00{self._s.turn}")

    def fact_named(self, *concepts: str) -> tuple[str, str] | None:
        """The first fact about one of ``concepts`` (``name``, ``phone``), if any."""
        for key in sorted(self.persona.facts):
            found = key_concepts(key, self.pack) & set(concepts)
            if found == {"name"} and not names_the_caller(key, self.pack):
                continue  # "pet_name" is not who is calling
            if found:
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

    def heard_cut(self) -> None:
        """The next agent text is a fragment: the caller cut in (a phone barge-in)."""
        self._s.cut = True

    def _say(self, template: str, **fill: str) -> str:
        return template.format(goal=self._goal_said, **fill)

    # -- opening ---------------------------------------------------------------------

    def _opening(self) -> Utterance:
        name = self.fact_named("name")
        if self.persona.type == "distrustful":
            return Utterance(self.manner.opening, "challenge")
        self._s.stated = True
        if self.persona.type == "cooperative" and name:
            self._s.given.add(name[0])
            return Utterance(self._say(self.pack.say.open_named, name=name[1]), "state_goal")
        return Utterance(self._say(self.manner.opening), "state_goal")

    # -- responding ------------------------------------------------------------------

    def _respond(self, agent_text: str, rng: _Dice) -> Utterance:
        agent_text = respelled(agent_text, self._spelled)
        turn = heard_turn(agent_text, self.pack)
        cut, self._s.cut = self._s.cut, False
        settled = self._settle(agent_text, turn, rng)
        if settled is not None:
            return settled
        if cut and not self._wanted(turn):
            # Half a question ("Could you tell me your…"): a person asks what was said; it does
            # not claim to lack a fact it holds, nor answer a question it never heard.
            return Utterance(self.manner.clarify, "pardon")
        return self._answer(turn, rng)

    def _wanted(self, turn: Turn) -> str:
        """The fact key the agent's turn asks for, if it names one the caller holds."""
        asking = " ".join(turn.of("question", "wants", "repeat"))
        return asked(asking, self.persona.facts, self.goal, self.pack)[0] if asking else ""

    def _open_wanted(self, turn: Turn) -> str:
        """The fact key an open question of the turn ("which date…?") asks for, if it names one held."""
        wh = self.pack.understand.wh_words
        open_asks = [
            s.text for s in turn.sentences if s.act in ("question", "wants") and set(word_tuple(s.text)) & wh
        ]
        return asked(" ".join(open_asks), self.persona.facts, self.goal, self.pack)[0] if open_asks else ""

    def _settle(self, agent_text: str, turn: Turn, rng: _Dice) -> Utterance | None:
        """A wrong read-back to correct, or a reason to end the call; else None."""
        # a value beside an open question for that very fact is the current one, not the fact read
        # back: "Your parcel is due on 2026-12-08. Which date would you like?" asks for the new
        # date ("18:00 — is that the time you wanted?" still gets the correction)
        asking = self._open_wanted(turn)
        wrong = [w for w in misheard(agent_text, self.persona.facts, self.pack) if w.key != asking]
        if wrong:
            return self._correct(wrong[0], rng)
        ended = self._outcome_reached(turn, asking)
        if ended is not None:
            return ended
        asks = turn.of("question", "offer", "wants", "confirm", "repeat")
        if "closing" in turn.acts and not asks:
            return Utterance(self.pack.say.bye, "goodbye", ends_call="done")
        if "instruction" in turn.acts and not asks:
            # "немедленно сообщите проводнику …": told what to do, the caller goes to do it
            return Utterance(self.pack.say.bye, "goodbye", ends_call="done")
        kind, level = self.persona.type, self.persona.difficulty
        limit = 10 - level if kind == "busy" else 18 - level
        if self._s.turn > limit:
            return Utterance(self.pack.say.out_of_time, "hangup", ends_call="hangup")
        return None

    def _outcome_reached(self, turn: Turn, asking: str) -> Utterance | None:
        """``asking``: the fact an open question of the turn asks for (:meth:`_open_wanted`).

        A report the agent goes on to ask a fact for is not done yet: "delivery is planned for
        Thursday at <your address>. Which address shall I redirect it to?" (a German parcel line).
        """
        outcome, say = self.persona.outcome, self.pack.say
        if outcome == "success" and not asking and settled(turn, self.goal, self.persona.facts, self.pack):
            self._s.done = True
            return Utterance(say.done_bye, "goodbye", ends_call="done")
        if outcome == "callback" and "callback" in turn.acts:
            return Utterance(say.callback_done, "goodbye", ends_call="done")
        if outcome == "transfer" and "transfer" in turn.acts:
            return Utterance(say.accept_transfer, "accept_transfer")
        if "refusal" in turn.acts and refuses_goal(turn, self.goal, self.pack):
            if outcome == "refusal":
                return Utterance(say.refused_bye, "refuse", ends_call="hangup")
            self._s.refused += 1
            if self._s.refused > INSISTS.get(self.persona.type, 2):
                return self._give_up("refused")
        return None

    def _answer(self, turn: Turn, rng: _Dice) -> Utterance:
        """What was asked: a fact, a repeat, an offer's answer, the goal, or "I don't know"."""
        if self.persona.type == "distrustful" and self._reassures(turn):
            self._s.reassured = True
        asking = " ".join(turn.of("question", "wants", "repeat"))
        wanted, named = asked(asking, self.persona.facts, self.goal, self.pack) if asking else ("", False)
        if "wants" in turn.acts and not self._s.stated and not turn.of("question", "repeat") and not named:
            # "How can I help — a booking, or your pet's records?": the goal first; but "What time
            # would you like to come?" names a fact held and gets it, as it would after the goal
            self._s.stated = True
            return Utterance(self._say(self.pack.say.restate_goal), "restate_goal")
        if self.persona.type == "distrustful" and not self._s.reassured and wanted and named:
            return Utterance(self.manner.challenge, "challenge")
        acts = turn.acts
        if wanted and self._pursuing(wanted):
            return self._push_goal()  # a caller after a person or a callback asks for it instead
        if wanted and named:
            # "I didn't catch your name": the name, not a repeat; "номер брони и фамилию": both
            first, *more = asked_each(asking, wanted, self.persona.facts, self.goal, self.pack)
            return self._give(first, rng, *more)
        if "repeat" in acts:
            return Utterance(self._s.last or self._say(self.pack.say.restate_goal), "repeat")
        if self._s.last_intent == "correct" and turn.of("question", "confirm") and not wanted:
            return self._insist()  # "anything else?" after a correction: say it again
        if "wants" in acts:
            if self._s.done:
                return Utterance(self.pack.say.already_done, "goodbye", ends_call="done")
            if wanted:
                return self._give(wanted, rng)  # "Which pizza would you like?": the one the goal names
            self._s.stated = True
            return Utterance(self._say(self.pack.say.restate_goal), "restate_goal")
        if "confirm" in acts:
            return Utterance(self.pack.say.confirm_yes, "confirm")
        if "offer" in acts:
            return self._answer_offer()
        if wanted:
            return self._give(wanted, rng)
        return self._unknown(turn, asking)

    def _reassures(self, turn: Turn) -> bool:
        """The agent says who it is, or answers the caller's "Why do you need that? Who is this?".

        An answer is a statement beside the question asked again ("Das brauche ich, um Sie zu
        identifizieren."); an agent that only asks again leaves the caller distrustful.
        """
        said = " ".join(s.text.lower() for s in turn.sentences)
        if any(p in said for p in self.pack.acts.introduces):
            return True
        if self._s.last_intent != "challenge" or self._s.turn <= 2:
            return False  # the opening's "Who am I speaking with?" is answered by an introduction
        return any(len(word_tuple(s)) >= _ANSWER_WORDS for s in turn.of("filler", "greeting", "read_back"))

    def _unknown(self, turn: Turn, asking: str) -> Utterance:
        """A question about nothing the caller holds: what it came for, or "I don't know".

        Each new question gets its own "I don't know" — never a fact nobody asked for
        ("What does the meter show?" is not answered with a name); the same thing asked
        again at once, in any words, gets the caller pursuing its goal.
        """
        questions = turn.of("question")
        if any(asks_what_wanted(q, self.pack) for q in questions):
            if self._s.done:
                return Utterance(self.pack.say.already_done, "goodbye", ends_call="done")
            self._s.stated = True  # "Koji lijek trebate?": the medicine is in the goal, not the facts
            return Utterance(self._say(self.pack.say.restate_goal), "restate_goal")
        asked_now = asked_about(asking, self.pack)
        new = self._s.last_intent != "no_fact" or not asked_now & self._s.unknown
        if new and any(asks_something(q, self.pack) for q in questions):
            self._s.unknown = asked_now
            return Utterance(self.manner.unknown, "no_fact")
        return self._push_goal()

    def _correct(self, wrong: Misheard, rng: _Dice) -> Utterance:
        """The agent read a fact back wrong: say so, insist, give in (confused) or give up."""
        times = self._s.corrected.get(wrong.key, 0)
        self._s.corrected[wrong.key] = times + 1
        fill = {"right": spoken_value(wrong.right, self.pack), "said": wrong.said}
        say = self.pack.say
        if times and self.persona.type == "confused" and rng.random() < 0.5:
            return Utterance(say.correct_accept.format(**fill), "accept_wrong")
        if times >= INSISTS.get(self.persona.type, 2):
            return self._give_up("correction_ignored")
        template = say.correct_insist if times or self.persona.type == "distrustful" else say.correct_first
        return Utterance(template.format(**fill), "correct")

    def _insist(self) -> Utterance:
        """The correction again (the agent went on as if not told), within the type's bound."""
        key = max(self._s.corrected, key=lambda k: self._s.corrected[k])
        if self._s.corrected[key] >= INSISTS.get(self.persona.type, 2):
            return self._give_up("correction_ignored")
        self._s.corrected[key] += 1
        return Utterance(self._s.last, "correct")

    def _give_up(self, reason: str) -> Utterance:
        """The caller gives up in its manner; the intent records why."""
        return Utterance(self.manner.give_up, f"give_up:{reason}", ends_call="hangup")

    def _pursuing(self, key: str) -> bool:
        """Callback and transfer callers stop answering questions after a while."""
        concepts = key_concepts(key, self.pack)
        if self.persona.outcome not in ("callback", "transfer") or "name" in concepts:
            return False
        if self.persona.outcome == "callback" and "phone" in concepts:
            return False
        return self._s.turn >= 3

    def _answer_offer(self) -> Utterance:
        outcome, say = self.persona.outcome, self.pack.say
        if outcome == "success":
            return Utterance(say.offer_yes, "confirm")
        if outcome == "refusal":
            return Utterance(say.offer_no, "refuse", ends_call="hangup")
        if outcome == "callback":
            return self._ask_callback()
        return Utterance(say.ask_transfer, "ask_transfer")

    def _ask_callback(self) -> Utterance:
        phone = self.fact_named("phone")
        if phone and phone[0] not in self._s.given:
            self._s.given.add(phone[0])
            return Utterance(self.pack.say.callback_with_number.format(value=phone[1]), "ask_callback")
        return Utterance(self.pack.say.callback, "ask_callback")

    def _give(self, key: str, rng: _Dice, *more: str) -> Utterance:
        """The fact asked for — and ``more`` facts the same turn asked for beside it, in order."""
        kind, level = self.persona.type, self.persona.difficulty
        if (
            kind == "confused"
            and self._s.last_intent != "clarify"
            and self._s.confusions < max(1, level // 2)
            and rng.random() < 0.12 * level
        ):
            self._s.confusions += 1  # bounded: at most difficulty / 2 times, never twice running
            return Utterance(self.manner.clarify, "clarify")
        if more:
            return self._give_each((key, *more))
        self._s.given.add(key)
        value = self.persona.facts[key]
        text = self.phrase(key, value)
        if kind == "confused" and rng.random() < 0.5:
            other = self._ungiven()
            if other is not None:
                self._s.given.add(other)
                other_said = spoken_value(self.persona.facts[other], self.pack)
                text = self.pack.say.also.format(other=other_said, text=text)
        if kind == "busy":
            text = spoken_value(value, self.pack) + "."
        return Utterance(text, "give_fact")

    def _give_each(self, keys: tuple[str, ...]) -> Utterance:
        """Every fact one turn asked for ("номер брони и фамилию"): a person answers both."""
        self._s.given.update(keys)
        facts = self.persona.facts
        if self.persona.type == "busy":
            return Utterance(", ".join(spoken_value(facts[k], self.pack) for k in keys) + ".", "give_fact")
        return Utterance(" ".join(self.phrase(k, facts[k]) for k in keys), "give_fact")

    def phrase(self, key: str, value: str) -> str:
        """A fact as a caller says it in its language; the key itself is never spoken."""
        say = self.pack.say
        value = spoken_value(value, self.pack)
        concepts = key_concepts(key, self.pack)
        label = spoken_label(key, self.pack)
        if "name" in concepts and names_the_caller(key, self.pack) and not self._surname(label):
            return say.fact_name.format(value=value)  # not "pet_name": "My name is Rocky" is wrong
        for concept, template in (
            ("last4", say.fact_last4),  # first: "phone_last4" is four digits, not the whole number
            ("phone", say.fact_phone),
            ("email", say.fact_email),
            ("birth", say.fact_birth),
        ):
            if concept in concepts:
                if concept == "last4" and label and label != spoken_label("card_last4", self.pack):
                    # the account's or the phone's last digits: "The card ends in …" would be wrong
                    return (say.fact_last4_of or template).format(value=value)
                return template.format(value=value)
        if "time" in concepts and _CLOCK.match(value):
            return say.fact_time.format(value=value)  # "At 18:30, please.", not "My time is 18:30."
        if in_goal(value, self.goal, self.pack):
            return say.fact_want.format(value=value, Value=value[:1].upper() + value[1:])
        if "address" in concepts and label == self.pack.labels.get("address", label):
            return say.fact_address.format(value=value)
        if not label:
            return f"{value}."
        if _SMALL_NUMBER.match(value) and " " not in label:
            return say.fact_count.format(value=value, label=label, Label=label[:1].upper() + label[1:])
        return say.fact_labeled.format(value=value, label=label, Label=label[:1].upper() + label[1:])

    def _surname(self, label: str) -> bool:
        """The key is said as the pack's surname ("Фамилия — Смирнова.", not "Меня зовут Смирнова.")."""
        surname = self.pack.labels.get("surname", "")
        return bool(surname) and label.lower() == surname.lower()

    def _ungiven(self) -> str | None:
        """The next fact the caller has not given yet (its name first)."""
        keys = sorted(self.persona.facts, key=lambda k: ("name" not in key_concepts(k, self.pack), k))
        return next((k for k in keys if k not in self._s.given), None)

    def _push_goal(self) -> Utterance:
        outcome, say = self.persona.outcome, self.pack.say
        if self._s.done:
            return Utterance(say.already_done, "goodbye", ends_call="done")
        if outcome == "transfer":
            return Utterance(say.ask_person, "ask_transfer")
        if outcome == "callback":
            return self._ask_callback()
        nxt = self._ungiven()
        if nxt is not None and self._s.stated and self._s.volunteered < 2:
            self._s.given.add(nxt)
            self._s.volunteered += 1
            return Utterance(self.phrase(nxt, self.persona.facts[nxt]), "give_fact")
        self._s.restated += 1
        if outcome == "refusal" and self._s.restated > 1:
            return Utterance(say.never_mind, "refuse", ends_call="hangup")
        if self._s.restated > RESTATES:
            return self._give_up("no_progress")
        if not self._s.stated:
            self._s.stated = True
            return Utterance(self._say(say.restate_goal), "restate_goal")
        return Utterance(self._say(say.push_goal), "restate_goal")

    # -- personality ---------------------------------------------------------------

    def _flavour(self, out: Utterance, rng: _Dice) -> Utterance:
        if out.ends_call or out.intent in ("correct", "accept_wrong"):
            return out
        kind, level, talk = self.persona.type, self.persona.difficulty, self.pack.small_talk
        text = out.text
        if kind == "aggressive" and rng.random() < 0.25 + 0.1 * level:
            text = f"{rng.choice(talk.complaints)} {text}"
            if rng.random() < 0.1 * level:
                text = f"{text} {rng.choice(talk.threats)}"
        if kind == "chatty" and rng.random() < 0.12 * level:
            text = f"{text} {rng.choice(talk.digressions)}"
        if kind in ("confused", "distrustful", "chatty") and rng.random() < 0.05 * level:
            text = f"{text} {rng.choice(talk.worries)}"
        if kind in ("busy", "aggressive") and self._s.turn > 1 and rng.random() < 0.06 * level:
            text = self.pack.say.interrupt.format(text=text)
        return out if text is out.text else Utterance(text, out.intent, out.ends_call)


def spoken_value(value: str, pack: Language) -> str:
    """A fact as the caller says it: an ISO date in its language's way ("12. 4. 1975"), else as written.

    YAML reads an unquoted ``1975-04-12`` as a date, and a suite author writes one so; no
    caller says it so.
    """
    m = _ISO_DATE.match(value.strip())
    if m is None:
        return value
    year, mm, dd = m.groups()
    return pack.say.date.format(year=year, month=str(int(mm)), day=str(int(dd)), mm=mm, dd=dd)


def spoken_label(key: str, pack: Language) -> str:
    """How a fact key is said: its words, abbreviations spelled out ("policy_no" → "policy number").

    In the pack's language only (:func:`~polygon.simulate.callers.understanding.key_label`).
    """
    return key_label(key, pack)
