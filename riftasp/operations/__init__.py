"""The operations' registry: every operation a board may name, described once
(riftasp/specs.py): the shared ones (shared.py) and each ruleset's own (its plugin in
riftasp/rulesets/). Adding an operation is one entry here or in a plugin, and one encoding file."""

from __future__ import annotations

from ..model import LIST_PARAMS
from ..rulesets import PLUGINS
from .shared import SHARED
from ..specs import Does, OperationSpec, Param

__all__ = ["OPERATIONS", "Does", "OperationSpec", "Param", "by_functor"]


def _registry() -> dict[str, OperationSpec]:
    specs: dict[str, OperationSpec] = {}
    for spec in (*SHARED, *(s for plugin in PLUGINS.values() for s in getattr(plugin, "OPERATIONS", ()))):
        if spec.name in specs and specs[spec.name] != spec:
            raise ValueError(f"two operations are called {spec.name!r}")
        specs[spec.name] = spec
    return specs


# The board's operation name -> its description, in the order the format lists them.
OPERATIONS: dict[str, OperationSpec] = _registry()
LIST_PARAMS.update(p.key for spec in OPERATIONS.values() for p in spec.params if p.kind.name == "array")


def by_functor(functor: str) -> OperationSpec | None:
    """The operation whose encoding term is `functor` (`gain_keyword` -> gain_keywords)."""
    return _BY_FUNCTOR.get(functor)


_BY_FUNCTOR = {spec.functor: spec for spec in OPERATIONS.values()}
