"""Shape: parsed JSON/YAML data into the board model, checking keys, types and enumerations.

Which keys each part has, which are required and what kind of value each holds come from the
format's description (fields.py); this module says how a value of each kind is read. What needs
the whole board (ids that exist, unique items, where `self` and `bearer` may be used) is
checked afterwards, on the model (references.py).
"""

from __future__ import annotations

import difflib
from contextvars import ContextVar
from collections.abc import Callable, Collection, Sequence
from functools import cache, partial
from typing import Any

from ..cards import CardDef, library
from ..conditions import CONDITIONS
from ..filters import FILTERS
from ..limits import VALUE_MAX, VALUE_MIN
from ..model import Board, Condition, Effect, Filter, GameObject, Keyword, Operation, Settings, Target
from ..operations import OPERATIONS
from ..rulesets import Ruleset, default_ruleset, known, ruleset as ruleset_named
from .card_lookup import find_card, with_card
from .errors import Invalid, item_path, joined, key_path, shown
from .fields import (
    BOARD,
    CONDITION_PARAMETERS,
    CONTEXTS,
    DEFAULT_TARGET,
    EFFECT,
    EFFECT_REQUIRED,
    FILTER,
    KEYWORD_NAME,
    KEYWORD_NAME_RE,
    KEYWORD_RE,
    OBJECTS,
    ONGOING_ONLY,
    OPERATION_FIELDS,
    REALM,
    REF,
    SETTINGS,
    TARGET,
    TARGET_WORDS,
    WITHOUT_CARD_REQUIRED,
    Kind,
    Part,
    object_part,
    printed_keys,
)
from .parsing import LongNumber

Read = Callable[[Any, str], Any]  # a value at a path -> its model value, or Invalid


# The ruleset of the board being read: an unknown operation or condition is answered with the
# names of that ruleset's (its layer table's, its manifest's).
_READING: ContextVar[Ruleset | None] = ContextVar("ruleset being read", default=None)


def read_board(data: Any) -> Board:
    top = _part(data, "", BOARD)
    field = _field_reader(_BOARD_READERS, top, "")
    ruleset = field("ruleset") or ruleset_named(default_ruleset())
    token = _READING.set(ruleset)
    try:
        return _read_board(top, field, ruleset)
    finally:
        _READING.reset(token)


def _reading() -> Ruleset:
    return _READING.get() or ruleset_named(default_ruleset())


@cache
def _ruleset_names(ruleset: Ruleset) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The operations (by board name) and kinds of condition the ruleset's boards may use."""
    listed = set(ruleset.operations)
    operations = tuple(name for name, spec in OPERATIONS.items() if spec.functor in listed)
    conditions = tuple(k for k in CONDITION_PARAMETERS if k in ruleset.condition_kinds)
    return operations, conditions


def _read_board(top: dict, field: Callable[..., Any], ruleset: Ruleset) -> Board:
    settings = field("settings", Settings())
    players = field("players")
    active_player = field("active_player")
    cards = library(ruleset)
    objects = _items(top["objects"], "objects", lambda v, p: _read_object(v, p, ruleset, cards))
    effects = field("effects", ())
    return Board(players, active_player, objects, effects, ruleset, settings, realm=field("realm"))


# ---- plain values ------------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, LongNumber):
        return "a number"
    if isinstance(value, bool):  # before int: bool is an int subclass but not an integer here
        return "a boolean"
    names = {int: "an integer", float: "a number", str: "a string", list: "an array", dict: "an object"}
    for python_type, name in names.items():
        if isinstance(value, python_type):
            return name
    return f"a {type(value).__name__}"


def _expected(what: str, value: Any, path: str) -> Invalid:
    return Invalid(path, f"expected {what}, got {_type_name(value)}")


def _mapping(
    value: Any, path: str, keys: Collection[str] | None, required: Sequence[str] = (), what: str = "key"
) -> dict:
    """An object with only `keys` (None: not checked yet) and all of `required`."""
    if not isinstance(value, dict):
        raise _expected("an object", value, path)
    for key in getattr(value, "duplicates", ()):
        raise Invalid(path, f"duplicate key {shown(key)}")
    if keys is not None:
        for key in value:
            if key not in keys:
                raise Invalid(path, _unknown_key(key, keys, what))
    for key in required:
        if key not in value:
            raise Invalid(path, f"missing required field {shown(key)}")
    return value


def _part(value: Any, path: str, part: Part) -> dict:
    return _mapping(value, path, part.fields, part.required, part.what)


def _unknown_key(key: Any, keys: Collection[str], what: str) -> str:
    message = f"unknown {what} {shown(key)}"
    # Only short keys are compared: difflib indexes every character of the key it is given.
    close = difflib.get_close_matches(key, keys, n=1) if isinstance(key, str) and len(key) <= 100 else []
    return f"{message}; did you mean {shown(close[0])}?" if close else message


def _list(value: Any, path: str) -> list:
    if not isinstance(value, list):
        raise _expected("an array", value, path)
    return value


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _expected("a string", value, path)
    _check_text(value, path)
    return value


def _check_text(text: str, path: str) -> None:
    if not text:
        raise Invalid(path, "must not be empty")
    if "\x00" in text:  # clingo strings cannot hold NUL
        raise Invalid(path, "must not contain a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Invalid(path, "is not valid Unicode (an unpaired surrogate)") from None


def _integer(value: Any, path: str, minimum: int = VALUE_MIN) -> int:
    if isinstance(value, LongNumber):
        raise Invalid(path, f"must be an integer from {minimum} to {VALUE_MAX}, got {value!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _expected("an integer", value, path)
    if value < minimum:
        hint = " (see Limits in docs/board-format.md)" if minimum == VALUE_MIN else ""
        raise Invalid(path, f"must be at least {minimum}{hint}, got {value}")
    if value > VALUE_MAX:
        raise Invalid(path, f"must be at most {VALUE_MAX} (see Limits in docs/board-format.md), got {value}")
    return value


def _amount(value: Any, path: str) -> int:
    return _integer(value, path, minimum=0)


def _boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _expected("a boolean (true or false)", value, path)
    return value


def _enum(value: Any, path: str, choices: Sequence[str], what: str) -> str:
    text = _string(value, path)
    if text not in choices:
        raise Invalid(path, f"unknown {what} {shown(text)}; expected one of {joined(choices)}")
    return text


def _items(value: Any, path: str, read: Read) -> tuple:
    return tuple([read(item, item_path(path, i)) for i, item in enumerate(_list(value, path))])


def _keyword(value: Any, path: str) -> Keyword:
    text = _string(value, path)
    match = KEYWORD_RE.fullmatch(text)
    if match is None:
        raise Invalid(
            path,
            f"invalid keyword {shown(text)}; expected a name and an optional number from 1 to {VALUE_MAX}, "
            "e.g. 'Shield 2' or 'Ganking'",
        )
    return Keyword(match[1], int(match[2]) if match[2] else None)


def _keyword_name(value: Any, path: str) -> str:
    text = _string(value, path)
    if not KEYWORD_NAME_RE.fullmatch(text):
        raise Invalid(path, f"invalid keyword name {shown(text)}; expected a name without a number, e.g. 'Shield'")
    return text


def _ruleset(value: Any, path: str) -> Ruleset:
    """The board's ruleset, as the value everything after reads (the one lookup by name)."""
    name = _string(value, path)
    if name not in known():
        raise Invalid(path, f"unknown ruleset {shown(name)}; known rulesets: {joined(known())}")
    return ruleset_named(name)


# ---- the parts of a board ----------------------------------------------------------------------


def _field_reader(readers: dict[str, Read], data: dict, path: str) -> Callable[..., Any]:
    """`field(key, default=None)`: the value of `key` in `data` (at `path`) read as its kind, or
    `default` when the key is not given."""
    prefix = key_path(path, "")  # paths are built for every key read: a concatenation is cheapest

    def field(key: str, default: Any = None) -> Any:
        return readers[key](data[key], prefix + key) if key in data else default

    return field


def _read_settings(value: Any, path: str) -> Settings:
    data = _part(value, path, SETTINGS)
    field = _field_reader(_SETTINGS_READERS, data, path)
    return Settings(condition_timing=field("condition_timing", Settings.condition_timing),
                    rechecked_set=field("rechecked_set", Settings.rechecked_set),
                    self_support=field("self_support", Settings.self_support))


def _read_realm(value: Any, path: str) -> tuple[int, int]:
    """The board's own grid (rows, columns); references.py checks its size."""
    data = _part(value, path, REALM)
    field = _field_reader(_REALM_READERS, data, path)
    return field("rows"), field("columns")


def _read_object(value: Any, path: str, ruleset: Ruleset, cards: dict[str, CardDef]) -> GameObject:
    part = object_part(ruleset)
    data = _part(value, path, part)
    field = _field_reader(_object_readers(ruleset), data, path)
    card_name = field("card")
    card = None if card_name is None else find_card(card_name, key_path(path, "card"), ruleset, cards)
    if card is not None:
        for key in printed_keys(ruleset):
            if key in data:
                message = f"printed by card {shown(card.name)}; a card object does not give it"
                raise Invalid(key_path(path, key), message)
    else:
        for key in WITHOUT_CARD_REQUIRED:
            if key not in data:
                raise Invalid(path, f"missing required field {shown(key)} (or give a 'card')")

    object_id = field("id")
    owner = field("owner")
    since = field("since", 0)
    attached_to = field("attached_to")
    attached_since = field("attached_since")
    if attached_since is not None and attached_to is None:
        raise Invalid(key_path(path, "attached_since"), "given without 'attached_to'")
    own: dict[str, Any] = {}
    for f in ruleset.object_fields:
        if card is not None and f.printed:
            continue
        own[f.name] = field(f.key, False if f.kind.name == "boolean" else None)
        if f.stamp:
            stamp = field(f.stamp)
            if stamp is not None and not own[f.name]:
                raise Invalid(key_path(path, f.stamp), f'given without "{f.key}": true')
            # A stamp equal to its default is stored as the default (None), the one spelling
            # `board_facts` can give back: `riftasp facts` then round-trips exactly.
            own[f.stamp] = None if stamp == since else stamp
    state = dict(
        id=object_id,
        owner=owner,
        controller=field("controller", owner),
        zone=field("zone"),
        since=since,
        status=field("status", ()),
        location=field("location"),
        attached_to=attached_to,
        attached_since=None if attached_since == since else attached_since,
        **own,
    )
    if card is not None:
        return with_card(GameObject(name="", card_type="", **state), card)
    return GameObject(
        **state,
        name=field("name"),
        card_type=field("type"),
        tags=field("tags", ()),
        keywords=field("keywords", ()),
        rules_text=field("rules_text", ()),
        effect_text=field("effect_text", ()),
    )


def _read_effect(value: Any, path: str, context: str) -> Effect:
    """An effect in rules text ("rules"), Effect Text ("effect") or the board's effects ("ongoing")."""
    data = _mapping(value, path, EFFECT.fields, EFFECT_REQUIRED[context])
    if context != "ongoing":
        for key in ONGOING_ONLY:
            if key in data:
                raise Invalid(key_path(path, key), f"only ongoing effects (the board's 'effects') have a {key}")
    field = _field_reader(_EFFECT_READERS, data, path)
    target = field("target") if "target" in data else Target(DEFAULT_TARGET[context])
    return Effect(
        id=field("id"),
        op=field("op"),
        target=target,
        conditions=field("conditions", ()),
        timestamp=field("timestamp"),
        controller=field("controller"),
        source=field("source"),
    )


def _read_op(value: Any, path: str) -> Operation:
    data = _mapping(value, path, None, required=("op",))
    # Any operation riftasp knows reads here (one of another ruleset is refused by name in the
    # reference checks); an unknown one is answered with the board's ruleset's.
    where = key_path(path, "op")
    if isinstance(data["op"], str) and data["op"] not in OPERATION_FIELDS:
        _enum(data["op"], where, _ruleset_names(_reading())[0], "operation")
    name = _enum(data["op"], where, tuple(OPERATION_FIELDS), "operation")
    readers = _OPERATION_READERS[name]
    _mapping(data, path, ("op", *readers), required=tuple(readers))
    return Operation(name, **{key: read(data[key], key_path(path, key)) for key, read in readers.items()})


def _operation_reader(kind: Kind) -> Read:
    read = _reader(kind)
    if kind.item != KEYWORD_NAME:
        return read
    # The model holds a lost keyword as a Keyword without a number.
    return lambda value, path: tuple(Keyword(name) for name in read(value, path))


def _read_target(value: Any, path: str) -> Target:
    if isinstance(value, str):
        if value in TARGET_WORDS:
            return Target(value)
        if value == "target":
            raise Invalid(path, "'target' names the affected object in conditions only")
        forms = "'self', 'bearer', {\"ids\": [...]} or {\"filter\": {...}}"
        raise Invalid(path, f"unknown target {shown(value)}; expected {forms}")
    if not isinstance(value, dict):
        raise _expected("'self', 'bearer' or an object", value, path)
    data = _part(value, path, TARGET)
    if len(data) != 1:
        raise Invalid(path, "expected exactly one of 'ids' or 'filter'")
    (kind,) = data  # the model's Target names its one field as the board does
    return Target(kind, **{kind: _field_reader(_TARGET_READERS, data, path)(kind)})


def _read_filter(value: Any, path: str) -> Filter:
    data = _part(value, path, FILTER)
    field = _field_reader(_FILTER_READERS, data, path)
    return Filter(**{spec.name: field(key) for key, spec in FILTERS.items()})


def _read_condition(value: Any, path: str) -> Condition:
    data = _mapping(value, path, None)
    kinds = [key for key in data if key in CONDITION_PARAMETERS]
    expected = f"expected one of {joined(_ruleset_names(_reading())[1])}"
    if not kinds:
        others = [key for key in data if key != "of"]
        if others:
            raise Invalid(path, f"unknown condition {shown(others[0])}; {expected}")
        raise Invalid(path, f"missing the condition; {expected}")
    if len(kinds) > 1:
        raise Invalid(path, f"a condition has one kind, got {shown(kinds[0])} and {shown(kinds[1])}")
    kind = kinds[0]
    field = _field_reader(_CONDITION_READERS, data, path)
    spec = CONDITIONS[kind]
    if spec.key is None:
        if "of" in data:
            raise Invalid(key_path(path, "of"), f"{shown(kind)} names its object itself: {{\"{kind}\": \"u1\"}}")
        _mapping(data, path, (kind,))
        return Condition(kind, of=field(kind))
    _mapping(data, path, (kind, "of"))
    parameter = field(kind)
    return Condition(kind, of=field("of", "self"), **{spec.key: parameter})


# ---- how each kind is read ---------------------------------------------------------------------

# The named kinds of fields.py. Ids, players and refs read as strings here: whether they name
# something, or something reserved, is a reference check.
_READ: dict[str, Read] = {
    **dict.fromkeys(("text", "id", "object_id", "player", "player_or_you", "ref", "card"), _string),
    "integer": _integer,
    "amount": _amount,
    "boolean": _boolean,
    "keyword": _keyword,
    "keyword_name": _keyword_name,
    "ruleset": _ruleset,
    "settings": _read_settings,
    "realm": _read_realm,
    "operation": _read_op,
    "target": _read_target,
    "filter": _read_filter,
    "condition": _read_condition,
    **{f"{context}_effect": partial(_read_effect, context=context) for context in CONTEXTS},
}


def _reader(kind: Kind) -> Read:
    if kind.name == "enum":
        return lambda value, path: _enum(value, path, kind.choices, kind.what)
    if kind.name != "array":
        return _READ[kind.name]
    assert kind.item is not None  # an array's kind has its item (kinds.array)
    read = _reader(kind.item)
    if not kind.non_empty:
        return lambda value, path: _items(value, path, read)

    def read_non_empty(value: Any, path: str) -> tuple:
        if isinstance(value, list) and not value:
            # An empty keyword list would be an effect without an operation in the ASP facts.
            raise Invalid(path, f"expected at least one {kind.what}")
        return _items(value, path, read)

    return read_non_empty


def _readers(part: Part) -> dict[str, Read]:
    # Objects are read by _read_object, which needs the ruleset's card library.
    return {key: _reader(kind) for key, kind in part.fields.items() if kind != OBJECTS}


_BOARD_READERS = _readers(BOARD)


@cache
def _object_readers(ruleset: Ruleset) -> dict[str, Read]:
    return _readers(object_part(ruleset))

_SETTINGS_READERS = _readers(SETTINGS)
_REALM_READERS = _readers(REALM)
_EFFECT_READERS = _readers(EFFECT)
_TARGET_READERS = _readers(TARGET)
_FILTER_READERS = _readers(FILTER)
_OPERATION_READERS = {
    name: {key: _operation_reader(kind) for key, kind in fields.items()} for name, fields in OPERATION_FIELDS.items()
}
_CONDITION_READERS = {kind: _reader(parameter) for kind, parameter in {**CONDITION_PARAMETERS, "of": REF}.items()}
