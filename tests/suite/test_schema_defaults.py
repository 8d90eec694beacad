"""A suite model's defaults are made without validation (``model_construct``), so that importing
the schema builds no validator (issue 31); each must equal what validating it would give."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from polygon.suite import schema


def _model_defaults() -> list[tuple[str, BaseModel]]:
    found: list[tuple[str, BaseModel]] = []
    for cls in vars(schema).values():
        if isinstance(cls, type) and issubclass(cls, BaseModel) and cls.__module__ == schema.__name__:
            found += [
                (f"{cls.__name__}.{name}", field.default)
                for name, field in cls.model_fields.items()
                if isinstance(field.default, BaseModel)
            ]
    return found


def test_the_schema_has_model_defaults() -> None:
    assert {"Suite.judge", "Suite.lint", "StubSpec.latency", "ToolSpec.stub"} <= {
        n for n, _ in _model_defaults()
    }


@pytest.mark.parametrize(("name", "default"), _model_defaults(), ids=[n for n, _ in _model_defaults()])
def test_each_model_default_is_what_validating_it_gives(name: str, default: BaseModel) -> None:
    validated = type(default).model_validate(default.model_dump(exclude_unset=True))
    assert validated == default
    assert validated.model_fields_set == default.model_fields_set
    assert validated.model_dump() == default.model_dump()
