"""Sorcery's conditions judged on a calculated state, for a timeline's bookkeeping
(riftasp/reference/timeline.py): as rules.py judges them during a calculation, a condition about
an object outside the realm fails."""

from __future__ import annotations

from typing import Any

from ....model import Board, Condition
from ....result import Resolution
from .realm import Realm


def _power(cond: Condition, subject: str, res: Resolution) -> int | None:
    chars = res.objects.get(subject)
    return None if chars is None else chars.values.get("power")


def _power_at_most(cond: Condition, subject: str, holder: str, board: Board, res: Resolution) -> bool:
    p = _power(cond, subject, res)
    return Realm(board).in_realm(subject) and p is not None and p <= cond.value


def _power_below(cond: Condition, subject: str, holder: str, board: Board, res: Resolution) -> bool:
    p = _power(cond, subject, res)
    return Realm(board).in_realm(subject) and p is not None and p < cond.value


def _lacks_adjacent_ally_with(cond: Condition, subject: str, holder: str, board: Board, res: Resolution) -> bool:
    realm = Realm(board)
    if not realm.in_realm(subject):
        return False
    me = res.objects[subject].values.get("controller")
    for obj in board.objects:
        chars = res.objects.get(obj.id)
        if not realm.in_realm(obj.id) or chars is None or cond.keyword not in chars.keywords:
            continue
        if obj.id == subject:
            return False
        near = realm.related("here", subject, obj.id, me) or realm.related("adjacent", subject, obj.id, me)
        if near and chars.values.get("controller") == me:
            return False
    return True


FINAL_CONDITIONS: dict[str, Any] = {
    "power_at_most": _power_at_most,
    "power_below": _power_below,
    "lacks_adjacent_ally_with": _lacks_adjacent_ally_with,
}
