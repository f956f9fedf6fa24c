"""Conditions (docs/semantics.md §4): what a condition of each kind reads of the object it is
about, and whether it holds. The core knows the kinds every layer system here has (a status, a
keyword, a controller); a ruleset adds its own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...model import Condition
from .chars import KEYWORD, STATUS, Char
from .instances import HELD, Instance, Lookup, controller_of, resolve_ref
from .state import CONTROLLER, ObjState


class ConditionKind:
    """One kind of condition: `what` it reads of the object it is about, and whether it holds."""

    what: str

    def reads(self, cond: Condition, inst: Instance, ref: str | None) -> tuple[Char, ...]:
        """What it reads, of `ref` (the object it is about, None: nothing) and besides."""
        return () if ref is None else ((ref, self.what, None),)

    def holds(self, cond: Condition, state: ObjState, inst: Instance, lookup: Lookup) -> bool:
        raise NotImplementedError


class HasStatus(ConditionKind):
    what = STATUS

    def holds(self, cond: Condition, state: ObjState, inst: Instance, lookup: Lookup) -> bool:
        return cond.status in state.status


class HasKeyword(ConditionKind):
    what = KEYWORD

    def reads(self, cond: Condition, inst: Instance, ref: str | None) -> tuple[Char, ...]:
        return () if ref is None else ((ref, self.what, cond.keyword),)

    def holds(self, cond: Condition, state: ObjState, inst: Instance, lookup: Lookup) -> bool:
        return state.has_keyword(cond.keyword or "")


class ControlledBy(ConditionKind):
    what = CONTROLLER

    def reads(self, cond: Condition, inst: Instance, ref: str | None) -> tuple[Char, ...]:
        out = super().reads(cond, inst, ref)
        # "you" is the instance's controller: an ability's is its holder's.
        if cond.player == "you" and inst.kind == HELD and inst.holder is not None:
            out = tuple(dict.fromkeys(out + ((inst.holder, CONTROLLER, None),)))
        return out

    def holds(self, cond: Condition, state: ObjState, inst: Instance, lookup: Lookup) -> bool:
        player = controller_of(inst, lookup) if cond.player == "you" else cond.player
        return player is not None and state.controller == player


CORE_CONDITIONS: Mapping[str, ConditionKind] = {
    "status": HasStatus(),
    "has_keyword": HasKeyword(),
    "controlled_by": ControlledBy(),
}


@dataclass(frozen=True)
class Check:
    """A condition of an effect, bound to its kind."""

    condition: Condition
    kind: ConditionKind

    def holds(self, inst: Instance, oid: str, lookup: Lookup) -> bool:
        ref = resolve_ref(self.condition.of, inst, oid)
        state = lookup(ref) if ref is not None else None
        if state is None:
            return False  # a condition about nothing cannot be met
        return self.kind.holds(self.condition, state, inst, lookup)

    def reads(self, inst: Instance, oid: str) -> tuple[Char, ...]:
        return self.kind.reads(self.condition, inst, resolve_ref(self.condition.of, inst, oid))
