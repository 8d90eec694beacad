"""Two versions of a Croatian pizzeria order line, as plain Python agents.

v1 asks for name, pizza, address and delivery time, places the order with ``place_order``,
reads it back and takes corrections; it refuses gluten-free pizza with a reason, checks an
order's status and hands complaints to the shift manager. v2 is the "faster" prompt with
regressions: it never asks for the time (every order goes out at 18:00), places the order
before it knows the pizza (the house pepperoni), does not read the order back, ignores
corrections and answers "Možete li ponoviti?" to anything it cannot place.

Deterministic, rule-based stand-ins for a model-driven agent, so the example runs offline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_ADDRESS = re.compile(r"\b([A-ZČĆŠŽĐ][a-zčćšžđ]+(?: [a-zčćšžđA-ZČĆŠŽĐ][a-zčćšžđ]+){0,2} \d{1,3})\b")
_NAME = re.compile(r"\b([A-ZČĆŠŽĐ][a-zčćšžđ]+ [A-ZČĆŠŽĐ][a-zčćšžđ]+)\b(?! \d)")
_SIZES = {"mal": "mala", "sredn": "srednja", "velik": "velika"}
_KINDS = {"margherit": "margherita", "diavol": "diavola", "povrć": "s povrćem", "capricc": "capricciosa"}
_CORRECTION = re.compile(r"\bne\W+([^,]+),\s*a ne\s+([\w :.-]+)", re.IGNORECASE)
_QUESTIONS = {
    "ime": ("Kako se zovete?", "Oprostite, možete li ponoviti ime i prezime?"),
    "pizza": ("Koju pizzu želite i koje veličine?", "Oprostite, koju pizzu — malu, srednju ili veliku?"),
    "adresa": ("Na koju adresu dostavljamo?", "Oprostite, koja je točna adresa?"),
    "vrijeme": ("U koliko sati želite dostavu?", "Oprostite, u koje vrijeme da dostavimo?"),
}


def _has(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


@dataclass
class _Order:
    ime: str = ""
    pizza: str = ""
    adresa: str = ""
    vrijeme: str = ""
    placed: bool = False
    greeted: bool = False
    asked: str = ""
    asks: int = 0
    calls: int = 0


class OrderLine:
    """v1: asks for each detail, places the order, reads it back, takes corrections."""

    greeting = "Pizzeria Roma, Luka na vezi."
    needs: tuple[str, ...] = ("ime", "pizza", "adresa", "vrijeme")

    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.prompt = prompt
        self.o = _Order()

    def step(self, req: AgentStep) -> AgentReply:
        """React to tool results first, else to what was heard."""
        if req.tool_results:
            return self.after_tools(req)
        reply = self.react(req.heard)
        return reply if isinstance(reply, AgentReply) else self.say(reply)

    def say(self, text: str, end: str = "") -> AgentReply:
        """Speak (the greeting goes first, once)."""
        if not self.o.greeted:
            self.o.greeted = True
            text = f"{self.greeting} {text}"
        return AgentReply(reply=text, end=end)

    def call(self, tool: str, **args: Any) -> AgentReply:
        """Ask for a tool."""
        self.o.calls += 1
        return AgentReply(tool_calls=[ToolCall(id=f"call-{self.o.calls}", name=tool, arguments=args)])

    def react(self, heard: str) -> str | AgentReply:
        """What to do with what the caller said."""
        low = heard.lower()
        if _has(low, ("osob", "voditelj", "žali", "prigovor", "hladn", "čovjek")):
            return self.call("transfer_call", razlog="pritužba ili traži osobu")
        if _has(low, ("gdje je", "provjer")) and "narudž" in low:
            return self.call("order_status", ime=self.o.ime or "nepoznato")
        if "gluten" in low:
            return (
                "Nažalost, nemamo pizzu bez glutena, jer u kuhinji koristimo jedno brašno za sve. "
                "Želite li običnu pizzu?"
            )
        fixed = self.correction(heard)
        if fixed:
            return fixed
        if self.o.placed and _has(low, ("hvala", "doviđenja", "to je sve")):
            return AgentReply(reply="Dobar tek! Doviđenja.", end="hangup")
        if _has(low, ("nema veze", "razmislit", "ne odgovara")):
            return AgentReply(reply="Nema problema, nazovite kad god želite. Doviđenja!", end="hangup")
        learned = self.learn(heard)
        return self.next_question(learned)

    def learn(self, heard: str) -> bool:
        """Take every detail the caller gave."""
        before = (self.o.ime, self.o.pizza, self.o.adresa, self.o.vrijeme)
        address = _ADDRESS.search(heard)
        if address:
            self.o.adresa = address.group(1)
        name = _NAME.search(heard)
        if name and not self.o.ime and (not address or name.group(1) not in address.group(1)):
            self.o.ime = name.group(1)
        pizza = self.read_pizza(heard.lower())
        if pizza:
            self.o.pizza = pizza
        time = self.read_time(heard)
        if time:
            self.o.vrijeme = time
        return (self.o.ime, self.o.pizza, self.o.adresa, self.o.vrijeme) != before

    def read_pizza(self, low: str) -> str:
        """Size and kind in the nominative ("srednja s povrćem"), however the caller declined them."""
        size = next((v for k, v in _SIZES.items() if re.search(rf"\b{k}", low)), "")
        kind = next((v for k, v in _KINDS.items() if k in low), "")
        return f"{size} {kind}".strip() if kind else ""

    def read_time(self, heard: str) -> str:
        """A clock time ("18:30")."""
        found = _TIME.search(heard)
        return f"{int(found.group(1))}:{found.group(2)}" if found else ""

    def next_question(self, learned: bool) -> str | AgentReply:
        """Ask for the first missing detail, or place the order."""
        for need in self.needs:
            if not getattr(self.o, need):
                return self.ask(need, learned)
        if not self.o.placed:
            return self.place()
        return "Trebate li još nešto?"

    def ask(self, need: str, learned: bool) -> str | AgentReply:
        """Ask; rephrase once; the third time, hand over to a colleague."""
        if self.o.asked != need or learned:
            self.o.asked, self.o.asks = need, 0
        self.o.asks += 1
        if self.o.asks > 2:
            return self.call("transfer_call", razlog=f"nije uspio dobiti: {need}")
        first, again = _QUESTIONS[need]
        return first if self.o.asks == 1 else again

    def place(self) -> AgentReply:
        """Place the order."""
        o = self.o
        return self.call("place_order", ime=o.ime, pizza=o.pizza, adresa=o.adresa, vrijeme=o.vrijeme)

    def correction(self, heard: str) -> str | AgentReply:
        """v1 takes "Ne — 18:30, a ne 18:00." and puts it right (the order is re-placed)."""
        found = _CORRECTION.search(heard)
        if not found:
            return ""
        right, wrong = found.group(1).strip(" .!—-"), found.group(2).strip(" .!")
        for need in ("vrijeme", "pizza", "ime", "adresa"):
            if getattr(self.o, need).lower() == wrong.lower():
                setattr(self.o, need, right)
                if self.o.placed:
                    self.o.placed = False
                    return self.place()
                return f"Oprostite — {right}. Hvala."
        return ""

    def after_tools(self, req: AgentStep) -> AgentReply:
        """Say what the tool did."""
        result = req.tool_results[-1]
        if result.name == "transfer_call":
            return self.say("Spajam vas s voditeljem smjene.", end="transfer")
        if result.name == "order_status":
            status = result.result.get("status", "na putu")
            return self.say(f"Vaša narudžba je {status}. Trebate li još nešto?")
        if result.error:
            return self.say(f"Oprostite, narudžba nije prošla ({result.error}). Da pokušam ponovno?")
        self.o.placed = True
        return self.read_back()

    def read_back(self) -> AgentReply:
        """v1 confirms every detail."""
        o = self.o
        return self.say(
            f"Narudžba je zaprimljena: {o.pizza}, adresa {o.adresa}, dostava u {o.vrijeme}. "
            "Trebate li još nešto?"
        )


class HurriedOrderLine(OrderLine):
    """v2: the regressions."""

    needs = ("ime", "adresa")

    def read_time(self, heard: str) -> str:
        """Regression: never asks; every order goes out at 18:00."""
        return "18:00"

    def place(self) -> AgentReply:
        """Regression: places before it knows the pizza (the house pepperoni)."""
        o = self.o
        pizza = o.pizza or "pepperoni"
        return self.call("place_order", ime=o.ime, pizza=pizza, adresa=o.adresa, vrijeme="18:00")

    def correction(self, heard: str) -> str | AgentReply:
        """Regression: corrections are not heard."""
        return ""

    def ask(self, need: str, learned: bool) -> str | AgentReply:
        """Regression: the same words every time."""
        return "Možete li ponoviti?" if self.o.asked == need else self._first(need)

    def _first(self, need: str) -> str:
        self.o.asked = need
        return _QUESTIONS[need][0]

    def read_back(self) -> AgentReply:
        """Regression: no read-back."""
        return self.say("Gotovo, na putu je. Trebate li još nešto?")


def make_v1(prompt: str = "", params: dict[str, Any] | None = None) -> OrderLine:
    """The careful order line."""
    return OrderLine(prompt, params)


def make_v2(prompt: str = "", params: dict[str, Any] | None = None) -> HurriedOrderLine:
    """The hurried order line."""
    return HurriedOrderLine(prompt, params)
