"""Subprocess for the crash test: appends batches forever, acknowledging each on stdout."""

from __future__ import annotations

import sys

from polygon.events import LmdbLog, Pending, identity
from polygon.events.families import TurnSpoken


def main(path: str, start: int) -> None:
    log = LmdbLog(path, map_size=64 * 1024)  # small, so kills also land during map growth
    batch_no = start
    while True:
        batch = [
            Pending(
                stream=f"conv/{(batch_no + i) % 5}",
                identity=identity(run="crash", turn=batch_no, index=i, kind="turn"),
                event=TurnSpoken(conversation_id=str(batch_no), turn=i, speaker="caller", text="w" * 200),
            )
            for i in range(20)
        ]
        result = log.append(batch)
        # Acknowledged only after the durable commit returned.
        sys.stdout.write(f"{batch_no} {','.join(map(str, result.seqs))}\n")
        sys.stdout.flush()
        batch_no += 1


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
