"""The questions the calculation asks about an instance on an object (docs/semantics.md §4, §6):
whether it exists, targets the object, meets its conditions, and its result; what it reads and
can make false (what it writes is its operator's).

Everything here is a pure function of the instance, the object and a `lookup` from object id to
current state, so the engine can ask the same question against a hypothetical state when it
tests dependencies (§6) and against the final state (§8).
"""

from __future__ import annotations

from ...model import GameObject
from .chars import ABILITY, KEYWORD, Char, Reads
from .instances import BORNE, HELD, Instance, Lookup, controller_of
from .state import CONTROLLER


def exists(inst: Instance, oid: str, lookup: Lookup) -> bool:
    if inst.kind == HELD:
        holder = lookup(inst.holder) if inst.holder is not None else None
        return holder is not None and holder.holds_or_retains(inst.name)
    if inst.kind == BORNE:
        state = lookup(oid)
        return state is not None and any(
            k.keyword == inst.keyword and k.source_name == inst.kw_source for k in state.keywords
        )
    return True


def targets(inst: Instance, obj: GameObject, lookup: Lookup) -> bool:
    """Whether the instance targets `obj` now (the caller knows `obj` is on the board)."""
    t = inst.target
    if t is None:
        return obj.id == inst.obj
    if t.kind == "self":
        return obj.id == inst.holder
    if t.kind == "bearer":
        return obj.id == inst.bearer
    if t.kind == "ids":
        return obj.id in t.ids
    f = t.filter
    if f is None:
        return True
    if f.zone is not None and obj.zone != f.zone:
        return False
    if f.location is not None and obj.location != f.location:
        return False
    if f.other and obj.id == inst.holder:
        return False
    if not inst.asks and f.relation is None:
        return True
    state = lookup(obj.id)
    assert state is not None
    for characteristic, member in inst.asks:
        if member not in state.members[characteristic]:
            return False
    if f.relation is not None:
        friendly = state.controller == controller_of(inst, lookup)
        if friendly != (f.relation == "friendly"):
            return False
    return True


def conditions_hold(inst: Instance, oid: str, lookup: Lookup) -> bool:
    for c in inst.conditions:
        if not c.holds(inst, oid, lookup):
            return False
    return True


def evaluate(inst: Instance, obj: GameObject, lookup: Lookup) -> tuple:
    """What §6 asks of B: whether it exists, targets, meets its conditions, and its result."""
    return (
        exists(inst, obj.id, lookup),
        targets(inst, obj, lookup),
        conditions_hold(inst, obj.id, lookup),
        inst.operator.result(inst, obj.id, lookup),
    )


def reads(inst: Instance, oid: str) -> Reads:
    """What the instance on `oid` reads (§4); it depends only on the instance and the object."""
    existence: tuple[Char, ...] = ()
    if inst.kind == HELD and inst.holder is not None:
        existence = ((inst.holder, ABILITY, inst.name),)
    elif inst.kind == BORNE:
        existence = ((oid, KEYWORD, inst.keyword),)
    targeting: tuple[Char, ...] = ()
    f = inst.target.filter if inst.target is not None and inst.target.kind == "filter" else None
    if f is not None:
        found: list[Char] = [(oid, characteristic, member) for characteristic, member in inst.asks]
        if f.relation is not None:
            found.append((oid, CONTROLLER, None))
            if inst.kind == HELD and inst.holder is not None:
                found.append((inst.holder, CONTROLLER, None))
        targeting = tuple(dict.fromkeys(found))
    return Reads(
        existence=existence,
        targeting=targeting,
        conditions=tuple([c.reads(inst, oid) for c in inst.conditions]) if inst.conditions else (),
        result=inst.operator.result_reads(inst, oid),
    )


def undoes(inst: Instance, oid: str) -> tuple[Char, ...]:
    """What an application can make false (§8, culprits): what it writes, except where it only
    adds (an increase, a gain, adding a member never takes anything away)."""
    return inst.operator.undoes(inst.op, oid)
