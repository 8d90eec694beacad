"""Loading a suite: YAML, validation with one-line errors (file + field), prompts and personas."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationError,
)

from polygon.boundary import log_safe, read_text, read_yaml
from polygon.errors import SuiteError
from polygon.events import content_hash
from polygon.suite.schema import ConfigSpec, LintSpec, PersonaSpec, ScenarioSpec, Suite


class LoadedSuite(BaseModel):
    """A validated suite plus what was read beside it (prompts) and its content hash."""

    # defer_build: the validator is built on the first validation, not on import; a nested model
    # validates inside its root's and never builds its own (tests/test_real_starts.py).
    model_config = ConfigDict(frozen=True, defer_build=True)

    path: Path
    suite: Suite
    prompts: dict[str, str]
    suite_hash: str

    def scenarios(self) -> list[ScenarioSpec]:
        """Declared scenarios, or one per persona when none are declared."""
        if self.suite.scenarios:
            return list(self.suite.scenarios)
        return [ScenarioSpec(id=p.id, persona=p.id) for p in self.suite.personas]

    def persona(self, persona_id: str) -> PersonaSpec:
        """The persona with ``persona_id``."""
        return next(p for p in self.suite.personas if p.id == persona_id)

    def prompt_hashes(self) -> dict[str, str]:
        """Configuration → prompt content hash."""
        return {name: content_hash(text) for name, text in sorted(self.prompts.items())}


def load_suite(path: str | Path, *, personas_optional: bool = False) -> LoadedSuite:
    """Read and validate a suite file; any problem is one :class:`SuiteError` line.

    ``personas_optional`` lets a suite without personas load (to generate them).
    """
    path = Path(path)
    if path.is_dir():
        path = path / "suite.yaml"
    raw = read_yaml(path, "suite")
    if not isinstance(raw, dict):
        raise SuiteError(f"{path}: expected a mapping at the top level")
    raw = log_safe(_with_generated_personas(path, raw))  # no value the log could not hold
    try:
        suite = Suite.model_validate(raw, context={"personas_optional": personas_optional})
    except ValidationError as exc:
        raise SuiteError(_first_error(path, exc, raw)) from None
    for name, cfg in suite.configs.items():
        if cfg.agent.startswith("python:"):
            resolve_factory(path, f"configs.{name}.agent", cfg.agent)
    prompts = {name: _prompt(path, name, cfg) for name, cfg in suite.configs.items()}
    # already validated (with the load's context): construct, do not validate again without it
    digest = _hash(suite, prompts)
    return LoadedSuite.model_construct(path=path, suite=suite, prompts=prompts, suite_hash=digest)


def derive_suite(loaded: LoadedSuite, suite: Suite, prompts: dict[str, str]) -> LoadedSuite:
    """A suite made from a loaded one (a sweep's point), hashed the way a loaded one is."""
    digest = _hash(suite, prompts)
    return LoadedSuite.model_construct(path=loaded.path, suite=suite, prompts=prompts, suite_hash=digest)


def _hash(suite: Suite, prompts: dict[str, str]) -> str:
    dumped = suite.model_dump(mode="json")
    if suite.lint == LintSpec():
        del dumped["lint"]  # a suite that says nothing of lint keeps the hash it had before lint existed
    if not suite.policies:
        del dumped["policies"]  # likewise for policies and expect's order
    if suite.policies_from_prompt:
        del dumped["policies_from_prompt"]  # and for the prompt's own policy, left on
    for scenario in dumped["scenarios"]:
        if scenario.get("expect") and not scenario["expect"]["before"]:
            del scenario["expect"]["before"]
    for config in dumped["configs"].values():
        if not config["headers"]:
            del config["headers"]  # likewise for an HTTP agent's headers (their templates, never values)
    return content_hash({"suite": dumped, "prompts": prompts})


def field_path(loc: Sequence[int | str], raw: dict[str, Any]) -> str:
    """``tools.2.stub`` → ``tools[find_slots].stub``: list items named by their ``name`` or ``id``."""
    parts: list[str] = []
    node: Any = raw
    for step in loc:
        if isinstance(step, int) and isinstance(node, dict):
            continue  # one mapping written where a list may stand (``says_before: {...}``): no index
        named = node[step] if isinstance(node, list) and isinstance(step, int) and step < len(node) else None
        label = named.get("name") or named.get("id") if isinstance(named, dict) else None
        if label and parts:
            parts[-1] += f"[{label}]"
        else:
            parts.append(str(step))
        node = named if named is not None else node.get(step) if isinstance(node, dict) else None
    return ".".join(parts) or "(top level)"


def resolve_factory(path: Path, field: str, ref: str) -> Callable[..., Any]:
    """A ``python:module:factory`` agent reference imported (the suite's folder first on the path).

    The one place a suite's Python agent is resolved: at load (so a typo fails before any
    call, naming the file and field) and again when the run makes its agents.
    """
    module_name, _, attr = ref.removeprefix("python:").partition(":")
    if not module_name or not attr:
        raise SuiteError(f"{path}: {field}: {ref!r}: expected python:module:factory")
    folder = str(path.parent.resolve())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except ImportError as exc:
        raise SuiteError(f"{path}: {field}: cannot import module {module_name!r} ({exc})") from None
    except AttributeError:
        raise SuiteError(f"{path}: {field}: module {module_name!r} has no {attr!r}") from None
    except Exception as exc:  # the user's module raised while importing: name it, no traceback
        what = f"{type(exc).__name__}: {exc}"
        raise SuiteError(f"{path}: {field}: importing {module_name!r} raised {what}") from None
    if not callable(factory):
        raise SuiteError(f"{path}: {field}: {module_name}:{attr} is not callable")
    return cast(Callable[..., Any], factory)


def inside(suite: Path, field: str, name: object) -> Path:
    """A path a suite names, resolved inside the suite's folder (or a user error naming the field).

    A suite cannot make Polygon read ``/etc/passwd`` into a prompt, or write another suite.
    """
    if not isinstance(name, str) or not name.strip() or "\x00" in name:
        raise SuiteError(f"{suite}: {field}: expected a file name, got {name!r:.80}")
    folder = suite.parent.resolve()
    try:
        target = (folder / name).resolve()
    except (OSError, ValueError) as exc:
        why = exc.__class__.__name__
        raise SuiteError(f"{suite}: {field}: {name!r:.80} is not a usable path ({why})") from None
    if not target.is_relative_to(folder):
        raise SuiteError(f"{suite}: {field}: {name!r} is outside the suite's folder {folder}")
    return target


def _with_generated_personas(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    name = raw.get("personas_file")
    if not name:
        return raw
    extra_path = inside(path, "personas_file", name)
    try:
        exists = extra_path.is_file()
    except OSError:  # a name the file system refuses (too long …)
        raise SuiteError(f"{path}: personas_file: {name!r:.80} is not a usable path") from None
    if not exists:
        return raw  # not generated yet: `polygon personas generate` writes it
    extra = read_yaml(extra_path, "personas") or {}
    if not isinstance(extra, dict) or not isinstance(extra.get("personas", []), list):
        raise SuiteError(f"{extra_path}: expected a mapping with a 'personas' list")
    return {**raw, "personas": [*(raw.get("personas") or []), *extra.get("personas", [])]}


def _prompt(path: Path, name: str, cfg: ConfigSpec) -> str:
    if not cfg.prompt_file:
        return cfg.prompt
    prompt_path = inside(path, f"configs.{name}.prompt_file", cfg.prompt_file)
    try:
        return read_text(prompt_path, "prompt")
    except SuiteError as exc:  # say why: missing, too large, not a file, unreadable
        why = str(exc).removeprefix(f"{prompt_path}: ")
        raise SuiteError(f"{path}: configs.{name}.prompt_file: cannot read {prompt_path}: {why}") from None


def _first_error(path: Path, exc: ValidationError, raw: dict[str, Any] | None = None) -> str:
    err = exc.errors()[0]
    loc = field_path(err["loc"], raw or {})
    got = err.get("input")
    shown = "" if isinstance(got, dict | list) or got is None else f" (got {got!r})"
    more = _more(exc, raw or {})
    if loc == "(top level)":  # a whole-suite rule: its message names the field itself
        return f"{path}: {str(err['msg']).removeprefix('Value error, ')}{more}"
    if err["type"] == "extra_forbidden":
        shown += _meant(err["loc"])
    return f"{path}: {loc}: {str(err['msg']).removeprefix('Value error, ')}{shown}{more}"


MORE_NAMED = 3
"""Other problems of a suite named (by where they are) after the first one's message."""


def _more(exc: ValidationError, raw: dict[str, Any]) -> str:
    """`` [+2 more: personas[q].type, max_turns]``: where the other problems are, on the same line.

    A count alone left a user fixing one problem per run without knowing where the next was.
    """
    rest = [field_path(err["loc"], raw) for err in exc.errors()[1:]]
    if not rest:
        return ""
    named = ", ".join(dict.fromkeys(rest[:MORE_NAMED]))
    return f" [+{len(rest)} more: {named}{', ...' if len(rest) > MORE_NAMED else ''}]"


def _meant(loc: Sequence[int | str]) -> str:
    """``"; did you mean 'detectors'?"`` for a mistyped field, from the fields beside it."""
    import difflib  # an error's path only

    *parents, name = loc
    models: list[type[BaseModel]] = [Suite]
    for step in parents:  # an index or a mapping's key (a configuration's name) names no field
        fields = [
            model.model_fields[step]
            for model in models
            if isinstance(step, str) and step in model.model_fields
        ]
        models = [m for f in fields for m in _models_in(f.annotation)] if fields else models
    beside = sorted({f.alias or n for model in models for n, f in model.model_fields.items()})
    close = difflib.get_close_matches(str(name), beside, n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close else ""


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models in a field's type (``list[PolicySpec]``, ``NeverSay | None``, ``dict[str, ConfigSpec]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]
