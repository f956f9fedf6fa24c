"""Riftbound's own conditions, on Might: "while Mighty" and "while it has N or more Might"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


# ---- on a calculated state (a timeline's bookkeeping, riftasp/reference/timeline.py) ----------


def _final_mighty(cond: Condition, subject: str, holder: str, board: Any, res: Any) -> bool:
    chars = res.objects.get(subject)
    return chars is not None and bool(chars.values.get("mighty"))


def _final_might_at_least(cond: Condition, subject: str, holder: str, board: Any, res: Any) -> bool:
    chars = res.objects.get(subject)
    might = None if chars is None else chars.values.get("might")
    return might is not None and cond.value is not None and might >= cond.value


FINAL_CONDITIONS = {"mighty": _final_mighty, "might_at_least": _final_might_at_least}
