from __future__ import annotations

import json

import pytest

from polygon.score.judges.parse import parse_scores
from polygon.score.rubric import CRITERIA


def one(value: object) -> tuple[str, int | None]:
    parsed = parse_scores(json.dumps({"goal_achievement": value}), CRITERIA)["goal_achievement"]
    return parsed.status, parsed.score


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"score": 4, "evidence": "AGENT: Booked."}, ("scored", 4)),
        ({"score": 1}, ("scored", 1)),
        ({"score": 5.0}, ("scored", 5)),
        (3, ("scored", 3)),
        ({"score": None}, ("unscored", None)),
        ({"score": "four"}, ("unscored", None)),
        ({"score": "4"}, ("unscored", None)),
        ({"score": 7}, ("unscored", None)),
        ({"score": 0}, ("unscored", None)),
        ({"score": 2.5}, ("unscored", None)),
        ({"score": True}, ("unscored", None)),
        ({"evidence": "no score key"}, ("unscored", None)),
        ([4], ("unscored", None)),
    ],
)
def test_score_values(value: object, expected: tuple[str, int | None]) -> None:
    assert one(value) == expected


def test_absent_key_is_missing_and_others_kept() -> None:
    parsed = parse_scores(json.dumps({"safety": {"score": 5, "evidence": "ok"}}), CRITERIA)
    assert parsed["safety"].score == 5 and parsed["safety"].evidence == "ok"
    assert {c for c, s in parsed.items() if s.status == "missing"} == set(CRITERIA) - {"safety"}


@pytest.mark.parametrize(
    "body", ["", "not json", '{"goal_achievement": {"score": 4}', "[1, 2]", "null", None]
)
def test_unparseable_body_is_all_unscored_with_raw_kept(body: str | None) -> None:
    parsed = parse_scores(body, CRITERIA)
    assert {s.status for s in parsed.values()} == {"unscored"}
    assert parsed["safety"].raw == (body or "")[:200]
