"""Riftbound's own conditions, on Might: "while Mighty" and "while it has N or more Might"."""

from __future__ import annotations

from collections.abc import Mapping

from ....model import Condition
from ....reference.core.conditions import CORE_CONDITIONS, ConditionKind
from ....reference.core.instances import Instance, Lookup
from ....reference.core.state import ObjState
from .characteristics import MIGHT, is_mighty


class Mighty(ConditionKind):
    what = MIGHT

    def holds(self, cond: Condition, state: ObjState, inst: Instance, lookup: Lookup) -> bool:
        return is_mighty(state)


class MightAtLeast(ConditionKind):
    what = MIGHT

    def holds(self, cond: Condition, state: ObjState, inst: Instance, lookup: Lookup) -> bool:
        m = state.numbers[MIGHT]
        return m is not None and cond.value is not None and m >= cond.value


CONDITIONS: Mapping[str, ConditionKind] = {
    **CORE_CONDITIONS,
    "mighty": Mighty(),
    "might_at_least": MightAtLeast(),
}
