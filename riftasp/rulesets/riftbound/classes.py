"""Which hard classes of boards (issue 7) a board belongs to, read from its structure alone.

The generators (riftasp/rulesets/riftbound/strategies.py) must reach every class, or fuzzing cannot find mistakes
in them; `board_classes` checks that without trusting how a board was drawn:

  A lost support       a keyword or held ability something else supports, and a conditional
                       lose_keywords / lose_all_abilities / copy that can take it away
  B summing keywords   a unit in combat holding its bonus keyword from ≥ 2 sources, numbered and
                       not, and a non-summing keyword from ≥ 2 sources
  C reads nothing can change   a condition on another object's status, or on a characteristic
                       of it that no effect on the board can write
  D real object loops  objects reading each other (copies, conditions) through characteristics
                       something writes, with a copy or control change among them
  E equipment + copy   attached gear with Effect Text and a Might Bonus on a copy's target
  F enabling dependencies   two effects of one layer, one able to switch the other on (its
                       condition or its filter)
  G paradox rings      two conditional effects on one unit, each switching the other's condition
                       the other way, and a third effect on that unit

Conservative where targets are open (a filter may match any object it does not exclude).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...board_io import board_from_dict
from .keywords import BONUS, NON_SUMMING, SUMMING
from ...listing import listed_effects
from ...model import Board, Condition, Effect, GameObject, Operation
from .check.operations import lowers_might, parameter, raises_might, spec_of, stage

CLASSES = ("A", "B", "C", "D", "E", "F", "G")
# What each operation does is its registry entry's (check/operations.py reads it): its stage,
# what it writes, whether it can raise or lower Might.
COPIED = {"might", "controller", "tags", "keywords", "types", "abilities"}


def _stage(op: Operation) -> int | None:
    return stage(spec_of(op))


def _writes(op: Operation) -> set[str]:
    does = spec_of(op).does
    if does.kind == "copy":
        return COPIED
    if does.kind in ("set", "add", "remove"):
        return {does.characteristic or "might"}
    if does.kind in ("gain_keywords", "lose_keywords"):
        return {"keywords"}
    if does.kind == "lose_all_abilities":
        return {"keywords", "abilities"}
    return {"might"}


def _kind(op: Operation) -> str:
    return spec_of(op).does.kind


def _sets(op: Operation, characteristic: str) -> bool:
    does = spec_of(op).does
    return does.kind == "set" and does.characteristic == characteristic


READS = {"mighty": "might", "might_at_least": "might", "has_keyword": "keywords",
         "controlled_by": "controller", "status": "status"}  # fmt: skip


@dataclass(frozen=True)
class Placed:
    effect: Effect
    holder: GameObject | None  # None: an ongoing effect
    context: str  # "rules" | "effect" | "ongoing"

    @property
    def op(self) -> str:
        return self.effect.op.name

    @property
    def self_id(self) -> str | None:
        return self.holder.id if self.holder is not None else self.effect.source


class _Board:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.objects = {o.id: o for o in board.objects}
        self.placed = [Placed(slot.placed, slot.obj, slot.part) for slot in listed_effects(board)]

    def targets(self, p: Placed) -> set[str]:
        t = p.effect.target
        if t.kind == "self":
            return {p.self_id} if p.self_id else set()
        if t.kind == "bearer":
            return {p.holder.attached_to} if p.holder is not None and p.holder.attached_to else set()
        if t.kind == "ids":
            return set(t.ids)
        f = t.filter
        found = {o.id for o in self.board.objects if f is None or f.card_type in (None, o.card_type)}
        if f is not None and f.other and p.self_id:
            found.discard(p.self_id)
        return found

    def reads(self, p: Placed, c: Condition, target: str) -> str | None:
        if c.of == "self":
            return p.self_id
        if c.of == "bearer":
            return p.holder.attached_to if p.holder is not None else None
        if c.of == "target":
            return target
        return c.of

    def writers(self, oid: str, characteristic: str) -> list[Placed]:
        """Effects that may write `characteristic` of `oid` (might: anything arithmetic too)."""
        found = []
        for p in self.placed:
            if oid not in self.targets(p):
                continue
            writes = _writes(p.effect.op)
            if characteristic in writes:
                found.append(p)
        return found

    def writable(self, oid: str, characteristic: str) -> bool:
        if characteristic == "status":
            return False
        if self.writers(oid, characteristic):
            return True
        obj = self.objects.get(oid)
        if obj is None:
            return False
        if characteristic == "might":
            # Buffs, gear bonuses and keyword bonuses in combat change Might too.
            gear = any(o.attached_to == oid and o.might_bonus for o in self.board.objects)
            bonus = obj.status and (any(k.name in BONUS for k in obj.keywords) or self.writable(oid, "keywords"))
            return obj.buffed or gear or bool(bonus)
        if characteristic == "keywords":  # Effect Text of attached gear grants keywords
            return any(o.attached_to == oid and o.effect_text for o in self.board.objects)
        return False

    def reads_across(self) -> Iterator[tuple[Placed, Condition, str, str]]:
        """(effect, condition, object changed, object read) with the two different."""
        for p in self.placed:
            for target in self.targets(p):
                for c in p.effect.conditions:
                    read = self.reads(p, c, target)
                    if read is not None and read != target:
                        yield p, c, target, read


def board_classes(data: dict[str, Any] | Board) -> set[str]:
    """The classes (A-G above) a board belongs to."""
    board = data if isinstance(data, Board) else board_from_dict(data)
    b = _Board(board)
    checks = {"A": _lost_support, "B": _summing, "C": _unchangeable_reads, "D": _real_loops,
              "E": _gear_and_copy, "F": _enabling, "G": _paradox_ring}  # fmt: skip
    return {name for name, check in checks.items() if check(b)}


def _keyword_sources(b: _Board, oid: str, name: str) -> list[int | None]:
    """The numbers (None: no number) of every printed or granted instance of a keyword."""
    obj = b.objects[oid]
    found = [k.value for k in obj.keywords if k.name == name]
    for p in b.placed:
        if _kind(p.effect.op) == "gain_keywords" and oid in b.targets(p):
            found += [k.value for k in p.effect.op.keywords if k.name == name]
    return found


def _lost_support(b: _Board) -> bool:
    for remover in b.placed:
        removes = _kind(remover.effect.op)
        if removes not in ("lose_keywords", "lose_all_abilities", "copy") or not remover.effect.conditions:
            continue
        for oid in b.targets(remover):
            obj = b.objects[oid]
            if removes == "lose_keywords":
                lost = {k.name for k in remover.effect.op.keywords}
            else:
                lost = {k.name for k in obj.keywords} | {k.name for p in b.placed
                                                         if _kind(p.effect.op) == "gain_keywords"
                                                         and oid in b.targets(p) for k in p.effect.op.keywords}
            for name in lost:
                if not _keyword_sources(b, oid, name):
                    continue
                if name in BONUS and BONUS[name] in obj.status:
                    return True  # a keyword bonus loses its keyword
                if any(c.kind == "has_keyword" and c.keyword == name and b.reads(p, c, t) == oid
                       for p in b.placed for t in b.targets(p) for c in p.effect.conditions):  # fmt: skip
                    return True  # an effect loses the keyword its condition reads
            if removes in ("lose_all_abilities", "copy") and obj.rules_text:
                return True  # held abilities lost
    return False


def _summing(b: _Board) -> bool:
    for obj in b.board.objects:
        if obj.card_type != "unit" or not obj.status:
            continue
        bonus = [k for k, s in BONUS.items() if s in obj.status and k in SUMMING]
        stacked = any(len(n := _keyword_sources(b, obj.id, k)) >= 2 and None in n and any(n) for k in bonus)
        repeated = any(len(_keyword_sources(b, obj.id, k)) >= 2 for k in NON_SUMMING)
        if stacked and repeated:
            return True
    return False


def _unchangeable_reads(b: _Board) -> bool:
    return any(not b.writable(read, READS[c.kind]) for _, c, _, read in b.reads_across())


def _read_edges(b: _Board) -> dict[str, set[str]]:
    """O -> Q when calculating O reads a characteristic of Q that something can write."""
    edges: dict[str, set[str]] = {oid: set() for oid in b.objects}
    for p in b.placed:
        if _kind(p.effect.op) == "copy":
            of = p.effect.op.of
            for target in b.targets(p):
                if of != target and any(b.writable(of, c) for c in ("might", "controller", "tags", "keywords")):
                    edges[target].add(of)
    for _, c, target, read in b.reads_across():
        if read in b.objects and b.writable(read, READS[c.kind]):
            edges[target].add(read)
    return edges


def _real_loops(b: _Board) -> bool:
    edges = _read_edges(b)
    for component in _components(edges):
        if len(component) < 2:
            continue
        if any((_kind(p.effect.op) == "copy" or _sets(p.effect.op, "controller")) and b.targets(p) & component
               for p in b.placed):
            return True
    return False


def _components(edges: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components (small graphs: reachability both ways)."""

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reachable = {oid: reach(oid) for oid in edges}
    components: list[set[str]] = []
    for oid in edges:
        if any(oid in c for c in components):
            continue
        components.append({oid} | {q for q in reachable[oid] if oid in reachable.get(q, ())})
    return components


def _gear_and_copy(b: _Board) -> bool:
    for gear in b.board.objects:
        if gear.card_type != "gear" or not gear.attached_to or not gear.effect_text or gear.might_bonus is None:
            continue
        if any(_kind(p.effect.op) == "copy" and gear.attached_to in b.targets(p) for p in b.placed):
            return True
    return False


def _enables(a: Placed, b: _Board, dependent: Placed, oid: str) -> bool:
    """Whether applying `a` to `oid` can switch on `dependent` (its condition or its filter)."""
    op = a.effect.op
    for target in b.targets(dependent):
        for c in dependent.effect.conditions:
            if b.reads(dependent, c, target) != oid:
                continue
            if _sets(op, "controller") and c.kind == "controlled_by" and c.player == parameter(op):
                return True
            if _kind(op) == "gain_keywords" and c.kind == "has_keyword" and c.keyword in {k.name for k in op.keywords}:
                return True
            if raises_might(spec_of(op)) and c.kind in ("mighty", "might_at_least"):
                return True
    f = dependent.effect.target.filter
    if dependent.effect.target.kind == "filter" and f is not None:
        if _kind(op) == "add" and spec_of(op).does.characteristic == "tags" and f.tag == parameter(op):
            return True
        if _sets(op, "controller") and f.relation is not None:
            return True
    return False


def _enabling(b: _Board) -> bool:
    for a in b.placed:
        for dependent in b.placed:
            if a is dependent or _stage(a.effect.op) != _stage(dependent.effect.op):
                continue
            if any(_enables(a, b, dependent, oid) for oid in b.targets(a)):
                return True
    return False


def _disables(a: Placed, b: _Board, dependent: Placed, oid: str) -> bool:
    """Whether applying `a` to `oid` can switch off `dependent`'s condition on `oid`."""
    op = a.effect.op
    for target in b.targets(dependent):
        for c in dependent.effect.conditions:
            if b.reads(dependent, c, target) != oid:
                continue
            if _sets(op, "controller") and c.kind == "controlled_by" and c.player != parameter(op):
                return True
            if c.kind == "has_keyword" and (_kind(op) == "lose_all_abilities" or _kind(op) == "lose_keywords"
                                            and c.keyword in {k.name for k in op.keywords}):  # fmt: skip
                return True
            if lowers_might(spec_of(op)) and c.kind in ("mighty", "might_at_least"):
                return True
            if _kind(op) in ("lose_keywords", "lose_all_abilities") and c.kind in ("mighty", "might_at_least"):
                lost = {k.name for k in op.keywords} if _kind(op) == "lose_keywords" else set(BONUS)
                if any(BONUS.get(k) in b.objects[oid].status for k in lost):
                    return True  # a keyword bonus goes
    return False


def _paradox_ring(b: _Board) -> bool:
    for oid, obj in b.objects.items():
        if obj.card_type != "unit":
            continue
        on = [p for p in b.placed if oid in b.targets(p)]
        for first in on:
            for second in on:
                if first is second or not first.effect.conditions or not second.effect.conditions:
                    continue
                if _enables(first, b, second, oid) and _disables(second, b, first, oid):
                    if any(p is not first and p is not second for p in on):
                        return True
    return False
