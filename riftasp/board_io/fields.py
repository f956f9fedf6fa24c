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
from functools import cache

from ..conditions import CONDITIONS
from ..filters import FILTERS
from ..kinds import (  # noqa: F401  (the format's vocabulary, re-exported for its readers)
    AMOUNT, BOOLEAN, ID, INTEGER, KEYWORD, KEYWORD_NAME, OBJECT_ID, PLAYER, PLAYER_OR_YOU, REF, TEXT,
    Kind, array, one_of,
)
from ..limits import VALUE_MAX
from ..operations import OPERATIONS
from ..rulesets import Ruleset

CONDITION_TIMINGS = ("settled", "immediate", "as_able")
RECHECKED_SETS = ("replaces", "keeps")
SELF_SUPPORT = ("withdrawn", "kept")
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


OBJECTS = array(Kind("object"))  # read with the ruleset's card library, so apart from the rest


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
        "realm": Kind("realm"),
        "players": array(PLAYER, unique=True),
        "active_player": TEXT,
        "objects": OBJECTS,
        "effects": array(Kind("ongoing_effect")),
    },
    required=("players", "objects"),
)
SETTINGS = Part({"condition_timing": one_of(CONDITION_TIMINGS, "condition timing"),
                 "rechecked_set": one_of(RECHECKED_SETS, "rechecked set reading"),
                 "self_support": one_of(SELF_SUPPORT, "self-support reading")}, what="setting")
# The realm's grid of a board whose ruleset has one (Sorcery; the manifest's [realm] otherwise).
REALM = Part({"rows": AMOUNT, "columns": AMOUNT}, required=("rows", "columns"))

@cache
def object_part(ruleset: Ruleset) -> Part:
    """An object of the ruleset: the keys every ruleset's objects have, their card types, zones
    and statuses those of the ruleset (its manifest's `[board]`), then its own keys (its
    plugin's OBJECT_FIELDS, riftasp/rulesets/; a flag's stamp after it)."""
    words = ruleset.vocabulary
    common: dict[str, Kind] = {
        "id": OBJECT_ID,
        "card": Kind("card"),
        "name": TEXT,
        "type": one_of(words.card_types, "type"),
        "owner": TEXT,
        "controller": TEXT,
        "zone": one_of(words.zones, "zone"),
        "location": TEXT,
        "tags": array(TEXT, unique=True),
        "keywords": array(KEYWORD, unique=True),
        # A ruleset without statuses (Sorcery) has no `status` key.
        **({"status": array(one_of(words.statuses, "status"), unique=True)} if words.statuses else {}),
        "since": INTEGER,
        "attached_to": OBJECT_ID,
        "attached_since": INTEGER,
        "rules_text": array(Kind("rules_effect")),
        "effect_text": array(Kind("effect_effect")),
    }
    own: dict[str, Kind] = {}
    for f in ruleset.object_fields:
        own[f.key] = f.kind
        if f.stamp:
            own[f.stamp] = INTEGER
    return Part({**common, **own}, required=("id", "owner", "zone"))


# The keys a `card` fills; a card object may not give them itself, any other object needs
# name and type.
_PRINTED_KEYS = ("name", "type", "tags", "keywords", "rules_text", "effect_text")


def printed_keys(ruleset: Ruleset) -> tuple[str, ...]:
    return _PRINTED_KEYS + tuple(f.key for f in ruleset.object_fields if f.printed)


WITHOUT_CARD_REQUIRED = ("name", "type")
# Effect Text acts through an attachment: only the types that are attached have it (the
# manifest's `[board] attachable`: Riftbound's gear), and a ruleset's own keys limited to some
# types (ObjectField.only_types).
ATTACHED_KEYS = ("effect_text",)


def type_limited_keys(ruleset: Ruleset) -> list[tuple[tuple[str, ...], str, str]]:
    """(the card types that may have it, key, model attribute) of each key only some types may
    have: Effect Text, and the ruleset's own keys with `only_types` (Riftbound's Might Bonus)."""
    own = [(f.only_types, f.key, f.name) for f in ruleset.object_fields if f.only_types]
    attachable = ruleset.vocabulary.attachable
    return [(attachable, key, key) for key in ATTACHED_KEYS] + own
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
# A filter's keys: the filters' registry (riftasp/filters/) says them.
FILTER = Part({key: spec.kind for key, spec in FILTERS.items()}, what="filter field")

# Each operation's keys besides "op": the operations' registry (riftasp/operations/) says them.
OPERATION_FIELDS: dict[str, dict[str, Kind]] = {
    name: {param.key: param.kind for param in spec.params} for name, spec in OPERATIONS.items()
}

# A condition is an object whose one key names its kind and holds its parameter, or, for a kind
# without one (`mighty`), the object it reads; every other kind may name the object it reads in
# `of` (default: self). The conditions' registry (riftasp/conditions/) says them.
CONDITION_PARAMETERS: dict[str, Kind] = {
    kind: REF if spec.parameter is None else spec.parameter for kind, spec in CONDITIONS.items()
}
