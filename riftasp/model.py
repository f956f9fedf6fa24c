"""The board model: what a board state says, before any rule is applied.

Every engine (the ASP resolver, the reference engine, external engines) reads this model;
none of the rules logic lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rulesets import Ruleset

# References an effect can make to an object, besides a plain object id.
SYMBOLIC_REFS = ("self", "bearer", "target")


@dataclass(frozen=True)
class Keyword:
    """A keyword as written on a card: `Shield 2` has value 2, `Ganking` has value None."""

    name: str
    value: int | None = None

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name} {self.value}"


# The parameter keys that hold lists in some operation (filled in by the operations' registry).
LIST_PARAMS: set[str] = set()


class Parameters:
    """Parameters read as attributes: one the object does not have reads as None, or as () for
    a list (LIST_PARAMS), so that `op.keywords` of any operation can be iterated."""

    params: tuple[tuple[str, Any], ...]

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__"):  # copy, pickle and the like ask for dunders: not parameters
            raise AttributeError(key)
        for k, v in self.params:
            if k == key:
                return v
        return () if key in LIST_PARAMS else None


def given_params(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    # Sorted, so that equal objects compare equal whatever order their keys came in.
    return tuple(sorted((k, v) for k, v in params.items() if v is not None))


@dataclass(frozen=True, init=False)
class Operation(Parameters):
    """What an effect does: an operation's name and its parameters, the keys the operations'
    registry (riftasp/operations/) gives it (`op.amount`)."""

    name: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, name: str, **params: Any) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "params", given_params(params))

    def with_params(self, **changes: Any) -> Operation:
        """The same operation with some parameters changed."""
        return Operation(self.name, **{**dict(self.params), **changes})


@dataclass(frozen=True, init=False)
class Filter(Parameters):
    """Which objects a filter target matches: its kinds of filter (the filters' registry,
    riftasp/filters/) by attribute (`f.zone`, `f.card_type`, `f.other`); unset ones match
    everything."""

    params: tuple[tuple[str, Any], ...]

    def __init__(self, **params: Any) -> None:
        # A flag's absence (False) is stored like None, so equal filters compare equal.
        object.__setattr__(self, "params", given_params({k: v for k, v in params.items() if v is not False}))


@dataclass(frozen=True)
class Target:
    kind: str  # "self" | "bearer" | "ids" | "filter"
    ids: tuple[str, ...] = ()
    filter: Filter | None = None  # a filter target's (every one has it)

    @property
    def matching(self) -> Filter:
        """The filter of a filter target."""
        if self.filter is None:
            raise ValueError(f"a {self.kind} target has no filter")
        return self.filter


@dataclass(frozen=True, init=False)
class Condition(Parameters):
    """A condition of an effect: its kind (the conditions' registry, riftasp/conditions/), the
    object it reads (`of`: "self", "bearer", "target" or an object id) and its parameter under
    the kind's key (`c.status`, `c.value`)."""

    kind: str
    of: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, kind: str, of: str = "self", **params: Any) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "of", of)
        object.__setattr__(self, "params", given_params(params))

    def with_of(self, of: str) -> Condition:
        return Condition(self.kind, of, **dict(self.params))


@dataclass(frozen=True)
class Effect:
    """An effect definition: a passive ability in rules text or Effect Text, or an ongoing effect.

    `timestamp` is explicit for ongoing effects; for text it overrides the default (when the
    text last became active).
    """

    id: str
    op: Operation
    target: Target
    conditions: tuple[Condition, ...] = ()
    timestamp: int | None = None
    controller: str | None = None  # ongoing effects only
    source: str | None = None  # ongoing effects only: the object that created it


@dataclass(frozen=True, init=False)
class GameObject(Parameters):
    """An object on (or off) the board: what every ruleset's objects have, and in `params` its
    ruleset's own keys (the plugin's OBJECT_FIELDS, riftasp/rulesets/: Riftbound's Might, buff,
    Might Bonus), read as attributes (`obj.might`); one the object does not have reads as None."""

    id: str
    name: str
    card_type: str
    owner: str
    controller: str
    zone: str
    since: int  # when its rules text last became active
    tags: tuple[str, ...]
    keywords: tuple[Keyword, ...]
    status: tuple[str, ...]
    location: str | None
    attached_to: str | None
    attached_since: int | None
    rules_text: tuple[Effect, ...]
    effect_text: tuple[Effect, ...]
    card: str | None
    params: tuple[tuple[str, Any], ...]

    def __init__(self, id: str, name: str, card_type: str, owner: str, controller: str, zone: str,
                 since: int = 0, tags: tuple[str, ...] = (), keywords: tuple[Keyword, ...] = (),
                 status: tuple[str, ...] = (), location: str | None = None, attached_to: str | None = None,
                 attached_since: int | None = None, rules_text: tuple[Effect, ...] = (),
                 effect_text: tuple[Effect, ...] = (), card: str | None = None,
                 params: tuple[tuple[str, Any], ...] = (), **own: Any) -> None:  # fmt: skip
        for key, value in (("id", id), ("name", name), ("card_type", card_type), ("owner", owner),
                           ("controller", controller), ("zone", zone), ("since", since), ("tags", tags),
                           ("keywords", keywords), ("status", status), ("location", location),
                           ("attached_to", attached_to), ("attached_since", attached_since),
                           ("rules_text", rules_text), ("effect_text", effect_text), ("card", card)):  # fmt: skip
            object.__setattr__(self, key, value)
        # False is a flag's absence: stored like None, so equal objects compare equal.
        given = {k: v for k, v in {**dict(params), **own}.items() if v is not False}
        object.__setattr__(self, "params", given_params(given))

    @property
    def on_board(self) -> bool:
        # A zone on the board in any ruleset: no ruleset has it off the board (ruleset_data).
        return self.zone in _board_zones()


def _board_zones() -> frozenset[str]:
    from .rulesets import board_zones_everywhere

    return board_zones_everywhere()


@dataclass(frozen=True)
class Settings:
    """The readings a board itself chooses, over its ruleset's `[readings]` (docs/semantics.md):
    None where the board says nothing (the ruleset's reading is in force: `Board.reading`)."""

    # "as_able" (apply as soon as able, then remove what no longer applies: RB 471.1/471.3),
    # "settled" (a condition waits for what could still change it) or "immediate" (judged only
    # when its effect applies). docs/semantics.md §6, step 3.
    condition_timing: str | None = None
    # What a number set (or copied) on an object after arithmetic applied to it does with that
    # arithmetic: "replaces" it (each effect applies once) or "keeps" it on top (the set value is
    # the starting value). docs/semantics.md §6, "Rechecked sets".
    rechecked_set: str | None = None
    # An application whose condition holds at the end only through what it (and what it switched
    # on) added: "withdrawn" ([L] "Shield cannot keep itself switched on") or "kept" (a final
    # state where every condition holds stands). docs/semantics.md §8.
    self_support: str | None = None

    def given(self) -> dict[str, str]:
        """The readings the board states."""
        return {key: value for key, value in vars(self).items() if value is not None}


@dataclass(frozen=True)
class Board:
    players: tuple[str, ...]
    active_player: str | None
    objects: tuple[GameObject, ...]
    effects: tuple[Effect, ...] = ()
    # The ruleset the board is read under, as a value (riftasp/rulesets/); given by name (or left
    # out: the default ruleset's) it is looked up once, here.
    ruleset: Ruleset = None  # type: ignore[assignment]
    settings: Settings = field(default_factory=Settings)
    source: str = "<board>"  # the file it came from, for error messages
    # The realm's grid (rows, columns) of a ruleset that has one (Sorcery), when the board gives
    # its own; else its manifest's [realm].
    realm: tuple[int, int] | None = None
    # Readings the board is resolved under over its ruleset's and its settings: set by the
    # rules-research commands (riftasp outcomes, compare), never read from a board file.
    readings: tuple[tuple[str, Any], ...] = ()

    def reading(self, key: str) -> Any:
        """The reading in force for `key` (KeyError when neither the ruleset nor the board has it)."""
        return self.readings_in_force[key]

    @property
    def readings_in_force(self) -> dict[str, Any]:
        """Every reading in force: the ruleset's `[readings]`, then the board's settings, then the
        research overrides. (Computed, not stored: a board given another ruleset by `replace`
        takes that ruleset's readings.)"""
        return {**self.ruleset.readings, **self.settings.given(), **dict(self.readings)}

    def __post_init__(self) -> None:
        if isinstance(self.ruleset, str) or self.ruleset is None:
            from .rulesets import default_ruleset, ruleset  # the registry imports no model

            object.__setattr__(self, "ruleset", ruleset(self.ruleset or default_ruleset()))
