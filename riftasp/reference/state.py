"""An object's state during the calculation (semantics.md section 3).

States are immutable: applying an instance builds a new state, so the dependency test can apply an
instance hypothetically without undoing anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..model import Effect, GameObject, Keyword


@dataclass(frozen=True)
class HeldAbility:
    """A passive ability an object currently holds, with the identity it has while held."""

    id: str  # the effect id, or "<id>@<holder>" for an ability a copy brought
    effect: Effect
    timestamp: int
    listing: tuple[int, ...]  # tie-break key (semantics.md section 2, listing order)
    origin: str  # "rules" | "effect_text" | "copied"
    gear: str | None = None  # Effect Text: the gear that supplies it


@dataclass(frozen=True)
class Copiable:
    """What a copy of this object takes: printed values, or what the object itself copies."""

    name: str
    types: tuple[str, ...]
    might: int | None
    tags: frozenset[str]
    keywords: tuple[tuple[str, int], ...]
    abilities: tuple[Effect, ...]


@dataclass(frozen=True)
class ObjState:
    id: str
    name: str
    types: tuple[str, ...]
    controller: str
    might: int | None
    tags: frozenset[str]
    keywords: Mapping[str, int]
    status: tuple[str, ...]  # never written by any effect; kept here so reads are uniform
    held: Mapping[str, HeldAbility]
    copiable: Copiable
    # Its printed rules text as it would be held: a copy that brings this text back gives the
    # object its own abilities, not copied ones (a copied ability is one "held by another object").
    own_text: Mapping[str, HeldAbility]
    copying: str | None = None  # the object whose copiable values it took last (None: printed)

    @property
    def mighty(self) -> bool:
        return self.might is not None and self.might >= 5


def frozen_map(values: dict) -> Mapping:
    # Read-only, so a state shared between the real and a hypothetical branch cannot be corrupted.
    return MappingProxyType(values)


def gain_keywords(current: Mapping[str, int], gained: Iterable[Keyword]) -> dict[str, int]:
    """Numbered keywords add up; a keyword without a number is held once (value 1)."""
    result = dict(current)
    for kw in gained:
        if kw.value is not None:
            result[kw.name] = result.get(kw.name, 0) + kw.value
        else:
            result[kw.name] = max(result.get(kw.name, 0), 1)
    return result


def printed_copiable(obj: GameObject) -> Copiable:
    return Copiable(
        name=obj.name,
        types=(obj.card_type,),
        might=obj.might,
        tags=frozenset(obj.tags),
        keywords=tuple(sorted(gain_keywords({}, obj.keywords).items())),
        abilities=tuple(obj.rules_text),
    )


def own_text(obj: GameObject, listing: Mapping[str, int]) -> dict[str, HeldAbility]:
    return {
        e.id: HeldAbility(
            e.id,
            e,
            e.timestamp if e.timestamp is not None else obj.since,
            (listing[e.id],),
            "rules",
        )
        for e in obj.rules_text
    }


def printed_state(
    obj: GameObject,
    held: dict[str, HeldAbility] | None = None,
    own: dict[str, HeldAbility] | None = None,
) -> ObjState:
    """The printed values: the start of an on-board calculation, and all an off-board object is."""
    return ObjState(
        id=obj.id,
        name=obj.name,
        types=(obj.card_type,),
        controller=obj.controller,
        might=obj.might,
        tags=frozenset(obj.tags),
        keywords=frozen_map(gain_keywords({}, obj.keywords)),
        status=tuple(obj.status),
        held=frozen_map(dict(held or {})),
        copiable=printed_copiable(obj),
        own_text=frozen_map(dict(own or {})),
    )
