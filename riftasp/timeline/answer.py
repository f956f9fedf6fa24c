"""The timeline mode's answer of riftasp's own engines (docs/crosscheck.md): a timeline's data
replayed, the resolution after each event. riftasp/engines.py gives it to `asp` and `reference`;
the fixture engines of the tests answer with it too, with bookkeeping of their own.
"""

from __future__ import annotations

from typing import Any

from .log import timeline_from_dict
from .run import Bookkeeping, replay


def replay_answer(data: dict[str, Any], engine: str = "reference", keeper: Bookkeeping | None = None) -> dict[str, Any]:
    """`{"moments": [...]}`: the state after each event as `engine` calculates it (with `keeper`'s
    bookkeeping, when given)."""
    moments = list(replay(timeline_from_dict(data, "<timeline>"), engine, keeper=keeper))
    return {"moments": [m.resolution.to_json() for m in moments[1:]]}
