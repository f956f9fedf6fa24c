"""What operations do, in the terms of the characteristic families (the table in
docs/semantics.md §3, and §4 "Reads and writes").

Each operation of a ruleset is one of these kinds, with the characteristic it changes and its
stage (catalogue.py derives them from the operations' registry). Each kind says how it changes
a state, what it writes, what it can make false (§8, culprits), what its result reads and is
(§6), and what a trace reports as changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...model import Operation
from .chars import ABILITY, COPIABLE, EVERY, KEYWORD, Char
from .families import Families
from .instances import HELD, Instance, Lookup, resolve_ref, root_of
from .state import (
    Brought,
    HeldAbility,
    KeywordInstance,
    ObjState,
    changed,
    frozen,
    own_ability,
    printed_keywords,
)

if TYPE_CHECKING:
    from .layout import Layout


class Operator:
    """One kind of operation, at its stage (rank in the layer table, §1)."""

    reported: str  # the characteristic an Application reports as changed

    def __init__(self, stage: int) -> None:
        self.stage = stage

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        raise NotImplementedError

    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        raise NotImplementedError

    def undoes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        """What an application can make false: what it writes, unless it only adds."""
        return self.writes(op, oid)

    def result_reads(self, inst: Instance, oid: str) -> tuple[Char, ...]:
        return ()

    def result(self, inst: Instance, oid: str, lookup: Lookup) -> object:
        """§6: only arithmetic amounts and copies (the root they would take) have a result."""
        return None


class Copy(Operator):
    """Take the copiable values of the copied object's copiable root (§3)."""

    reported = "copy"

    def __init__(self, stage: int, families: Families) -> None:
        super().__init__(stage)
        self.families = families

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        x = copied_object(inst, state.id)
        if x is None:
            return state  # a copy of nothing
        root = root_of(x, lookup)
        r = layout.objects[root]
        own = root == state.id
        held: dict[str, HeldAbility] = {}
        c = brought_by(inst)
        for effect in r.rules_text:
            pos = layout.text_pos[effect.id]
            if own:
                held[effect.id] = own_ability(effect, r, pos)
            else:
                # A copied ability takes the timestamp and `a` of the copy that brought it (§2).
                hid = f"{effect.id}@{state.id}"
                held[hid] = HeldAbility(hid, effect, "copied", c.timestamp, c.a, 1 + pos)
        # Copies keep the Effect Text the copier holds now (§3, class E).
        for hid, ability in state.held.items():
            if ability.origin == "effect_text":
                held[hid] = ability
        return changed(
            state,
            **self.families.copied(state, layout.printed(root)),
            keywords=printed_keywords(r, None if own else c),
            held=frozen(held),
            root=root,
        )

    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return self.families.copy_writes(oid) + (
            (oid, KEYWORD, EVERY),
            (oid, ABILITY, EVERY),
            (oid, COPIABLE, None),
        )

    def undoes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return tuple(c for c in self.writes(op, oid) if c[1] != COPIABLE)

    def result_reads(self, inst: Instance, oid: str) -> tuple[Char, ...]:
        x = copied_object(inst, oid)
        return () if x is None else ((x, COPIABLE, None),)

    def result(self, inst: Instance, oid: str, lookup: Lookup) -> object:
        x = copied_object(inst, oid)
        return None if x is None else root_of(x, lookup)


class _Characteristic(Operator):
    """An operation on one characteristic of the families, with its parameter in `field`."""

    def __init__(self, stage: int, characteristic: str, field: str) -> None:
        super().__init__(stage)
        self.reported = characteristic
        self.field = field

    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return ((oid, self.reported, None),)


class SetValue(_Characteristic):
    """Set a single-valued characteristic."""

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        value = getattr(inst.op, self.field)
        return changed(state, values={**state.values, self.reported: value})


class SetNumber(_Characteristic):
    """Set a numeric characteristic, on an object that has it."""

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        if state.numbers[self.reported] is None:
            return state
        value = getattr(inst.op, self.field)
        return changed(state, numbers={**state.numbers, self.reported: value})


class _Member(_Characteristic):
    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return ((oid, self.reported, getattr(op, self.field)),)


class AddMember(_Member):
    """Add a member to a set-valued characteristic."""

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        ch = self.reported
        member = getattr(inst.op, self.field)
        return changed(state, members={**state.members, ch: state.members[ch] | {member}})

    def undoes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return ()  # adding never takes anything away


class RemoveMember(_Member):
    """Remove a member from a set-valued characteristic."""

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        ch = self.reported
        member = getattr(inst.op, self.field)
        return changed(state, members={**state.members, ch: state.members[ch] - {member}})


class _Keywords(Operator):
    """An operation on the keywords its operation lists."""

    reported = "keywords"

    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return tuple(dict.fromkeys((oid, KEYWORD, k.name) for k in op.keywords))


class GainKeywords(_Keywords):
    """One new keyword instance per listed keyword, brought by this application."""

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        source = brought_by(inst)
        gained = tuple(KeywordInstance(k.name, k.value or 1, source) for k in inst.op.keywords)
        return changed(state, keywords=state.keywords + gained)

    def undoes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return ()  # a gain never takes anything away


class LoseKeywords(_Keywords):
    """Remove every instance of the listed keywords."""

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        lost = {k.name for k in inst.op.keywords}
        return changed(state, keywords=tuple(k for k in state.keywords if k.keyword not in lost))


class LoseAllAbilities(Operator):
    reported = "abilities"

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        return changed(state, keywords=(), held=frozen({}))

    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return ((oid, KEYWORD, EVERY), (oid, ABILITY, EVERY))


class Arithmetic(Operator):
    """Add (`sign` 1) or remove (-1) an amount from a number; nothing on an object without it.

    `amount(op, current)` is never negative; `dependent` says whether it reads the current
    number (§4: such an operation reads the number for its result)."""

    def __init__(
        self, stage: int, characteristic: str, sign: int,
        amount: Callable[[Operation, int], int], dependent: bool,
    ) -> None:  # fmt: skip
        super().__init__(stage)
        self.reported = characteristic
        self.sign = sign
        self.amount = amount
        self.dependent = dependent

    def apply(self, inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
        current = state.numbers[self.reported]
        if current is None:
            return state
        new = current + self.sign * self.amount(inst.op, current)
        return changed(state, numbers={**state.numbers, self.reported: new})

    def writes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return ((oid, self.reported, None),)

    def undoes(self, op: Operation, oid: str) -> tuple[Char, ...]:
        return () if self.sign > 0 else self.writes(op, oid)  # an increase never lowers it

    def result_reads(self, inst: Instance, oid: str) -> tuple[Char, ...]:
        return ((oid, self.reported, None),) if self.dependent else ()

    def result(self, inst: Instance, oid: str, lookup: Lookup) -> Any:
        state = lookup(oid)
        current = None if state is None else state.numbers[self.reported]
        return None if current is None else self.amount(inst.op, current)


def copied_object(inst: Instance, oid: str) -> str | None:
    return resolve_ref(inst.op.of, inst, oid)


def brought_by(inst: Instance) -> Brought:
    ts, a, b, _c, h = inst.key
    return Brought(inst.name, ts, a, b, h)


def apply_instance(inst: Instance, state: ObjState, lookup: Lookup, layout: Layout) -> ObjState:
    """The state after applying `inst` to `state`. Pure: `state` is left as it was."""
    new = inst.operator.apply(inst, state, lookup, layout)
    # §3: after applying ability E held by H to H itself, if H no longer holds E, E is retained.
    if (
        inst.kind == HELD
        and inst.holder == state.id
        and inst.name in state.held
        and inst.name not in new.held
        and inst.name not in new.retained
    ):
        retained = dict(new.retained)
        retained[inst.name] = state.held[inst.name]
        new = changed(new, retained=frozen(retained))
    return new
