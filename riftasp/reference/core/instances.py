"""Effect instances (docs/semantics.md §2): what gets applied to an object.

The core knows three kinds: an ongoing effect, an ability held by an object, and a
keyword-borne instance (one that exists while its object holds one keyword instance). A ruleset
adds its own kinds; they always exist and apply to their `obj` only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Operation, Target
from .state import ObjState

if TYPE_CHECKING:
    from .conditions import Check
    from .operators import Operator

Lookup = Callable[[str], "ObjState | None"]

# The kinds of instance the core knows.
ONGOING = "ongoing"
HELD = "ability"  # an ability held by an object
BORNE = "keyword"  # keyword-borne


# Not frozen, though never changed once made: a frozen dataclass sets each of its fields through
# object.__setattr__, and a board makes an instance per ability, holder and key.
@dataclass(eq=False, slots=True)
class Instance:
    """One instance (§2). `key` is (timestamp, a, b, c, h); an application appends index(O).

    A *potential* ability (one its holder could hold but does not now) is an Instance too, with
    a placeholder key: the dependency test (§6) applies and evaluates it, but never orders it.
    """

    name: str
    kind: str  # ONGOING | HELD | BORNE | a ruleset's own kind
    op: Operation
    operator: Operator  # what `op` does, in this ruleset
    stage: int  # the operator's stage rank (§1), kept here for the hot comparisons
    timestamp: int
    key: tuple[int, int, int, int, int]
    conditions: tuple[Check, ...] = ()
    target: Target | None = None  # None: applies to `obj` only
    # A filter's tests of the target's sets: (set-valued characteristic, member it must hold).
    asks: tuple[tuple[str, str], ...] = ()
    obj: str | None = None
    holder: str | None = None  # ability: who holds it; ongoing: its source (what `self` means)
    bearer: str | None = None  # what `bearer` means for it
    controller: str | None = None  # ongoing only; an ability's controller is its holder's
    origin: str | None = None  # ability: "own" | "effect_text" | "copied"
    supplier: str | None = None  # Effect Text, a ruleset's kind: the attached object supplying it
    keyword: str | None = None  # keyword-borne: its keyword
    kw_source: str | None = None  # keyword-borne: the name of what brought it (None: printed)


def resolve_ref(ref: str | None, inst: Instance, target: str | None) -> str | None:
    if ref == "self":
        return inst.holder
    if ref == "bearer":
        return inst.bearer
    if ref == "target":
        return target
    return ref


def controller_of(inst: Instance, lookup: Lookup) -> str | None:
    if inst.kind == ONGOING:
        return inst.controller
    if inst.kind == HELD and inst.holder is not None:
        holder = lookup(inst.holder)
        return holder.controller if holder is not None else None
    return None


def root_of(object_id: str, lookup: Lookup) -> str:
    """The copiable root of an object as it stands (an off-board object is its own root)."""
    state = lookup(object_id)
    return state.root if state is not None else object_id
