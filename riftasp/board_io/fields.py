"""The board format described once (docs/board-format.md): the parts of a board, their keys,
which keys are required, what kind of value each holds, and the rules between keys.

Everything that states a board's shape is derived from these tables: the reader's shape checks
(shape.py; lp_shape.py for the filter and condition terms of `.lp` boards) and the JSON Schema
that `riftasp schema` prints (riftasp/schema.py). A key, a kind or an enumeration is changed
here, and both follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..limits import VALUE_MAX
from ..model import CARD_TYPES, CONDITIONS, OPERATIONS, STATUSES, ZONES

CONDITION_TIMINGS = ("settled", "immediate")
RELATIONS = ("friendly", "enemy")
# Conditions say "you" for the effect's controller, so no player may be called that.
RESERVED_PLAYERS = ("you",)
# riftasp names instances `buff:<id>`, `bonus:<gear>`, `keyword:<K>:<id>` and `<effect>@<holder>`:
# an object or effect id with these characters could be mistaken for one of them.
RESERVED_ID_CHARACTERS = ":@"
# A keyword as printed: a name, then optionally a number from 1 to VALUE_MAX ("Shield 2").
KEYWORD_NAME_PATTERN = r"[A-Za-z]+"
KEYWORD_NUMBER_PATTERN = rf"[1-9][0-9]{{0,{len(str(VALUE_MAX)) - 2}}}|{VALUE_MAX}"
KEYWORD_PATTERN = rf"({KEYWORD_NAME_PATTERN})(?: ({KEYWORD_NUMBER_PATTERN}))?"
KEYWORD_RE = re.compile(KEYWORD_PATTERN)
KEYWORD_NAME_RE = re.compile(KEYWORD_NAME_PATTERN)


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
OBJECTS = array(Kind("object"))  # read with the ruleset's card library, so apart from the rest
STATUS = one_of(STATUSES, "status")


@dataclass(frozen=True)
class Part:
    """An object of the format: each key (in the order the schema lists them) and its kind."""

    fields: dict[str, Kind]
    required: tuple[str, ...] = ()
    what: str = "key"  # how messages name a key: "unknown setting …"


BOARD = Part(
    {
        "ruleset": Kind("ruleset"),
        "settings": Kind("settings"),
        "players": array(PLAYER, unique=True),
        "active_player": TEXT,
        "objects": OBJECTS,
        "effects": array(Kind("ongoing_effect")),
    },
    required=("players", "objects"),
)
SETTINGS = Part({"condition_timing": one_of(CONDITION_TIMINGS, "condition timing")}, what="setting")
OBJECT = Part(
    {
        "id": OBJECT_ID,
        "card": Kind("card"),
        "name": TEXT,
        "type": one_of(CARD_TYPES, "type"),
        "owner": TEXT,
        "controller": TEXT,
        "zone": one_of(ZONES, "zone"),
        "location": TEXT,
        "might": INTEGER,
        "tags": array(TEXT, unique=True),
        "keywords": array(KEYWORD, unique=True),
        "status": array(STATUS, unique=True),
        "since": INTEGER,
        "buff": BOOLEAN,
        "buff_since": INTEGER,
        "attached_to": OBJECT_ID,
        "attached_since": INTEGER,
        "might_bonus": INTEGER,
        "rules_text": array(Kind("rules_effect")),
        "effect_text": array(Kind("effect_effect")),
    },
    required=("id", "owner", "zone"),
)
# The keys a `card` fills; a card object may not give them itself, any other object needs
# name and type.
PRINTED_KEYS = ("name", "type", "might", "tags", "keywords", "might_bonus", "rules_text", "effect_text")
WITHOUT_CARD_REQUIRED = ("name", "type")
# Effect Text and a Might Bonus act through an attachment: only gear has them.
GEAR_KEYS = ("effect_text", "might_bonus")
TEXT_KEYS = {"rules": "rules_text", "effect": "effect_text"}

# An effect stands in rules text, in Effect Text, or among the board's ongoing effects: the
# context sets its default target, where `bearer` may appear, and what it must give.
CONTEXTS = ("rules", "effect", "ongoing")
EFFECT = Part(
    {
        "id": ID,
        "op": Kind("operation"),
        "target": Kind("target"),
        "conditions": array(Kind("condition"), unique=True),
        "timestamp": INTEGER,
        "controller": TEXT,
        "source": OBJECT_ID,
    }
)
EFFECT_REQUIRED = {
    "rules": ("id", "op"),
    "effect": ("id", "op"),
    "ongoing": ("id", "op", "target", "timestamp", "controller"),
}
# Text belongs to the object holding it: that object is its controller and its self.
ONGOING_ONLY = ("controller", "source")
DEFAULT_TARGET = {"rules": "self", "effect": "bearer"}

# A target is one of these words (`bearer` in Effect Text only) or an object with one key.
TARGET_WORDS = ("self", "bearer")
TARGET = Part({"ids": array(OBJECT_ID, unique=True), "filter": Kind("filter")})
FILTER = Part(
    {
        "type": one_of(CARD_TYPES, "type"),
        "relation": one_of(RELATIONS, "relation"),
        "tag": TEXT,
        "zone": one_of(ZONES, "zone"),
        "location": TEXT,
        "other": BOOLEAN,
    },
    what="filter field",
)

# Each operation's keys besides "op" (their names are the model's: riftasp/model.py).
_OPERATION_KEYS = {"of": OBJECT_ID, "value": INTEGER, "player": TEXT, "tag": TEXT, "amount": AMOUNT,
                   "max": INTEGER, "min": INTEGER}  # fmt: skip
# Gained keywords may carry numbers; a lost keyword is named only (facts say which one is lost).
_KEYWORD_LISTS = {
    "gain_keywords": array(KEYWORD, unique=True, non_empty=True, what="keyword"),
    "lose_keywords": array(KEYWORD_NAME, unique=True, non_empty=True, what="keyword"),
}
OPERATION_FIELDS: dict[str, dict[str, Kind]] = {
    name: {key: _KEYWORD_LISTS[name] if key == "keywords" else _OPERATION_KEYS[key] for key in keys}
    for name, keys in OPERATIONS.items()
}

# A condition is an object whose one key names its kind and holds its parameter; every kind
# but `mighty` (whose parameter is the object it reads) may name the object it reads in `of`
# (default: self).
CONDITION_PARAMETERS: dict[str, Kind] = {
    "mighty": REF,
    "status": STATUS,
    "might_at_least": INTEGER,
    "has_keyword": KEYWORD_NAME,
    "controlled_by": PLAYER_OR_YOU,
}
assert tuple(CONDITION_PARAMETERS) == tuple(CONDITIONS)  # the model's kinds, in its order
