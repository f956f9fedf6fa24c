"""The reference engine's own bookkeeping of a timeline (independent of encodings/timeline/):
after an event, what is active and its timestamp.

Seed 000: a timestamp records when an effect began applying; text that becomes inactive loses
its timestamp and gains a new one when it becomes active again. Seed 001: an activated or
triggered ability's effect dates from its activation. So: what stays active keeps its
timestamp, what becomes active takes the event's time. Active means: an object's rules text
while it is on the board (and, where the ruleset says so, not attached), an attachment's Effect
Text while attached, a stamped key while it holds, an ongoing effect while it exists, and one
text while the object meant to hold it holds it after the calculation and its conditions about
a fixed object hold then (docs/semantics.md §14).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..conditions import CONDITIONS
from ..model import Board, Condition
from ..result import Resolution
from .registry import rules_of

Thing = tuple[str, ...]
# A condition judged on a calculated state: (condition, its subject's id, the text's holder's
# id, the board, the calculation) -> whether it holds.
FinalCondition = Callable[[Condition, str, str, Board, Resolution], bool]


def _parameter(cond: Condition) -> object:
    key = CONDITIONS[cond.kind].key
    return None if key is None else getattr(cond, key)


def _status(cond: Condition, subject: str, holder: str, board: Board, res: Resolution) -> bool:
    return any(obj.id == subject and _parameter(cond) in obj.status for obj in board.objects)


def _has_keyword(cond: Condition, subject: str, holder: str, board: Board, res: Resolution) -> bool:
    chars = res.objects.get(subject)
    return chars is not None and _parameter(cond) in chars.keywords


def _controlled_by(cond: Condition, subject: str, holder: str, board: Board, res: Resolution) -> bool:
    wanted = _parameter(cond)
    if wanted == "you":  # the text's controller: its holder's, now
        wanted = res.objects[holder].values.get("controller") if holder in res.objects else None
    chars = res.objects.get(subject)
    return chars is not None and wanted is not None and chars.values.get("controller") == wanted


SHARED_FINAL: Mapping[str, FinalCondition] = {
    "status": _status,
    "has_keyword": _has_keyword,
    "controlled_by": _controlled_by,
}


class ReferenceBookkeeping:
    name = "reference"

    def stamps(self, board: Board, resolution: Resolution, was: Mapping[Thing, int], now: int) -> dict[Thing, int]:
        rules = rules_of(board.ruleset)
        zones = set(board.ruleset.vocabulary.board_zones)
        finals = {**SHARED_FINAL, **rules.final_conditions}
        stamped = [f for f in board.ruleset.object_fields if f.stamp]
        active: list[Thing] = []
        for obj in board.objects:
            if obj.zone not in zones:
                continue
            if not (rules.attached_text_inactive and obj.attached_to is not None):
                active.append(("since", obj.id))
            if obj.attached_to is not None:
                active.append(("attached", obj.id))
            active += [("flag", f.key, obj.id) for f in stamped if getattr(obj, f.name)]
        active += [("effect", e.id) for e in board.effects]
        here = {obj.id for obj in board.objects if obj.zone in zones}
        # Who holds each printed text at the end (a copied one, E@H, is not its holder's own).
        holder_of = {name: oid for oid, chars in resolution.objects.items() for name in chars.abilities if "@" not in name}
        for obj in board.objects:
            for text in (*obj.rules_text, *obj.effect_text):
                holder = holder_of.get(text.id)
                if holder is not None and holder in here and all(
                    _holds(c, holder, board, resolution, finals) for c in text.conditions if c.of != "target"
                ):
                    active.append(("text", text.id))
        return {thing: was.get(thing, now) for thing in active}


def _holds(cond: Condition, holder: str, board: Board, res: Resolution, finals: Mapping[str, FinalCondition]) -> bool:
    subject = holder if cond.of in ("self", "bearer") else cond.of
    if not any(obj.id == subject for obj in board.objects):
        return True  # (the board format refuses a condition naming no object)
    return finals[cond.kind](cond, subject, holder, board, res)
