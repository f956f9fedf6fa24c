"""The conditions' registry: every kind of condition a board may name, described once
(riftasp/specs.py): the shared ones (shared.py) and each ruleset's own (its plugin in
riftasp/rulesets/)."""

from __future__ import annotations

from ..rulesets import PLUGINS
from .shared import SHARED
from ..specs import ConditionSpec

__all__ = ["CONDITIONS", "ConditionSpec"]


def _registry() -> dict[str, ConditionSpec]:
    specs: dict[str, ConditionSpec] = {}
    for spec in (*SHARED, *(s for plugin in PLUGINS.values() for s in getattr(plugin, "CONDITIONS", ()))):
        if spec.kind in specs and specs[spec.kind] != spec:
            raise ValueError(f"two conditions are called {spec.kind!r}")
        specs[spec.kind] = spec
    return specs


# Condition kind -> its description, in the order the format lists them.
CONDITIONS: dict[str, ConditionSpec] = _registry()
