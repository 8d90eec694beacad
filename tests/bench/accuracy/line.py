"""A phone line as a plain Python agent, written once and configured per domain.

Each benchmark domain describes its line as data (:class:`Line`: what it asks, how a value
looks, which tools act, what it says when done), and this one agent plays it — correctly,
or with exactly one bug (``params: {bug: ...}`` in the suite's config):

* ``acts_early``: acts (calls the acting tool) before the identity check;
* ``leaks``: reads another customer's personal data aloud;
* ``never_transfers``: keeps a call it must hand to a person;
* ``wrong_value``: books a value one digit off from what the caller said;
* ``loops``: never takes the first answer and asks the same words again;
* ``hangs_up_early``: says goodbye and hangs up once it has the first detail;
* ``promises``: promises an outcome it cannot keep.

It understands the caller the way a careful rule-based line does: by the shape of a value
(a policy number, a date, a name in capitals), and a value whose shape another detail
shares only when it asked for that detail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

BUGS = ("acts_early", "leaks", "never_transfers", "wrong_value", "loops", "hangs_up_early", "promises")
NAME = "NAME"
"""The shape of a person's name: two capitalised words, in any script."""


@dataclass(frozen=True)
class Slot:
    """One detail the line asks for."""

    question: str
    again: str
    shape: str
    """A regex for the value (group 0), or :data:`NAME`."""
    fact: str
    """The persona fact the value must equal (the benchmark's truth, not the agent's)."""


@dataclass(frozen=True)
class Intent:
    """One thing a caller can want."""

    name: str
    kind: str
    """``act`` (a tool does it), ``status`` (a tool says it), ``transfer`` or ``refuse``."""
    words: tuple[str, ...]
    slots: tuple[str, ...] = ()
    tool: str = ""
    args: dict[str, str] = field(default_factory=dict)
    """Tool argument → slot."""
    report: str = ""
    """What the line says when done (``{slot}`` and ``{result.key}``), or the refusal."""
    verify: bool = False
    """The identity check must come first."""


@dataclass(frozen=True)
class Line:
    """A domain's line."""

    greeting: str
    ask_need: tuple[str, str]
    slots: dict[str, Slot]
    intents: tuple[Intent, ...]
    verify_tool: str
    verify_args: dict[str, str]
    human: tuple[str, ...]
    """Words of a caller asking for a person."""
    bye: tuple[str, ...]
    anything_else: str
    goodbye: str
    transfer_tool: str
    transferring: str
    take_over: str
    """What the ``never_transfers`` bug says instead of transferring."""
    noted: str
    """What it says when it kept a call it should have transferred."""
    escalate: str
    """What the correct line says when it hands over after asking twice in vain."""
    promise: str
    leak: str
    early_bye: str
    secrets: tuple[str, ...]
    """Another customer's personal data (what ``leaks`` says)."""
    promises: tuple[str, ...]
    """Phrases of a promise the line cannot keep (what ``promises`` says)."""


@dataclass
class _State:
    greeted: bool = False
    intent: Intent | None = None
    values: dict[str, str] = field(default_factory=dict)
    asked: str = ""
    asks: dict[str, int] = field(default_factory=dict)
    needs_asked: int = 0
    verified: bool = False
    done: bool = False
    refused: bool = False
    kept: bool = False
    after_done: int = 0
    calls: int = 0


def _names(text: str) -> list[str]:
    """Two or three capitalised words in a row, in any script ("Željka Babić", "Анна Петрова")."""
    tokens = re.findall(r"[^\W\d_][^\W\d_'-]*", text)
    out = []
    for i in range(len(tokens) - 1):
        a, b = tokens[i], tokens[i + 1]
        if a[0].isupper() and b[0].isupper() and len(a) > 1 and len(b) > 1 and a.lower() not in _NOT_NAMES:
            out.append(f"{a} {b}")
    return out


_NOT_NAMES = frozenset({"hi", "hello", "no", "yes", "oh", "um", "great", "okay", "ok", "my", "i"})


class LineAgent:
    """One call on a domain's line; ``bug`` is empty for the correct line."""

    def __init__(self, line: Line, bug: str = "") -> None:
        if bug and bug not in BUGS:
            raise ValueError(f"unknown bug {bug!r}")
        self.line = line
        self.bug = bug
        self.s = _State()

    # -- speaking -----------------------------------------------------------------------

    def say(self, text: str, end: str = "") -> AgentReply:
        if not self.s.greeted:
            self.s.greeted = True
            text = f"{self.line.greeting} {text}"
        return AgentReply(reply=text, end=end)

    def call(self, tool: str, **args: Any) -> AgentReply:
        self.s.calls += 1
        return AgentReply(tool_calls=[ToolCall(id=f"call-{self.s.calls}", name=tool, arguments=args)])

    # -- a step ---------------------------------------------------------------------------

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            return self.after_tool(req.tool_results[-1].name, req.tool_results[-1].result or {})
        return self.hear(req.heard)

    def hear(self, heard: str) -> AgentReply:
        low = heard.lower()
        line = self.line
        if self.s.intent is None:
            self.s.intent = self.intent_of(low)
        if any(w in low for w in line.human) and self.bug != "never_transfers":
            return self.call(line.transfer_tool, reason="the caller asked for a person")
        self.learn(heard)
        if (self.s.done or self.s.refused or self.s.kept) and any(w in low for w in line.bye):
            return self.say(line.goodbye, end="hangup")
        intent = self.s.intent
        if intent is None:
            self.s.needs_asked += 1
            return self.say(line.ask_need[(self.s.needs_asked - 1) % 2])
        if self.s.done or self.s.refused or self.s.kept:
            self.s.after_done += 1
            if self.s.after_done > 1:
                return self.say(line.goodbye, end="hangup")
            return self.say(line.anything_else)
        if intent.kind == "transfer":
            if self.bug != "never_transfers":
                return self.call(line.transfer_tool, reason=intent.name)
            missing = self.missing(intent) or ""
            if missing:
                return self.ask(missing, prefix=line.take_over)
            self.s.kept = True
            return self.say(line.noted)
        if intent.kind == "refuse":
            self.s.refused = True
            return self.say(f"{intent.report} {line.anything_else}")
        missing = self.missing(intent)
        if self.bug == "hangs_up_early" and any(s in self.s.values for s in intent.slots):
            return self.say(line.early_bye, end="hangup")
        if missing:
            return self.ask(missing)
        if intent.verify and not self.s.verified and self.bug != "acts_early":
            return self.call(line.verify_tool, **{a: self.s.values[s] for a, s in line.verify_args.items()})
        return self.act(intent)

    def intent_of(self, low: str) -> Intent | None:
        # Refusals and transfers first: "cancel tonight's stay for a refund" is not a plain cancel.
        order = sorted(self.line.intents, key=lambda i: ("refuse", "transfer", "status", "act").index(i.kind))
        return next((i for i in order if any(w in low for w in i.words)), None)

    def learn(self, heard: str) -> None:
        slots = self.line.slots
        asked = self.s.asked
        if self.bug == "loops" and self.s.intent and self.s.intent.slots and asked == self.s.intent.slots[0]:
            return  # the bug: the first answer is never taken
        for name, slot in slots.items():
            if name in self.s.values:
                continue
            shared = any(o.shape == slot.shape for n, o in slots.items() if n != name)
            if shared and name != asked:
                continue  # a date could be a birth date or the incident's: only when asked
            value = self.find(slot, heard)
            if value:
                self.s.values[name] = value

    @staticmethod
    def find(slot: Slot, heard: str) -> str:
        if slot.shape == NAME:
            found = _names(heard)
            return found[-1] if found else ""
        hit = re.search(slot.shape, heard)
        return hit.group(0) if hit else ""

    def missing(self, intent: Intent) -> str | None:
        return next((s for s in intent.slots if s not in self.s.values), None)

    def ask(self, slot: str, prefix: str = "") -> AgentReply:
        times = self.s.asks.get(slot, 0)
        self.s.asks[slot] = times + 1
        self.s.asked = slot
        q = self.line.slots[slot]
        if self.bug == "loops":
            return self.say(q.question)
        if times >= 2:
            return self.call(self.line.transfer_tool, reason=f"could not get the {slot}")
        text = q.again if times else q.question
        return self.say(f"{prefix} {text}".strip())

    def act(self, intent: Intent) -> AgentReply:
        args = {a: self.s.values[s] for a, s in intent.args.items()}
        if self.bug == "wrong_value" and intent.kind == "act" and args:
            last = list(args)[-1]
            args[last] = _one_off(args[last])
        return self.call(intent.tool, **args)

    # -- tool results ---------------------------------------------------------------------------

    def after_tool(self, tool: str, result: dict[str, Any]) -> AgentReply:
        line = self.line
        if tool == line.transfer_tool:
            return self.say(line.transferring, end="transfer")
        if tool == line.verify_tool:
            self.s.verified = True
            assert self.s.intent is not None
            return self.act(self.s.intent)
        intent = self.s.intent
        assert intent is not None
        self.s.done = True
        fill = {**self.s.values, **{f"result_{k}": v for k, v in result.items()}}
        text = intent.report.format(**fill)
        if self.bug == "promises":
            text = f"{text} {line.promise}"
        if self.bug == "leaks":
            text = f"{text} {line.leak}"
        return self.say(f"{text} {line.anything_else}")


def _one_off(value: str) -> str:
    """The value with its last digit one off ("18:30" → "18:31"), as a careless agent books it."""
    for i in range(len(value) - 1, -1, -1):
        if value[i].isdigit():
            return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]
    return value + "x"


def factory(line: Line):  # type: ignore[no-untyped-def]
    """A suite factory for a domain's line: ``params: {bug: ...}`` picks the version."""

    def make(prompt: str = "", params: dict[str, Any] | None = None) -> LineAgent:
        return LineAgent(line, str((params or {}).get("bug", "")))

    return make
