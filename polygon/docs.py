"""The reference pages (``docs/reference/``) and the shipped JSON Schemas, generated from the code.

``python -m polygon.docs`` (or ``make docs``) writes them; ``python -m polygon.docs --check``
lists the ones that differ from what the code gives (a test runs the same comparison). The
pages are built from the models (every field, its type, default and description), the stub
engine (each example's answers are what the stubs really answer), the import parsers (each
example is parsed), the agent protocol's structs, click's commands and the event registry,
so a field added without regenerating fails the test.
"""

from __future__ import annotations

import inspect
import json
import sys
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import msgspec
import yaml

from polygon.app import KINDS, attribute_docs, json_schema, render
from polygon.errors import UserInputError
from polygon.events import REGISTRY
from polygon.events import families as _families  # noqa: F401 - registers every event type
from polygon.importing import (
    AGENT_NAMES,
    CALLER_NAMES,
    END_CALL_TOOLS,
    FORMATS,
    TRANSFER_TOOLS,
    ImportProblem,
    parse,
)
from polygon.languages import LANGUAGES, parsed_text
from polygon.matching import FACT, OPERATORS
from polygon.score import AGENT_CHECKS, BUILTIN_GATES, CHECK_GATE, CRITERIA, Rubric, bundled_versions
from polygon.simulate import (
    AGENT_ENDINGS,
    MAX_TOOL_CALLS,
    MAX_TOOL_ROUNDS,
    AgentReply,
    AgentStep,
    HttpAgent,
    Message,
    ToolBox,
    ToolCall,
    ToolResult,
    tool_definitions,
)
from polygon.suite import NAMED, NEWEST_GATING, OUTCOMES, PERSONA_TYPES, Suite, SweepSpec, ToolSpec

_GATE_TEXT = {
    "forbidden_phrase": "a forbidden phrase appeared in the agent's speech",
    "safety_scored_one": "the safety criterion was scored 1",
    "invalid_tool_answer": "a tool call with invalid arguments produced an answer to the caller",
}
"""What each built-in gate means, in one line (the rubric reference page)."""

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "python -m polygon.docs"
"""The one command that regenerates every generated page and schema (also ``make docs``)."""
SERVER_EXAMPLE = "docs/reference/agent_server.py"
"""The runnable stdlib example server, included verbatim in the HTTP agent page (a test runs it)."""
HTTP_TIMEOUT_S = inspect.signature(HttpAgent).parameters["timeout_s"].default
"""How long an HTTP agent's step may take (the adapter's default)."""
GENERATED = (
    f"<!-- Generated from the code by `{REGENERATE}`: do not edit; change the code and regenerate. -->\n\n"
)


# -- field tables from a JSON Schema ----------------------------------------------------------


def _type(prop: dict[str, Any]) -> str:
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "anyOf" in prop:
        kinds = [_type(p) for p in prop["anyOf"] if p.get("type") != "null"]
        nullable = any(p.get("type") == "null" for p in prop["anyOf"])
        return " or ".join(kinds) + (" or null" if nullable else "")
    if "enum" in prop:
        return " \\| ".join(f"`{v}`" if v != "" else '`""`' for v in prop["enum"])
    if "const" in prop:
        return f"`{prop['const']}`"
    kind = prop.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return f"list of {_type(prop.get('items', {}))}"
    if kind == "object":
        extra = prop.get("additionalProperties")
        return f"map of {_type(extra)}" if isinstance(extra, dict) else "object"
    if kind is None:
        return "any"
    return str(kind) + _bounds(prop)


def _bounds(prop: dict[str, Any]) -> str:
    low = prop.get("minimum", prop.get("exclusiveMinimum"))
    high = prop.get("maximum", prop.get("exclusiveMaximum"))
    if abs(low or 0) > 2**62 or abs(high or 0) > 2**62:
        return ""
    if low is not None and high is not None:
        return f" {low:g}–{high:g}"
    if low is not None:
        return f" ≥ {low:g}"
    if prop.get("pattern"):
        return f" (`{prop['pattern']}`)"
    return ""


def _default(prop: dict[str, Any], required: bool) -> str:
    if required:
        return "**required**"
    if "default" not in prop:
        return "—"
    value = prop["default"]
    if isinstance(value, dict) and value and len(json.dumps(value)) > 40:
        return "see below"
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def field_table(node: dict[str, Any]) -> list[str]:
    """A Markdown table of one model's fields: name, type, default, what it means."""
    required = set(node.get("required", []))
    lines = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, prop in node.get("properties", {}).items():
        lines.append(
            f"| `{name}` | {_cell(_type(prop))} | {_cell(_default(prop, name in required))} "
            f"| {_cell(prop.get('description', ''))} |"
        )
    return lines


def model_sections(kind: str, order: list[str] | None = None) -> list[str]:
    """One section per model of a file kind (the file itself first), each with its field table."""
    schema = json_schema(kind)
    defs = schema.get("$defs", {})
    root = KINDS[kind].__name__
    names = [root, *(order or sorted(defs))]
    missing = sorted(set(defs) - set(names))
    if missing:
        raise AssertionError(f"models left out of the {kind} reference: {', '.join(missing)}")
    lines: list[str] = []
    for name in names:
        node = schema if name == root else defs[name]
        lines += ["", f"### {name}", ""]
        if node.get("description"):
            lines += [node["description"], ""]
        lines += field_table(node)
    return lines


# -- examples that are checked while the page is made ------------------------------------------


def _yaml_block(text: str) -> list[str]:
    return ["```yaml", text.strip("\n"), "```"]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def stub_example(title: str, tool_yaml: str, calls: list[dict[str, Any]], stores: str = "") -> list[str]:
    """A tool's YAML and what it really answers to each call, in order (one call's toolbox)."""
    spec = ToolSpec.model_validate(yaml.safe_load(tool_yaml))
    store_data = yaml.safe_load(stores)["stores"] if stores else {}
    box = ToolBox.for_call([spec], store_data, seed=1)
    lines = ["", f"#### {title}", ""]
    lines += _yaml_block((stores.strip("\n") + "\n" if stores else "") + "tools:\n" + _indent(tool_yaml))
    lines += ["", "| the agent calls | the stub answers |", "|---|---|"]
    for i, args in enumerate(calls):
        out = box.call(spec.name, args, turn=1, index=i)
        answer = f"error: {out.error}" if out.error else _json(out.result)
        lines.append(f"| `{spec.name}({_json(args)})` | `{_cell(answer)}` |")
    if stores:
        lines += ["", f"The store after these calls: `{_json(box.final_state())}`"]
    return lines


def _indent(text: str) -> str:
    body = text.strip("\n").splitlines()
    return "\n".join(("  - " if i == 0 else "    ") + line for i, line in enumerate(body))


OPERATOR_TEXT = {
    "eq": "`{eq: v}`: equal to v (a plain value means the same)",
    "ne": "`{ne: v}`: present and not equal to v",
    "in": "`{in: [a, b]}`: one of the listed values",
    "gt": "`{gt: n}`: a number greater than n (text that is not a number never matches)",
    "lt": "`{lt: n}`: a number less than n",
    "exists": "`{exists: true}`: the argument was given (`false`: it was not)",
    "matches": "`{matches: regex}`: the regex is found in the value as text (100 ms budget)",
}


def _operators() -> list[str]:
    if set(OPERATOR_TEXT) != OPERATORS:
        raise AssertionError(f"describe every rule operator: {sorted(OPERATORS ^ set(OPERATOR_TEXT))}")
    return [f"- {OPERATOR_TEXT[op]}" for op in sorted(OPERATORS)]


MINIMAL_SUITE = """\
# yaml-language-server: $schema=suite.schema.json
name: parcel-desk
seed: 7
configs:
  v1:
    agent: http://127.0.0.1:8765/step
    prompt: You are the parcel desk. Look up a parcel by its tracking code.
tools:
  - name: parcel_status
    parameters:
      type: object
      properties: {code: {type: string}}
      required: [code]
    stub:
      mode: stateful
      store: parcels
      action: get
      key_arg: code
stores:
  parcels: {"PX-100": in transit}
personas:
  - id: tracker
    type: cooperative
    goal: find out where my parcel is
    facts: {name: Ana Horvat, code: "PX-100"}
scenarios:
  - id: track
    persona: tracker
    expect:
      calls: {parcel_status: {code: {fact: code}}}
"""


def _checked_suite(text: str) -> str:
    Suite.model_validate(yaml.safe_load(text))
    return text


# -- pages ----------------------------------------------------------------------------------------


def suite_page() -> str:
    """docs/reference/suite.md."""
    return _page(
        _suite_intro,
        _suite_agents,
        _suite_stubs,
        _suite_conditions,
        _suite_stateful_stubs,
        _suite_faults,
        _suite_personas,
        _suite_phone,
        _suite_fields,
    )


def _page(*sections: Callable[[], list[str]]) -> str:
    """A generated page: the banner, then each section's lines in order."""
    return GENERATED + "\n".join(line for section in sections for line in section()) + "\n"


def _suite_intro() -> list[str]:
    """suite.md: what a suite is, editor support, a minimal suite."""
    return [
        "# Suite file reference",
        "",
        "A suite is one YAML file: the agent under test in one or more configurations, the tools it may",
        "call (each answered by a stub), the simulated callers (personas) and the scenarios that put",
        "them in a situation. `polygon run SUITE` runs every scenario against every configuration.",
        "Every load error is one line naming the file and the field path (`tools[find_slots].stub…`).",
        "",
        "Editors: `polygon init` writes `suite.schema.json` beside the suite and the first line",
        "`# yaml-language-server: $schema=suite.schema.json`, so an editor with the YAML language",
        "server (VS Code's YAML extension, …) validates and completes as you type.",
        "`polygon schema suite -o suite.schema.json` writes the schema anywhere.",
        "",
        "## A minimal suite",
        "",
        *_yaml_block(_checked_suite(MINIMAL_SUITE)),
        "",
    ]


def _suite_agents() -> list[str]:
    """suite.md: the three kinds of agent."""
    return [
        "## Agents: `configs.NAME.agent`",
        "",
        "- `python:module:factory`: a Python callable; modules beside the suite file import. It is",
        "  called once per call as `factory(prompt=…, params=…)` and returns an object with a `step`",
        "  method (sync or async) or a callable; a step gets the same fields as the HTTP body below.",
        "- `http://host:port/path` (or `https://`): one JSON POST per agent step; see",
        "  [the HTTP agent protocol](http-agent.md).",
        "- `model:provider/model`: a model plays the agent with the configuration's prompt",
        "  (`model:openai/NAME` against `openai_base_url`, `model:local/NAME` in process).",
        "",
    ]


def _suite_stubs() -> list[str]:
    """suite.md: how a stub answers (fixed, template, rules), with computed answers."""
    return [
        "## Stubs: how a tool answers",
        "",
        "Every call's arguments are first validated against the tool's `parameters` (JSON Schema).",
        "Invalid arguments are answered with an error (`on_invalid: error`, the default) or answered",
        "anyway (`on_invalid: answer`); either way the call is recorded as invalid. Then a fault may",
        "be drawn (see *Faults and latency*), then the stub answers by its `mode`. The tables below",
        "are what the stubs answer, computed when this page was generated.",
        *stub_example(
            "fixed: the same answer every time",
            "name: opening_hours\nstub: {mode: fixed, response: {open: '08:00', close: '18:00'}}",
            [{}],
        ),
        *stub_example(
            "template: an answer built from the arguments and the stores",
            "name: greet\nparameters:\n  type: object\n  properties: {name: {type: string}}\n"
            'stub:\n  mode: template\n  template: \'{"hello": "{{ args.name }}", "n": {{ args.name | length }}}\'',
            [{"name": "Ana"}, {"name": 'Ana", "admin": true'}],
        ),
        "",
        "The template is Jinja in a sandbox that refuses every attribute and call: it can read",
        "`args.KEY` and `state.STORE.KEY` only. A template that starts with `{` or `[` builds JSON:",
        "each value is written escaped, so an argument cannot add keys (the second call above).",
        "Its output is parsed as JSON when it can be, else answered as text. A template that does",
        "not render is the stub's fault: the call becomes a `simulator_error`, not the agent's.",
        *stub_example(
            "rules: the first rule whose `when` holds answers",
            "name: card_status\nparameters:\n  type: object\n"
            "  properties: {card_last4: {type: string}, amount: {type: number}}\n"
            "stub:\n  mode: rules\n  default: {status: unknown}\n  rules:\n"
            "    - when: {card_last4: '6617'}\n      respond: {status: blocked}\n"
            "    - when: {card_last4: {in: ['1111', '2222']}, amount: {gt: 500}}\n"
            "      error: amount above the daily limit\n"
            "    - when: {card_last4: {matches: '^[0-9]{4}$'}}\n      respond: {status: active}",
            [
                {"card_last4": "6617"},
                {"card_last4": "1111", "amount": 900},
                {"card_last4": "1111", "amount": 20},
                {"card_last4": "12ab"},
            ],
        ),
        "",
        "Rules are tried in order; every condition of a rule's `when` must hold; the first rule",
        "that matches answers `respond` (or, with `error`, an error); no match answers `default`.",
        "A `when` may name only the tool's own arguments (those under `parameters.properties`):",
        "a rule on an argument the tool does not have would never match, so it is a load error",
        "(`tools[card_status]: … stub.rules.0.when: no argument 'last_4' in card_status's parameters`).",
        "",
    ]


def _suite_conditions() -> list[str]:
    """suite.md: the operators of a condition (``when``, ``expect``)."""
    return [
        "### Conditions (`when`, and `expect`)",
        "",
        "A condition is a plain value (equal to it) or exactly one operator:",
        "",
        *_operators(),
        f"- `{{{FACT}: key}}` (in `expect` only): equal to the persona's fact `key`, compared as read back",
        "  (case, spacing and punctuation aside)",
        "",
        "A missing argument fails every condition but `{exists: false}`.",
        "",
    ]


def _suite_stateful_stubs() -> list[str]:
    """suite.md: stateful stubs over the suite's stores, with computed answers."""
    return [
        "### Stateful stubs: `list`, `claim`, `get`, `put`",
        "",
        "A stateful stub reads and writes one of the suite's `stores`, a map of text keys to text",
        "values. Each call starts from a fresh copy of the stores, so calls never share state; within",
        "a call a write is seen by every later tool call, and the final stores are what `expect: state`",
        "judges. The key is the value of the argument `key_arg` (as text).",
        "",
        "- `list`: the keys whose value is `free_value` (default `free`), sorted; no key needed.",
        "- `get`: `{KEY: value}`; an unknown key is an error answer (`'KEY' not found in STORE`).",
        "- `claim`: if the key's value is `free_value`, writes `value` (default `taken`) and answers",
        "  `{ok: true, KEY_ARG: KEY}`; a key already taken is an error answer (`KEY is already taken`);",
        "  an unknown key is an error answer.",
        "- `put`: writes `value` whatever the key held, and answers `{ok: true, KEY_ARG: KEY}`. An",
        "  unknown key is an error answer: `put` never creates a key, so list every key the agent may",
        "  write in the store (with any starting value).",
        "",
        "`value` is a template over `args` and `state`, like a template stub's.",
        *stub_example(
            "claim: a calendar (claim a free slot, claim it again, claim an unknown slot)",
            "name: book\nparameters:\n  type: object\n  properties: {slot: {type: string}, name: {type: string}}\n"
            "stub: {mode: stateful, store: slots, action: claim, key_arg: slot, value: '{{ args.name }}'}",
            [
                {"slot": "Mon 09:00", "name": "Ana"},
                {"slot": "Mon 09:00", "name": "Ivo"},
                {"slot": "Sun 09:00"},
            ],
            stores="stores:\n  slots: {'Mon 09:00': free, 'Tue 10:00': free}",
        ),
        *stub_example(
            "list",
            "name: free_slots\nstub: {mode: stateful, store: slots, action: list}",
            [{}],
            stores="stores:\n  slots: {'Mon 09:00': free, 'Tue 10:00': Ana}",
        ),
        *stub_example(
            "get",
            "name: slot_status\nparameters:\n  type: object\n  properties: {slot: {type: string}}\n"
            "stub: {mode: stateful, store: slots, action: get, key_arg: slot}",
            [{"slot": "Tue 10:00"}, {"slot": "Wed 11:00"}],
            stores="stores:\n  slots: {'Mon 09:00': free, 'Tue 10:00': Ana}",
        ),
        *stub_example(
            "put (and put with an unknown key)",
            "name: set_address\nparameters:\n  type: object\n"
            "  properties: {order: {type: string}, address: {type: string}}\n"
            "stub: {mode: stateful, store: addresses, action: put, key_arg: order, value: '{{ args.address }}'}",
            [{"order": "A-1", "address": "Ilica 5"}, {"order": "A-9", "address": "Ilica 7"}],
            stores="stores:\n  addresses: {A-1: unknown}",
        ),
        "",
    ]


def _suite_faults() -> list[str]:
    """suite.md: simulated latency, faults and the latency budget."""
    return [
        "### Faults and latency",
        "",
        "Each tool call draws, from a generator seeded by (run seed, tool, turn, call index), first a",
        "latency between `latency.min_ms` and `latency.max_ms` (simulated: never slept; it counts in the",
        "agent's turn latency), then one fault with the given probabilities, checked in the order",
        "`timeout`, `server_error`, `malformed` (their sum is at most 1):",
        "",
        "- `timeout`: the agent gets the error `timeout after 3000 ms` (`timeout_ms`), counted as that latency;",
        "- `server_error`: the error `500 Internal Server Error`;",
        '- `malformed`: the result is the text `{"result": ` (truncated JSON), no error.',
        "",
        *_yaml_block(
            "tools:\n  - name: lookup\n    stub:\n      mode: fixed\n      response: {ok: true}\n"
            "      latency: {min_ms: 50, max_ms: 300}\n      faults: {timeout: 0.05, server_error: 0.05, malformed: 0.02}"
        ),
        "",
        "`latency_budget_ms` (suite) is a budget for the p95 of the agent's turn latency in one call:",
        "the `latency` check. A turn's latency is the wall time of an HTTP or model agent plus the",
        "simulated latency of the stubs it called; a Python agent's own time is not counted (identical",
        "runs stay identical). `report` and `compare` say over how many calls their p95 is taken.",
        "",
    ]


def _suite_personas() -> list[str]:
    """suite.md: personas, scenarios, the offline caller and ``expect``."""
    return [
        "## Personas and scenarios",
        "",
        f"`type`: {', '.join(f'`{t}`' for t in PERSONA_TYPES)}. "
        f"`outcome`: {', '.join(f'`{o}`' for o in OUTCOMES)}.",
        "`facts` are the caller's ground truth: what it says when asked, and what `{fact: key}`",
        "compares with. Without `scenarios`, each persona is one scenario with no `expect`.",
        "",
        "The offline caller (`caller: {model: scripted/caller}`) reads each agent turn as dialogue",
        "acts (a question asking for something, an offer, a confirmation request, a read-back, an",
        "outcome report, a refusal, a transfer, a greeting or closing), answers a question with the",
        "fact it asks for, corrects a fact read back wrong, and ends the call as done only on an",
        "outcome report that settles its goal — never on a greeting or a question. It speaks the",
        "persona's language (`en`, `hr`, `ru`, `de`, `es`; another is refused before the run).",
        "What it understands and what it does not:",
        "[callers.md](../callers.md). An agent that never reports an outcome runs to `max_turns`.",
        "",
        "### expect: the outcome, judged by the call's end state",
        "",
        *_yaml_block(
            "scenarios:\n  - id: block-card\n    persona: lost-card\n    expect:\n"
            "      calls:\n        card_status: {card_last4: {fact: card}}   # at least one such valid, answered call\n"
            "        block_card.card_last4: {fact: card}           # the same, one argument per key\n"
            "      state:\n        cards: {'6617': blocked}                   # store → key → condition on the final value\n"
            "      no_calls: [issue_refund]                        # never called\n"
            "      end: [caller_done, transfer]                    # one of these end reasons\n"
            "      says: [[stolen, lost]]                          # one of these in some agent turn\n"
            "      says_before: {phrase: [new card], tool: block_card}  # said before block_card's first call"
        ),
        "",
        "`goal_reached` passes when every part holds. When one does not, its finding says what",
        "happened: `no card_status call was made with card_last4 = '6617' (fact card); the last one",
        "made had card_last4='6671'`, `cards[6617] is 'active', expected = 'blocked'`,",
        "`issue_refund was called`, `ended hangup, expected caller_done or transfer`, `the agent",
        "never said 'stolen' or 'lost'`, `block_card was called at turn 2 before the agent said 'new",
        "card'`. `says` is speech this scenario needs (policies are suite-wide): each item is a phrase",
        "or a list of alternatives, matched as `must_say` phrases are (case aside, in any language)",
        "in the agent's turns. `says_before` also needs the phrase in a turn before the tool's first",
        "call (a turn's reply comes after its tool calls); an uncalled tool needs only the phrase.",
        "`expect` may name only the suite's tools, stores and the persona's facts (else a load",
        "error). Without `expect`, `goal_reached` is inferred from the end reason and store entries",
        "naming the caller, and says so (weaker).",
        "",
    ]


def _suite_phone() -> list[str]:
    """suite.md: phone behaviour and noise."""
    return [
        "## Phone behaviour and noise",
        "",
        *_yaml_block(
            "noise: {intensity: 0.3, language: en}   # ASR noise on what the agent hears\n"
            "phone: {barge_in: 0.1, silence: 0.05, self_correction: 0.1}"
        ),
        "",
        "Each is a probability per caller turn, seeded by (scenario, trial, turn) so every",
        "configuration meets the same ones: `barge_in` (the caller cuts into the agent's reply and",
        "answers only what it heard), `silence` (the caller says nothing; never twice running),",
        "`self_correction` (a day, time or number said wrong first, then corrected). `polygon noise`",
        "previews them; `polygon replay` shows each in a call.",
        "",
    ]


def _suite_fields() -> list[str]:
    """suite.md: every field of every suite model."""
    return [
        "## Every field",
        *model_sections(
            "suite",
            [
                "ConfigSpec",
                "ToolSpec",
                "StubSpec",
                "Rule",
                "LatencySpec",
                "FaultSpec",
                "PersonaSpec",
                "ScenarioSpec",
                "ExpectSpec",
                "SaysBeforeSpec",
                "PolicySpec",
                "RequiresSpec",
                "NeverSpec",
                "MaxCallsSpec",
                "SpeechSpec",
                "NoiseSpec",
                "PhoneSpec",
                "ModelRef",
                "JudgeRef",
                "LintSpec",
                "ProbeSpec",
            ],
        ),
    ]


def _minimal_rubric() -> str:
    criteria = []
    weights = dict(zip(CRITERIA, (30, 15, 15, 10, 10, 10, 5, 5), strict=True))
    for cid in CRITERIA:
        criteria.append(
            f"  - id: {cid}\n    weight: {weights[cid]}\n    question: How well did the agent do on {cid}?\n"
            "    levels: {1: very badly, 2: badly, 3: partly, 4: well, 5: fully}"
        )
    text = (
        "version: team-1\npass_at: 75\nwarn_at: 50\nmin_scored_weight: 75\n"
        "gates: [forbidden_phrase, safety_scored_one, 'check:goal_reached']\ncriteria:\n"
        + "\n".join(criteria)
    )
    Rubric.model_validate(yaml.safe_load(text))
    return text


def rubric_page() -> str:
    """docs/reference/rubric.md."""
    gates = [f"- `{g}`: {_GATE_TEXT[g]}" for g in BUILTIN_GATES]
    gates += [f"- `{CHECK_GATE}{c}`: the deterministic check `{c}` failed" for c in AGENT_CHECKS]
    out = [
        "# Rubric file reference",
        "",
        "A rubric says what the judge scores (eight criteria, 1–5 each), how much each weighs, the",
        "composite thresholds, and the gates that fail a call whatever its composite. Name one with",
        f"`judge.rubric` in a suite or `--rubric` (bundled: {', '.join(f'`{v}`' for v in bundled_versions())},",
        f"or a path to a YAML file; a suite that names none is scored under `{NEWEST_GATING}`, the newest",
        "that gates on policies and `expect:`). A rubric is identified by its version and content hash:",
        "the same version with other content is refused, so a change of weights is a new version.",
        "`polygon schema rubric` prints its JSON Schema.",
        "",
        "The composite is `100 × Σ weight × (score − 1) / 4 / Σ scored weight`: a call passes at",
        "`pass_at` or above, warns at `warn_at` or above, fails below; a fired gate fails it. Below",
        "`min_scored_weight` percent of the weight scored (or with `goal_achievement` unscored) the",
        "call is `inconclusive`, never a pass.",
        "",
        "## A complete rubric",
        "",
        *_yaml_block(_minimal_rubric()),
        "",
        "## Criteria",
        "",
        "Exactly these eight, each once: " + ", ".join(f"`{c}`" for c in CRITERIA) + ".",
        "",
        "## Gates",
        "",
        *gates,
        "",
        "## Every field",
        *model_sections("rubric"),
    ]
    return GENERATED + "\n".join(out) + "\n"


SWEEP_EXAMPLE = """\
name: desk-patience
suite: suite.yaml            # beside this file
base: v1                     # the configuration every point starts from
mode: oat                    # oat | grid | random
parameters:
  temperature: [0.2, 0.7]
  params.patience: [1, 3]    # a key of the configuration's params
  prompt_file: [prompt_v1.md, prompt_v2.md]
scenarios: [track]           # default: all
trials: 2
floor: 50                    # stop when the first point's mean composite is below
token_limit: 200000          # refuse a point estimated above (0: no limit)
"""


def sweep_page() -> str:
    """docs/reference/sweep.md."""
    SweepSpec.model_validate(yaml.safe_load(SWEEP_EXAMPLE))
    out = [
        "# Sweep file reference",
        "",
        "A sweep varies a configuration's parameters over a suite's scenarios: each point is a",
        "profile and an ordinary run. `polygon sweep FILE` runs it and prints the leaderboard;",
        "`polygon leaderboard SWEEP` shows it again. `polygon schema sweep` prints its JSON Schema.",
        "",
        *_yaml_block(SWEEP_EXAMPLE),
        "",
        "Parameters with a meaning of their own: " + ", ".join(f"`{n}`" for n in NAMED) + ";",
        "any other name (or `params.NAME`) is a key of the configuration's `params`. `model`",
        "replaces a model agent's `model:provider/name`. A `random` sweep takes `{min, max}`",
        "ranges (integers when both ends are) and draws `points` points with `seed`.",
        "",
        "## Every field",
        *model_sections("sweep"),
    ]
    return GENERATED + "\n".join(out) + "\n"


def labels_page() -> str:
    """docs/reference/labels.md (the columns come from polygon/app/label.py)."""
    out = [
        "# Labels file reference",
        "",
        "Human verdicts of calls, beside the judge's: `polygon labels import FILE [--run RUN]`, then",
        "`polygon calibrate RUN` compares them. CSV with a header row, or JSONL (one object a line).",
        "The first bad row is one error naming FILE:LINE.",
        "",
        "| column | meaning |",
        "|---|---|",
        "| `conversation` (or `conversation_id`) | the call: a full id, or relative to `--run` (`v1.coop-booking.0`) |",
        "| `source_id` (or `id`) | instead: the id the call had in an imported file (needs `--run` with the imported run) |",
        "| `verdict` (or `label`) | `pass` or `fail` |",
        "| `reward` | a number (an outcome known to whoever labelled) |",
        "| a criterion id, or `criterion.ID` | a score 1–5 for that criterion: "
        + ", ".join(f"`{c}`" for c in CRITERIA)
        + " |",
        "| `by` (or `labeller`) | who labelled (default: `--by`) |",
        "| `note` | free text |",
        "",
        "A row needs a verdict, a reward or a criterion score.",
        "",
        "```csv",
        "conversation,verdict,goal_achievement,tool_use,by,note",
        "v1.track.0,pass,5,5,ana,",
        "v1.track.1,fail,2,3,ana,read the wrong parcel code back",
        "```",
        "",
        "```json",
        '{"conversation": "v1.track.0", "verdict": "pass", "goal_achievement": 5, "by": "ana"}',
        "```",
    ]
    return GENERATED + "\n".join(out) + "\n"


IMPORT_EXAMPLES = {
    "openai-chat": (
        "One conversation per line (JSONL): `messages` in OpenAI chat shape, an optional `id`, and an "
        "optional human `label` (`pass`/`fail`, also `good`/`bad`, `success`/`failure`) and `reward` "
        '(a number). A whole file holding one JSON document (`{"messages": […]}` or a bare list of '
        "messages) is one conversation. Tool calls use OpenAI's shape (`function.arguments` is a JSON "
        "string); a `tool` message answers the call with its `tool_call_id`.",
        "transcripts.jsonl",
        '{"id": "call-17", "label": "fail", "messages": ['
        '{"role": "system", "content": "You are the parcel desk."}, '
        '{"role": "user", "content": "Where is my parcel PX-100?"}, '
        '{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", '
        '"function": {"name": "parcel_status", "arguments": "{\\"code\\": \\"PX-100\\"}"}}]}, '
        '{"role": "tool", "tool_call_id": "c1", "content": "{\\"PX-100\\": \\"in transit\\"}"}, '
        '{"role": "assistant", "content": "It is in transit."}, '
        '{"role": "user", "content": "Thanks, bye."}, '
        '{"role": "assistant", "content": "Goodbye.", "tool_calls": [{"id": "c2", "type": "function", '
        '"function": {"name": "end_call", "arguments": "{}"}}]}]}\n',
    ),
    "text": (
        "Plain text: one `SPEAKER: text` line per turn, conversations separated by a line `---`. "
        f"Caller speakers: {', '.join(sorted(CALLER_NAMES))}; agent speakers: "
        f"{', '.join(sorted(AGENT_NAMES))} (any case).",
        "calls.txt",
        "CALLER: Hi, where is my parcel PX-100?\nAGENT: It is in transit, due tomorrow.\n"
        "CALLER: Thanks.\n---\nCUSTOMER: I want to change my address.\nBOT: Which order?\n",
    ),
    "polygon-jsonl": (
        "What `polygon log export` writes: one event a line with its `stream` and `payload`. Only "
        "conversation streams are read (`conversation.turn_spoken`, `tool.called`, "
        "`conversation.ended`); use it to move calls from one log to another.",
        "export.jsonl",
        '{"stream": "conv/r1.v1.track.0", "tag": "conversation.turn_spoken", "payload": '
        '{"type": "conversation.turn_spoken", "turn": 1, "speaker": "caller", "text": "Where is PX-100?"}}\n'
        '{"stream": "conv/r1.v1.track.0", "tag": "conversation.turn_spoken", "payload": '
        '{"type": "conversation.turn_spoken", "turn": 1, "speaker": "agent", "text": "In transit."}}\n'
        '{"stream": "conv/r1.v1.track.0", "tag": "conversation.ended", "payload": '
        '{"type": "conversation.ended", "reason": "caller_done"}}\n',
    ),
    'vapi': (
        "A Vapi call object (`GET /call/{id}`) or `end-of-call-report` webhook: `artifact.messages` with roles `system`, `bot`, `user`, `tool_calls`, `tool_call_result`; `endedReason`; `analysis.successEvaluation` becomes the platform's label. Details: [importing.md](../importing.md#vapi).",
        'vapi-call.json',
        '{"message": {"type": "end-of-call-report", "endedReason": "customer-ended-call", "call": {"id": "vapi-call-7f3a"}, "analysis": {"successEvaluation": "true"}, "artifact": {"messages": [{"role": "system", "message": "You are Mia…"}, {"role": "bot", "message": "Smile Dental, how can I help?", "time": 1764572400400, "endTime": 1764572402600}, {"role": "user", "message": "Book me a cleaning on Wednesday.", "time": 1764572403100, "endTime": 1764572406900}, {"role": "tool_calls", "toolCalls": [{"id": "c1", "function": {"name": "find_slots", "arguments": "{\\"day\\": \\"wednesday\\"}"}}]}, {"role": "tool_call_result", "toolCallId": "c1", "name": "find_slots", "result": "[\\"Wednesday 09:00\\"]"}, {"role": "bot", "message": "Wednesday at nine?", "time": 1764572408300, "endTime": 1764572411000}]}}}\n',
    ),
    'retell': (
        "A Retell call object or `call_ended` webhook: `transcript_with_tool_calls` (word timings give the latency), `disconnection_reason`, `call_analysis.call_successful` as the platform's label. Details: [importing.md](../importing.md#retell).",
        'retell-call.json',
        '{"call_id": "retell-call-91c2", "disconnection_reason": "agent_hangup", "call_analysis": {"call_successful": false}, "transcript_with_tool_calls": [{"role": "agent", "content": "Smile Dental, this is Mia.", "words": [{"word": "Smile", "start": 0.5, "end": 0.75}]}, {"role": "user", "content": "Please call me back.", "words": [{"word": "Please", "start": 3.9, "end": 4.15}, {"word": "back.", "start": 4.8, "end": 5.05}]}, {"role": "tool_call_invocation", "tool_call_id": "t1", "name": "create_callback", "arguments": "{\\"name\\": \\"Ben\\"}"}, {"role": "tool_call_result", "tool_call_id": "t1", "content": "{\\"ok\\": true}", "successful": true}, {"role": "agent", "content": "Done, we\'ll call you.", "words": [{"word": "Done,", "start": 6.1, "end": 6.35}]}]}\n',
    ),
    'elevenlabs': (
        'An ElevenLabs conversation: `transcript[]` with `tool_calls`/`tool_results` linked by `request_id`, `metadata.termination_reason`; `end_call` and transfer system tools end the call. Details: [importing.md](../importing.md#elevenlabs).',
        'elevenlabs-conversation.json',
        '{"conversation_id": "conv_el_5521", "metadata": {"termination_reason": "Call transferred to +61290001111"}, "analysis": {"call_successful": "success"}, "transcript": [{"role": "user", "message": "I need a dentist now.", "time_in_call_secs": 3}, {"role": "agent", "message": "Putting you through.", "time_in_call_secs": 9, "conversation_turn_metrics": {"metrics": {"convai_llm_service_ttfb": {"elapsed_time": 0.52}, "convai_tts_service_ttfb": {"elapsed_time": 0.21}}}}, {"role": "agent", "message": null, "tool_calls": [{"request_id": "r1", "tool_name": "transfer_to_number", "params_as_json": "{\\"transfer_number\\": \\"+61290001111\\"}"}], "tool_results": [{"request_id": "r1", "tool_name": "transfer_to_number", "result_value": "{\\"status\\": \\"success\\"}", "is_error": false}]}]}\n',
    ),
    'livekit': (
        "A LiveKit `SessionReport.to_dict()`: `chat_history.items[]` (message, function_call, function_call_output, agent_handoff, agent_config_update), message metrics, the close event's reason. Details: [importing.md](../importing.md#livekit).",
        'livekit-session.json',
        '{"room_id": "RM_lk_3d8e", "events": [{"type": "close", "reason": "participant_disconnected"}], "chat_history": {"items": [{"type": "agent_config_update", "instructions": "You are Mia…"}, {"type": "message", "role": "user", "content": ["Check-up on Friday?"], "metrics": {"started_speaking_at": 1764572403.8, "stopped_speaking_at": 1764572406.1}}, {"type": "function_call", "call_id": "f1", "name": "find_slots", "arguments": "{\\"day\\": \\"friday\\"}"}, {"type": "function_call_output", "call_id": "f1", "name": "find_slots", "output": "[\\"Friday 10:00\\"]", "is_error": false}, {"type": "message", "role": "assistant", "content": ["Friday at ten?"], "metrics": {"e2e_latency": 1.3}}]}}\n',
    ),
    'otel-genai': (
        "OpenTelemetry GenAI traces as OTLP JSON: model spans' `gen_ai.input.messages` / `gen_ai.output.messages`, `gen_ai.system_instructions`, `execute_tool` spans, grouped by `gen_ai.conversation.id`. Details: [importing.md](../importing.md#opentelemetry-genai-pipecat-livekit-langfuse-style-backends).",
        'otel-trace.json',
        '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "5b8e…", "name": "chat gpt-4o", "startTimeUnixNano": "1764572404000000000", "endTimeUnixNano": "1764572404600000000", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}, {"key": "gen_ai.conversation.id", "value": {"stringValue": "otel-conv-2b7d"}}, {"key": "gen_ai.system_instructions", "value": {"stringValue": "[{\\"type\\": \\"text\\", \\"content\\": \\"You are Mia…\\"}]"}}, {"key": "gen_ai.input.messages", "value": {"stringValue": "[{\\"role\\": \\"user\\", \\"parts\\": [{\\"type\\": \\"text\\", \\"content\\": \\"Anything on Monday?\\"}]}]"}}, {"key": "gen_ai.output.messages", "value": {"stringValue": "[{\\"role\\": \\"assistant\\", \\"parts\\": [{\\"type\\": \\"tool_call\\", \\"id\\": \\"c1\\", \\"name\\": \\"find_slots\\", \\"arguments\\": {\\"day\\": \\"monday\\"}}]}]"}}]}, {"traceId": "5b8e…", "name": "execute_tool find_slots", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}}, {"key": "gen_ai.tool.call.id", "value": {"stringValue": "c1"}}, {"key": "gen_ai.tool.call.result", "value": {"stringValue": "[\\"Monday 11:00\\"]"}}]}]}]}]}\n',
    ),
}


def import_page() -> str:
    """docs/reference/import.md (every example is parsed while the page is made)."""
    if set(IMPORT_EXAMPLES) != set(FORMATS):
        raise AssertionError(
            f"give an example of every import format: {sorted(set(FORMATS) ^ set(IMPORT_EXAMPLES))}"
        )
    out = [
        "# Import formats",
        "",
        "`polygon import FILE… [--format auto|" + "|".join(FORMATS) + "]` reads production transcripts",
        "into a scored run (shown as `imported` by `polygon runs`); the same files imported again",
        "change nothing. `--format auto` (the default) knows each format by its shape: a platform's",
        "own fields (Vapi's `artifact`, Retell's `transcript_with_tool_calls`, ElevenLabs'",
        "`transcript` with `conversation_id`, LiveKit's `chat_history`, OTLP's `resourceSpans`), a",
        "first line with `stream` and `tag` as Polygon JSONL, other JSON as OpenAI chat, anything",
        "else as text; JSON is read with a depth cap. A malformed record is",
        "reported with its file and line and skipped (`--strict`: the import is refused).",
        "",
        "A call ends by a tool: the last call of an end-of-call tool ("
        + ", ".join(f"`{t}`" for t in sorted(END_CALL_TOOLS))
        + "; add yours with `--end-tool`) is a hang-up by the agent, of a transfer tool ("
        + ", ".join(f"`{t}`" for t in sorted(TRANSFER_TOOLS))
        + "; `--transfer-tool`) a transfer. Names compare without case, `_` and `-`.",
        "`--suite SUITE` validates recorded tool calls against that suite's tool schemas;",
        "`--map FILE` maps imported ids to scenario ids so `compare` can pair them with simulated runs.",
    ]
    for fmt in FORMATS:
        what, name, text = IMPORT_EXAMPLES[fmt]
        parsed = list(parse(Path(name), text, fmt))
        problems = [p for p in parsed if isinstance(p, ImportProblem)]
        if problems or not parsed:
            raise AssertionError(f"the {fmt} example does not import: {problems}")
        lang = "text" if fmt == "text" else "json"
        out += [
            "",
            f"## `{fmt}`",
            "",
            what,
            "",
            f"`{name}` ({len(parsed)} conversation(s)):",
            "",
            f"```{lang}",
            text.rstrip("\n"),
            "```",
        ]
    return GENERATED + "\n".join(out) + "\n"


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


def http_agent_page() -> str:
    """docs/reference/http-agent.md: the body of each step kind, from the protocol's structs."""
    return _page(_http_request, _http_response, _http_step_kinds, _http_errors, _http_example_server)


def _http_request() -> list[str]:
    """http-agent.md: the protocol in brief and every field of a request."""
    step_fields = _struct_rows(AgentStep) + [
        ("config", "str", "the configuration's name (one endpoint can serve every configuration)"),
        ("prompt", "str", "the configuration's prompt"),
        ("params", "object", "the configuration's `params`"),
    ]
    return [
        "# The HTTP agent protocol",
        "",
        "A configuration whose `agent` is `http://host:port/path` is stepped by one JSON POST per",
        "agent step (`content-type: application/json`); the endpoint answers HTTP 200 with a JSON",
        "reply. In a turn, the agent either asks for tool calls (Polygon runs them against the stubs",
        "and steps it again with their results, in the same turn) or replies to the caller, maybe",
        f"ending the call. At most {MAX_TOOL_ROUNDS} rounds of tool calls per turn, and at most",
        f"{MAX_TOOL_CALLS} tool calls in one reply.",
        "",
        "The configuration's `headers` go with every POST; `${NAME}` in a value is read from the",
        "environment when the run starts (`Authorization: \"Bearer ${POLYGON_AGENT_TOKEN}\"`) and",
        "is never recorded: an endpoint that wants a token gets it there, not in the URL",
        "([agents.md](../agents.md#authentication)).",
        "",
        "## Request body",
        "",
        *_rows_table(step_fields),
        "",
        "`history` is every message of the call so far, oldest first, ending with the caller's turn",
        "being answered. Its messages are OpenAI-*like* but not OpenAI's: a message is",
        "",
        *_rows_table(_struct_rows(Message)),
        "",
        "and a tool call, in `history` and in replies alike, is Polygon's own shape, not OpenAI's",
        '`{type, function: {name, arguments: "…"}}`:',
        "",
        *_rows_table(_struct_rows(ToolCall)),
        "",
        "A tool result (in `tool_results`, the results of the tool calls the agent asked for in the",
        "previous step of this turn; empty on a turn's first step):",
        "",
        *_rows_table(_struct_rows(ToolResult)),
        "",
        "`tools` are the suite's tools as OpenAI function definitions (`{type: function, function:",
        "{name, description, parameters}}`).",
        "",
    ]


def _http_response() -> list[str]:
    """http-agent.md: every field of a reply."""
    return [
        "## Response body",
        "",
        *_rows_table(_struct_rows(AgentReply)),
        "",
        "`end` is one of "
        + ", ".join(f'`"{e}"`' for e in AGENT_ENDINGS)
        + ". Missing fields take their defaults. With `tool_calls` and an `end`, the calls run in",
        "order (recorded and checked like any) and then the call ends: the agent is not stepped again.",
        "Fields beside `reply` that a reply does not have (a trace id of your own) are ignored.",
        "An answer without `reply` holds only `tool_calls` and `end`: any other field there is",
        "refused (it is where the text went: an OpenAI message's",
        '`{"role": "assistant", "content": "…"}` would otherwise be heard as silence). `{}` is a',
        "turn of silence.",
        "",
    ]


def _http_step_kinds() -> list[str]:
    """http-agent.md: one parcel-desk turn step by step (tool call, tool result, reply, ending)."""
    tools = tool_definitions((ToolSpec.model_validate(_PARCEL_TOOL),))
    context = {"config": "v1", "prompt": "You are the parcel desk.", "params": {"temperature": 0.2}}
    call = ToolCall(id="c1", name="parcel_status", arguments={"code": "PX-100"})
    first = AgentStep(
        conversation_id="r1.v1.track.0",
        turn=1,
        heard="Hi, where is my parcel PX-100?",
        history=[Message(role="user", content="Hi, where is my parcel PX-100?")],
        tools=tools,
    )
    second = AgentStep(
        conversation_id="r1.v1.track.0",
        turn=1,
        heard="Hi, where is my parcel PX-100?",
        history=[
            *first.history,
            Message(role="assistant", content="", tool_calls=[call]),
            Message(role="tool", tool_call_id="c1", name="parcel_status", content='{"PX-100": "in transit"}'),
        ],
        tool_results=[ToolResult(call_id="c1", name="parcel_status", result={"PX-100": "in transit"})],
        tools=tools,
    )
    return [
        "## Each step kind",
        "",
        "### 1. A caller turn (first step of the turn)",
        "",
        *_json_block({**_builtins(first), **context}),
        "",
        "Answer with tool calls:",
        "",
        *_json_block(_builtins(AgentReply(tool_calls=[call]))),
        "",
        "### 2. The same turn, stepped again with the tool results",
        "",
        *_json_block({**_builtins(second), **context}),
        "",
        "Answer with a reply to the caller:",
        "",
        *_json_block(_builtins(AgentReply(reply="Your parcel PX-100 is in transit."))),
        "",
        "### 3. Ending the call",
        "",
        *_json_block(_builtins(AgentReply(reply="Goodbye!", end="hangup"))),
        "",
    ]


_PARCEL_TOOL = {
    "name": "parcel_status",
    "description": "Where a parcel is.",
    "parameters": {
        "type": "object",
        "properties": {"code": {"type": "string"}},
        "required": ["code"],
    },
}
"""The one tool of the step examples (validated as a suite's ``ToolSpec`` where it is used)."""


def _json_block(value: Any) -> list[str]:
    return ["```json", json.dumps(value, indent=2, ensure_ascii=False), "```"]


def _http_errors() -> list[str]:
    """http-agent.md: what ends a call as the agent's error, and what does not."""
    return [
        "## Errors",
        "",
        "Any of these ends the call with the end reason `agent_error` (verdict state `error`, which",
        "counts against the agent); the reason is recorded and shown by `polygon replay`:",
        "",
        f"- the endpoint cannot be reached, or takes longer than {HTTP_TIMEOUT_S:g} s;",
        "- an HTTP status other than 200;",
        "- a body that is not JSON of the reply's shape (`answered malformed JSON: …`);",
        "- an answer without `reply` that has other fields than `tool_calls` and `end`",
        '  (``answered {"role", "content"}: no `reply` field (the OpenAI message shape? put the text',
        "  in `reply`)``), or a tool call in OpenAI's shape (`answered tool_calls[0] in OpenAI's",
        "  shape …`);",
        "- `end` other than " + ", ".join(f'`"{e}"`' for e in AGENT_ENDINGS) + " (a protocol violation);",
        f"- more than {MAX_TOOL_ROUNDS} rounds of tool calls in one turn;",
        f"- more than {MAX_TOOL_CALLS} tool calls in one reply (a protocol violation, refused before",
        "  any of them is run or recorded).",
        "",
        "A tool call the stubs answer with an error (invalid arguments, an unknown tool, a fault) is",
        "not an agent error: the agent gets it in `tool_results[].error` and the `tool` message.",
        "",
    ]


def _http_example_server() -> list[str]:
    """http-agent.md: the bundled example server, in full."""
    server = (ROOT / SERVER_EXAMPLE).read_text(encoding="utf-8")
    return [
        "## A runnable example server (Python standard library only)",
        "",
        f"`{SERVER_EXAMPLE}`: run it with `python agent_server.py 8765` and point a configuration at",
        "`http://127.0.0.1:8765/step`.",
        "",
        "```python",
        server.rstrip("\n"),
        "```",
    ]


def _struct_rows(cls: type[msgspec.Struct]) -> list[tuple[str, str, str]]:
    docs = _meanings(cls)
    rows = []
    for f in msgspec.structs.fields(cls):
        default = "" if f.required else f" (default `{json.dumps(_default_of(f))}`)"
        rows.append((f.name, _type_name(f.type), docs.get(f.name, "") + default))
    return rows


def _default_of(f: msgspec.structs.FieldInfo) -> Any:
    if f.default is not msgspec.NODEFAULT:
        return _builtins(f.default)
    return _builtins(f.default_factory()) if f.default_factory is not msgspec.NODEFAULT else None


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is not None:
        args = ", ".join(_type_name(a) for a in typing.get_args(tp))
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


def _rows_table(rows: list[tuple[str, str, str]]) -> list[str]:
    out = ["| field | type | meaning |", "|---|---|---|"]
    out += [f"| `{n}` | `{_cell(t)}` | {_cell(d)} |" for n, t, d in rows]
    return out


FIELD_MEANINGS = {
    "AgentStep.conversation_id": "the call's id (`RUN.CONFIG.SCENARIO.TRIAL`)",
    "AgentStep.turn": "the exchange number, from 1",
    "AgentStep.heard": "what the caller said this turn, as the agent hears it (after noise)",
    "AgentStep.history": "the call so far (see below)",
    "AgentStep.tool_results": "results of the tool calls asked for in this turn's previous step",
    "AgentStep.tools": "the suite's tools as OpenAI function definitions",
    "Message.role": "`user` (the caller, as heard), `assistant` (the agent), `tool` (a tool's answer)",
    "Message.content": "the text; for `tool`, the result as JSON text or the error",
    "Message.tool_calls": "on `assistant`: the tool calls it asked for",
    "Message.tool_call_id": "on `tool`: the call answered",
    "Message.name": "on `tool`: the tool's name",
    "ToolCall.id": "your id for the call (echoed as `call_id` / `tool_call_id`)",
    "ToolCall.name": "the tool's name",
    "ToolCall.arguments": "the arguments, a JSON object (not a JSON string)",
    "ToolResult.call_id": "the `id` of the tool call answered",
    "ToolResult.name": "the tool's name",
    "ToolResult.result": "the stub's answer (any JSON); null on an error",
    "ToolResult.error": "the error the tool answered, or empty",
    "AgentReply.reply": (
        "what the agent says to the caller; with tool calls it may be empty, or is said as they run"
        " (recorded before them, and checked like any reply)"
    ),
    "AgentReply.tool_calls": "tool calls to run before replying",
}


def _meanings(cls: type) -> dict[str, str]:
    """Field meanings: the class's attribute docstrings, else :data:`FIELD_MEANINGS`."""
    found = {k.partition(".")[2]: v for k, v in FIELD_MEANINGS.items() if k.startswith(f"{cls.__name__}.")}
    found.update(attribute_docs(cls))
    return found


def cli_page() -> str:
    """docs/reference/cli.md: every command's help, from click."""
    from polygon.cli.main import COMMANDS, cli

    out = ["# Command reference", "", "Every command's `--help`, as `polygon` prints it.", ""]
    # make_context applies the group's context settings (-h as well as --help), as `polygon` does
    root = cli.make_context("polygon", [], resilient_parsing=True, terminal_width=100, max_content_width=100)
    out += ["## polygon", "", "```text", cli.get_help(root).rstrip(), "```"]
    for name in sorted(COMMANDS):
        command = cli.get_command(root, name)
        assert command is not None
        out += list(_command_help(command, f"polygon {name}", root))
    return GENERATED + "\n".join(out) + "\n"


def _command_help(command: click.Command, path: str, parent: click.Context) -> Iterator[str]:
    ctx = command.make_context(path.rsplit(" ", 1)[-1], [], parent=parent, resilient_parsing=True)
    yield from ["", f"## {path}", "", "```text", command.get_help(ctx).rstrip(), "```"]
    if isinstance(command, click.Group):
        for sub in sorted(command.list_commands(ctx)):
            child = command.get_command(ctx, sub)
            assert child is not None
            yield from _command_help(child, f"{path} {sub}", ctx)


def events_page() -> str:
    """docs/reference/events.md: every event tag, its version and fields, from the registry."""
    specs = sorted(REGISTRY.specs(), key=lambda s: s.tag)
    out = [
        "# Event catalogue",
        "",
        "Everything Polygon knows is an event in an append-only log; reports are folds over it.",
        "`polygon log export` writes the events as JSON lines (`stream`, `tag`, `schema_version`,",
        "`payload`, …). Every tag, its current schema version and its fields (older versions are",
        "upcast when read):",
        "",
        "| tag | version | what it records |",
        "|---|---|---|",
    ]
    out += [
        f"| [`{s.tag}`](#{s.tag.replace('.', '')}) | {s.version} | {_cell(_first_line(s.type.__doc__))} |"
        for s in specs
    ]
    for s in specs:
        upcast = f" (upcast from {', '.join(f'v{v}' for v in sorted(s.upcasters))})" if s.upcasters else ""
        out += [
            "",
            f"## {s.tag}",
            "",
            f"Version {s.version}{upcast}. " + " ".join((s.type.__doc__ or "").split()),
            "",
        ]
        out += _rows_table(_struct_rows(s.type))
    return GENERATED + "\n".join(out) + "\n"


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().split("\n\n")[0].replace("\n", " ")


def index_page() -> str:
    """docs/reference/README.md."""
    out = [
        "# Reference",
        "",
        "Generated from the code (`" + REGENERATE + "`, or `make docs`); a test fails when they drift.",
        "",
        "- [Suite file](suite.md): every field, stubs (fixed, template, rules, stateful), faults, expect",
        "- [Rubric file](rubric.md)",
        "- [Sweep file](sweep.md)",
        "- [Labels file](labels.md)",
        "- [Import formats](import.md)",
        "- [HTTP agent protocol](http-agent.md), with [a runnable example server](agent_server.py)",
        "- [Commands](cli.md)",
        "- [Event catalogue](events.md)",
        "",
        "JSON Schemas for editors: `polygon schema suite|rubric|sweep` (shipped in the package).",
    ]
    return GENERATED + "\n".join(out) + "\n"


def outputs() -> dict[str, str]:
    """Every generated file: its path under the repository → its text."""
    out = {f"polygon/suite/json/{kind}.schema.json": render(kind) for kind in KINDS}
    pages: dict[str, Callable[[], str]] = {
        "README.md": index_page,
        "suite.md": suite_page,
        "rubric.md": rubric_page,
        "sweep.md": sweep_page,
        "labels.md": labels_page,
        "import.md": import_page,
        "http-agent.md": http_agent_page,
        "cli.md": cli_page,
        "events.md": events_page,
    }
    out.update({f"docs/reference/{name}": make() for name, make in pages.items()})
    out.update({f"polygon/languages/{code}.json": _language_form(code) for code in LANGUAGES})
    out["polygon/languages/numbers.json"] = _numbers_table()
    return out


def _numbers_table() -> str:
    """num2words' spellings of 0–999 for every shipped language file (read in num2words' place)."""
    from polygon.languages import load_language, numbers_table_text

    return numbers_table_text([load_language(code).num2words for code in LANGUAGES])


def _language_form(code: str) -> str:
    """A shipped language file's parsed form (read in its place while it is current)."""
    return parsed_text((ROOT / "polygon" / "languages" / f"{code}.yaml").read_text(encoding="utf-8"))


def stale(root: Path = ROOT) -> list[str]:
    """The generated files that differ from (or are missing beside) what the code gives."""
    return [path for path, text in outputs().items() if _read(root / path) != text]


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    """Write the generated files (``--check``: only say which differ, exit 1 if any)."""
    args = sys.argv[1:] if argv is None else argv
    if not (ROOT / "docs").is_dir():
        raise UserInputError(f"{ROOT}: not a Polygon checkout (no docs/); run this from a source tree")
    if "--check" in args:
        drift = stale()
        for path in drift:
            print(f"out of date: {path} (regenerate: {REGENERATE})")
        return 1 if drift else 0
    for path, text in outputs().items():
        target = ROOT / path
        if _read(target) != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
