"""``polygon noise TEXT``: preview ASR noise exactly as a run would apply it."""

from __future__ import annotations

import json

import click

from polygon.cli.choices import NOISE_LANGUAGES


@click.command()
@click.argument("text")
@click.option("--intensity", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="The run seed.")
@click.option(
    "--conversation",
    default="scenario.0",
    show_default=True,
    help="Noise key: SCENARIO.TRIAL (shared by every configuration in a run).",
)
@click.option("--turn", type=click.IntRange(1), default=1, show_default=True)
@click.option("--lang", type=click.Choice(NOISE_LANGUAGES), default="en", show_default=True)
@click.option("--barge-in", type=click.FloatRange(0, 1), default=0.0, help="Phone: barge-in probability.")
@click.option("--silence", type=click.FloatRange(0, 1), default=0.0, help="Phone: silence probability.")
@click.option(
    "--self-correction", type=click.FloatRange(0, 1), default=0.0, help="Phone: self-correction probability."
)
@click.option("--reply", default="", help="The agent's previous reply (what a barge-in cuts).")
@click.option("--json", "as_json", is_flag=True)
def noise(
    text: str,
    intensity: float,
    seed: int,
    conversation: str,
    turn: int,
    lang: str,
    barge_in: float,
    silence: float,
    self_correction: float,
    reply: str,
    as_json: bool,
) -> None:
    """Show what the agent would hear, and each distortion applied.

    With --barge-in, --silence or --self-correction (the suite's `phone:` knobs), also what
    the phone behaviour does at this turn, drawn as a run draws it (a run also never goes
    silent two turns running).
    """
    from polygon.app import PhoneSettings, preview_noise, preview_phone
    from polygon.events import to_builtins

    got = preview_noise(
        text, intensity=intensity, language=lang, run_seed=seed, conversation=conversation, turn=turn
    )
    settings = PhoneSettings(barge_in=barge_in, silence=silence, self_correction=self_correction)
    phone: list[str] = []
    if settings.active:
        drawn = preview_phone(
            text, reply, settings=settings, run_seed=seed, conversation=conversation, turn=turn
        )
        phone = drawn.lines
    if as_json:
        data = {"clean": got.clean, "heard": got.heard, "ops": to_builtins(got.ops), "rng_seed": got.rng_seed}
        click.echo(json.dumps({**data, "phone": phone} if phone else data, ensure_ascii=False))
        return
    click.echo(f"said:  {got.clean}")
    click.echo(f"heard: {got.heard}")
    for op in got.ops:
        click.echo(f"  {op.kind:<10} @{op.position}: {op.before!r} → {op.after!r}")
    for line in phone:
        click.echo(f"phone: {line}")
