"""``polygon lint``: read a prompt before any call."""

from __future__ import annotations

import sys

import click

from polygon.cli.choices import LINT_DEFAULT_TIERS
from polygon.cli.context import Context, system_now


@click.command()
@click.argument("target", metavar="PROMPT_FILE|SUITE", type=click.Path(path_type=str))
@click.option("--config", default=None, metavar="NAME", help="Only this configuration of a suite.")
@click.option(
    "--tiers",
    default=None,
    metavar="LIST",
    help=f"Comma-separated: rules, surprisal, embeddings, judge (default: {','.join(LINT_DEFAULT_TIERS)}).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True
)
@click.option(
    "--fail-above",
    type=click.FloatRange(0, 1),
    default=None,
    metavar="X",
    help="Exit 1 when any axis scores above X.",
)
@click.option(
    "--lang", "language", type=click.Choice(["en", "ru", "hr", "auto"]), default="auto", show_default=True
)
@click.option(
    "--judge-model",
    default="",
    metavar="MODEL",
    help="Model for the judge tier (openai/… or local/gemma-3-270m).",
)
@click.option(
    "--base-url",
    default="",
    metavar="URL",
    help="OpenAI-compatible server for an openai/… judge (else $OPENAI_BASE_URL).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Embed and score every unit afresh: neither read nor write the tiers' cache "
    "(in $POLYGON_CACHE_DIR, else $XDG_CACHE_HOME/polygon, else ~/.cache/polygon; delete its lint/ "
    "folder to clear it).",
)
@click.pass_obj
def lint(
    obj: Context,
    target: str,
    config: str | None,
    tiers: str | None,
    fmt: str,
    fail_above: float | None,
    language: str,
    judge_model: str,
    base_url: str,
    no_cache: bool,
) -> None:
    """Read a prompt before any call: five axes scored 0–1, offending spans marked.

    Tiers, cheapest first: rules (deterministic, en/ru/hr), surprisal (each phrase under the
    packaged local model; only when asked), embeddings (multilingual-e5-small), judge (a model
    you name). By default: rules and embeddings.
    Each reading is recorded in the log and reused for the same prompt text; the surprisal
    and embeddings tiers also keep each unit's work in a cache folder, so after an edit only
    what changed is read again. Without the `lint` extra only the rules tier runs; the output
    says which tiers were skipped. The text ends with the promises the prompt forbids, as the
    run's built-in policy:prompt_forbids reads them (or "none read").
    """
    from polygon.app import DEFAULT_TIERS, LintOptions, Readers, lint_targets, open_log, targets
    from polygon.models import ModelHub
    from polygon.projections import worst
    from polygon.render import build_sarif, lint_json, lint_lines

    asked = tuple(t.strip() for t in tiers.split(",") if t.strip()) if tiers else DEFAULT_TIERS
    if judge_model and not tiers:
        asked = (*asked, "judge")
    options = LintOptions(
        tiers=asked,
        language=language,
        judge_model=judge_model,
        explicit=tiers is not None,
        cache=not no_cache,
    )
    found = targets(target, config)
    hub = ModelHub(obj.model_settings(base_url)) if judge_model else None
    with open_log(obj.log_path, readonly=False) as log:
        lints = lint_targets(
            log,
            found,
            options,
            now=system_now,
            readers=Readers(hub=hub),
            on_read=lambda m: click.echo(m, err=True),
        )
    if fmt == "json":
        click.echo(lint_json(lints), nl=False)
    elif fmt == "sarif":
        click.echo(build_sarif(lints), nl=False)
    else:
        for i, (one, t) in enumerate(zip(lints, found, strict=True)):
            if i:
                click.echo("")
            for line in lint_lines(one, t.text, forbids=t.forbids() if t.read_forbids else None):
                click.echo(line)
    if fail_above is not None and worst(lints) > fail_above:
        click.echo(f"lint: an axis scores {worst(lints):.2f}, above --fail-above {fail_above}", err=True)
        sys.exit(1)
