from __future__ import annotations

import pytest

from polygon.simulate.tools import ToolBox, ToolOutcome
from polygon.suite.schema import ToolSpec


def box(*tools: dict, stores: dict | None = None, seed: int = 1) -> ToolBox:
    return ToolBox.for_call([ToolSpec.model_validate(t) for t in tools], stores or {}, seed)


SCHEMA = {
    "type": "object",
    "properties": {"slot": {"type": "string"}, "name": {"type": "string"}},
    "required": ["slot"],
}


def test_fixed_answer() -> None:
    b = box({"name": "t", "stub": {"mode": "fixed", "response": {"ok": True}}})
    out = b.call("t", {}, turn=1, index=0)
    assert out.result == {"ok": True} and out.valid and not out.error


def test_template_reads_args_and_state_only() -> None:
    b = box(
        {
            "name": "t",
            "parameters": SCHEMA,
            "stub": {
                "mode": "template",
                "template": '{"for": "{{ args.name }}", "n": {{ args.slot | length }}}',
            },
        }
    )
    assert b.call("t", {"slot": "abc", "name": "Ana"}, turn=1, index=0).result == {
        "for": "Ana",
        "n": 3,
    }
    evil = box({"name": "t", "stub": {"mode": "template", "template": "{{ args.__class__.__mro__ }}"}})
    out = evil.call("t", {}, turn=1, index=0)
    assert out.result is None and "template failed" in out.error
    calls = box({"name": "t", "stub": {"mode": "template", "template": "{{ args.items() }}"}})
    assert "template failed" in calls.call("t", {}, turn=1, index=0).error


def test_rules_with_operators_and_default() -> None:
    b = box(
        {
            "name": "crm",
            "stub": {
                "mode": "rules",
                "default": {"found": False},
                "rules": [
                    {
                        "when": {"phone": {"matches": "^091"}},
                        "respond": {"found": True, "tier": "gold"},
                    },
                    {"when": {"age": {"gt": 60}}, "respond": {"senior": True}},
                    {"when": {"blocked": True}, "error": "account blocked"},
                    {"when": {"vip": {"exists": True}}, "respond": "vip"},
                ],
            },
        }
    )
    assert b.call("crm", {"phone": "091 555"}, turn=1, index=0).result == {
        "found": True,
        "tier": "gold",
    }
    assert b.call("crm", {"age": "70"}, turn=1, index=1).result == {"senior": True}
    assert b.call("crm", {"blocked": True}, turn=1, index=2).error == "account blocked"
    assert b.call("crm", {"vip": 0}, turn=1, index=3).result == "vip"
    assert b.call("crm", {"phone": "098"}, turn=1, index=4).result == {"found": False}


def test_unknown_rule_operator_is_refused_at_load() -> None:
    with pytest.raises(ValueError, match="condition on 'x'"):
        ToolSpec.model_validate(
            {"name": "t", "stub": {"mode": "rules", "rules": [{"when": {"x": {"eval": "1"}}}]}}
        )


CAL = {"calendar": {"mon": "free", "tue": "free"}}
LIST = {"name": "find", "stub": {"mode": "stateful", "store": "calendar", "action": "list"}}
BOOK = {
    "name": "book",
    "parameters": SCHEMA,
    "stub": {
        "mode": "stateful",
        "store": "calendar",
        "action": "claim",
        "key_arg": "slot",
        "value": "{{ args.name }}",
    },
}


def test_stateful_calendar_books_then_reports_taken() -> None:
    b = box(LIST, BOOK, stores=CAL)
    assert b.call("find", {}, turn=1, index=0).result == ["mon", "tue"]
    first = b.call("book", {"slot": "mon", "name": "Ana"}, turn=2, index=0)
    assert first.result == {"ok": True, "slot": "mon"} and first.state_hash
    assert b.call("find", {}, turn=3, index=0).result == ["tue"]
    again = b.call("book", {"slot": "mon", "name": "Ivo"}, turn=3, index=1)
    assert again.error == "mon is already taken" and again.result is None
    assert b.final_state() == {"calendar": {"mon": "Ana", "tue": "free"}}
    assert again.state_hash == first.state_hash
    # Another call starts from the suite's state again.
    assert box(LIST, BOOK, stores=CAL).call("find", {}, turn=1, index=0).result == ["mon", "tue"]


@pytest.mark.parametrize("said", ["12.50", "1e3", "null", "007", "true", "48213", '{"a": 1}', 'O"Brien'])
def test_stateful_store_keeps_the_rendered_string_as_it_is(said: str) -> None:
    # stores are named string maps: "12.50" must not come back as 12.5, nor "null" as None
    b = box(BOOK, stores=CAL)
    assert b.call("book", {"slot": "mon", "name": said}, turn=1, index=0).valid
    assert b.final_state() == {"calendar": {"mon": said, "tue": "free"}}


def test_invalid_arguments_recorded_and_answered_with_error() -> None:
    b = box(BOOK, stores=CAL)
    out = b.call("book", {"slot": 5, "extra": 1}, turn=1, index=0)
    assert not out.valid
    assert out.validation_errors == ["slot: 5 is not of type 'string'"]
    assert out.error.startswith("invalid arguments") and out.result is None
    assert b.final_state()["calendar"]["mon"] == "free"


def test_invalid_arguments_can_be_answered_if_the_suite_says_so() -> None:
    spec = {
        "name": "t",
        "parameters": SCHEMA,
        "stub": {"mode": "fixed", "response": 1, "on_invalid": "answer"},
    }
    out = box(spec).call("t", {}, turn=1, index=0)
    assert not out.valid and out.result == 1 and out.validation_errors


def test_unknown_tool_is_recorded_invalid() -> None:
    out = box().call("nope", {"a": 1}, turn=1, index=0)
    assert not out.valid and "unknown tool" in out.error


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        ("timeout", "timeout after 3000 ms"),
        ("server_error", "500 Internal Server Error"),
        ("malformed", ""),
    ],
)
def test_injected_faults(fault: str, error: str) -> None:
    b = box({"name": "t", "stub": {"mode": "fixed", "response": {"ok": 1}, "faults": {fault: 1.0}}})
    out = b.call("t", {}, turn=1, index=0)
    assert out.fault == fault and out.error == error
    if fault == "malformed":
        assert out.result == '{"result": '


def test_faults_and_latency_are_seeded() -> None:
    spec = {
        "name": "t",
        "stub": {
            "mode": "fixed",
            "response": 1,
            "faults": {"server_error": 0.5},
            "latency": {"min_ms": 10, "max_ms": 500},
        },
    }
    runs = [
        [
            (o.fault, o.latency_ms)
            for o in (box(spec, seed=9).call("t", {}, turn=t, index=0) for t in range(1, 40))
        ]
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert {f for f, _ in runs[0]} == {"", "server_error"}
    assert all(10 <= ms <= 500 for _, ms in runs[0])
    other = [
        (o.fault, o.latency_ms)
        for o in (box(spec, seed=10).call("t", {}, turn=t, index=0) for t in range(1, 40))
    ]
    assert other != runs[0]


@pytest.mark.parametrize(("pattern", "value"), [("^(a+)+$", "a" * 35 + "b"), ("(a|aa)+$", "a" * 5000 + "b")])
def test_a_catastrophic_regex_never_hangs_the_call(pattern: str, value: str) -> None:
    b = box(
        {
            "name": "t",
            "stub": {"mode": "rules", "rules": [{"when": {"x": {"matches": pattern}}, "respond": "y"}]},
        }
    )
    out = b.call("t", {"x": value}, turn=1, index=0)
    # the regex engine either answers at once (no match) or the rule fails as a visible timeout
    assert out.result is None and (
        out.error == "" or (out.error.startswith("timeout:") and "budget" in out.error)
    )


def test_a_template_that_loops_forever_fails_as_a_timeout() -> None:
    loops = (
        "{% for a in args.x %}{% for b in args.x %}{% for c in args.x %}{% endfor %}{% endfor %}{% endfor %}"
    )
    b = box({"name": "t", "stub": {"mode": "template", "template": loops}})
    out = b.call("t", {"x": "a" * 2000}, turn=1, index=0)
    assert out.error.startswith("timeout:") and not out.stub_broken


def test_a_huge_template_output_is_cut_as_a_timeout() -> None:
    b = box(
        {"name": "t", "stub": {"mode": "template", "template": "{% for i in args.x %}xxxxxxxxxx{% endfor %}"}}
    )
    assert "more than 64000 characters" in b.call("t", {"x": "a" * 10000}, turn=1, index=0).error


def test_arguments_cannot_inject_keys_into_a_json_template() -> None:
    b = box(
        {
            "name": "t",
            "stub": {"mode": "template", "template": '{"phone": "{{ args.phone }}", "ok": {{ args.ok }}}'},
        }
    )
    out = b.call("t", {"phone": '091", "admin": true, "x": "', "ok": True}, turn=1, index=0)
    assert out.result == {"phone": '091", "admin": true, "x": "', "ok": True}


def test_a_template_answers_the_same_however_slow_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The render budget is counted in template steps, not read from a clock: a machine that
    stalls mid-render (here every clock read jumps a minute) gets the same answer."""
    import time

    ticks = iter(range(0, 10**9, 60))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    b = box(
        {"name": "t", "stub": {"mode": "template", "template": "{% for c in args.x %}{{ c }}{% endfor %}"}}
    )
    out = b.call("t", {"x": "abc" * 50}, turn=1, index=0)
    assert out.error == "" and out.result == "abc" * 50


def _template(template: str, args: dict[str, object] | None = None) -> ToolOutcome:
    b = box({"name": "t", "stub": {"mode": "template", "template": template}})
    return b.call("t", args or {}, turn=1, index=0)


def test_a_template_that_would_build_a_huge_value_is_refused_before_building_it() -> None:
    """A suite's template bomb is the stub's fault (a simulator error), never the agent's timeout,
    and it is refused before the value exists: 300 MB strings once cost a run 1.2 GB."""
    import tracemalloc

    tracemalloc.start()
    try:
        bombs = [
            '{"job": "{{ "A" * 300000000 }}"}',
            "{{ [1] * 100000000 }}",
            '{{ "%0300000000d" % 1 }}',
            '{{ "x" | center(300000000) }}',
            '{{ "ab" | replace("a", "' + "A" * 1000 + '") | replace("A", "' + "B" * 1000 + '") }}',
        ]
        outcomes = [_template(t, {"xs": list(range(100))}) for t in bombs]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, peak
    for t, out in zip(bombs, outcomes, strict=True):
        assert out.stub_broken and out.result is None and out.error.startswith("template failed"), (t, out)
        assert "timeout" not in out.error, out.error


def test_template_errors_are_the_same_words_on_every_run() -> None:
    """A refused call once recorded "<function safe_range at 0x7feb...>": two identical runs
    wrote different events."""
    for template in ("{{ range(100000000) }}", "{{ args.items() }}", "{{ lipsum() }}"):
        out = _template(template)
        assert out.stub_broken and "0x" not in out.error, out.error
        assert "calls are not allowed" in out.error or "undefined" in out.error, out.error


def test_small_arithmetic_and_safe_filters_still_work() -> None:
    out = _template('{"n": {{ 2 * 3 }}, "s": "{{ "ab" * 3 }}", "p": {{ 2 ** 10 }}, "m": {{ 7 % 3 }}}')
    assert out.result == {"n": 6, "s": "ababab", "p": 1024, "m": 1}, out
    out = _template(
        '{"u": "{{ args.name | upper | replace("A", "4") }}", "k": {{ args.xs | length }}}',
        {"name": "ana", "xs": [1, 2]},
    )
    assert out.result == {"u": "4N4", "k": 2}, out
