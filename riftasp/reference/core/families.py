"""A ruleset's characteristic families (its manifest's `[characteristics]`) and what the core
does with them: an object's printed state, what a copy takes from its root and what a copy writes
(docs/semantics.md §3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...model import GameObject
from .chars import EVERY, Char
from .state import EMPTY, HeldAbility, ObjState, new_state, printed_keywords


@dataclass(frozen=True)
class Families:
    single_valued: tuple[str, ...]
    numeric: tuple[str, ...]
    set_valued: tuple[str, ...]
    arithmetic: str  # the number the arithmetic operations change
    # The copiable characteristics of each family (what a copy takes from its root).
    copied_values: tuple[str, ...]
    copied_numbers: tuple[str, ...]
    copied_members: tuple[str, ...]

    @classmethod
    def of(cls, table: Mapping[str, tuple[str, ...]]) -> Families:
        """From a ruleset's characteristic families (`Ruleset.families`)."""
        single = table.get("single_valued", ())
        numeric = table.get("numeric", ())
        sets = table.get("set_valued", ())
        copiable = set(table.get("copiable", ()))
        return cls(
            single_valued=single,
            numeric=numeric,
            set_valued=sets,
            arithmetic=table["arithmetic"][0],
            copied_values=tuple(c for c in single if c in copiable),
            copied_numbers=tuple(c for c in numeric if c in copiable),
            copied_members=tuple(c for c in sets if c in copiable),
        )

    def printed(
        self, obj: GameObject, printed: Mapping[str, Any], held: Mapping[str, HeldAbility] = EMPTY
    ) -> ObjState:
        """The state of an object with its printed values (`printed`, by characteristic; a set
        as a frozenset), holding `held`: the start of its calculation, and all an off-board
        object is."""
        return new_state(
            id=obj.id,
            values={c: printed[c] for c in self.single_valued},
            numbers={c: printed[c] for c in self.numeric},
            members={c: printed[c] for c in self.set_valued},
            keywords=printed_keywords(obj),
            status=frozenset(obj.status),
            held=held,
            retained=EMPTY,
            root=obj.id,
        )

    def copied(self, state: ObjState, root: ObjState) -> dict[str, Mapping]:
        """The families of `state` once a copy gives it the copiable values of `root`'s printed
        state."""
        return {
            "values": _take(state.values, root.values, self.copied_values),
            "numbers": _take(state.numbers, root.numbers, self.copied_numbers),
            "members": _take(state.members, root.members, self.copied_members),
        }

    def copy_writes(self, oid: str) -> tuple[Char, ...]:
        """The characteristics of the families a copy overwrites."""
        whole = tuple((oid, c, None) for c in self.copied_values + self.copied_numbers)
        return whole + tuple((oid, c, EVERY) for c in self.copied_members)


def _take(own: Mapping, root: Mapping, names: tuple[str, ...]) -> Mapping:
    if not names:
        return own
    if len(names) == len(own):
        return root  # the whole family is copiable: share the root's
    taken = dict(own)
    taken.update((n, root[n]) for n in names)
    return taken
