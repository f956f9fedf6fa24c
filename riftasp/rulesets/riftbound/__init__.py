"""Riftbound's plugin: its objects' own keys (Might, the buff counter, a gear's Might Bonus), its
own operation (setting Might; the encoding is encodings/riftbound/operations/set_might.lp), its
own conditions, on Might (encodings/riftbound/conditions/), its filters on types and tags,
what it reports of every object, and its board generators for fuzzing (riftasp/rulesets/riftbound/strategies.py)."""

from __future__ import annotations

from typing import Any

from ...kinds import BOOLEAN, INTEGER, TEXT, one_of
from ...ruleset_data import board_vocabulary
from ...specs import ConditionSpec, Does, FilterSpec, ObjectField, OperationSpec, Param
from .output import OUTPUT, OUTPUT_ORDER  # noqa: F401 - what it reports, in which order (output.py)

BOARD = board_vocabulary("riftbound")  # its manifest's [board]

# Printed Might; a buff counter (+1 Might from its timestamp, `buff_since`, else the object's
# `since`); a gear's Might Bonus, added to the unit it is attached to.
OBJECT_FIELDS: tuple[ObjectField, ...] = (
    ObjectField("might", INTEGER, "printed_might", "Might", printed=True, shown="Might {}", reach="start"),
    ObjectField("buff", BOOLEAN, "buff", "the buff timestamp", attribute="buffed", stamp="buff_since",
                reach="plus_one"),
    ObjectField("might_bonus", INTEGER, "might_bonus", "the Might Bonus", printed=True, shown="Might Bonus +{}",
                only_types=("gear",), reach="bearer"),
)

OPERATIONS: tuple[OperationSpec, ...] = (
    OperationSpec("set_might", (Param("value", INTEGER, draw=(2, 7)),), Does("set", "might", "value", reach="starts"),
                  "{has} base Might {value}"),
)  # fmt: skip

# Filters on the sets of types and tags (encodings/riftbound/filters/): a type is the model's
# `card_type`.
FILTERS: tuple[FilterSpec, ...] = (
    FilterSpec("type", one_of(BOARD.card_types, "type"), attribute="card_type", role="noun"),
    FilterSpec("tag", TEXT),
)

# A unit with 5 or more Might is Mighty (encodings/riftbound/conditions/mighty.lp).
CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec("mighty", None, None, "{who} Mighty", weight=2),
    ConditionSpec("might_at_least", INTEGER, "value", "{has} at least {parameter} Might", draw=(2, 7)),
)

def board_strategy(profile: Any, ruleset: Any) -> Any:
    """The hypothesis strategy of generated boards (riftasp/fuzz.py), labelled with `ruleset`'s
    name: a variant that extends Riftbound is fuzzed with Riftbound's boards, drawing the
    operations its layer table names (its own too, at their registry weights)."""
    # Imported here: hypothesis is only needed to fuzz.
    from .strategies import boards, operation_names

    return boards(profile=profile, ops=operation_names(ruleset)).map(lambda board: board | {"ruleset": ruleset.name})


def reference_ruleset(ruleset: Any) -> Any:
    """Its ruleset for the reference engine (riftasp/rulesets/riftbound/reference/), for
    `ruleset` (Riftbound or a variant of it)."""
    from .reference import Riftbound

    return Riftbound(ruleset)


def checker() -> Any:
    """Its invariant checker for `riftasp check`, crosscheck and fuzz (riftasp/check/)."""
    from .check import check_report

    return check_report


def check_bases() -> Any:
    """What each check of its checkers rests on: a rules sentence or a riftasp Decision
    (riftasp/rulesets/riftbound/check/bases.py; docs/check.md)."""
    from .check.bases import BASES

    return BASES


def declarative() -> Any:
    """Its declarative checker, what the rules allow (riftasp/rulesets/riftbound/check/declarative.py)."""
    from .check import declarative as module

    return module
