"""The CI options shared by ``run`` and ``report``: what makes the command exit 1."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from polygon.render import Enforcement


F = TypeVar("F", bound=Callable[..., Any])


def enforcement_options(fn: F) -> F:
    """Add ``--fail-on``, ``--min-pass-rate``, ``--allow-inconclusive``, ``--allow-simulator-errors``."""
    for option in reversed(
        [
            click.option(
                "--fail-on",
                type=click.Choice(["fail", "warn"]),
                default=None,
                help="Exit 1 if any call fails or errors (with warn: also warns). For CI.",
            ),
            click.option(
                "--min-pass-rate",
                type=click.FloatRange(0, 1),
                default=None,
                metavar="X",
                help="Exit 1 if a scenario's pass rate over its trials is below X (e.g. 0.8).",
            ),
            click.option(
                "--allow-inconclusive",
                is_flag=True,
                help="Do not exit 1 for calls whose judgement was inconclusive.",
            ),
            click.option(
                "--allow-simulator-errors",
                is_flag=True,
                help="Do not exit 1 for calls the simulator broke (not the agent's fault).",
            ),
        ]
    ):
        fn = option(fn)
    return fn


def policy(
    fail_on: str | None, min_pass_rate: float | None, allow_inconclusive: bool, allow_simulator_errors: bool
) -> Enforcement:
    """The options as one value."""
    from polygon.render import Enforcement

    return Enforcement(fail_on, min_pass_rate, allow_inconclusive, allow_simulator_errors)


def exit_if_missed(reasons: list[str]) -> None:
    """Print why the run misses what was asked, and exit 1; return when it meets it."""
    for reason in reasons:
        click.echo(f"not met: {reason}", err=True)
    if reasons:
        sys.exit(1)
