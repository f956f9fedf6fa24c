"""The kinds of value a board key can hold (docs/board-format.md): the vocabulary the format's
description (riftasp/board_io/fields.py) and the operations' registry (riftasp/operations/) both
use, kept apart from either so that neither imports the other's module for it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """What a key holds.

    `name` is one of: "text" (a non-empty string without NUL), "id" (an effect id),
    "object_id", "player", "player_or_you" (a player, or `you` for an effect's controller),
    "integer" (VALUE_MIN to VALUE_MAX), "amount" (0 to VALUE_MAX), "boolean", "keyword"
    ('Shield 2'), "keyword_name" ('Shield'), "ruleset", "card" (a library card's name);
    a part of a board: "settings", "object", "operation", "filter", "<context>_effect"; a part
    whose rules depend on the effect holding it: "target", "condition", "ref" (an object a
    condition reads); "enum" (one of `choices`); or "array" (of `item`).

    What the shape alone cannot check (ids that exist, unique items, players that are not
    reserved) the reference checks do, on the model (references.py).
    """

    name: str
    choices: tuple[str, ...] = ()  # enum
    what: str = ""  # how messages name an enum's value ("unknown zone …") or an array's item
    item: Kind | None = None  # array
    unique: bool = False  # array: no item twice
    non_empty: bool = False  # array: at least one item


def one_of(choices: tuple[str, ...], what: str) -> Kind:
    return Kind("enum", choices=choices, what=what)


def array(item: Kind, unique: bool = False, non_empty: bool = False, what: str = "") -> Kind:
    return Kind("array", item=item, unique=unique, non_empty=non_empty, what=what)


TEXT, ID, OBJECT_ID, REF = Kind("text"), Kind("id"), Kind("object_id"), Kind("ref")
PLAYER, PLAYER_OR_YOU = Kind("player"), Kind("player_or_you")
INTEGER, AMOUNT, BOOLEAN = Kind("integer"), Kind("amount"), Kind("boolean")
KEYWORD, KEYWORD_NAME = Kind("keyword"), Kind("keyword_name")
