"""The conditions' registry: every kind of condition a board may name, described once
(riftasp/specs.py): the shared ones (shared.py) and each ruleset's own (its plugin in
riftasp/rulesets/)."""

from __future__ import annotations

from ..rulesets import gathered
from ..specs import ConditionSpec
from .shared import SHARED

__all__ = ["CONDITIONS", "ConditionSpec"]

# Condition kind -> its description, in the order the format lists them.
CONDITIONS: dict[str, ConditionSpec] = gathered(SHARED, "CONDITIONS", lambda spec: spec.kind)
