"""The operations' registry: every operation a board may name, described once
(riftasp/specs.py): the shared ones (shared.py) and each ruleset's own (its plugin in
riftasp/rulesets/). Adding an operation is one entry here or in a plugin, and one encoding file."""

from __future__ import annotations

from ..model import LIST_PARAMS
from ..rulesets import gathered
from ..specs import Does, OperationSpec, Param
from .shared import SHARED

__all__ = ["OPERATIONS", "Does", "OperationSpec", "Param", "by_functor"]

# The board's operation name -> its description, in the order the format lists them.
OPERATIONS: dict[str, OperationSpec] = gathered(SHARED, "OPERATIONS", lambda spec: spec.name)
LIST_PARAMS.update(p.key for spec in OPERATIONS.values() for p in spec.params if p.kind.name == "array")


def by_functor(functor: str) -> OperationSpec | None:
    """The operation whose encoding term is `functor` (`gain_keyword` -> gain_keywords)."""
    return _BY_FUNCTOR.get(functor)


_BY_FUNCTOR = {spec.functor: spec for spec in OPERATIONS.values()}
