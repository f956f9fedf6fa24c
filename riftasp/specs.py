"""How the registries describe an operation (riftasp/operations/) and a kind of condition
(riftasp/conditions/): the vocabulary the shared entries and each ruleset's plugin
(riftasp/rulesets/) write their entries in. Kept apart from the registries, which read the
plugins, so that a plugin can import it.

An operation or a condition kind is described once here and once in ASP
(encodings/operations/NAME.lp and encodings/conditions/NAME.lp, or a ruleset's own): the board
format (schema, shape checks, the `.lp` reader), the facts and their decoding, the card text and
the generators are derived from the entries, and so are the reference engine's operators; the
reference engine keeps its own account of what each condition kind reads and when it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .kinds import Kind

if TYPE_CHECKING:
    from .model import Operation

# What an operation does to an object's characteristics. "set", "add" and "remove" change one
# characteristic of the families (named in `Does.characteristic`, the value in `Does.key`);
# "arithmetic" changes the ruleset's arithmetic characteristic by an amount.
DOES = ("copy", "set", "add", "remove", "gain_keywords", "lose_keywords", "lose_all_abilities", "arithmetic")
# How an operation can move the arithmetic number (riftasp/limits.py bounds a board's reach):
# "adds" / "subtracts": up or down by at most a parameter of its own (`Does.key`, else "amount");
# "doubles" / "multiplies": it takes a positive number to at most twice / `Does.factor` times
# itself, a negative one no further from 0; "starts": it sets it to a parameter of its own
# (`Does.key`, else "value"); "shrinks": it only takes it towards 0, never past it (a share of it
# lost): never further from 0 than it was.
REACHES = ("adds", "subtracts", "doubles", "multiplies", "starts", "shrinks")
# The parameter a reach reads when `Does.key` names none.
REACH_KEYS = {"adds": "amount", "subtracts": "amount", "starts": "value"}


@dataclass(frozen=True)
class Param:
    """One key of an operation (besides "op"), in the order the encoding's term takes them.

    `draw` is what the generators draw it from (riftasp/rulesets/riftbound/strategies.py): a range of numbers, or
    the name of one of their pools ("players", "tags") for a text."""

    key: str
    kind: Kind
    draw: tuple[int, int] | str | None = None


@dataclass(frozen=True)
class Does:
    """What an operation does (docs/semantics.md §3, the table of operations).

    `amount(op, current)` is an arithmetic operation's amount at the current number, never
    negative; `sign` says whether it is added (1) or subtracted (-1); `dependent` whether the
    amount reads the current number (§4: such an operation reads it for its result).

    `reach` (REACHES) says how far it can take the arithmetic number, so that a board whose
    numbers could leave clingo's integers is refused (riftasp/limits.py); every arithmetic
    operation says it. `factor` is a "multiplies" operation's largest factor.

    Everything else reads these fields, never the operation's name: the reference engine's
    operators (riftasp/reference/core/catalogue.py), the invariant checkers' restatement of
    what it does (riftasp/rulesets/riftbound/check/operations.py), the limits, the generators."""

    kind: str
    characteristic: str | None = None
    key: str | None = None
    sign: int = 0
    amount: Callable[[Operation, int], int] | None = None
    dependent: bool = False
    reach: str | None = None
    factor: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in DOES:
            raise ValueError(f"Does: unknown kind {self.kind!r}; kinds: {', '.join(DOES)}")
        if self.reach is not None and self.reach not in REACHES:
            raise ValueError(f"Does: unknown reach {self.reach!r}; reaches: {', '.join(REACHES)}")
        if self.kind == "arithmetic":
            if self.sign not in (1, -1) or self.amount is None:
                raise ValueError("Does: an arithmetic operation has a sign (1: adds, -1: subtracts) and an amount")
            if self.reach is None:
                raise ValueError(f"Does: an arithmetic operation says how far it can take the number "
                                 f"(reach: one of {', '.join(REACHES)})")
        if (self.reach == "multiplies") != (self.factor is not None):
            raise ValueError("Does: a factor goes with reach = \"multiplies\", and only with it")
        if self.factor is not None and self.factor < 2:
            raise ValueError(f"Does: a factor is 2 or more, not {self.factor}")

    @property
    def reach_key(self) -> str | None:
        """The parameter the reach reads ("adds", "subtracts", "starts"), or None."""
        default = REACH_KEYS.get(self.reach or "")
        return None if default is None else self.key or default


@dataclass(frozen=True)
class OperationSpec:
    """One operation, as boards, the encoding and every engine know it.

    `term` is the functor of the encoding's term (what the layer table names; the board's name
    when empty); `each`, a list key whose items each give one fact (`gain_keywords` is one
    `gain_keyword(K,N)` fact per keyword). `words` is how the card library says it, a template
    over the parameters and {s} (third person "s"), {is} ("is"/"am"), {has} ("has"/"have"),
    {its} ("its"/"my") and {number} (the arithmetic characteristic, capitalised). `weight`
    tilts the generators towards it."""

    name: str
    params: tuple[Param, ...]
    does: Does
    words: str
    term: str = ""
    each: str = ""
    weight: int = 1  # how many times as often as a weight-1 operation the generators draw it

    def __post_init__(self) -> None:
        key = self.does.reach_key
        if key is not None and key not in self.keys:
            raise ValueError(
                f"operation {self.name!r}: reach {self.does.reach!r} reads its parameter {key!r}, which it has "
                f"not (its parameters: {', '.join(self.keys) or 'none'}); name the one it reads as Does(key=...), "
                f"or say another reach ({', '.join(REACHES)})"
            )

    @property
    def functor(self) -> str:
        return self.term or self.name

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(p.key for p in self.params)

    @property
    def fact_kinds(self) -> tuple[tuple[str, Kind], ...]:
        """The keys and kinds one fact's term carries, in order (for `each`, one item's)."""
        if self.each:
            (param,) = self.params
            assert param.kind.item is not None
            return ((param.key, param.kind.item),)
        return tuple((p.key, p.kind) for p in self.params)


def increase_by(op: Operation, current: int) -> int:
    return op.amount or 0


def increase_to(op: Operation, current: int) -> int:
    return max(0, (op.value or 0) - current)


def plus_max(op: Operation, current: int) -> int:
    return max(0, min(op.amount or 0, (op.max or 0) - current))


def double(op: Operation, current: int) -> int:
    # "Double Might" is an increase (docs/semantics.md §1, Decision): it never lowers it.
    return max(0, current)


def minus_min(op: Operation, current: int) -> int:
    return max(0, min(op.amount or 0, current - (op.min or 0)))


@dataclass(frozen=True)
class ConditionSpec:
    """One kind of condition. In a board, `{"<kind>": parameter, "of": object}`; in the
    encoding, the term `<kind>(Of, Parameter)`.

    `parameter` is the kind of value its key holds, and `key` the name the model gives the
    parameter (`Condition.status`); both None when the kind's key names the object it reads
    instead (`{"mighty": "u1"}`, term `mighty("u1")`). `words` is how the card library says it,
    over {who} ("I'm", "it is", "u1 is"), {has} ("I have", "it has", ...) and {parameter};
    `draw` what the generators draw the parameter from (a range, or a tuple of values, where
    "PLAYERS" and "KEYWORDS" stand for the generators' pools), `weight` how often."""

    kind: str
    parameter: Kind | None
    key: str | None
    words: str
    draw: Any = None
    weight: int = 1

    @property
    def names_object(self) -> bool:
        return self.parameter is None


@dataclass(frozen=True)
class ObjectField:
    """A key a ruleset's objects have besides those every ruleset's have (riftasp/board_io/
    fields.py): its kind, the model attribute holding it (`attribute`, default the key), and the
    fact that states it, `fact(Object, Value)`.

    A flag (a boolean) is stated by `fact(Object, Stamp)` while it holds: `stamp` names the key
    giving its timestamp (default: the object's `since`). `printed`: a card gives it, so a card
    object may not (the card library states it as `card_<key>(Card, Value)`, and `shown` is how
    `riftasp cards` says it, "Might {}"); `only_types`: the card types that may have it (empty:
    any). `label` is what messages call the fact's value ("Might", "the buff timestamp").

    `reach` says what the key means for the number arithmetic changes (riftasp/limits.py bounds
    what a board can build): "start", the printed number it starts from (Might, power); "bearer",
    a number added to the object this one is attached to (a Might Bonus); "plus_one", a flag
    adding 1 to its own object (a buff)."""

    key: str
    kind: Kind
    fact: str
    label: str
    attribute: str = ""
    printed: bool = False
    shown: str = ""
    stamp: str = ""
    only_types: tuple[str, ...] = ()
    reach: str = ""

    def __post_init__(self) -> None:
        assert self.reach in ("", "start", "bearer", "plus_one"), self.reach

    @property
    def name(self) -> str:
        return self.attribute or self.key


# What an output field holds in the resolve JSON: "value" a string or null, "number" an
# integer or null, "set" a sorted list of strings, "flag" true or false.
OUTPUT_KINDS = ("value", "number", "set", "flag")


@dataclass(frozen=True)
class OutputField:
    """One characteristic a ruleset reports for every object (`riftasp resolve --json`), besides
    the core ones every ruleset has (keywords, zone, abilities). A plugin lists its fields as
    `OUTPUT`, in the order of the JSON's keys.

    A value or number comes from the encoding's `result_value(O, key, V)`, a set's members from
    `result_member(O, key, X)`, a flag from the shown `result_<key>(O)`.

    For people: `label` names it in tables and explain's result line (the key when empty);
    `change` is diff's text for a value or number changing, over {label}, {before}, {after};
    `member` names one member of a set in diff ("gains tag X"; the label when empty);
    `adjective` is what a flag says ("Mighty": "becomes Mighty", "is no longer Mighty",
    "not Mighty"; the label when empty). For engines: `compared` says whether crosscheck and
    fuzz compare it, `group` the finding it counts as (Mighty follows from Might, so one Might
    defect shows in both: `group="might"`)."""

    key: str
    kind: str
    label: str = ""
    change: str = "{label} {before} -> {after}"
    member: str = ""
    adjective: str = ""
    compared: bool = True
    group: str = ""

    def __post_init__(self) -> None:
        assert self.kind in OUTPUT_KINDS, self.kind

    @property
    def title(self) -> str:
        return self.label or self.key

    @property
    def empty(self) -> Any:
        """Its value when the encoding says nothing of it."""
        return {"set": (), "flag": False}.get(self.kind)


# The core characteristics people see beside a ruleset's own (riftasp/present.py,
# riftasp/transitions.py): keywords in tables, result lines and diffs, the zone in diffs.
CORE_SHOWN = ("keywords",)
CORE_CHANGES = ("zone", "keywords")


@dataclass(frozen=True)
class OutputOrder:
    """The order people read a ruleset's output in, by key: the table's columns (`riftasp
    resolve`), explain's result line and diff's transitions, core keys (CORE_SHOWN,
    CORE_CHANGES) among them. A plugin gives it as `OUTPUT_ORDER` when the JSON's order will
    not do; an empty one is the fields' order, keywords last (zone first in diff)."""

    table: tuple[str, ...] = ()
    result: tuple[str, ...] = ()
    diff: tuple[str, ...] = ()


@dataclass(frozen=True)
class FilterSpec:
    """One kind of filter (a key of a filter target, `{"filter": {"zone": "base"}}`): the kind
    of value it holds, and the model attribute holding it (`attribute`, default the key). Its
    term is `key(Value)`, or `key` for a flag (a boolean, written only when true): a string for
    a text, a constant for an enumeration."""

    key: str
    kind: Kind
    attribute: str = ""
    # How the card library words it (riftasp/cards.py), over {value}: "adjective" words go
    # before the noun ("friendly"), "noun" names what the object is ("unit"; "object" when no
    # filter does), "after" follows it (" at {value}"). A flag (a boolean) says `words` as is.
    role: str = "adjective"
    words: str = "{value}"
    # What bounds the objects it can match by something no effect changes (riftasp/timeline/
    # parts.py splits a board into parts that cannot affect each other by it): "zone" (their
    # zone is the value), "location" (their location is), "square" (they stand at the holder's
    # square, in its column or next to it); "" when any object could come to match.
    bound: str = ""

    def __post_init__(self) -> None:
        assert self.role in ("adjective", "noun", "after", "other"), self.role

    @property
    def name(self) -> str:
        return self.attribute or self.key
