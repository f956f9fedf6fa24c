"""Sorcery: Contested Realm's plugin (docs/semantics-sorcery.md): its objects' own keys (power,
affinity, a square on the realm's grid, at rest, burrowed or submerged, the order of a
simultaneous entry, the object an artifact is linked to), its own operations, conditions and
filters (the relations of the grid: here, adjacent, nearby, in front, directly above, an aura's
area), what it reports of every object, its checks of places on the grid, its ruleset for the
reference engine, its board generators and its invariant checker. Its encoding is encodings/sorcery/."""

from __future__ import annotations

from typing import Any

from ...kinds import AMOUNT, BOOLEAN, INTEGER, KEYWORD_NAME, OBJECT_ID, TEXT, one_of
from ...ruleset_data import board_vocabulary
from ...specs import ConditionSpec, Does, FilterSpec, ObjectField, OperationSpec, OutputField, OutputOrder, Param

from .words import ELEMENTS, NAME, RELATIONS, realm_size  # noqa: F401 - (its words, read as the plugin's)

_WORDS = board_vocabulary(NAME)


# The first site listed at each square, per board (the one-site-per-square check in one pass).
_sites: list[Any] = [None, {}]


def _first_sites(board: Any) -> dict[tuple[int, int], Any]:
    if _sites[0] is not board:
        first: dict[tuple[int, int], Any] = {}
        for other in board.objects:
            if other.card_type == "site" and other.zone == "realm":
                first.setdefault((other.row, other.column), other)
        _sites[:] = [board, first]
    return _sites[1]


OBJECT_FIELDS: tuple[ObjectField, ...] = (
    ObjectField("power", INTEGER, "printed_power", "power", printed=True, shown="power {}", reach="start"),
    *(ObjectField(e, AMOUNT, f"affinity_{e}", f"the {e} affinity", printed=True, shown=f"{e} {{}}") for e in ELEMENTS),
    ObjectField("row", AMOUNT, "row", "the row"),
    ObjectField("column", AMOUNT, "column", "the column"),
    ObjectField("at_rest", BOOLEAN, "at_rest", "the at-rest timestamp"),
    ObjectField("burrowed", BOOLEAN, "burrowed", "the burrowed timestamp"),
    ObjectField("submerged", BOOLEAN, "submerged", "the submerged timestamp"),
    ObjectField("entry_order", AMOUNT, "entry_order", "the entry order"),
    ObjectField("linked", OBJECT_ID, "linked", "the linked object"),
)  # fmt: skip

_TYPE = one_of(_WORDS.card_types, "type")
_ELEMENT = one_of(ELEMENTS, "element")

OPERATIONS: tuple[OperationSpec, ...] = (
    OperationSpec("add_type", (Param("type", _TYPE),), Does("add", "types", "type"), "{is} also a {type}"),
    OperationSpec("add_subtype", (Param("subtype", TEXT),), Does("add", "subtypes", "subtype"), "{is} also a {subtype}"),
    OperationSpec("remove_subtype", (Param("subtype", TEXT),), Does("remove", "subtypes", "subtype"),
                  "{is} no longer a {subtype}"),
    OperationSpec("silence", (), Does("lose_all_abilities"), "{is} silenced"),
    OperationSpec("disable", (), Does("lose_all_abilities"), "{is} disabled"),
    OperationSpec("gain_control", (), Does("set", "controller"), "{is} controlled by you"),
    OperationSpec("gain_linked_printed", (), Does("add", "types"),
                  "{has} the printed types, sub-types and abilities of the object linked to me"),
    OperationSpec("gain_affinity", (Param("element", _ELEMENT),), Does("add", "affinity", "element"),
                  "{has} at least one {element} affinity"),
    OperationSpec("lose_affinity", (Param("element", _ELEMENT),), Does("remove", "affinity", "element"),
                  "{has} no {element} affinity"),
    OperationSpec("set_power", (Param("value", INTEGER, draw=(0, 5)),), Does("set", "power", "value", reach="starts"),
                  "{has} base power {value}"),
)  # fmt: skip

# Conditions wait until what they read has applied (docs/semantics-sorcery.md §4).
CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec("power_at_most", INTEGER, "value", "{has} {parameter} or less power"),
    ConditionSpec("power_below", INTEGER, "value", "{has} less than {parameter} power"),
    ConditionSpec("lacks_adjacent_ally_with", KEYWORD_NAME, "keyword",
                  "{who} not, nor adjacent to, an allied {parameter}"),
)

FILTERS: tuple[FilterSpec, ...] = (
    FilterSpec("of_type", _TYPE, role="noun"),
    FilterSpec("subtype", TEXT),
    FilterSpec("near", one_of(RELATIONS, "relation"), role="after", words=" ({value})", bound="square"),
    FilterSpec("at_rest", BOOLEAN, words="at-rest"),
)

# What `riftasp resolve` reports of every object besides keywords, zone and abilities.
OUTPUT: tuple[OutputField, ...] = (
    OutputField("name", "value", change="{label} {before!r} -> {after!r}", compared=False),
    OutputField("controller", "value", change="changes {label} {before} -> {after}"),
    OutputField("power", "number", change="power {before} -> {after}"),
    OutputField("types", "set", member="type"),
    OutputField("subtypes", "set", label="sub-types", member="sub-type"),
    OutputField("affinity", "set", member="affinity"),
    OutputField("disabled", "flag", adjective="disabled"),
    OutputField("silenced", "flag", adjective="silenced"),
)

OUTPUT_ORDER = OutputOrder(
    table=("name", "controller", "power", "types", "subtypes", "affinity", "keywords", "disabled", "silenced"),
    result=("power", "controller", "types", "subtypes", "affinity", "keywords", "disabled", "silenced"),
    diff=("zone", "name", "types", "subtypes", "power", "controller", "affinity", "keywords", "disabled", "silenced"),
)

# Keys that say where a minion stands (only minions and avatars have them).
_MINION_PLACES = ("at_rest", "burrowed", "submerged")


def check_object(board: Any, obj: Any, path: str) -> None:
    """An object's place (docs/board-format.md, Sorcery): in the realm, a square of the grid
    (`row`, `column`), except an artifact carried (at its bearer's square); nothing of the kind
    outside the realm; at rest, burrowed and submerged only for minions and avatars, not both
    burrowed and submerged; one site per square."""
    from ...board_io.errors import Invalid, key_path, shown

    rows, columns = realm_size(board)
    carried = obj.attached_to is not None
    placed = obj.row is not None or obj.column is not None
    if obj.zone != "realm":
        for key in ("row", "column", *_MINION_PLACES):
            if getattr(obj, key):
                raise Invalid(key_path(path, key), f"{shown(obj.id)} is in {obj.zone}; only objects in the realm have a place")
        return
    if obj.location is not None:
        raise Invalid(key_path(path, "location"), "a Sorcery object's place is its 'row' and 'column'")
    if obj.attached_since is not None:
        raise Invalid(key_path(path, "attached_since"), "a Sorcery artifact's bearer abilities date from when it entered "
                      "the realm ('since'; docs/semantics-sorcery.md §2)")
    if carried and placed:
        key = "row" if obj.row is not None else "column"
        raise Invalid(key_path(path, key), f"{shown(obj.id)} is carried: it stands at its bearer's square")
    if not carried:
        for key, size in (("row", rows), ("column", columns)):
            value = getattr(obj, key)
            if value is None:
                raise Invalid(path, f"missing required field {shown(key)} ({shown(obj.id)} is in the realm)")
            if not 1 <= value <= size:
                raise Invalid(key_path(path, key), f"must be from 1 to {size} (the realm is {rows} × {columns}), got {value}")
    for key in _MINION_PLACES:
        if getattr(obj, key) and obj.card_type not in ("minion", "avatar"):
            raise Invalid(key_path(path, key), f"only a minion or an avatar is {key.replace('_', ' ')}; {shown(obj.id)} is a {obj.card_type}")
    if obj.burrowed and obj.submerged:
        raise Invalid(key_path(path, "submerged"), f"{shown(obj.id)} cannot be burrowed and submerged at once")
    if obj.card_type == "site":
        other = _first_sites(board)[(obj.row, obj.column)]
        if other is not obj:
            raise Invalid(key_path(path, "row"), f"two sites at row {obj.row}, column {obj.column}: {shown(other.id)} and {shown(obj.id)}")


def reference_ruleset(ruleset: Any) -> Any:
    """Its ruleset for the reference engine (riftasp/rulesets/sorcery/reference/), for `ruleset`
    (Sorcery or a variant of it)."""
    # Imported here: riftasp loads plugins while building its registries, before the reference
    # engine's modules.
    from .reference import Sorcery

    return Sorcery(ruleset)


# Its checkers (riftasp/rulesets/sorcery/check/: the invariants and the declarative program) read
# the layer order from the ruleset value (`board.ruleset.layers`), never restating Sorcery's: a
# variant that only reorders the layer table (sorcery-codex) is judged by them too
# (riftasp/rulesets/__init__.py, `Ruleset.same_rules`).
CHECKERS_READ_THE_LAYER_TABLE = True


def checker() -> Any:
    """Its invariant checker for `riftasp check`, crosscheck and fuzz (riftasp/check/)."""
    from .check import check_report

    return check_report


def check_bases() -> Any:
    """What each check of its checkers rests on: a rules sentence or a riftasp Decision
    (riftasp/rulesets/sorcery/check/bases.py; docs/check.md)."""
    from .check.bases import BASES

    return BASES


def declarative() -> Any:
    """Its declarative checker, what the rules allow (riftasp/rulesets/sorcery/check/declarative.py)."""
    from .check import declarative as declarative_sorcery

    return declarative_sorcery


def board_strategy(profile: Any, ruleset: Any) -> Any:
    """Its board generators for `riftasp fuzz --ruleset sorcery` (riftasp/rulesets/sorcery/strategies.py)."""
    # Imported here: hypothesis is only needed to fuzz.
    from .strategies import board_strategy as strategy

    return strategy(profile, ruleset)
