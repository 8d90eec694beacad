"""Two versions of a pizza-delivery order line, as plain Python agents.

v1 takes name, pizza, address and delivery time, places the order with ``place_order``,
reads it back, and takes corrections. v2 is the "faster" prompt that shipped with
regressions: it never asks for the time (every order goes out at 18:00), places the order
before it knows the pizza (the house special), does not read the order back, ignores
corrections, and answers "could you repeat that?" to anything it cannot place.

Deterministic, rule-based stand-ins for a model-driven agent, so the example runs offline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_ADDRESS = re.compile(r"\b(\d+\s+[a-z]+(?:\s+[a-z]+)?\s+(?:street|road|avenue|lane|square))\b")
_NAME = re.compile(r"(?:my name is|this is|name's)\s+([a-zčćšžđ]+(?:\s+[a-zčćšžđ]+)?)")
_SIZES = ("small", "medium", "large")
_KINDS = ("veggie", "margherita", "pepperoni", "hawaiian", "four cheese", "diavola")
_HUMAN = ("person", "human", "someone real", "manager", "talk to a")
_COMPLAINT = ("complain", "complaint", "cold", "arrived late", "wrong order")
_GLUTEN = ("gluten",)
_CORRECTION = re.compile(r"\bno\b\W+([^,]+),\s*not\s+([\w' :.-]+)")


def _has(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


@dataclass
class _Order:
    name: str = ""
    pizza: str = ""
    address: str = ""
    time: str = ""
    placed: bool = False
    greeted: bool = False
    asked: str = ""
    repeats: int = 0
    calls: int = 0
    seen: set[str] = field(default_factory=set)


class OrderLine:
    """v1: asks for each detail, places the order, reads it back, takes corrections."""

    greeting = "Pizza Roma, this is Luka. "
    needs: tuple[str, ...] = ("name", "pizza", "address", "time")

    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.prompt = prompt
        self.params = params or {}
        self.o = _Order()

    def step(self, req: AgentStep) -> AgentReply:
        """React to tool results first, else to what was heard."""
        if req.tool_results:
            return self.after_tools(req)
        text = req.heard.lower()
        reply = self.react(text)
        return reply if isinstance(reply, AgentReply) else self.say(reply)

    def say(self, text: str, end: str = "") -> AgentReply:
        """Speak (the greeting goes first, once)."""
        if not self.o.greeted:
            self.o.greeted = True
            text = self.greeting + text
        return AgentReply(reply=text, end=end)

    def call(self, tool: str, **args: Any) -> AgentReply:
        """Ask for a tool."""
        self.o.calls += 1
        return AgentReply(tool_calls=[ToolCall(id=f"call-{self.o.calls}", name=tool, arguments=args)])

    # -- understanding ------------------------------------------------------------------

    def react(self, text: str) -> str | AgentReply:
        """What to do with what the caller said."""
        if _has(text, _HUMAN):
            return self.call("transfer_call", reason="caller asked for a person")
        if _has(text, _COMPLAINT):
            return self.call("transfer_call", reason="complaint: the shift manager handles those")
        if "order" in text and _has(text, ("where", "status", "track")):
            return self.call("order_status", name=self.o.name or "unknown")
        if _has(text, _GLUTEN):
            return (
                "I'm afraid we don't make gluten-free bases, because our kitchen uses one flour "
                "for everything. Would you like a regular pizza instead?"
            )
        fixed = self.correction(text)
        if fixed:
            return fixed
        if self.o.placed and _has(text, ("bye", "thank", "that's all", "great")):
            return AgentReply(reply="Enjoy your pizza. Goodbye!", end="hangup")
        if _has(text, ("never mind", "think about it", "doesn't work", "no thanks")):
            return AgentReply(reply="No problem. Call us any time. Goodbye!", end="hangup")
        learned = self.learn(text)
        return self.next_question(learned)

    def learn(self, text: str) -> bool:
        """Take every detail the caller gave."""
        before = (self.o.name, self.o.pizza, self.o.address, self.o.time)
        name = _NAME.search(text)
        if name and name.group(1).split()[0] not in ("calling", "the", "ridiculous", "taking"):
            self.o.name = name.group(1).title()
        elif self.o.asked == "name" and not self.o.name:
            bare = [
                w for w in re.sub(r"[^a-zčćšžđ ]", " ", text).split() if w not in ("um", "uh", "er", "hm")
            ]
            if 1 <= len(bare) <= 3:
                self.o.name = " ".join(bare).title()
        pizza = self.read_pizza(text)
        if pizza:
            self.o.pizza = pizza
        address = _ADDRESS.search(text)
        if address:
            self.o.address = address.group(1).title()
        time = self.read_time(text)
        if time:
            self.o.time = time
        return (self.o.name, self.o.pizza, self.o.address, self.o.time) != before

    def read_pizza(self, text: str) -> str:
        """Size and kind, as said ("medium veggie")."""
        size = next((s for s in _SIZES if s in text), "")
        kind = next((k for k in _KINDS if k in text), "")
        return f"{size} {kind}".strip() if kind else ""

    def read_time(self, text: str) -> str:
        """A clock time ("18:30")."""
        found = _TIME.search(text)
        return f"{int(found.group(1))}:{found.group(2)}" if found else ""

    def next_question(self, learned: bool) -> str | AgentReply:
        """Ask for the first missing detail, or place the order."""
        questions = {
            "name": "May I have your name, please?",
            "pizza": "Which pizza would you like, and what size?",
            "address": "What is the delivery address?",
            "time": "What time would you like it delivered?",
        }
        for need in self.needs:
            if not getattr(self.o, need):
                if self.o.asked == need and not learned:
                    return self.ask_again(need)
                self.o.asked = need
                return questions[need]
        if not self.o.placed:
            return self.place()
        return "Is there anything else I can do for you?"

    def ask_again(self, need: str) -> str | AgentReply:
        """v1 rephrases once, then hands over to a colleague."""
        self.o.repeats += 1
        if self.o.repeats > 2:
            return self.call("transfer_call", reason=f"could not get the {need}")
        return f"Sorry, I didn't catch the {need}. Could you say it once more?"

    def place(self) -> AgentReply:
        """Place the order."""
        o = self.o
        return self.call("place_order", name=o.name, pizza=o.pizza, address=o.address, time=o.time)

    def correction(self, text: str) -> str | AgentReply:
        """v1 takes "No — 18:30, not 18:00" and puts it right (the order is re-placed)."""
        found = _CORRECTION.search(text)
        if not found:
            return ""
        right, wrong = found.group(1).strip(" .!"), found.group(2).strip(" .!")
        for need in ("time", "pizza", "name", "address"):
            if getattr(self.o, need).lower() == wrong:
                setattr(self.o, need, right.title() if need in ("name", "address") else right)
                if self.o.placed:
                    self.o.placed = False
                    return self.place()
                return f"Sorry about that — {right}. Thanks."
        return ""

    # -- tool results ---------------------------------------------------------------------

    def after_tools(self, req: AgentStep) -> AgentReply:
        """Say what the tool did."""
        result = req.tool_results[-1]
        if result.name == "transfer_call":
            return self.say("I'm transferring you to a colleague now.", end="transfer")
        if result.name == "order_status":
            if result.error:
                return self.say("I can't find an order under that name, sorry. Shall I take a new one?")
            return self.say(f"Your order is {result.result.get('status', 'on its way')}. Anything else?")
        if result.error:
            return self.say(f"Sorry, the order didn't go through ({result.error}). Shall I try again?")
        self.o.placed = True
        return self.read_back()

    def read_back(self) -> AgentReply:
        """v1 confirms every detail."""
        o = self.o
        return self.say(
            f"You're all set: a {o.pizza} to {o.address} at {o.time}, for {o.name}. Anything else?"
        )


class HurriedOrderLine(OrderLine):
    """v2: the regressions."""

    needs = ("name", "address")

    def read_time(self, text: str) -> str:
        """Regression: never asks; every order goes out at 18:00."""
        return "18:00"

    def place(self) -> AgentReply:
        """Regression: places before it knows the pizza (the house special)."""
        o = self.o
        return self.call(
            "place_order", name=o.name, pizza=o.pizza or "pepperoni", address=o.address, time="18:00"
        )

    def correction(self, text: str) -> str | AgentReply:
        """Regression: corrections are not heard."""
        return ""

    def ask_again(self, need: str) -> str:
        """Regression: the same words every time."""
        return "Could you repeat that?"

    def read_back(self) -> AgentReply:
        """Regression: no read-back."""
        return self.say("Done, it's on its way. Anything else?")


def make_v1(prompt: str = "", params: dict[str, Any] | None = None) -> OrderLine:
    """The careful order line."""
    return OrderLine(prompt, params)


def make_v2(prompt: str = "", params: dict[str, Any] | None = None) -> HurriedOrderLine:
    """The hurried order line."""
    return HurriedOrderLine(prompt, params)
