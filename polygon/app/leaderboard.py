"""``polygon leaderboard``: a sweep's points ranked, rebuilt from the log."""

from __future__ import annotations

from polygon.app.queries import load_run
from polygon.errors import UnknownIdError, UserInputError
from polygon.events import EventLog, sweep_stream
from polygon.projections import ConversationVerdict, Leaderboard, build_leaderboard, fold_sweep_head
from polygon.projections import verdicts as verdict_fold


def sweep_leaderboard(log: EventLog, sweep_id: str, rubric: str | None = None) -> Leaderboard:
    """The leaderboard of ``sweep_id`` under ``rubric``.

    Default: the first point's own rubric when every point shares it, else the newest shared.
    """
    envelopes = list(log.read_stream(sweep_stream(sweep_id)))
    head = fold_sweep_head(envelopes)
    if head is None:
        raise UnknownIdError(f"no sweep {sweep_id!r} in the log (polygon sweep FILE prints its id)")
    states = {index: load_run(log, e.run_id) for index, e in head.ran.items()}
    version = _shared_version(states, rubric, sweep_id)
    rows: dict[int, list[ConversationVerdict]] = {
        index: verdict_fold.verdicts(state, version) for index, state in states.items()
    }
    events = [env.payload for env in envelopes]
    return build_leaderboard(head.started, events, rows, rubric_version=version)


def _shared_version(states: dict[int, verdict_fold.RunRecord], wanted: str | None, sweep_id: str) -> str:
    if not states:
        return wanted or ""
    shared = set.intersection(*(set(verdict_fold.versions(s)) for s in states.values()))
    if wanted:
        if wanted not in shared:
            have = ", ".join(sorted(shared)) or "none"
            raise UserInputError(
                f"not every point of sweep {sweep_id} was judged under rubric {wanted!r} (shared: {have})"
            )
        return wanted
    if not shared:
        raise UserInputError(
            f"the points of sweep {sweep_id} share no rubric version (polygon judge RUN --rubric V)"
        )
    first = next(iter(states.values()))
    order = [v for v in verdict_fold.versions(first) if v in shared]
    return verdict_fold.default_version(first, order)
