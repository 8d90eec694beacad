"""Two versions of a dental clinic receptionist, as plain Python agents.

v1 is a careful receptionist. v2 is the "improved" prompt that shipped with realistic
regressions: it cannot read numbers spoken digit by digit and loops on "could you repeat
that?", books without checking the calendar (double-booking), ignores tool errors and
invalid arguments, and promises what clinic policy forbids.

Both are deterministic rule-based stand-ins for a model-driven agent, so the bundled
example runs offline; plug a real agent in with ``python:``, ``http://`` or ``model:``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

_DIGIT_WORDS = {
    "zero": "0",
    "oh": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")
_HUMAN = ("person", "human", "someone real", "real person", "manager", "talk to a")
_CALLBACK = ("call me back", "callback", "call back", "me back")
_WORRY = ("hurt", "free", "painless", "promise")
_CORRECTION = re.compile(r"\bno\b\W+([^,]+),\s*not\s+([\w' :-]+)")


def _has(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


@dataclass
class _Booking:
    name: str = ""
    phone: str = ""
    day: str = ""
    slot: str = ""
    offered: str = ""
    booked: bool = False
    greeted: bool = False
    repeats: int = 0
    calls: int = 0
    asked: str = ""
    worries: int = 0


class Receptionist:
    """v1: collects name, phone and day, checks the calendar, books, confirms.

    Parameters (``params`` in the suite, varied by ``examples/clinic/sweep.yaml``):
    ``patience`` (misunderstandings before offering a colleague, default 2),
    ``check_calendar`` (look for a free slot before booking, default true) and
    ``reassure`` (``policy``: no promises, the default; ``promise``: what policy forbids).
    """

    version = "v1"
    greeting = "Smile Dental, this is Mia. "

    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.prompt = prompt
        self.params = params or {}
        self.patience = int(self.params.get("patience", 2))
        self.check_calendar = bool(self.params.get("check_calendar", True))
        self.promises = self.params.get("reassure", "policy") == "promise"
        self.b = _Booking()

    # -- the step protocol ------------------------------------------------------------

    def step(self, req: AgentStep) -> AgentReply:
        """One step: react to tool results first, else to what was heard."""
        if req.tool_results:
            return self._after_tools(req)
        text = req.heard.lower()
        reply = self._react(text)
        if isinstance(reply, AgentReply):
            return reply
        return self._say(reply)

    def _say(self, text: str, end: str = "") -> AgentReply:
        if not self.b.greeted:
            self.b.greeted = True
            text = self.greeting + text
        return AgentReply(reply=text, end=end)

    def _call(self, tool: str, **args: Any) -> AgentReply:
        self.b.calls += 1
        return AgentReply(tool_calls=[ToolCall(id=f"call-{self.b.calls}", name=tool, arguments=args)])

    # -- understanding ------------------------------------------------------------------

    def _react(self, text: str) -> str | AgentReply:
        if _has(text, ("who am i speaking", "who is this", "who are you", "why do you need")):
            return "This is Smile Dental clinic, Mia at reception. I need a few details to book you."
        if _has(text, _HUMAN):
            return self._call("transfer_call", reason="caller asked for a person")
        if _has(text, _CALLBACK):
            self._learn(text)
            if not self.b.phone:
                return "Of course. What number should we call you back on?"
            return self._call("create_callback", phone=self.b.phone, name=self.b.name or "unknown")
        if _has(text, _WORRY):
            return self.worry_answer()
        if _has(text, ("doesn't work", "does not work", "never mind", "think about it")):
            return AgentReply(reply="No problem at all. Call us any time. Goodbye!", end="hangup")
        if _has(text, ("bye", "that's all", "thank you")) and self.b.booked:
            return AgentReply(reply="You're welcome. Goodbye!", end="hangup")
        fixed = self.correction(text)
        if fixed:
            return fixed
        if self.b.booked and re.match(r"\W*(?:uh |um |er )?no\b", text):
            return "Sorry — what should I correct?"
        if self.b.offered and _has(text, ("yes", "works", "sure", "okay", "ok")):
            return self.book()
        learned = self._learn(text)
        return self._next_question(learned)

    def _learn(self, text: str) -> bool:
        before = (self.b.name, self.b.phone, self.b.day)
        name = re.search(r"(?:my name is|this is|i'm|i am)\s+([a-zčćšžđ]+(?:\s+[a-zčćšžđ]+)?)", text)
        if name and name.group(1) not in ("calling", "the"):
            self.b.name = name.group(1).title()
        elif self.b.asked == "name" and not self.b.name:
            # A bare answer to "may I have your name?"
            bare = re.sub(r"[^a-zčćšžđ ]", " ", text).split()
            bare = [w for w in bare if w not in ("um", "uh", "hm", "er", "hello", "sorry", "wait")]
            if 1 <= len(bare) <= 3:
                self.b.name = " ".join(bare).title()
        phone = self.read_phone(text)
        if phone:
            self.b.phone = phone
        day = next((d for d in _DAYS if d in text), "")
        if day:
            self.b.day = day
        return (self.b.name, self.b.phone, self.b.day) != before

    def correction(self, text: str) -> str:
        """v1 takes a correction ("No — Tomislav Vuk, not Ridiculous") and says so.

        v2 does too: its regressions are elsewhere.
        """
        found = _CORRECTION.search(text)
        if not found:
            return ""
        right, wrong = found.group(1).strip(), found.group(2).strip(" .!")
        if self.b.name and self.b.name.lower() == wrong:
            self.b.name = right.title()
        elif wrong in _DAYS and right in _DAYS:
            self.b.day, self.b.offered = right, ""
        else:
            return ""
        if self.b.booked:
            return f"Sorry about that — I've noted {right.title()}. You're all set for {self.b.slot}."
        return f"Sorry about that — {right.title()}. Thanks."

    def read_phone(self, text: str) -> str:
        """v1 reads digits written or spoken one by one ("zero nine one ...")."""
        tokens = re.findall(r"[a-z]+|\d+", text)
        digits = "".join(_DIGIT_WORDS.get(t, t if t.isdigit() else " ") for t in tokens)
        runs = [r for r in digits.split(" ") if len(r) >= 6]
        return max(runs, key=len) if runs else ""

    def _next_question(self, learned: bool) -> str | AgentReply:
        if not self.b.name:
            if learned or not self.b.greeted:
                self.b.asked = "name"
                return "May I have your name, please?"
            return self.repeat_request()
        if not self.b.phone:
            self.b.asked = "phone"
            return "Thanks. What's the best phone number to reach you?" if learned else self.repeat_request()
        if not self.b.day:
            first = self.b.asked != "day"
            self.b.asked = "day"
            return "Which day would you prefer for the appointment?" if first else self.ask_day_again()
        if not self.b.offered:
            return self.find_slot()
        return f"Would you like me to book {self.b.offered}?"

    def repeat_request(self) -> str | AgentReply:
        """v1 varies its wording and offers a colleague after two misses."""
        self.b.repeats += 1
        if self.b.repeats > self.patience:
            return self._call("transfer_call", reason="could not understand the caller")
        return (
            "Sorry, the line is bad — could you say that once more?",
            "I didn't catch that, sorry. Again?",
        )[self.b.repeats % 2]

    def ask_day_again(self) -> str | AgentReply:
        """v1 rephrases, narrows the question, then hands over to a colleague."""
        self.b.repeats += 1
        if self.b.repeats > self.patience:
            return self._call("transfer_call", reason="could not agree on a day")
        if self.b.repeats == 1:
            return "Sorry, which day was that? We're open Monday to Friday."
        return "Would Monday, Wednesday or Friday suit you? Just say the day."

    def worry_answer(self) -> str:
        """v1 keeps to policy: no promises about pain or price (unless told to promise)."""
        if self.promises:
            return "Don't worry, it's guaranteed painless and the check-up is free of charge!"
        self.b.worries += 1
        if self.b.worries > 1:
            return "As I said, the dentist will go through it with you. Shall we find you a time?"
        return "I can't promise that, but the dentist will explain everything and the prices first."

    def find_slot(self) -> AgentReply:
        """v1 checks the calendar first (unless told not to: then it books 09:00 blindly)."""
        if not self.check_calendar:
            self.b.offered = f"{self.b.day.title()} 09:00"
            return self.book()
        return self._call("find_slots", day=self.b.day)

    def book(self) -> AgentReply:
        """Book the offered slot."""
        return self._call("book_slot", slot=self.b.offered, name=self.b.name, phone=self.b.phone)

    # -- tool results ---------------------------------------------------------------------

    def _after_tools(self, req: AgentStep) -> AgentReply:
        result = req.tool_results[-1]
        if result.name == "transfer_call":
            return self._say("I'm transferring you to a colleague now.", end="transfer")
        if result.name == "create_callback":
            if result.error:
                return self._say("I'm sorry, I couldn't register the callback. Please call again later.")
            return self._say(f"Done — we'll call you back at {self.b.phone}. Anything else?")
        if result.name == "find_slots":
            return self._offer(result.result, result.error)
        return self._booked(result.result, result.error)

    def _offer(self, slots: Any, error: str) -> AgentReply:
        if error or not isinstance(slots, list):
            return self._say("Our calendar isn't answering right now. Shall I have someone call you back?")
        wanted = [s for s in slots if s.lower().startswith(self.b.day)]
        if not wanted:
            return self._say(f"I'm afraid {self.b.day.title()} is full. Would another day suit you?")
        self.b.offered = wanted[0]
        return self._say(f"I have {self.b.offered} free. Would you like me to book it?")

    def _booked(self, result: Any, error: str) -> AgentReply:
        if error:
            self.b.offered = ""
            return self._say(f"Sorry, that slot just went ({error}). Shall I look for another time?")
        self.b.booked, self.b.slot = True, self.b.offered
        return self._say(f"You're booked for {self.b.offered}, {self.b.name}. Anything else?")


class SloppyReceptionist(Receptionist):
    """v2: the regressions."""

    version = "v2"
    greeting = "Smile Dental! "

    def read_phone(self, text: str) -> str:
        """Regression: only digits written as numerals count ("zero nine one" is lost)."""
        runs = re.findall(r"\d[\d ]{4,}\d", text)
        return max(runs, key=len).replace(" ", "") if runs else ""

    def repeat_request(self) -> str:
        """Regression: the same words every time, never a way out."""
        return "Could you repeat that?"

    def ask_day_again(self) -> str:
        """Regression: the same question again."""
        return "Which day would you prefer for the appointment?"

    def worry_answer(self) -> str:
        """Regression: promises policy forbids."""
        return "Don't worry, it's guaranteed painless and the check-up is free of charge!"

    def find_slot(self) -> AgentReply:
        """Regression: skips the calendar and books the first slot of the day blindly."""
        self.b.offered = f"{self.b.day.title()} 09:00"
        return self.book()

    def book(self) -> AgentReply:
        """Regression: sends the phone number as a number, not a string (schema says string)."""
        phone: Any = int(self.b.phone) if self.b.phone.isdigit() else self.b.phone
        return self._call("book_slot", slot=self.b.offered, name=self.b.name, phone=phone)

    def _booked(self, result: Any, error: str) -> AgentReply:
        """Regression: reports success whatever the calendar said."""
        self.b.booked = True
        return self._say(f"You're booked for {self.b.offered}, {self.b.name}. Anything else?")


def make_v1(prompt: str = "", params: dict[str, Any] | None = None) -> Receptionist:
    """Factory for ``python:polygon.examples.clinic.agents:make_v1``."""
    return Receptionist(prompt, params)


def make_v2(prompt: str = "", params: dict[str, Any] | None = None) -> SloppyReceptionist:
    """Factory for ``python:polygon.examples.clinic.agents:make_v2``."""
    return SloppyReceptionist(prompt, params)
