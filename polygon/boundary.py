"""The boundary for outside values: whatever a model, an agent or a transcript hands us.

Everything that crosses into the log passes :func:`log_safe` first, so no outside value can
crash the encoder or a projection: integers outside 64 bits become strings, lone surrogates
(truncated emoji in real exports) become U+FFFD, non-finite floats become strings, keys
become strings, and nesting deeper than :data:`MAX_DEPTH` is cut with a marker. Secrets are
masked with :func:`mask` wherever a text came back from a server.
"""

from __future__ import annotations

import base64
import datetime
import functools
import math
import re
import urllib.parse
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polygon.errors import SuiteError

if TYPE_CHECKING:
    import yaml

MAX_DEPTH = 32
MAX_TEXT = 100_000
"""Longest outside string kept whole (a model's answer, an agent's reply, a tool result)."""
_INT64 = 2**63
CUT = "…(cut: too deep)"


def log_safe(value: Any, depth: int = 0) -> Any:
    """A copy of ``value`` made of JSON-like builtins that the log's encoder always accepts."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -_INT64 <= value < _INT64 else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return safe_text(value)
    if depth >= MAX_DEPTH:
        return CUT
    if isinstance(value, dict):
        return {safe_text(str(k)): log_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [log_safe(v, depth + 1) for v in value]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()  # YAML reads 2024-05-01 as a date: keep it as written
    return safe_text(repr(value))


def safe_text(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` as valid UTF-8 (lone surrogates replaced), cut at ``limit`` characters."""
    if len(text) > limit:
        text = text[:limit] + f"…(cut at {limit} characters)"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


MASK_MIN = 4
"""Shortest secret masked at all: shorter ones are words a reply may hold."""
FOLD_MIN = 8
"""Shortest secret also masked in any upper/lower case: a shorter one (``?code=test``) would hit
ordinary words once case is ignored; the rest of its echo forms are still masked as written."""


def mask(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (and its common echo forms) replaced by ``***``.

    The echo forms (:func:`echo_forms`): as is, percent-encoded, base64; each of a secret of
    :data:`FOLD_MIN` characters or more in any case. Hex, reversed, spaced-out or split
    secrets cannot be told from other text in general and are not masked.
    """
    pattern = _masking(tuple(s for s in secrets if len(s) >= MASK_MIN))
    return pattern.sub("***", text) if pattern else text


def mask_value(value: Any, secrets: Iterable[str]) -> Any:
    """:func:`mask` over every string inside a JSON-like value."""
    keys = [s for s in secrets if len(s) >= MASK_MIN]
    if not keys:
        return value
    if isinstance(value, str):
        return mask(value, keys)
    if isinstance(value, dict):
        return {mask(str(k), keys): mask_value(v, keys) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_value(v, keys) for v in value]
    return value


def echo_forms(secret: str) -> set[str]:
    """``secret`` as an endpoint may say it back: as is, percent-encoded, base64.

    Percent-encoded by ``quote`` (with and without ``/`` kept) and ``quote_plus`` (an agent
    logging a URL it built); base64 standard and URL-safe, with and without padding (a
    credential it encoded).
    """
    raw = secret.encode("utf-8", "replace")
    b64 = {base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()}
    quote = urllib.parse.quote
    quoted = {quote(secret, safe=""), quote(secret), urllib.parse.quote_plus(secret)}
    return {secret, *quoted, *b64, *(b.rstrip("=") for b in b64)}


@functools.lru_cache(maxsize=64)
def _masking(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for every echo form of ``secrets``; a long secret's forms in any case.

    Longest first, so a form that holds another is masked whole.
    """
    forms: dict[str, bool] = {}
    for secret in secrets:
        for form in echo_forms(secret):
            forms[form] = forms.get(form, False) or len(secret) >= FOLD_MIN
    if not forms:
        return None
    ordered = sorted(forms, key=lambda f: (-len(f), f))
    return re.compile("|".join(f"(?i:{re.escape(f)})" if forms[f] else re.escape(f) for f in ordered))


def url_secrets(url: str) -> list[str]:
    """The parts of an agent URL that may hold a credential: userinfo, query values, fragment."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return [url]
    found = [parts.netloc.rpartition("@")[0]] if "@" in parts.netloc else []
    for pair in parts.query.split("&"):
        found.append(pair.partition("=")[2] if "=" in pair else pair)
    found.append(parts.fragment)
    # longest first, so a secret that holds another is masked whole
    return sorted({s for s in found if s}, key=len, reverse=True)


CREDENTIAL_KEY = re.compile(r"key|token|secret|pass|pwd|sig|auth|code|cred|session|jwt", re.IGNORECASE)
"""A query key whose value is a credential, masked in an echo whatever its length."""
ECHO_MIN = 8
"""Shortest other query value (or fragment) masked in an echo: ``?lang=en`` or ``?v=2`` are
words a reply may hold, not credentials, and masking them would change what is scored."""


def has_userinfo(url: str) -> bool:
    """Whether ``url`` holds userinfo (``user:password@``), which the HTTP client sends as Basic auth."""
    try:
        return "@" in urllib.parse.urlsplit(url).netloc
    except ValueError:
        return False


def url_credentials(url: str) -> list[str]:
    """What of an agent URL is masked wherever the endpoint says it back (a reply, a tool call).

    The userinfo (whole, its password, and the ``Basic`` credential the HTTP client builds of
    it), the value of a query key that names a credential (:data:`CREDENTIAL_KEY`), and any
    other query value and the fragment of :data:`ECHO_MIN` characters or more; each as written
    and percent-decoded, longest first. A URL without them gives none: nothing is masked.
    """
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return [url]
    found = _userinfo_credentials(parts.netloc.rpartition("@")[0]) if "@" in parts.netloc else set()
    for pair in parts.query.split("&"):
        key, eq, value = pair.partition("=")
        key, value = (key, value) if eq else ("", key)
        found |= {v for v in _decoded(value) if CREDENTIAL_KEY.search(key) or len(v) >= ECHO_MIN}
    found |= {v for v in _decoded(parts.fragment) if len(v) >= ECHO_MIN}
    return sorted({s for s in found if len(s) >= 4}, key=len, reverse=True)


def _userinfo_credentials(userinfo: str) -> set[str]:
    """``user:password``, the password, and the Basic credential (base64, as httpx sends it)."""
    user, colon, password = userinfo.partition(":")
    plain_user, plain_password = urllib.parse.unquote(user), urllib.parse.unquote(password)
    basic = base64.b64encode(f"{plain_user}:{plain_password}".encode()).decode()
    found = {*_decoded(userinfo), *_decoded(password), basic, basic.rstrip("=")}
    if not colon or len(plain_user) >= ECHO_MIN:  # a user without a password is the credential
        found |= _decoded(user)
    return found


def _decoded(value: str) -> set[str]:
    """``value`` as written and percent-decoded (``+`` as itself and as a space)."""
    return {value, urllib.parse.unquote(value), urllib.parse.unquote_plus(value)} - {""}


def shown_url(url: str) -> str:
    """``url`` as it may be recorded or printed: userinfo, query values and fragment as ``***``.

    Scheme, host, port, path and the query's names stay, so runs of one endpoint still read
    alike; a configuration's profile hash (of the whole reference) tells agents apart.
    """
    if not url.startswith(("http://", "https://")):
        return url
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url.partition("://")[0] + "://***"
    netloc = "***@" + parts.netloc.rpartition("@")[2] if "@" in parts.netloc else parts.netloc
    query = "&".join(
        f"{pair.partition('=')[0]}=***" if "=" in pair else "***" for pair in parts.query.split("&") if pair
    )
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, "***" if parts.fragment else ""))


_ENV_REFERENCE = re.compile(r"\$(?:\{([^{}]*)\}|\$|)")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def env_names(template: str) -> list[str]:
    """The environment variables ``${NAME}`` in ``template`` names, or ValueError saying why not.

    ``$$`` is a dollar sign; any other ``$`` is refused rather than sent as written (a
    shell's ``$TOKEN`` would otherwise reach the endpoint as those six characters).
    """
    names: list[str] = []
    for found in _ENV_REFERENCE.finditer(template):
        if found.group() == "$$":
            continue
        name = found.group(1)
        if name is None or not _ENV_NAME.fullmatch(name):
            raise ValueError("a $ must start ${NAME}, an environment variable's name ($$ is a dollar sign)")
        names.append(name)
    return names


def expand_env(template: str, environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """``template`` with each ``${NAME}`` replaced by its value, and the values used (secrets).

    KeyError names the first variable ``environ`` lacks; the template was checked by
    :func:`env_names` when the suite loaded.
    """
    used: list[str] = []

    def value(found: re.Match[str]) -> str:
        if found.group() == "$$":
            return "$"
        used.append(environ[found.group(1)])
        return used[-1]

    return _ENV_REFERENCE.sub(value, template), used


MAX_FILE_BYTES = 8_000_000
"""Largest authoring file (suite, rubric, probes, mapping) read."""
MAX_YAML_NODES = 200_000
"""Values in a YAML document after its aliases are expanded (a billion-laughs file is refused)."""


@functools.cache
def _strict_loader() -> type[yaml.SafeLoader]:
    """Safe YAML that refuses duplicate keys (the second one would silently win).

    Made on the first file read: the suite's models import this module for its environment
    references, and a command that never reads YAML (a probe pass) should not load a parser.
    """
    import yaml

    class _StrictLoader(yaml.SafeLoader):
        def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
            seen: set[Any] = set()
            for key_node, _value in node.value:
                key = self.construct_object(key_node, deep=deep)
                if isinstance(key, list | dict):
                    continue  # unhashable: the base class reports it
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r}", key_node.start_mark
                    )
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return _StrictLoader


def read_yaml(path: Path, what: str) -> Any:
    """A YAML authoring file as data, or :class:`YamlInputError` with the file, line and why.

    Limits: :data:`MAX_FILE_BYTES` of text, UTF-8 (bad bytes replaced), no duplicate keys,
    at most :data:`MAX_YAML_NODES` values once aliases are expanded.
    """
    return parse_yaml(read_text(path, what), str(path), what)


def read_text(path: Path, what: str) -> str:
    """An authoring file's text, at most :data:`MAX_FILE_BYTES`, bad UTF-8 bytes replaced.

    Only a regular file is opened: a FIFO would block the command forever, a device could
    stream without end.
    """
    try:
        if path.exists() and not path.is_file():
            raise YamlInputError(f"{path}: the {what} file is not a regular file")
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise YamlInputError(f"{path}: no such {what} file") from None
    except OSError as exc:
        raise YamlInputError(f"{path}: cannot read the {what} file ({exc.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise YamlInputError(f"{path}: the {what} file is larger than {MAX_FILE_BYTES // 1_000_000} MB")
    return data.decode("utf-8", "replace")


def parse_yaml(text: str, where: str, what: str) -> Any:
    """YAML text as data under the same rules as :func:`read_yaml`; ``where`` names it in errors."""
    import yaml

    try:
        value = yaml.load(text, Loader=_strict_loader())  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise YamlInputError(yaml_error(where, exc)) from None
    except RecursionError:
        raise YamlInputError(f"{where}: the {what} file nests too deeply") from None
    if _nodes(value, MAX_YAML_NODES) > MAX_YAML_NODES:
        raise YamlInputError(
            f"{where}: the {what} file expands to more than {MAX_YAML_NODES} values (YAML aliases?)"
        )
    return value


class YamlInputError(SuiteError):
    """An authoring file that cannot be read; the message names the file (and line)."""


def yaml_error(path: Path | str, exc: yaml.YAMLError) -> str:
    """One line: the file, line and column, and what the YAML parser expected."""
    mark = getattr(exc, "problem_mark", None)
    where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
    problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
    return f"{path}{where}: not valid YAML ({problem})"


def _nodes(value: Any, budget: int) -> int:
    """Values in ``value`` counting shared (aliased) ones every time, stopping past ``budget``."""
    count = 0
    stack = [value]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, list):
            stack.extend(item)
    return count
