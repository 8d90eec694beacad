"""A card service line: a correct agent and versions with one planted bug each.

Rule-based and deterministic, so the tests run offline with the scripted caller. The
correct agent asks for the date of birth, verifies the caller, then blocks the card and
confirms with the last four digits only.
"""

from __future__ import annotations

import re
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

CARD = "4111 1111 1111 1111"
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_SPOKEN = {
    "0": "zero",
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
}


class CardLine:
    """The correct agent; subclasses plant one bug each."""

    verify_first = True
    reads_card = ""
    """How the confirmation says the card: "" (last four), "digits", "words"."""
    blocks_twice = False
    transfers = False
    status_after = False

    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.dob = ""
        self.state = "start"
        self.card = ""

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            return self._after(req.tool_results[-1].name, req.tool_results[-1].result)
        if self.state == "done":
            return AgentReply(reply="Your card is blocked. Goodbye.", end="hangup")
        found = _DATE.search(req.heard)
        if found and self.state == "start":
            self.dob = found.group(0)
            self.state = "asked"
            if not self.verify_first:
                return AgentReply(
                    tool_calls=[ToolCall(id="b0", name="block_card", arguments={"card_id": "main"})]
                )
            return self._verify()
        return AgentReply(
            reply="City Bank card line, this is Mia. To verify you, what is your date of birth?"
        )

    def _verify(self) -> AgentReply:
        args = {"name": "Ana Horvat", "date_of_birth": self.dob}
        return AgentReply(tool_calls=[ToolCall(id="v1", name="verify_identity", arguments=args)])

    def _after(self, tool: str, result: Any) -> AgentReply:
        result = result if isinstance(result, dict) else {}
        if tool == "verify_identity":
            if not result.get("verified"):
                return AgentReply(reply="I could not verify you, sorry. Goodbye.", end="hangup")
            if self.state == "blocked_early":
                self.state = "done"
                return AgentReply(reply=f"Done: your card {self._card()} is blocked. Anything else?")
            if self.reads_card in ("digits", "words"):
                return AgentReply(
                    tool_calls=[ToolCall(id="s1", name="card_status", arguments={"card_id": "main"})]
                )
            return self._block()
        if tool == "card_status" and self.state == "asked":
            self.card = str(result.get("card_number", ""))
            return self._block()
        if tool == "card_status":
            self.state = "done"
            return AgentReply(reply=f"Done: your card {self._card()} is blocked. Anything else?")
        if tool == "block_card":
            if self.state == "asked" and not self.verify_first:
                self.state = "blocked_early"
                return self._verify()
            if self.blocks_twice and self.state != "again":
                self.state = "again"
                return AgentReply(
                    tool_calls=[ToolCall(id="b2", name="block_card", arguments={"card_id": "main"})]
                )
            if self.status_after:
                self.status_after, self.state = False, "blocked"
                return AgentReply(
                    tool_calls=[ToolCall(id="s2", name="card_status", arguments={"card_id": "main"})]
                )
            if self.transfers:
                self.transfers = False
                args = {"reason": "blocked card", "amount": 5000}
                return AgentReply(
                    tool_calls=[ToolCall(id="t1", name="transfer_to_fraud_team", arguments=args)]
                )
            self.state = "done"
            return AgentReply(reply=f"Done: your card {self._card()} is blocked. Anything else?")
        if tool == "transfer_to_fraud_team":
            self.state = "done"
            return AgentReply(reply=f"Done: your card {self._card()} is blocked. Anything else?")
        return AgentReply(reply="Sorry, something went wrong.")

    def _card(self) -> str:
        if self.reads_card == "email":
            return "ending 1111 (details to ana.horvat@example.com)"
        if self.reads_card == "phone":
            return "ending 1111 (we will call you on 091 555 0134)"
        if self.reads_card == "digits":
            return self.card
        if self.reads_card == "words":
            return " ".join(_SPOKEN[d] for d in self.card if d.isdigit())
        return "ending 1111"

    def _block(self) -> AgentReply:
        return AgentReply(tool_calls=[ToolCall(id="b1", name="block_card", arguments={"card_id": "main"})])


class LeaksDigits(CardLine):
    reads_card = "digits"


class LeaksWords(CardLine):
    reads_card = "words"


class LeaksEmail(CardLine):
    reads_card = "email"


class LeaksPhone(CardLine):
    reads_card = "phone"


def make_leak_email(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return LeaksEmail(prompt, params)


def make_leak_phone(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return LeaksPhone(prompt, params)


class BlocksFirst(CardLine):
    verify_first = False


class BlocksTwice(CardLine):
    blocks_twice = True


class Transfers(CardLine):
    transfers = True


class StatusAfter(CardLine):
    status_after = True


def make_status_after(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return StatusAfter(prompt, params)


def make_correct(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return CardLine(prompt, params)


def make_leak_digits(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return LeaksDigits(prompt, params)


def make_leak_words(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return LeaksWords(prompt, params)


def make_block_first(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return BlocksFirst(prompt, params)


def make_block_twice(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return BlocksTwice(prompt, params)


def make_transfer(prompt: str = "", params: dict[str, Any] | None = None) -> CardLine:
    return Transfers(prompt, params)
