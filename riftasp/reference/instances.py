"""Effect instances and the questions the calculation asks about them (docs/semantics.md §2, §4).

An instance is what gets applied to an object. Everything here is a pure function of the instance,
the object and a `lookup` from object id to current state, so the engine can ask the same question
against a hypothetical state when it tests dependencies (§6) and against the final state (§8).

Characteristics (§4, "Reads and writes") are triples (object, what, parameter): `what` is one of
might, controller, types, tag, keyword, ability, copiable, status; the parameter names the tag,
keyword or ability (None otherwise). A write may have the parameter EVERY ("every tag").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model import Condition, GameObject, Operation, Target
from .state import ObjState

Lookup = Callable[[str], "ObjState | None"]
Char = tuple[str, str, "str | None"]
EVERY = "*"

# Stage ranks (§1).
STAGES: dict[str, int] = {
    "copy": 1,
    "set_might": 2,
    "set_controller": 2,
    "add_tag": 2,
    "remove_tag": 2,
    "gain_keywords": 3,
    "lose_keywords": 3,
    "lose_all_abilities": 3,
    "plus": 4,
    "increase_to": 4,
    "plus_max": 4,
    "double": 4,
    "minus": 5,
    "minus_min": 5,
}
LAYERS: dict[int, tuple[str, str | None]] = {
    1: ("copy", None),
    2: ("traits", None),
    3: ("abilities", None),
    4: ("arithmetic", "increase"),
    5: ("arithmetic", "decrease"),
}
# Arithmetic whose amount depends on the current Might (§4: read (O, might) for its result).
MIGHT_DEPENDENT = frozenset({"increase_to", "plus_max", "double", "minus_min"})


@dataclass(frozen=True, eq=False)
class Instance:
    """One instance (§2). `key` is (timestamp, a, b, c, h); an application appends index(O).

    A *potential* ability (one its holder could hold but does not now) is an Instance too, with
    a placeholder key: the dependency test (§6) applies and evaluates it, but never orders it.
    """

    name: str
    kind: str  # "ongoing" | "ability" | "buff" | "bonus" | "keyword"
    op: Operation
    stage: int
    timestamp: int
    key: tuple[int, int, int, int, int]
    conditions: tuple[Condition, ...] = ()
    target: Target | None = None  # None: applies to `obj` only (buff, Might Bonus, keyword bonus)
    obj: str | None = None
    holder: str | None = None  # ability: who holds it; ongoing: its source (what `self` means)
    bearer: str | None = None  # what `bearer` means for it
    controller: str | None = None  # ongoing only; an ability's controller is its holder's
    origin: str | None = None  # ability: "own" | "effect_text" | "copied"
    gear: str | None = None  # Effect Text / Might Bonus: the gear supplying it
    keyword: str | None = None  # keyword bonus: its keyword
    kw_source: str | None = None  # keyword bonus: the name of what brought the keyword (None: printed)
    value: int = 0  # keyword bonus: the value of its keyword instance


def resolve_ref(ref: str | None, inst: Instance, target: str | None) -> str | None:
    if ref == "self":
        return inst.holder
    if ref == "bearer":
        return inst.bearer
    if ref == "target":
        return target
    return ref


def controller_of(inst: Instance, lookup: Lookup) -> str | None:
    if inst.kind == "ongoing":
        return inst.controller
    if inst.kind == "ability" and inst.holder is not None:
        holder = lookup(inst.holder)
        return holder.controller if holder is not None else None
    return None


# -- §4: existence, targets, conditions, result -----------------------------------------------


def exists(inst: Instance, oid: str, lookup: Lookup) -> bool:
    if inst.kind == "ability":
        holder = lookup(inst.holder) if inst.holder is not None else None
        return holder is not None and holder.holds_or_retains(inst.name)
    if inst.kind == "keyword":
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
    if f.card_type is None and f.tag is None and f.relation is None:
        return True
    state = lookup(obj.id)
    assert state is not None
    if f.card_type is not None and f.card_type not in state.types:
        return False
    if f.tag is not None and f.tag not in state.tags:
        return False
    if f.relation is not None:
        friendly = state.controller == controller_of(inst, lookup)
        if friendly != (f.relation == "friendly"):
            return False
    return True


def condition_holds(cond: Condition, inst: Instance, oid: str, lookup: Lookup) -> bool:
    ref = resolve_ref(cond.of, inst, oid)
    state = lookup(ref) if ref is not None else None
    if state is None:
        return False  # a condition about nothing cannot be met
    kind = cond.kind
    if kind == "mighty":
        return state.mighty
    if kind == "might_at_least":
        return state.might is not None and cond.value is not None and state.might >= cond.value
    if kind == "status":
        return cond.status in state.status
    if kind == "has_keyword":
        return state.has_keyword(cond.keyword or "")
    if kind == "controlled_by":
        player = controller_of(inst, lookup) if cond.player == "you" else cond.player
        return player is not None and state.controller == player
    raise ValueError(f"unknown condition kind {kind!r}")


def conditions_hold(inst: Instance, oid: str, lookup: Lookup) -> bool:
    if not inst.conditions:
        return True
    return all(condition_holds(c, inst, oid, lookup) for c in inst.conditions)


def amount(inst: Instance, state: ObjState) -> int | None:
    """What an arithmetic instance adds or removes now (§3); None: not arithmetic, or the object
    has no Might (then it does nothing)."""
    if inst.stage < 4 or state.might is None:
        return None
    op = inst.op
    might = state.might
    name = op.name
    if inst.kind == "keyword":
        return inst.value
    if name in ("plus", "minus"):
        return op.amount or 0
    if name == "increase_to":
        return max(0, (op.value or 0) - might)
    if name == "plus_max":
        return max(0, min(op.amount or 0, (op.max or 0) - might))
    if name == "double":
        return max(0, might)
    if name == "minus_min":
        return max(0, min(op.amount or 0, might - (op.min or 0)))
    raise ValueError(f"unknown arithmetic operation {name!r}")


def copied_object(inst: Instance, oid: str) -> str | None:
    return resolve_ref(inst.op.of, inst, oid) if inst.op.name == "copy" else None


def root_of(object_id: str, lookup: Lookup) -> str:
    """The copiable root of an object as it stands (an off-board object is its own root)."""
    state = lookup(object_id)
    return state.root if state is not None else object_id


def result(inst: Instance, oid: str, lookup: Lookup) -> object:
    """§6: only arithmetic amounts and copies (the root they would take) have a result."""
    if inst.op.name == "copy":
        x = copied_object(inst, oid)
        return None if x is None else root_of(x, lookup)
    if inst.stage >= 4:
        state = lookup(oid)
        return None if state is None else amount(inst, state)
    return None


def evaluate(inst: Instance, obj: GameObject, lookup: Lookup) -> tuple:
    """What §6 asks of B: whether it exists, targets, meets its conditions, and its result."""
    return (
        exists(inst, obj.id, lookup),
        targets(inst, obj, lookup),
        conditions_hold(inst, obj.id, lookup),
        result(inst, obj.id, lookup),
    )


# -- §4: reads and writes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Reads:
    existence: tuple[Char, ...]
    targeting: tuple[Char, ...]
    conditions: tuple[tuple[Char, ...], ...]  # one entry per condition, in order
    result: tuple[Char, ...]

    @property
    def all(self) -> tuple[Char, ...]:
        out = self.existence + self.targeting + self.result
        for c in self.conditions:
            out += c
        return out


_CONDITION_WHAT = {
    "mighty": "might",
    "might_at_least": "might",
    "has_keyword": "keyword",
    "controlled_by": "controller",
    "status": "status",
}


def condition_reads(cond: Condition, inst: Instance, oid: str) -> tuple[Char, ...]:
    ref = resolve_ref(cond.of, inst, oid)
    out: list[Char] = []
    if ref is not None:
        what = _CONDITION_WHAT[cond.kind]
        out.append((ref, what, cond.keyword if what == "keyword" else None))
    if (
        cond.kind == "controlled_by"
        and cond.player == "you"
        and inst.kind == "ability"
        and inst.holder is not None
    ):
        out.append((inst.holder, "controller", None))
    return tuple(dict.fromkeys(out))


def reads(inst: Instance, oid: str) -> Reads:
    """What the instance on `oid` reads (§4); it depends only on the instance and the object."""
    existence: tuple[Char, ...] = ()
    if inst.kind == "ability" and inst.holder is not None:
        existence = ((inst.holder, "ability", inst.name),)
    elif inst.kind == "keyword":
        existence = ((oid, "keyword", inst.keyword),)
    targeting: list[Char] = []
    t = inst.target
    if t is not None and t.kind == "filter" and t.filter is not None:
        f = t.filter
        if f.card_type is not None:
            targeting.append((oid, "types", None))
        if f.tag is not None:
            targeting.append((oid, "tag", f.tag))
        if f.relation is not None:
            targeting.append((oid, "controller", None))
            if inst.kind == "ability" and inst.holder is not None:
                targeting.append((inst.holder, "controller", None))
    res: tuple[Char, ...] = ()
    if inst.op.name == "copy":
        x = copied_object(inst, oid)
        if x is not None:
            res = ((x, "copiable", None),)
    elif inst.stage >= 4 and inst.kind != "keyword" and inst.op.name in MIGHT_DEPENDENT:
        res = ((oid, "might", None),)
    return Reads(
        existence=existence,
        targeting=tuple(dict.fromkeys(targeting)),
        conditions=tuple(condition_reads(c, inst, oid) for c in inst.conditions),
        result=res,
    )


def writes(inst: Instance, oid: str) -> tuple[Char, ...]:
    """What an application of the instance to `oid` writes (§4)."""
    name = inst.op.name
    if inst.stage >= 4 or name == "set_might":
        return ((oid, "might", None),)
    if name == "copy":
        return (
            (oid, "might", None),
            (oid, "types", None),
            (oid, "tag", EVERY),
            (oid, "keyword", EVERY),
            (oid, "ability", EVERY),
            (oid, "copiable", None),
        )
    if name == "set_controller":
        return ((oid, "controller", None),)
    if name in ("add_tag", "remove_tag"):
        return ((oid, "tag", inst.op.tag),)
    if name in ("gain_keywords", "lose_keywords"):
        return tuple(dict.fromkeys((oid, "keyword", k.name) for k in inst.op.keywords))
    if name == "lose_all_abilities":
        return ((oid, "keyword", EVERY), (oid, "ability", EVERY))
    raise ValueError(f"unknown operation {name!r}")


def undoes(inst: Instance, oid: str) -> tuple[Char, ...]:
    """What an application can make false (§8, culprits): what it writes, except where it only
    adds — an increase never lowers Might, a gain or `add_tag` never takes anything away."""
    name = inst.op.name
    if inst.stage == 4 or name in ("add_tag", "gain_keywords"):
        return ()
    if name == "copy":
        return tuple(c for c in writes(inst, oid) if c[1] != "copiable")
    return writes(inst, oid)


def matches(write: Char, read: Char) -> bool:
    return (
        write[0] == read[0]
        and write[1] == read[1]
        and (write[2] == EVERY or read[2] == EVERY or write[2] == read[2])
    )


def writes_any(written: tuple[Char, ...], read: tuple[Char, ...]) -> bool:
    return any(matches(w, r) for w in written for r in read)


class WriteIndex:
    """Who writes what, indexed by (object, what), so "does anything write what X reads" is a
    lookup instead of a scan."""

    def __init__(self) -> None:
        self._by: dict[tuple[str, str], list[tuple[str | None, object]]] = {}

    def add(self, written: tuple[Char, ...], item: object) -> None:
        for obj, what, param in written:
            self._by.setdefault((obj, what), []).append((param, item))

    def writers(self, read: Char) -> list[object]:
        obj, what, param = read
        return [
            item
            for p, item in self._by.get((obj, what), ())
            if p == EVERY or param == EVERY or p == param
        ]

    def any_writer(self, read: Char, exclude: object = None) -> bool:
        obj, what, param = read
        for p, item in self._by.get((obj, what), ()):
            if item != exclude and (p == EVERY or param == EVERY or p == param):
                return True
        return False
