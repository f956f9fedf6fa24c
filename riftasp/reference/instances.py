"""Effect instances and the questions the calculation asks about them (semantics.md 2 and 4).

An instance is one effect applied to one object. Everything here is a pure function of the
instance and a `lookup` from object id to current state, so the engine can ask the same question
against a hypothetical state when it tests dependencies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..model import Condition, GameObject, Operation, Target
from .state import ObjState

Lookup = Callable[[str], "ObjState | None"]

# Stage ranks (semantics.md section 1).
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
# The characteristic an Application reports as changed.
CHARACTERISTIC: dict[str, str] = {
    "copy": "copy",
    "set_might": "might",
    "set_controller": "controller",
    "add_tag": "tags",
    "remove_tag": "tags",
    "gain_keywords": "keywords",
    "lose_keywords": "keywords",
    "lose_all_abilities": "abilities",
}
# Arithmetic whose amount depends on current Might; plus/minus add a fixed number.
MIGHT_DEPENDENT_AMOUNT = frozenset({"increase_to", "plus_max", "double", "minus_min"})

# What a pending instance writes, as seen by the *settled* test (semantics.md 6, step 3).
# Status is never written. The spec says copy "writes everything", the controller included, even
# though a copy does not take the controller; "held" is never read by a condition but matters for
# the dependency shortcut below.
_WRITES: dict[str, frozenset[str]] = {
    "copy": frozenset({"might", "controller", "tags", "keywords", "types", "name", "held"}),
    "set_might": frozenset({"might"}),
    "set_controller": frozenset({"controller"}),
    "add_tag": frozenset({"tags"}),
    "remove_tag": frozenset({"tags"}),
    "gain_keywords": frozenset({"keywords"}),
    "lose_keywords": frozenset({"keywords"}),
    "lose_all_abilities": frozenset({"keywords", "held"}),
}
_ARITHMETIC_WRITES = frozenset({"might"})
_WRITES_BY_STAGE_OP: dict[tuple[bool, str], frozenset[str]] = {
    (rank >= 4, name): (_ARITHMETIC_WRITES if rank >= 4 else _WRITES[name])
    for name, rank in STAGES.items()
}

# The characteristic each condition kind reads.
CONDITION_READS: dict[str, str] = {
    "mighty": "might",
    "might_at_least": "might",
    "has_keyword": "keywords",
    "controlled_by": "controller",
    "status": "status",
}


@dataclass(frozen=True)
class Instance:
    id: str
    kind: str  # "ongoing" | "ability" | "buff" | "bonus" | "keyword"
    op: Operation
    stage: int
    timestamp: int
    listing: tuple[int, ...]
    conditions: tuple[Condition, ...] = ()
    target: Target | None = None  # None: buff, bonus and keyword bonus apply to one fixed object
    holder: str | None = None  # ability: who holds it; ongoing: its source (what `self` means)
    bearer: str | None = None  # what `bearer` means for it
    controller: str | None = None  # ongoing only; an ability's controller is its holder's
    keyword: str | None = None  # keyword bonus: the keyword whose value is added
    gear: str | None = None  # Might Bonus / Effect Text: the gear supplying it
    origin: str | None = None  # ability: "rules" | "effect_text" | "copied"

    @property
    def sort_key(self) -> tuple[int, tuple[int, ...]]:
        return (self.timestamp, self.listing)

    @property
    def writes(self) -> frozenset[str]:
        # Looked up per step for every pending instance; a dict lookup, no computation.
        return _WRITES_BY_STAGE_OP[(self.stage >= 4, self.op.name)]


def resolve_ref(ref: str, inst: Instance, target: str | None) -> str | None:
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
    if inst.holder is None:
        return None
    holder = lookup(inst.holder)
    return holder.controller if holder is not None else None


def exists(inst: Instance, target: str, lookup: Lookup) -> bool:
    """Ability: its holder holds it now. Keyword bonus: the object holds the keyword."""
    if inst.kind == "ability":
        holder = lookup(inst.holder) if inst.holder is not None else None
        return holder is not None and inst.id in holder.held
    if inst.kind == "keyword":
        state = lookup(target)
        return state is not None and inst.keyword in state.keywords
    return True


def targets(inst: Instance, obj: GameObject, lookup: Lookup) -> bool:
    """Whether the instance targets `obj` (which the caller knows is on the board)."""
    t = inst.target
    if t is None:
        return True
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


def condition_holds(cond: Condition, inst: Instance, target: str, lookup: Lookup) -> bool:
    ref = resolve_ref(cond.of, inst, target)
    state = lookup(ref) if ref is not None else None
    if state is None:
        # A condition about nothing (e.g. `bearer` of an unattached card) cannot be met.
        return False
    kind = cond.kind
    if kind == "mighty":
        return state.mighty
    if kind == "might_at_least":
        return state.might is not None and cond.value is not None and state.might >= cond.value
    if kind == "status":
        return cond.status in state.status
    if kind == "has_keyword":
        return cond.keyword in state.keywords
    if kind == "controlled_by":
        player = controller_of(inst, lookup) if cond.player == "you" else cond.player
        return player is not None and state.controller == player
    raise ValueError(f"unknown condition kind {kind!r}")


def conditions_hold(inst: Instance, target: str, lookup: Lookup) -> bool:
    return all(condition_holds(c, inst, target, lookup) for c in inst.conditions)


def amount(inst: Instance, state: ObjState) -> int | None:
    """The number an arithmetic instance adds or removes now; None when it is not arithmetic or the
    object has no Might (then it does nothing)."""
    if inst.stage < 4 or state.might is None:
        return None
    op = inst.op
    might = state.might
    name = op.name
    if inst.kind == "keyword":
        return state.keywords.get(inst.keyword or "", 0)
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


def reads_of_target(
    inst: Instance, target: str, objects: Mapping[str, GameObject]
) -> frozenset[str]:
    """Which characteristics of the target object decide this instance's existence, targeting,
    conditions or amount. An instance reading none of what another writes cannot depend on it, so
    the engine skips the hypothetical test for it (the shortcut that keeps big boards linear)."""
    reads: set[str] = set()
    holder_is_target = inst.holder == target
    if inst.kind == "ability" and holder_is_target:
        reads.add("held")
        reads.add("controller")  # the ability's controller is its holder's
    if inst.kind == "keyword":
        reads.add("keywords")
    t = inst.target
    if t is not None and t.kind == "filter" and t.filter is not None:
        f = t.filter
        if f.card_type is not None:
            reads.add("types")
        if f.tag is not None:
            reads.add("tags")
        if f.relation is not None:
            reads.add("controller")
    for cond in inst.conditions:
        if resolve_ref(cond.of, inst, target) == target:
            reads.add(CONDITION_READS[cond.kind])
        if cond.kind == "controlled_by" and cond.player == "you" and holder_is_target:
            reads.add("controller")
    if inst.op.name in MIGHT_DEPENDENT_AMOUNT and inst.stage >= 4:
        reads.add("might")
    return frozenset(reads)
