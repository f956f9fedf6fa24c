"""An object's state during the calculation (docs/semantics.md §3).

States are immutable: applying an instance builds a new state, so the dependency test (§6) can
apply an instance hypothetically without undoing anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..model import Effect, GameObject
from ..ruleset_data import KeywordRules

EMPTY: Mapping = MappingProxyType({})


@dataclass(frozen=True)
class Brought:
    """The application that brought a keyword instance or a copied ability, with the key
    components it had when it applied (§2, order key)."""

    name: str
    timestamp: int
    a: int
    b: int
    h: int


@dataclass(frozen=True)
class HeldAbility:
    """A passive ability an object holds (§3), with the identity and key it has while held."""

    name: str  # E, or E@H for a copied ability
    effect: Effect
    origin: str  # "own" (printed rules text) | "effect_text" | "copied"
    timestamp: int
    a: int
    b: int
    gear: str | None = None  # Effect Text: the gear that supplies it


@dataclass(frozen=True)
class KeywordInstance:
    """(keyword, value, source): source None means printed (§3)."""

    keyword: str
    value: int
    source: Brought | None = None

    @property
    def source_name(self) -> str | None:
        return None if self.source is None else self.source.name


@dataclass(frozen=True)
class ObjState:
    id: str
    name: str
    types: tuple[str, ...]
    controller: str
    might: int | None
    tags: frozenset[str]
    keywords: tuple[KeywordInstance, ...]
    status: frozenset[str]  # never written by any effect (§4)
    held: Mapping[str, HeldAbility]
    retained: Mapping[str, HeldAbility]
    root: str  # the copiable root: whose printed values are this object's copiable values

    @property
    def mighty(self) -> bool:
        return self.might is not None and self.might >= 5

    def has_keyword(self, keyword: str) -> bool:
        return any(k.keyword == keyword for k in self.keywords)

    def holds_or_retains(self, name: str) -> bool:
        return name in self.held or name in self.retained


def changed(state: ObjState, **changes) -> ObjState:
    """`dataclasses.replace` without its per-call introspection (the engine's hottest call)."""
    new = object.__new__(ObjState)
    values = dict(state.__dict__)
    values.update(changes)
    object.__setattr__(new, "__dict__", values)
    return new


def keyword_values(instances: tuple[KeywordInstance, ...], rules: KeywordRules) -> dict[str, int]:
    """§3: a summing keyword is the sum of its instances' values; any other keyword is 1."""
    values: dict[str, int] = {}
    for k in instances:
        if rules.sums(k.keyword):
            values[k.keyword] = values.get(k.keyword, 0) + k.value
        else:
            values[k.keyword] = 1
    return dict(sorted(values.items()))


def frozen(values: dict) -> Mapping:
    # Read-only, so a state shared by the real and a hypothetical branch cannot be corrupted.
    return MappingProxyType(values) if values else EMPTY


def printed_keywords(obj: GameObject, source: Brought | None = None) -> tuple[KeywordInstance, ...]:
    return tuple(KeywordInstance(k.name, k.value or 1, source) for k in obj.keywords)


def printed_state(obj: GameObject, held: Mapping[str, HeldAbility] = EMPTY) -> ObjState:
    """The printed values: the start of an on-board calculation, and all an off-board object is."""
    return ObjState(
        id=obj.id,
        name=obj.name,
        types=(obj.card_type,),
        controller=obj.controller,
        might=obj.might,
        tags=frozenset(obj.tags),
        keywords=printed_keywords(obj),
        status=frozenset(obj.status),
        held=held,
        retained=EMPTY,
        root=obj.id,
    )
