"""``polygon import``: production transcripts become a scored run."""

from __future__ import annotations

import json
from pathlib import Path

import click

from polygon.cli.choices import IMPORT_FORMATS
from polygon.cli.context import Context, system_now
from polygon.cli.progress import Reporter, mode
from polygon.errors import UserInputError


def _mapping(path: Path | None) -> dict[str, str]:
    from polygon.boundary import read_yaml

    if path is None:
        return {}
    data = read_yaml(path, "mapping")
    if not isinstance(data, dict):
        raise UserInputError(f"{path}: expected a mapping of imported conversation → scenario id")
    return {str(k): str(v) for k, v in data.items()}


@click.command(name="import")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--format", "fmt", type=click.Choice(["auto", *IMPORT_FORMATS]), default="auto", show_default=True
)
@click.option(
    "--redact", is_flag=True, help="Mask phone numbers, e-mails and card-like numbers before writing."
)
@click.option("--strict", is_flag=True, help="Refuse the whole import if any record is malformed.")
@click.option("--suite", default=None, help="Validate recorded tool calls against this suite's tool schemas.")
@click.option(
    "--map",
    "map_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="YAML: imported conversation id → scenario id (to compare with simulated runs).",
)
@click.option(
    "--config",
    "config_name",
    default="imported",
    show_default=True,
    help="Configuration label of the imported calls.",
)
@click.option("--run-id", default="", help="Fixed run id (default: from the files' content).")
@click.option(
    "--end-tool",
    "end_tools",
    multiple=True,
    metavar="NAME",
    help="A tool name that means the agent hung up (added to end_call, endCall, hangup, …).",
)
@click.option(
    "--transfer-tool",
    "transfer_tools",
    multiple=True,
    metavar="NAME",
    help="A tool name that means the agent transferred the call (added to transfer_call, …).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def import_(
    obj: Context,
    files: tuple[Path, ...],
    fmt: str,
    redact: bool,
    strict: bool,
    suite: str | None,
    map_file: Path | None,
    config_name: str,
    run_id: str,
    end_tools: tuple[str, ...],
    transfer_tools: tuple[str, ...],
    as_json: bool,
) -> None:
    """Import production calls as a scored run (JSONL, OpenAI chat, text, voice platforms' exports).

    Formats: polygon-jsonl, openai-chat, text (SPEAKER: text), and the platforms' own call
    exports: vapi, retell, elevenlabs, livekit, otel-genai (OTLP JSON). auto detects them.
    Importing the same files again changes nothing. Malformed records are reported with
    their file and line and skipped (or, with --strict, refused).
    """
    from polygon import suite as suites  # the face only: a suite's models load when --suite names one
    from polygon.app import ImportOptions, import_files, open_log
    from polygon.importing import END_CALL_TOOLS, TRANSFER_TOOLS

    options = ImportOptions(
        fmt=fmt,
        redact=redact,
        strict=strict,
        suite=suites.load_suite(suite) if suite else None,
        mapping=_mapping(map_file),
        config=config_name,
        run_id=run_id,
        end_tools=END_CALL_TOOLS | set(end_tools),
        transfer_tools=TRANSFER_TOOLS | set(transfer_tools),
    )
    with open_log(obj.log_path, readonly=False) as log, Reporter("importing", mode(quiet=as_json)) as shown:
        summary = import_files(
            log,
            list(files),
            options,
            now=system_now,
            progress=shown.update,
        )
    if as_json:
        click.echo(
            json.dumps(
                {
                    "run_id": summary.run_id,
                    "conversations": summary.conversations,
                    "written": summary.written,
                    "problems": summary.problems,
                    "rubric": summary.rubric,
                    "warnings": summary.warnings,
                }
            )
        )
        return
    click.echo(summary.run_id)
    for problem in summary.problems:
        click.echo(f"skipped {problem}", err=True)
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(
        f"{summary.conversations} conversations ({summary.written} new events), "
        f"judged under rubric {summary.rubric}; report: polygon report {summary.run_id}",
        err=True,
    )
