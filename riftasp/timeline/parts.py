"""A board as parts that cannot affect each other, so that an event costs the calculation of the
parts it touches and a game's other parts are reused (issue 41: "per-event work grows with what
the event touches, not with the length of the game").

Two objects are in one part when one could read or change the other, judged conservatively from
what no effect changes: an attachment, the objects an effect names (its holder, source, target
ids, the objects its conditions read), and for a filter target the objects its bounded filters
let through (`FilterSpec.bound`: a zone, a location, the squares around the holder), else every
object on the board. A board where one object can take another's text (a copy, a linked
object's printed abilities) or a condition reads the objects around another is not split.
Objects off the board are calculated with the part that names them, or together.

This is no rules logic: each part is calculated by the engine as a board of its own, keeping the
board's order (listing order breaks ties), and tests/test_timeline.py checks that the parts give
what the whole board gives.
"""

from __future__ import annotations

from dataclasses import replace

from ..filters import FILTERS
from ..model import Board, Effect, GameObject
from ..operations import OPERATIONS
from ..result import Resolution

# Conditions that read the objects around their subject (not only the subject).
_READS_AROUND = {"lacks_adjacent_ally_with"}


def split(board: Board) -> list[Board]:
    """The board's parts (the board itself when it does not split)."""
    if not _splittable(board):
        return [board]
    objects = {o.id: o for o in board.objects}
    zones = set(board.ruleset.vocabulary.board_zones)
    on_board = [o for o in board.objects if o.zone in zones]
    parent = {oid: oid for oid in objects}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(party: set[str]) -> None:
        members = [oid for oid in party if oid in parent]
        for other in members[1:]:
            parent[find(other)] = find(members[0])

    for obj in board.objects:
        if obj.attached_to is not None:
            join({obj.id, obj.attached_to})
    ongoing: dict[str, set[str]] = {}
    ongoing_ids = {e.id for e in board.effects}
    for holder, effect in _effects(board):
        party = _named(effect, holder)
        if effect.target.kind == "filter":
            party |= {o.id for o in on_board if _may_match(effect, holder, o, objects)}
        join(party)
        if effect.id in ongoing_ids:
            ongoing[effect.id] = party
    groups: dict[str, set[str]] = {}
    for oid in objects:
        groups.setdefault(find(oid), set()).add(oid)
    # Objects off the board that nothing names: calculated together, as one part.
    alone = {oid for g in groups.values() if len(g) == 1 for oid in g if objects[oid].zone not in zones}
    parts = [g for g in groups.values() if not g <= alone]
    if alone:
        parts.append(alone)
    if len(parts) <= 1:
        return [board]
    return [_part(board, ids, ongoing) for ids in parts]


def _part(board: Board, ids: set[str], ongoing: dict[str, set[str]]) -> Board:
    """The board of one part: its objects and the ongoing effects of its objects, in the board's
    order (an ongoing effect that can reach no object at all stays out: it changes nothing)."""
    objects = tuple(o for o in board.objects if o.id in ids)
    effects = tuple(e for e in board.effects if ongoing.get(e.id) and ongoing[e.id] <= ids)
    return replace(board, objects=objects, effects=effects)


def _splittable(board: Board) -> bool:
    own_links = [f for f in board.ruleset.object_fields if f.kind.name == "object_id"]
    if any(getattr(o, f.name) for o in board.objects for f in own_links):
        return False
    for _, effect in _effects(board):
        if OPERATIONS[effect.op.name].does.kind == "copy" or any(c.kind in _READS_AROUND for c in effect.conditions):
            return False
    # An ongoing effect naming no object at all cannot be placed in a part.
    return all(_named(e, e.source) or e.target.kind == "filter" for e in board.effects)


def _effects(board: Board) -> list[tuple[str | None, Effect]]:
    """Every effect with the object that holds it (an ongoing effect: its source, if any)."""
    out: list[tuple[str | None, Effect]] = []
    for obj in board.objects:
        out += [(obj.id, e) for e in obj.rules_text]
        out += [(obj.attached_to or obj.id, e) for e in obj.effect_text]
    out += [(e.source, e) for e in board.effects]
    return out


def _named(effect: Effect, holder: str | None) -> set[str]:
    named = set(effect.target.ids)
    if holder is not None:
        named.add(holder)
    named |= {c.of for c in effect.conditions if c.of not in ("self", "bearer", "target")}
    return named


def _may_match(effect: Effect, holder: str | None, obj: GameObject, objects: dict[str, GameObject]) -> bool:
    f = effect.target.filter
    if f is None:
        return True
    for spec in FILTERS.values():
        value = getattr(f, spec.name, None)
        if value is None or not spec.bound:
            continue
        if spec.bound == "zone" and obj.zone != value:
            return False
        if spec.bound == "location" and obj.location != value:
            return False
        if spec.bound == "square" and holder is not None and not _near(objects, holder, obj.id):
            return False
    return True


def _near(objects: dict[str, GameObject], holder: str, other: str) -> bool:
    """Whether `other` stands where a relation of the realm from `holder` could reach: its
    square, its column, or a square next to it (docs/semantics-sorcery.md §7)."""
    a, b = _square(objects, holder), _square(objects, other)
    if a is None or b is None:
        return False
    return a[1] == b[1] or (abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1)


def _square(objects: dict[str, GameObject], oid: str, depth: int = 0) -> tuple[int, int] | None:
    obj = objects.get(oid)
    if obj is None or depth > len(objects):
        return None
    if obj.attached_to is not None:
        return _square(objects, obj.attached_to, depth + 1)
    row, column = getattr(obj, "row", None), getattr(obj, "column", None)
    return None if row is None or column is None else (row, column)


def merged(board: Board, parts: list[Resolution]) -> Resolution:
    """One resolution of the whole board from its parts' (each object's characteristics from its
    part; the reports of loops, cycles and ties put together)."""
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    order = {o.id: i for i, o in enumerate(board.objects)}
    objects = {}
    for part in parts:
        objects.update(part.objects)
    return replace(
        first,
        objects=dict(sorted(objects.items(), key=lambda kv: order.get(kv[0], len(order)))),
        applied={k: v for p in parts for k, v in p.applied.items()},
        dependency_cycles=[c for p in parts for c in p.dependency_cycles],
        object_loops=[c for p in parts for c in p.object_loops],
        timestamp_ties=[c for p in parts for c in p.timestamp_ties],
        withdrawn={k: v for p in parts for k, v in p.withdrawn.items()},
        needs={k: v for p in parts for k, v in p.needs.items()},
        paradoxes=[c for p in parts for c in p.paradoxes],
        withdrawals=[w for p in parts for w in p.withdrawals],
    )
