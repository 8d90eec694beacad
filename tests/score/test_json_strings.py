"""The one walker over a tool's JSON: each option changes what it yields, and nothing else does."""

from __future__ import annotations

from polygon.score.json_strings import json_strings

RESULT = {
    "order_id": "A-100",
    "total": 45.5,
    "items": [{"sku": 3500, "name": "Kettle"}, "gift wrap"],
    "paid": True,
    "note": None,
}


def test_strings_only_by_default_in_order() -> None:
    assert list(json_strings(RESULT)) == ["A-100", "Kettle", "gift wrap"]


def test_keys_come_before_their_values() -> None:
    assert list(json_strings(RESULT, keys=True)) == [
        "order_id",
        "A-100",
        "total",
        "items",
        "sku",
        "name",
        "Kettle",
        "gift wrap",
        "paid",
        "note",
    ]


def test_numbers_as_str_writes_them_never_a_flag_or_null() -> None:
    assert list(json_strings(RESULT, numbers=True)) == ["A-100", "45.5", "3500", "Kettle", "gift wrap"]


def test_keys_and_numbers_together() -> None:
    found = list(json_strings(RESULT, keys=True, numbers=True))
    assert found[:4] == ["order_id", "A-100", "total", "45.5"]
    assert "3500" in found and "paid" in found and "True" not in found


def test_a_model_dumps_tuples_and_sets_walked_like_lists() -> None:
    dump = {"months": ("Januar", "Februar"), "weekdays": frozenset({"Montag"}), "max": 3}
    assert list(json_strings(dump, keys=True)) == ["months", "Januar", "Februar", "weekdays", "Montag", "max"]


def test_a_bare_scalar() -> None:
    assert list(json_strings("Kettle")) == ["Kettle"]
    assert list(json_strings(7)) == []
    assert list(json_strings(7, numbers=True)) == ["7"]
    assert list(json_strings(False, numbers=True)) == []
    assert list(json_strings(None, keys=True, numbers=True)) == []


def test_key_words_split_camel_case_underscores_and_dashes_and_drop_digits() -> None:
    from polygon.score.json_strings import key_words

    assert key_words("guestName") == ["guest", "name"]
    assert key_words("order_replacement") == ["order", "replacement"]
    assert key_words("get-Status") == ["get", "status"]
    assert key_words("eu261_x") == ["eu", "x"]
