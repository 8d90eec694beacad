"""The families register on first lookup by tag, not with ``import polygon.events``.

A process that opens a log and reads it may never have imported a payload type: the
registry imports ``polygon.events.families`` the first time a tag could be missing
(a decoder built, a tag looked up, the tags listed). Each case runs in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return done.stdout.strip()


def test_the_face_loads_no_family_until_a_name_is_used() -> None:
    code = (
        "import sys, polygon.events\nprint(sorted(m for m in sys.modules if m.startswith('polygon.events.')))"
    )
    assert _fresh(code) == "[]"


def test_a_fresh_reader_decodes_every_family(tmp_path: Path) -> None:
    """Written by one process, read by another that imports only the log."""
    log = str(tmp_path / "log")
    write = (
        "from polygon.events import LmdbLog, Pending, identity\n"
        "from polygon.events.families import LabelRecorded, TurnSpoken\n"
        f"with LmdbLog({log!r}) as log:\n"
        "    log.append([\n"
        "        Pending(stream='s', identity=identity(run='r', kind='a'),\n"
        "                event=TurnSpoken(conversation_id='c', turn=1, speaker='caller', text='Hi')),\n"
        "        Pending(stream='s', identity=identity(run='r', kind='b'),\n"
        "                event=LabelRecorded(conversation_id='c', verdict='pass', by='me')),\n"
        "    ])\n"
    )
    _fresh(write)
    read = (
        "import sys\nfrom polygon.events import LmdbLog\n"
        "assert 'polygon.events.families' not in sys.modules\n"
        f"with LmdbLog({log!r}, readonly=True) as log:\n"
        "    print([type(e.payload).__name__ for e in log.read_stream('s')])\n"
    )
    assert _fresh(read) == "['TurnSpoken', 'LabelRecorded']"


def test_a_tag_lookup_and_the_tag_list_complete_the_registry() -> None:
    code = (
        "from polygon.events import REGISTRY\n"
        "print(REGISTRY.spec_for_tag('conversation.turn_spoken').type.__name__, len(list(REGISTRY.tags())) > 20)"
    )
    assert _fresh(code) == "TurnSpoken True"
