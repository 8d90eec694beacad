"""The log's vocabulary is spelled once, and its spellings are frozen."""

from __future__ import annotations

from polygon.events import streams


def test_identity_kinds_keep_their_spellings() -> None:
    # Stored identities hash these strings: renaming one orphans every identity of older runs
    # (and breaks --resume of them). The mix of '.', '_' and '-' is history, kept on purpose.
    assert (streams.RUN_STARTED, streams.RUN_FINISHED, streams.RUBRIC) == ("run.started", "run.finished", "rubric")
    assert (streams.STARTED, streams.ENDED, streams.IMPORTED) == ("started", "ended", "imported")
    assert (streams.CALLER_TURN, streams.AGENT_TURN, streams.NOISE, streams.TOOL) == (
        "caller_turn",
        "agent_turn",
        "noise",
        "tool",
    )
    assert streams.model_call_kind("agent") == "agent-call"
    assert streams.model_call_kind("probe", "p:h:scripted/detector") == "probe-call:p:h:scripted/detector"
    assert streams.keyed(streams.CHECK, "v1/scripted/heuristic/k1") == "check:v1/scripted/heuristic/k1"
    assert streams.keyed(streams.RUBRIC, "v2", "abc") == "rubric:v2:abc"


def test_stream_names_and_ids() -> None:
    cid = streams.conversation_id("r1", "v1", "busy", 0)
    assert cid == "r1.v1.busy.0"
    assert streams.conversation_stream(cid) == "conv/r1.v1.busy.0"
    assert streams.conversation_stream(cid).startswith(streams.run_conversations("r1"))
    assert not streams.conversation_stream("r10.v1.busy.0").startswith(streams.run_conversations("r1"))
    assert streams.conversation_of_stream(streams.conversation_stream(cid)) == cid
    assert streams.run_of_stream(streams.run_stream("r1")) == "r1"
    assert streams.is_conversation_stream("conv/x") and not streams.is_conversation_stream("run/x")
    assert streams.valid_run_id("r1") and not streams.valid_run_id("r.1") and not streams.valid_run_id("a/b")
