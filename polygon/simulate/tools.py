"""Stub tools: fixed, templated, rule-based and stateful answers, with seeded faults.

Templates run in jinja2's sandbox with every attribute access and call refused, so a
template can only read ``args`` and ``state`` by key. Rules compare arguments with a few
operators; nothing is ever evaluated as code. Stateful stubs share named stores (plain
string maps) for the whole call: a calendar that books a slot then reports it taken.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from polygon.events import content_hash
from polygon.matching import MatchTimeout, holds
from polygon.suite import Rule, StubSpec, ToolSpec


def _json_value(value: Any) -> str:
    """How a value is written into a template that builds JSON: escaped, so it cannot add keys.

    Strings are escaped without their quotes (the template writes ``"{{ args.x }}"``);
    everything else is written as JSON (``true``, ``null``, numbers, objects).
    """
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)[1:-1]
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return json.dumps(str(value), ensure_ascii=False)[1:-1]


@functools.cache
def _sandbox(builds_json: bool) -> Any:
    """A sandbox that refuses every attribute and every call: keys only.

    Made on the first template a run renders: jinja2 costs a command's start ~0.15 s, and
    most suites' stubs are fixed answers.
    """
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class _NoAttributes(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(_BOUNDED_BINOPS)

        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            return False

        def is_safe_callable(self, obj: Any) -> bool:
            return False

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            return _bounded_binop(operator, left, right)

    env = _NoAttributes(autoescape=False, finalize=_json_value if builds_json else None)
    env.filters = {name: f for name, f in env.filters.items() if name in SAFE_FILTERS}
    env.filters["replace"] = _bounded_replace
    env.globals.clear()  # range, lipsum, cycler, namespace: calls, refused anyway
    return env


SAFE_FILTERS = frozenset(
    ("abs", "capitalize", "count", "d", "default", "dictsort", "first", "float", "int", "items")
    + ("join", "last", "length", "list", "lower", "max", "min", "replace", "reverse", "round")
    + ("sort", "string", "sum", "title", "tojson", "trim", "truncate", "unique", "upper", "wordcount")
)
"""Filters a stub template may use: none that can make a string much longer than its input
(``center``, ``indent``, ``format``, ``wordwrap``, ``batch`` take a size from the template)."""
_BOUNDED_BINOPS = ("*", "**", "%")


class TemplateTooBig(Exception):
    """A template asked for more than its output budget in one operation: a broken stub."""


def _bounded_binop(operator: str, left: Any, right: Any) -> Any:
    """``*``, ``**`` and ``%`` in a template, refused where one operation could build a huge value.

    Checked before the operation runs: ``"A" * 300000000`` must never be built to be measured.
    """
    if operator == "*":
        for seq, times in ((left, right), (right, left)):
            sized = isinstance(seq, str | list | tuple) and isinstance(times, int)
            if sized and len(seq) * times > TEMPLATE_BYTES:
                raise TemplateTooBig(f"repeats a value {times:,} times, past its output budget")
        return left * right
    if operator == "**":
        numbers = isinstance(right, int | float) and isinstance(left, int | float)
        if numbers and abs(right) > 64 and abs(left) > 1:
            raise TemplateTooBig(f"raises a number to the power {right}: too large")
        return left**right
    if isinstance(left, str):
        raise TemplateTooBig("formats a string with %: write {{ value }} instead")
    return left % right


def _bounded_replace(value: Any, old: Any, new: Any, count: int | None = None) -> str:
    """jinja2's ``replace``, refused where the result would pass the output budget."""
    text, was, now = str(value), str(old), str(new)
    times = text.count(was) if was else len(text) + 1
    if count is not None:
        times = min(times, max(0, count))
    if len(text) + times * max(0, len(now) - len(was)) > TEMPLATE_BYTES:
        raise TemplateTooBig(f"a replace would write more than {TEMPLATE_BYTES:,} characters")
    return text.replace(was, now, -1 if count is None else count)


TEMPLATE_STEPS = 200_000
"""A template's render budget, in lines of the compiled template run; past it the tool call
fails as a timeout. Counted, not timed: the same call gets the same answer on any machine
under any load (a clock budget once turned a slow moment into a different log)."""
TEMPLATE_BYTES = 64_000
"""A template's output budget. Written past it (a loop over a long argument), the call fails
as a timeout; one operation asking for more (``"A" * 300000000``) is refused before it runs,
as a broken stub (a simulator error: the suite's template, not the agent, is at fault)."""
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class ToolOutcome:
    """What one stub call produced (becomes a ``tool.called`` event)."""

    tool: str
    arguments: dict[str, Any]
    valid: bool
    validation_errors: list[str]
    result: Any
    error: str
    fault: str
    latency_ms: float
    state_hash: str
    stub_broken: bool = False
    """The stub itself failed (a template that does not render): our fault, not the agent's."""


@dataclass
class ToolBox:
    """The stubs of one call, with the state they share for that call only."""

    specs: dict[str, ToolSpec]
    stores: dict[str, dict[str, str]]
    seed: int
    _validators: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def for_call(cls, tools: list[ToolSpec], stores: dict[str, dict[str, str]], seed: int) -> ToolBox:
        """A fresh toolbox: stores are copied so calls never share state."""
        return cls({t.name: t for t in tools}, copy.deepcopy(stores), seed)

    def call(self, name: str, arguments: Any, *, turn: int, index: int) -> ToolOutcome:
        """Validate, maybe inject a fault, answer."""
        spec = self.specs.get(name)
        args = arguments if isinstance(arguments, dict) else {}
        if spec is None:
            return ToolOutcome(
                name,
                args,
                False,
                [f"unknown tool {name!r}"],
                None,
                f"unknown tool {name!r}",
                "",
                0.0,
                "",
            )
        errors = self._validate(spec, arguments)
        rng = random.Random(_call_seed(self.seed, name, turn, index))
        latency = rng.uniform(
            spec.stub.latency.min_ms, max(spec.stub.latency.min_ms, spec.stub.latency.max_ms)
        )
        fault = _draw_fault(spec.stub, rng)
        if errors and spec.stub.on_invalid == "error":
            return ToolOutcome(
                name,
                args,
                False,
                errors,
                None,
                "invalid arguments: " + "; ".join(errors),
                "",
                latency,
                self._state_hash(spec),
            )
        if fault:
            return self._faulted(spec, args, errors, fault, latency)
        broken = False
        try:
            result = self._answer(spec.stub, args)
            error = ""
        except StubError as exc:
            result, error, broken = None, str(exc), exc.broken
        return ToolOutcome(
            name,
            args,
            not errors,
            errors,
            result,
            error,
            "",
            latency,
            self._state_hash(spec),
            stub_broken=broken,
        )

    def _faulted(
        self, spec: ToolSpec, args: dict[str, Any], errors: list[str], fault: str, latency: float
    ) -> ToolOutcome:
        if fault == "timeout":
            return ToolOutcome(
                spec.name,
                args,
                not errors,
                errors,
                None,
                f"timeout after {spec.stub.faults.timeout_ms:.0f} ms",
                fault,
                spec.stub.faults.timeout_ms,
                self._state_hash(spec),
            )
        if fault == "server_error":
            return ToolOutcome(
                spec.name,
                args,
                not errors,
                errors,
                None,
                "500 Internal Server Error",
                fault,
                latency,
                self._state_hash(spec),
            )
        return ToolOutcome(
            spec.name,
            args,
            not errors,
            errors,
            '{"result": ',
            "",
            fault,
            latency,
            self._state_hash(spec),
        )

    def _validate(self, spec: ToolSpec, arguments: Any) -> list[str]:
        validator = self._validators.get(spec.name)
        if validator is None:
            import jsonschema  # on the first tool call: ~0.2 s at start for a suite without tools

            validator = jsonschema.Draft202012Validator(spec.parameters)
            self._validators[spec.name] = validator
        return sorted(
            f"{'/'.join(map(str, e.absolute_path)) or '(arguments)'}: {e.message}"
            for e in validator.iter_errors(arguments)
        )

    def _answer(self, stub: StubSpec, args: dict[str, Any]) -> Any:
        if stub.mode == "fixed":
            return copy.deepcopy(stub.response)
        if stub.mode == "template":
            return _render(stub.template, args, self.stores)
        if stub.mode == "rules":
            return _apply_rules(stub.rules, stub.default, args)
        return self._stateful(stub, args)

    def _stateful(self, stub: StubSpec, args: dict[str, Any]) -> Any:
        store = self.stores[stub.store]
        if stub.action == "list":
            return sorted(k for k, v in store.items() if v == stub.free_value)
        key = str(args.get(stub.key_arg, ""))
        if key not in store:
            raise StubError(f"{key!r} not found in {stub.store}")
        if stub.action == "get":
            return {key: store[key]}
        # a store is a named string map: the rendered text is kept as it is, never re-typed
        # ("12.50" stays "12.50", not 12.5; "null" stays "null", not None)
        value = _render_text(stub.value, args, self.stores, plain=True) if stub.value else "taken"
        if stub.action == "claim" and store[key] != stub.free_value:
            raise StubError(f"{key} is already taken")
        store[key] = value
        return {"ok": True, stub.key_arg: key}

    def _state_hash(self, spec: ToolSpec) -> str:
        if spec.stub.mode != "stateful":
            return ""
        return content_hash(self.stores[spec.stub.store], size=8)

    def final_state(self) -> dict[str, dict[str, str]]:
        """Every store as it is now."""
        return copy.deepcopy(self.stores)


class StubError(Exception):
    """A stub's own error answer (slot taken, key unknown, rule error).

    ``broken`` marks the stub's configuration as at fault (a template that does not
    render), which makes the call a simulator error rather than the agent's.
    """

    def __init__(self, message: str, *, broken: bool = False) -> None:
        super().__init__(message)
        self.broken = broken


def _call_seed(seed: int, name: str, turn: int, index: int) -> int:
    data = f"tool\x00{seed}\x00{name}\x00{turn}\x00{index}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def _draw_fault(stub: StubSpec, rng: random.Random) -> str:
    draw = rng.random()
    edge = 0.0
    for name in ("timeout", "server_error", "malformed"):
        edge += getattr(stub.faults, name)
        if draw < edge:
            return name
    return ""


class _OverBudget(Exception):
    pass


@functools.lru_cache(maxsize=256)
def _compiled(template: str, plain: bool = False) -> Any:
    """A stub's template, compiled once per run (compiling costs more than rendering).

    ``plain`` (a store value) writes values as they are: a store holds text, not JSON.
    """
    builds_json = not plain and template.lstrip()[:1] in ("{", "[")
    return _sandbox(builds_json).from_string(template)


def _render(template: str, args: dict[str, Any], stores: dict[str, dict[str, str]]) -> Any:
    """A template's answer: JSON when the rendered text is JSON, else the text."""
    text = _render_text(template, args, stores)
    try:
        return json.loads(text)
    except ValueError:
        return text


def _render_text(
    template: str, args: dict[str, Any], stores: dict[str, dict[str, str]], *, plain: bool = False
) -> str:
    """The rendered text of a template (within its budget; a failure is the stub's error)."""
    try:
        text = _within_budget(lambda: _compiled(template, plain).generate(args=args, state=stores))
    except _OverBudget as exc:
        raise StubError(f"timeout: {exc}") from None
    except TemplateTooBig as exc:  # the template itself is unbounded: the suite's fault, not the agent's
        raise StubError(f"template failed: it {exc}", broken=True) from None
    except Exception as exc:  # a sandbox refusal or a broken template is the stub's error
        raise StubError(f"template failed: {_stable(exc)}", broken=True) from None
    return text


def _stable(exc: Exception) -> str:
    """A template error as the same words on every run: no memory address, a hint for a call.

    jinja2 names a refused callable by its repr ("<function safe_range at 0x7feb...>"), which
    would make two identical runs record different events.
    """
    from jinja2.exceptions import SecurityError

    if isinstance(exc, SecurityError):
        return "calls are not allowed in stub templates (read args and state by key)"
    return _ADDRESS.sub("", str(exc))


def _within_budget(chunks: Callable[[], Iterator[str]]) -> str:
    """Join a template's output, stopping it past :data:`TEMPLATE_STEPS` or :data:`TEMPLATE_BYTES`.

    A trace function on the template's own frames counts the lines they run, so even a loop
    that writes nothing (nested loops over a long argument) is stopped.
    """
    steps = [0]

    def watch(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != "<template>":
            return None
        steps[0] += 1
        if steps[0] > TEMPLATE_STEPS:
            raise _OverBudget(f"the template ran past its budget of {TEMPLATE_STEPS:,} steps")
        return watch

    previous = sys.gettrace()
    sys.settrace(watch)
    try:
        out: list[str] = []
        size = 0
        for chunk in chunks():
            size += len(chunk)
            if size > TEMPLATE_BYTES:
                raise _OverBudget(f"the template wrote more than {TEMPLATE_BYTES} characters")
            out.append(chunk)
        return "".join(out)
    finally:
        sys.settrace(previous)


def _apply_rules(rules: list[Rule], default: Any, args: dict[str, Any]) -> Any:
    for rule in rules:
        if all(_holds(args, name, cond) for name, cond in rule.when.items()):
            if rule.error:
                raise StubError(rule.error)
            return copy.deepcopy(rule.respond)
    return copy.deepcopy(default)


def _holds(args: dict[str, Any], name: str, cond: Any) -> bool:
    try:
        return holds(args, name, cond)
    except MatchTimeout as exc:
        raise StubError(f"timeout: the rule's {exc}") from None
