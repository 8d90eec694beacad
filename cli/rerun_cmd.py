"""``polygon rerun``: re-drive a logged call against another configuration."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from polygon.cli.context import CONVERSATION, Context, executor_options, system_now

if TYPE_CHECKING:
    from polygon.execute import Executor


@click.command()
@click.argument("conversation", type=CONVERSATION)
@click.option("--suite", required=True, help="The suite holding the configuration to re-drive against.")
@click.option("--config", "config", required=True, help="Agent configuration to feed the call to.")
@click.option(
    "--continue",
    "keep_going",
    is_flag=True,
    help="After the first divergence, let the scripted caller play on instead of stopping.",
)
@click.option("--run-id", default="", help="Fixed run id for the new call.")
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for model agents.")
@executor_options
@click.pass_obj
def rerun(
    obj: Context,
    conversation: str,
    suite: str,
    config: str,
    keep_going: bool,
    run_id: str,
    base_url: str,
    executor: Executor,
) -> None:
    """Feed CONVERSATION's caller turns, as heard, to another configuration.

    Stops at the first turn where the new agent parts from the original (or, with
    --continue, goes on with the scripted caller). Prints the new conversation id.
    """
    from polygon.app import open_log
    from polygon.app import rerun_conversation as rerun_call
    from polygon.models import ModelHub
    from polygon.suite import load_suite

    loaded = load_suite(suite)
    with open_log(obj.log_path, readonly=False) as log:
        result = rerun_call(
            log,
            conversation,
            loaded,
            config,
            keep_going=keep_going,
            run_id=run_id,
            hub=ModelHub(obj.model_settings(base_url or loaded.suite.openai_base_url)),
            now=system_now,
            executor=executor,
        )
    click.echo(result.conversation_id)
    if result.diverged_at:
        click.echo(f"parted from {conversation} at turn {result.diverged_at}: {result.detail}", err=True)
    else:
        click.echo(f"never parted from {conversation}; ended {result.end_reason}", err=True)
    click.echo(f"compare: polygon divergence {conversation} {result.conversation_id}", err=True)
