"""An object's state during the calculation (docs/semantics.md §3), in the characteristic families.

A ruleset's characteristics are held in three families, as its manifest's `[characteristics]`
declares them: `values` (single-valued: controller, name), `numbers` (numeric; None when the
object has no such number) and `members` (set-valued). Each family is a plain dict that is never
changed once its state is built (a change copies it), so states share them freely; plain,
because every application makes one and a read-only wrapper doubles the allocations the garbage
collector counts. Besides them every state has what every
layer system here has: keyword instances, held and retained abilities, the copiable root and the
statuses, which no effect writes.

States are immutable: applying an instance builds a new state, so the dependency test (§6) can
apply an instance hypothetically without undoing anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ...model import Effect, GameObject
from ...ruleset_data import KeywordRules

EMPTY: Mapping = MappingProxyType({})
# The single-valued characteristic the core itself reads: relation filters and "controlled by
# you" compare controllers.
CONTROLLER = "controller"


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
    supplier: str | None = None  # Effect Text: the attached object that supplies it


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
    values: Mapping[str, str]  # single-valued characteristics
    numbers: Mapping[str, int | None]  # numeric characteristics (None: the object has none)
    members: Mapping[str, frozenset[str]]  # set-valued characteristics
    keywords: tuple[KeywordInstance, ...]
    status: frozenset[str]  # never written by any effect (§4)
    held: Mapping[str, HeldAbility]
    retained: Mapping[str, HeldAbility]
    root: str  # the copiable root: whose printed values are this object's copiable values

    @property
    def controller(self) -> str:
        return self.values[CONTROLLER]

    def has_keyword(self, keyword: str) -> bool:
        return any(k.keyword == keyword for k in self.keywords)

    def holds_or_retains(self, name: str) -> bool:
        return name in self.held or name in self.retained


def changed(state: ObjState, **changes) -> ObjState:
    """`dataclasses.replace` without its per-call introspection (the engine's hottest call)."""
    values = dict(state.__dict__)
    values.update(changes)
    return _made(values)


def new_state(**fields) -> ObjState:
    """An ObjState, without the frozen dataclass's field-by-field `__init__` (a state per
    object per board)."""
    return _made(fields)


def _made(fields: dict) -> ObjState:
    state = object.__new__(ObjState)
    object.__setattr__(state, "__dict__", fields)
    return state


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


def own_ability(effect: Effect, obj: GameObject, pos: int) -> HeldAbility:
    """An object's printed ability as it holds it: its timestamp is the effect's own, else when
    the object's text last became active (§2)."""
    ts = effect.timestamp if effect.timestamp is not None else obj.since
    return HeldAbility(effect.id, effect, "own", ts, pos, 0)
