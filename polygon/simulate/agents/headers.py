"""An HTTP agent's headers: templates in the suite, values from the environment at run time.

A suite names a secret (``Authorization: "Bearer ${POLYGON_AGENT_TOKEN}"``) and never holds
it: the value is read when the run starts, sent with every step, and never recorded, shown or
hashed. Only the templates (the variables' names) reach the suite's and the profile's hashes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from polygon.boundary import env_names, expand_env
from polygon.errors import SuiteError
from polygon.suite import LoadedSuite


@dataclass(frozen=True)
class AgentHeaders:
    """The headers one configuration's agent is sent, and the secrets in them (to mask)."""

    values: dict[str, str]
    secrets: tuple[str, ...] = ()


def agent_headers(loaded: LoadedSuite, config: str, environ: Mapping[str, str] | None = None) -> AgentHeaders:
    """``config``'s headers with their variables read, or :class:`SuiteError` naming the variable.

    The message never holds a value: a variable that is not set, is empty, or holds a line
    break, a control or a non-ASCII character (no HTTP header can carry it) is named with the
    file and the field.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, str] = {}
    secrets: list[str] = []
    for name, template in loaded.suite.configs[config].headers.items():
        where = f"{loaded.path}: configs.{config}.headers.{name}"
        try:
            values[name], used = expand_env(template, environ)
        except KeyError as missing:
            raise SuiteError(
                f"{where}: the environment variable {missing.args[0]} is not set "
                "(its value is sent as this header and never recorded); set it and run again"
            ) from None
        for variable, value in zip(env_names(template), used, strict=True):
            if not value:
                raise SuiteError(f"{where}: the environment variable {variable} is empty; set it, run again")
            if not value.isascii() or not value.isprintable():
                raise SuiteError(
                    f"{where}: the environment variable {variable} holds a line break, a control "
                    "or a non-ASCII character (an HTTP header cannot carry it)"
                )
        secrets.extend(used)
    # longest first, so a secret that holds another is masked whole
    return AgentHeaders(values, tuple(sorted(set(secrets), key=len, reverse=True)))
