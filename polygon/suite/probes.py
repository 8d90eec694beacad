"""A probe's schema (pydantic), on its own: the probe library, a probe file and a suite share it.

Apart from the suite's other models so that probing a recorded run (``polygon probe``, an
import's probe pass, the web run page) builds one model, not a whole suite's (issue 31).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from polygon.events import content_hash
from polygon.suite.empty import empty_list
from polygon.suite.names import PROBE_DETECTORS


class ProbeSpec(BaseModel):
    """A probe as written in the library or a suite."""

    # defer_build: the validator is built on the first validation, not on import; a nested model
    # validates inside its root's and never builds its own (tests/test_real_starts.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    question: str = Field(min_length=5)
    polarity: Literal["desired", "guardrail"]
    detector: str = ""
    """A built-in detector id, or empty for a custom probe."""
    keywords: list[str] = Field(default_factory=empty_list)
    """For custom probes answered offline: yes when the agent says any of these."""

    @field_validator("detector")
    @classmethod
    def _known_detector(cls, value: str) -> str:
        # Caught when the suite or probe file loads, not as a KeyError after the whole run.
        if value and value not in PROBE_DETECTORS:
            raise ValueError(f"unknown detector {value!r} (built-in: {', '.join(sorted(PROBE_DETECTORS))})")
        return value

    @property
    def wording_hash(self) -> str:
        """Hash of the wording: a rephrased question is a new series."""
        return _wording_hash(self.question, self.polarity)


@lru_cache(maxsize=1024)
def _wording_hash(question: str, polarity: str) -> str:
    # Asked twice per probe of every call a pass visits: hashed once per wording instead.
    return content_hash({"question": question, "polarity": polarity})
