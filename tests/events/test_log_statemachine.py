"""A hypothesis state machine drives the LMDB log against a plain-Python model."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from polygon.events import IdentityConflictError, LmdbLog, Pending, identity
from polygon.events.families import TurnSpoken

convs = st.sampled_from(["a", "b", "c"])
turns = st.integers(1, 40)
texts = st.sampled_from(["hi", "yes", "no", "x" * 2000])


def make(conv: str, n: int, text: str) -> Pending:
    return Pending(
        stream=f"conv/{conv}",
        identity=identity(run="sm", conversation=conv, turn=n, kind="turn"),
        event=TurnSpoken(conversation_id=conv, turn=n, speaker="caller", text=text),
    )


class LogMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp())
        self.log = LmdbLog(self.dir / "log", map_size=32 * 1024)  # tiny: must grow
        self.model: list[tuple[str, int, str]] = []  # (conv, turn, text) in seq order
        self.by_id: dict[tuple[str, int], str] = {}
        self.last_batch: list[tuple[str, int, str]] = []

    @rule(batch=st.lists(st.tuples(convs, turns, texts), min_size=1, max_size=30))
    def append(self, batch: list[tuple[str, int, str]]) -> None:
        pending = [make(*b) for b in batch]
        conflict = self._conflicts(batch)
        if conflict:
            with pytest.raises(IdentityConflictError):
                self.log.append(pending)
            return
        result = self.log.append(pending)
        expected_seqs = []
        for conv, n, text in batch:
            if (conv, n) not in self.by_id:
                self.by_id[(conv, n)] = text
                self.model.append((conv, n, text))
            expected_seqs.append(self._seq_of(conv, n))
        assert list(result.seqs) == expected_seqs
        self.last_batch = batch

    def _conflicts(self, batch: list[tuple[str, int, str]]) -> bool:
        seen = dict(self.by_id)
        for conv, n, text in batch:
            if seen.setdefault((conv, n), text) != text:
                return True
        return False

    def _seq_of(self, conv: str, n: int) -> int:
        return next(i + 1 for i, (c, t, _) in enumerate(self.model) if (c, t) == (conv, n))

    @precondition(lambda self: self.last_batch)
    @rule()
    def retry_last_batch(self) -> None:
        before = self.log.last_seq()
        result = self.log.append([make(*b) for b in self.last_batch])
        assert result.written == 0
        assert self.log.last_seq() == before

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def conflicting_append(self, data: st.DataObject) -> None:
        conv, n, text = data.draw(st.sampled_from(self.model))
        with pytest.raises(IdentityConflictError):
            self.log.append([make("a", 41, "fresh"), make(conv, n, text + "!")])

    @rule(map_size=st.sampled_from([16 * 1024, 32 * 1024, 1024 * 1024]))
    def reopen(self, map_size: int) -> None:
        self.log.close()
        self.log = LmdbLog(self.dir / "log", map_size=map_size)

    @invariant()
    def matches_model(self) -> None:
        got = [(e.payload.conversation_id, e.payload.turn, e.payload.text) for e in self.log.read_all()]
        assert got == self.model
        for conv in "abc":
            stream = [(c, t, x) for c, t, x in self.model if c == conv]
            assert [
                (e.payload.conversation_id, e.payload.turn, e.payload.text)
                for e in self.log.read_stream(f"conv/{conv}")
            ] == stream

    def teardown(self) -> None:
        assert self.log.verify().ok
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


LogMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
TestLogMachine = LogMachine.TestCase
