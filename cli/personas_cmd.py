"""``polygon personas generate | list``."""

from __future__ import annotations

import json

import click

from polygon.cli.choices import OFFLINE_PERSONA_GENERATOR
from polygon.cli.context import Context, system_now
from polygon.texttable import LEFT, RIGHT, table


@click.group()
def personas() -> None:
    """Simulated callers generated from the agent's prompt."""


@personas.command()
@click.argument("suite")
@click.option("--count", type=click.IntRange(1, 500), default=12, show_default=True)
@click.option(
    "--model",
    default=OFFLINE_PERSONA_GENERATOR,
    show_default=True,
    help="scripted/personas (offline, deterministic) or a model reference.",
)
@click.option("--config", default=None, help="Configuration whose prompt to read (default: the first).")
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… models.")
@click.pass_obj
def generate(obj: Context, suite: str, count: int, model: str, config: str | None, base_url: str) -> None:
    """Generate COUNT personas from the agent's prompt into the suite's personas file.

    One persona per model request: a failed request loses one persona, not the batch. Each
    records the prompt's hash, so a changed prompt marks it stale.
    """
    from polygon.app import generate as generate_personas
    from polygon.app import open_log
    from polygon.models import ModelHub
    from polygon.suite import OFFLINE_GENERATOR, load_suite

    loaded = load_suite(suite, personas_optional=True)
    hub = ModelHub(obj.model_settings(base_url or loaded.suite.openai_base_url))
    if model == OFFLINE_GENERATOR:
        result = generate_personas(
            loaded, count=count, model=model, config=config, hub=hub, log=None, now=system_now
        )
    else:
        with open_log(obj.log_path, readonly=False) as log:
            result = generate_personas(
                loaded, count=count, model=model, config=config, hub=hub, log=log, now=system_now
            )
    click.echo(f"wrote {result.personas} personas to {result.path}")
    for failure in result.failures:
        click.echo(f"skipped: {failure}", err=True)
    if not loaded.suite.personas_file:
        click.echo(f"add `personas_file: {result.path.name}` to {loaded.path} to use them", err=True)


@personas.command(name="list")
@click.argument("suite")
@click.option("--json", "as_json", is_flag=True)
def list_personas(suite: str, as_json: bool) -> None:
    """The suite's personas; generated ones whose prompt changed are marked stale."""
    from polygon.app import personas_path, stale_personas
    from polygon.suite import load_suite

    loaded = load_suite(suite, personas_optional=True)
    stale = {p.id for p in stale_personas(loaded)}
    rows = [
        {
            "id": p.id,
            "type": p.type,
            "outcome": p.outcome,
            "difficulty": p.difficulty,
            "goal": p.goal,
            "generated": bool(p.prompt_hash),
            "stale": p.id in stale,
        }
        for p in loaded.suite.personas
    ]
    if as_json:
        click.echo(json.dumps(rows, sort_keys=True))
        return
    cells = [
        [
            r["id"],
            r["type"],
            r["outcome"],
            r["difficulty"],
            "STALE" if r["stale"] else ("generated" if r["generated"] else "written"),
            r["goal"],
        ]
        for r in rows
    ]
    columns = [
        ("persona", LEFT),
        ("type", LEFT),
        ("outcome", LEFT),
        ("difficulty", RIGHT),
        ("source", LEFT),
        ("goal", LEFT),
    ]
    for line in table(columns, cells):
        click.echo(line)
    if stale:
        click.echo(f"{len(stale)} stale: regenerate with `polygon personas generate {suite}`", err=True)
    click.echo(f"generated personas file: {personas_path(loaded)}", err=True)
