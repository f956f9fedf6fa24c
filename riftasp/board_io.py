"""Reading boards (JSON, YAML, ASP facts) into the model, and rejecting doubtful input.

docs/board-format.md is the spec. Every failure is a `BoardError` whose text is one line,
`FILE: PATH: message`; nothing is silently dropped or guessed.

Reading happens in two passes that both file formats share the second of:
1. shape: the document is turned into model objects, checking keys, types and enumerations
   (`board_from_dict` for JSON/YAML data, `board_from_facts` for `.lp` facts);
2. references: `_check_board` checks ids, players, attachments and where `self`/`bearer`
   may be used, on the model, so a `.lp` board is held to the same rules as a JSON one.
"""

from __future__ import annotations

import difflib
import gc
import json
import os
import re
import stat
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import clingo
import clingo.ast

from .cards import CardDef, library
from .facts import TEXT_PART
from .limits import MAX_BOARD_BYTES, REACH_MAX, VALUE_MAX, VALUE_MIN, might_reach
from .model import (
    CARD_TYPES,
    CONDITIONS,
    OPERATIONS,
    STATUSES,
    SYMBOLIC_REFS,
    ZONES,
    Board,
    Condition,
    Effect,
    Filter,
    GameObject,
    Keyword,
    Operation,
    Settings,
    Target,
)
from .present import printable, shorten
from .resources import rulesets
from .ruleset_data import KeywordRules, keyword_rules
from .terms import decode_condition, decode_ops, decode_target, quote

CONDITION_TIMINGS = ("settled", "immediate")
RELATIONS = ("friendly", "enemy")
TEXT_PARTS = ("rules", "effect")
# Clingo integers are 32-bit and wrap silently: a number beyond them cannot even be read.
CLINGO_INT_MAX = 2**31 - 1
# Conditions say "you" for the effect's controller, so no player may be called that.
RESERVED_PLAYERS = ("you",)
# riftasp names instances `buff:<id>`, `bonus:<gear>`, `keyword:<K>:<id>` and `<effect>@<holder>`:
# an object or effect id with these characters could be mistaken for one of them.
RESERVED_ID_CHARACTERS = ":@"
# Object and gear types an attachment joins: only gear is attached, to a unit (or unit token).
BEARER_TYPES = ("unit", "token")
# A keyword as printed: a name, then optionally a number from 1 to VALUE_MAX ("Shield 2").
KEYWORD_NAME = r"[A-Za-z]+"
KEYWORD_NUMBER = rf"[1-9][0-9]{{0,{len(str(VALUE_MAX)) - 2}}}|{VALUE_MAX}"
KEYWORD_PATTERN = rf"({KEYWORD_NAME})(?: ({KEYWORD_NUMBER}))?"
# Numbers longer than this are not converted (Python refuses over 4,300 digits, and slowly).
LONGEST_NUMBER = 40
# How deep [ ] and { } may nest in a YAML board (see _check_flow_depth).
MAX_FLOW_DEPTH = 100
_BRACKETS = re.compile(r"[\[\]{}]")
# How many known names an "unknown ..." message lists.
LISTED_NAMES = 10
STDIN = "-"
_KEYWORD = re.compile(KEYWORD_PATTERN)
_KEYWORD_NAME = re.compile(KEYWORD_NAME)

TOP_KEYS = ("ruleset", "settings", "players", "active_player", "objects", "effects")
SETTINGS_KEYS = ("condition_timing",)
OBJECT_KEYS = (
    "id", "card", "name", "type", "owner", "controller", "zone", "location", "might", "tags",
    "keywords", "status", "since", "buff", "buff_since", "attached_to", "attached_since",
    "rules_text", "effect_text", "might_bonus",
)  # fmt: skip
# The fields a `card` fills; a card object may not give them itself.
PRINTED_KEYS = ("name", "type", "might", "tags", "keywords", "might_bonus", "rules_text", "effect_text")
EFFECT_KEYS = ("id", "op", "target", "conditions", "timestamp", "controller", "source")
FILTER_KEYS = ("type", "relation", "tag", "zone", "location", "other")
TEXT_KEYS = {"rules": "rules_text", "effect": "effect_text"}
DEFAULT_TARGET = {"rules": "self", "effect": "bearer"}
YAML_HINT = "reading YAML boards needs PyYAML: pip install riftasp[yaml]"


class BoardError(Exception):
    """A board that cannot be read; str() is the one-line `FILE: PATH: message`."""

    def __init__(self, source: str, where: str, message: str) -> None:
        self.source, self.where, self.message = source, where, message
        # One line whatever the parts contain, control characters escaped and a long fact or
        # clingo message cut: callers print it as is.
        parts = (shorten(source, 4 * SHORT_PART), shorten(where, SHORT_PART), shorten(message, 4 * SHORT_PART))
        super().__init__(_one_line(": ".join(parts)))

    def __reduce__(self) -> tuple:
        # Rebuild from the parts (the default would call __init__ with the joined line).
        return (type(self), (self.source, self.where, self.message))


class _Invalid(Exception):
    """A problem at a path inside the document; `BoardError` adds the file at the boundary."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where or "top level"
        self.message = message


SHORT_PART = 200  # characters of a PATH in an error line; FILE and message get four times that


def _one_line(text: str) -> str:
    return printable(text)


# ---- entry points -----------------------------------------------------------------------------


@contextmanager
def _bulk() -> Iterator[None]:
    """Reading makes millions of objects and no garbage: the cyclic collector's passes over
    them would make loading a large board superlinear, so it waits until the end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_board(path: str | Path) -> Board:
    """Read a board file, choosing the format by suffix: .json, .yaml/.yml or .lp.

    `-` reads a JSON board from standard input. A file larger than MAX_BOARD_BYTES, or one that
    is not a regular file (a FIFO, a device, a directory), is refused before it is read.
    """
    with _bulk():
        return _load_board(path)


def _load_board(path: str | Path) -> Board:
    if str(path) == STDIN:
        return load_board_text(_decode(_read_stdin(), "<stdin>"), "<stdin>")
    path = Path(path)
    source = str(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".yaml", ".yml", ".lp"):
        raise BoardError(
            source, "file", f"unknown board format {suffix or '(no suffix)'!r}; expected .json, .yaml, .yml or .lp"
        )
    text = _decode(_read_bytes(path, source), source)
    if suffix == ".lp":
        return board_from_facts(text, source)
    if suffix == ".json":
        return load_board_text(text, source)
    return board_from_dict(_parse_yaml(text, source), source)


def load_board_text(text: str, source: str = "<stdin>") -> Board:
    """A board from JSON text."""
    with _bulk():
        return board_from_dict(_parse_json(text, source), source)


def board_from_dict(data: Any, source: str = "<board>") -> Board:
    """A board from parsed JSON/YAML data (dicts, lists, strings, numbers, booleans)."""
    try:
        with _bulk():
            board = replace(_read_board(data), source=source)
            _check_board(board, _JsonPaths())
    except _Invalid as problem:
        raise BoardError(source, problem.where, problem.message) from None
    return board


def board_from_facts(text: str, source: str = "<facts>") -> Board:
    """A board from ASP facts in the vocabulary of `riftasp.facts`: the inverse of `board_facts`.

    The text is data, never a program: only ground facts are accepted (see `_parse_facts`).
    """
    try:
        with _bulk():
            board = replace(_board_from_atoms(_parse_facts(text, source)), source=source)
            _check_board(board, _FactPaths())
    except _Invalid as problem:
        raise BoardError(source, problem.where, problem.message) from None
    return board


def _read_bytes(path: Path, source: str) -> bytes:
    """The file's bytes, refusing what is not a regular file or is too large before reading."""
    try:
        # Non-blocking: opening a FIFO must not wait for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise BoardError(source, "file", "no such file") from None
    except PermissionError:
        raise BoardError(source, "file", "cannot read: permission denied") from None
    except OSError as problem:
        raise BoardError(source, "file", f"cannot read: {problem.strerror or problem}") from None
    try:
        _check_file_type(os.fstat(fd), source)
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return _read_limited(stream, source)
    except IsADirectoryError:
        raise BoardError(source, "file", "is a directory, not a board file") from None
    except OSError as problem:
        raise BoardError(source, "file", f"cannot read: {problem.strerror or problem}") from None
    finally:
        os.close(fd)


def _check_file_type(info: os.stat_result, source: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise BoardError(source, "file", "is a directory, not a board file")
    if not stat.S_ISREG(info.st_mode):
        kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else "a device or special file"
        hint = "use - to read a JSON board from standard input"
        raise BoardError(source, "file", f"is {kind}, not a regular file ({hint})")
    if info.st_size > MAX_BOARD_BYTES:
        raise BoardError(source, "file", _too_large(info.st_size))


def _read_limited(stream: Any, source: str) -> bytes:
    # Read one byte past the limit: a file that grew, or reports no size (/proc), is caught too.
    data = stream.read(MAX_BOARD_BYTES + 1)
    if len(data) > MAX_BOARD_BYTES:
        raise BoardError(source, "file", _too_large(None))
    return data


def _too_large(size: int | None) -> str:
    limit = f"{MAX_BOARD_BYTES // 2**20} MiB"
    shown = f"{size:,} bytes" if size is not None else "more than that"
    return f"too large: {shown}; a board file is at most {limit} (see Limits in docs/board-format.md)"


def _read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BoardError("<stdin>", "file", "standard input is closed")
    try:
        return _read_limited(stream, "<stdin>")
    except OSError as problem:
        raise BoardError("<stdin>", "file", f"cannot read: {problem.strerror or problem}") from None


def _decode(data: bytes, source: str) -> str:
    """Strict UTF-8 (a byte-order mark is dropped); an invalid byte is an error at its place."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = data.count(b"\n", 0, problem.start) + 1
        line_start = data.rfind(b"\n", 0, problem.start) + 1
        column = len(data[line_start : problem.start].decode("utf-8", "replace")) + 1
        raise BoardError(
            source, f"line {line} column {column}", f"not UTF-8 text (byte 0x{data[problem.start]:02x})"
        ) from None
    return text.removeprefix("\ufeff")


# ---- JSON and YAML syntax ---------------------------------------------------------------------


class _Mapping(dict):
    """A parsed JSON/YAML object that remembers keys given twice (the parsers keep the last)."""

    duplicates: tuple[Any, ...] = ()


def _mapping_from_pairs(pairs: list[tuple[Any, Any]]) -> _Mapping:
    mapping = _Mapping(pairs)
    if len(mapping) != len(pairs):
        seen: set[Any] = set()
        duplicates = []
        for key, _ in pairs:
            if key in seen:
                duplicates.append(key)
            seen.add(key)
        mapping.duplicates = tuple(duplicates)
    return mapping


class _LongNumber:
    """A number too long to convert (Python refuses over 4,300 digits): reported where it is."""

    def __init__(self, text: str) -> None:
        self.length = len(text)

    def __repr__(self) -> str:
        return f"a number written with {self.length:,} characters"


def _parse_int(text: str) -> int | _LongNumber:
    return int(text) if len(text) <= LONGEST_NUMBER else _LongNumber(text)


def _parse_float(text: str) -> float | _LongNumber:
    return float(text) if len(text) <= LONGEST_NUMBER else _LongNumber(text)


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(
            text, object_pairs_hook=_mapping_from_pairs, parse_int=_parse_int, parse_float=_parse_float
        )
    except json.JSONDecodeError as problem:
        where = f"line {problem.lineno} column {problem.colno}"
        raise BoardError(source, where, f"invalid JSON: {problem.msg}") from None
    except RecursionError:
        raise BoardError(source, "file", "invalid JSON: nested too deeply") from None


def _parse_yaml(text: str, source: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise BoardError(source, "file", YAML_HINT) from None
    _check_flow_depth(text, source)

    class Loader(yaml.SafeLoader):
        pass

    def construct_mapping(loader: Loader, node: yaml.MappingNode) -> _Mapping:
        # Merge keys (`<<`) are not flattened: the safe loader then rejects them as an
        # unknown tag, rather than an override being mistaken for a duplicate key.
        pairs = loader.construct_pairs(node, deep=True)
        for (key, _), (key_node, _) in zip(pairs, node.value):
            if not isinstance(key, (str, int, float, bool, type(None))):
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a scalar", key_node.start_mark
                )
        return _mapping_from_pairs(pairs)

    def construct_number(loader: Loader, node: yaml.ScalarNode) -> Any:
        if len(node.value) > LONGEST_NUMBER:  # also base-60 "1:2:3:…", slow to convert
            return _LongNumber(node.value)
        return constructors[node.tag](loader, node)

    def compose_node(loader: Loader, parent: Any, index: Any) -> Any:
        # An alias repeats a whole subtree: a few lines could stand for billions of objects.
        if loader.check_event(yaml.AliasEvent):
            mark = loader.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in a board", mark)
        return yaml.SafeLoader.compose_node(loader, parent, index)

    constructors = yaml.SafeLoader.yaml_constructors
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    for tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        Loader.add_constructor(tag, construct_number)
    Loader.compose_node = compose_node  # type: ignore[method-assign]
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else "file"
        what = problem.problem or problem.context
        if what and what.startswith("but ") and problem.context:  # "…, but found another document"
            what = f"{problem.context}, {what}"
        raise BoardError(source, where, f"invalid YAML: {what}") from None
    except yaml.reader.ReaderError as problem:
        where = _text_position(text, problem.position)
        character = chr(problem.character) if isinstance(problem.character, int) else problem.character
        raise BoardError(source, where, f"invalid YAML: {problem.reason} ({character!r})") from None
    except yaml.YAMLError as problem:
        raise BoardError(source, "file", f"invalid YAML: {problem}") from None
    except RecursionError:
        raise BoardError(source, "file", "invalid YAML: nested too deeply") from None
    except ValueError as problem:  # a scalar the safe loader cannot convert, e.g. 2001-13-45
        raise BoardError(source, "file", f"invalid YAML: {problem}") from None


def _check_flow_depth(text: str, source: str) -> None:
    """PyYAML's scanner takes time quadratic in the nesting of [ ] and { }: a line of brackets
    would hang it. A board nests a few levels; brackets inside quoted text count here too, so
    the bound is generous."""
    depth = 0
    for bracket in _BRACKETS.finditer(text):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_FLOW_DEPTH:
            raise BoardError(source, _text_position(text, bracket.start()), "invalid YAML: nested too deeply")


def _text_position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line} column {column}"


# ---- shape: JSON/YAML data -> model -----------------------------------------------------------


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _item(path: str, index: int) -> str:
    return f"{path}[{index}]"


def _q(value: Any) -> str:
    """A value quoted for a message; repr keeps control characters on one line, and a long
    value is cut (an id of a megabyte would otherwise fill the error line)."""
    if isinstance(value, str) and len(value) > SHORT_PART:
        return repr(value[:SHORT_PART]) + "…"
    return shorten(repr(value), SHORT_PART)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, _LongNumber):
        return "a number"
    if isinstance(value, bool):  # before int: bool is an int subclass but not an integer here
        return "a boolean"
    names = {int: "an integer", float: "a number", str: "a string", list: "an array", dict: "an object"}
    for python_type, name in names.items():
        if isinstance(value, python_type):
            return name
    return f"a {type(value).__name__}"


def _expected(what: str, value: Any, path: str) -> _Invalid:
    return _Invalid(path, f"expected {what}, got {_kind(value)}")


def _one_of(choices: Sequence[str]) -> str:
    return ", ".join(choices)


def _mapping(
    value: Any, path: str, keys: Sequence[str] | None, required: Sequence[str] = (), what: str = "key"
) -> dict:
    """An object with only `keys` (None: not checked yet) and all of `required`."""
    if not isinstance(value, dict):
        raise _expected("an object", value, path)
    for key in getattr(value, "duplicates", ()):
        raise _Invalid(path, f"duplicate key {_q(key)}")
    if keys is not None:
        for key in value:
            if key not in keys:
                raise _Invalid(path, _unknown_key(key, keys, what))
    for key in required:
        if key not in value:
            raise _Invalid(path, f"missing required field {_q(key)}")
    return value


def _unknown_key(key: Any, keys: Sequence[str], what: str) -> str:
    message = f"unknown {what} {_q(key)}"
    # Only short keys are compared: difflib indexes every character of the key it is given.
    close = difflib.get_close_matches(key, keys, n=1) if isinstance(key, str) and len(key) <= 100 else []
    return f"{message}; did you mean {_q(close[0])}?" if close else message


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
        raise _Invalid(path, "must not be empty")
    if "\x00" in text:  # clingo strings cannot hold NUL
        raise _Invalid(path, "must not contain a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _Invalid(path, "is not valid Unicode (an unpaired surrogate)") from None


def _integer(value: Any, path: str, minimum: int = VALUE_MIN) -> int:
    if isinstance(value, _LongNumber):
        raise _Invalid(path, f"must be an integer from {minimum} to {VALUE_MAX}, got {value!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _expected("an integer", value, path)
    if value < minimum:
        hint = " (see Limits in docs/board-format.md)" if minimum == VALUE_MIN else ""
        raise _Invalid(path, f"must be at least {minimum}{hint}, got {value}")
    if value > VALUE_MAX:
        raise _Invalid(path, f"must be at most {VALUE_MAX} (see Limits in docs/board-format.md), got {value}")
    return value


def _boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _expected("a boolean (true or false)", value, path)
    return value


def _enum(value: Any, path: str, choices: Sequence[str], what: str) -> str:
    text = _string(value, path)
    if text not in choices:
        raise _Invalid(path, f"unknown {what} {_q(text)}; expected one of {_one_of(choices)}")
    return text


def _optional(data: dict, key: str, path: str, read: Callable[[Any, str], Any], default: Any = None) -> Any:
    return read(data[key], _key(path, key)) if key in data else default


def _items(value: Any, path: str, read: Callable[[Any, str], Any]) -> tuple:
    return tuple(read(item, _item(path, i)) for i, item in enumerate(_list(value, path)))


def _keyword(value: Any, path: str) -> Keyword:
    text = _string(value, path)
    match = _KEYWORD.fullmatch(text)
    if match is None:
        raise _Invalid(
            path,
            f"invalid keyword {_q(text)}; expected a name and an optional number from 1 to {VALUE_MAX}, "
            "e.g. 'Shield 2' or 'Ganking'",
        )
    return Keyword(match[1], int(match[2]) if match[2] else None)


def _keyword_name(value: Any, path: str) -> str:
    text = _string(value, path)
    if not _KEYWORD_NAME.fullmatch(text):
        raise _Invalid(path, f"invalid keyword name {_q(text)}; expected a name without a number, e.g. 'Shield'")
    return text


def _read_board(data: Any) -> Board:
    top = _mapping(data, "", TOP_KEYS, required=("players", "objects"))
    ruleset = _optional(top, "ruleset", "", _ruleset, Board.ruleset)
    settings = _optional(top, "settings", "", _read_settings, Settings())
    players = _items(top["players"], "players", _string)
    active_player = _optional(top, "active_player", "", _string)
    cards = library(ruleset)
    objects = _items(top["objects"], "objects", lambda v, p: _read_object(v, p, ruleset, cards))
    effects = _optional(top, "effects", "", lambda v, p: _items(v, p, _read_ongoing), ())
    return Board(players, active_player, objects, effects, ruleset, settings)


def _ruleset(value: Any, path: str) -> str:
    name = _string(value, path)
    known = rulesets()
    if name not in known:
        raise _Invalid(path, f"unknown ruleset {_q(name)}; known rulesets: {_one_of(known)}")
    return name


def _read_settings(value: Any, path: str) -> Settings:
    data = _mapping(value, path, SETTINGS_KEYS, what="setting")
    timing = _optional(
        data, "condition_timing", path, lambda v, p: _enum(v, p, CONDITION_TIMINGS, "condition timing"),
        Settings.condition_timing,
    )  # fmt: skip
    return Settings(condition_timing=timing)


def _read_object(value: Any, path: str, ruleset: str, cards: dict[str, CardDef]) -> GameObject:
    data = _mapping(value, path, OBJECT_KEYS, required=("id", "owner", "zone"))
    card = _optional(data, "card", path, lambda v, p: _card(v, p, ruleset, cards))
    if card is not None:
        for key in PRINTED_KEYS:
            if key in data:
                raise _Invalid(_key(path, key), f"printed by card {_q(card.name)}; a card object does not give it")
    else:
        for key in ("name", "type"):
            if key not in data:
                raise _Invalid(path, f"missing required field {_q(key)} (or give a 'card')")

    object_id = _string(data["id"], _key(path, "id"))
    owner = _string(data["owner"], _key(path, "owner"))
    since = _optional(data, "since", path, _integer, 0)
    buffed = _optional(data, "buff", path, _boolean, False)
    buff_since = _optional(data, "buff_since", path, _integer)
    if buff_since is not None and not buffed:
        raise _Invalid(_key(path, "buff_since"), "given without \"buff\": true")
    attached_to = _optional(data, "attached_to", path, _string)
    attached_since = _optional(data, "attached_since", path, _integer)
    if attached_since is not None and attached_to is None:
        raise _Invalid(_key(path, "attached_since"), "given without 'attached_to'")
    obj = GameObject(
        id=object_id,
        name="",
        card_type="",
        owner=owner,
        controller=_optional(data, "controller", path, _string, owner),
        zone=_enum(data["zone"], _key(path, "zone"), ZONES, "zone"),
        since=since,
        status=_optional(data, "status", path, lambda v, p: _items(v, p, _status), ()),
        location=_optional(data, "location", path, _string),
        attached_to=attached_to,
        # A stamp equal to its default is stored as the default (None), the one spelling
        # `board_facts` can give back: `riftasp facts` then round-trips exactly.
        attached_since=None if attached_since == since else attached_since,
        buffed=buffed,
        buff_since=None if buff_since == since else buff_since,
    )
    if card is not None:
        return _with_card(obj, card)
    return replace(
        obj,
        name=_string(data["name"], _key(path, "name")),
        card_type=_enum(data["type"], _key(path, "type"), CARD_TYPES, "type"),
        might=_optional(data, "might", path, _integer),
        tags=_optional(data, "tags", path, lambda v, p: _items(v, p, _string), ()),
        keywords=_optional(data, "keywords", path, lambda v, p: _items(v, p, _keyword), ()),
        might_bonus=_optional(data, "might_bonus", path, _integer),
        rules_text=_optional(data, "rules_text", path, lambda v, p: _items(v, p, _text_reader("rules")), ()),
        effect_text=_optional(data, "effect_text", path, lambda v, p: _items(v, p, _text_reader("effect")), ()),
    )


def _card(value: Any, path: str, ruleset: str, cards: dict[str, CardDef]) -> CardDef:
    name = _string(value, path)
    if name not in cards:
        known = ", ".join(_q(n) for n in sorted(cards)) or "no cards"
        raise _Invalid(path, f"unknown card {_q(name)}; the {ruleset} library has {known}")
    return cards[name]


def _with_card(obj: GameObject, card: CardDef) -> GameObject:
    """The object with its printed fields and text taken from the card."""
    return replace(
        obj,
        card=card.name,
        name=card.name,
        card_type=card.card_type,
        might=card.might,
        tags=card.tags,
        keywords=card.keywords,
        might_bonus=card.might_bonus,
        rules_text=card.instantiate(obj.id, "rules"),
        effect_text=card.instantiate(obj.id, "effect"),
    )


def _status(value: Any, path: str) -> str:
    return _enum(value, path, STATUSES, "status")


def _text_reader(part: str) -> Callable[[Any, str], Effect]:
    return lambda value, path: _read_effect(value, path, part)


def _read_ongoing(value: Any, path: str) -> Effect:
    return _read_effect(value, path, "ongoing")


def _read_effect(value: Any, path: str, context: str) -> Effect:
    """An effect in rules text ("rules"), Effect Text ("effect") or the board's effects ("ongoing")."""
    ongoing = context == "ongoing"
    required = ("id", "op", "target", "timestamp", "controller") if ongoing else ("id", "op")
    data = _mapping(value, path, EFFECT_KEYS, required=required)
    if not ongoing:
        for key in ("controller", "source"):
            if key in data:
                # Text belongs to the object holding it: that object is its controller and its self.
                raise _Invalid(_key(path, key), f"only ongoing effects (the board's 'effects') have a {key}")
    target = _read_target(data["target"], _key(path, "target")) if "target" in data else Target(DEFAULT_TARGET[context])
    return Effect(
        id=_string(data["id"], _key(path, "id")),
        op=_read_op(data["op"], _key(path, "op")),
        target=target,
        conditions=_optional(data, "conditions", path, lambda v, p: _items(v, p, _read_condition), ()),
        timestamp=_optional(data, "timestamp", path, _integer),
        controller=_optional(data, "controller", path, _string),
        source=_optional(data, "source", path, _string),
    )


def _read_op(value: Any, path: str) -> Operation:
    data = _mapping(value, path, None, required=("op",))
    name = _enum(data["op"], _key(path, "op"), tuple(OPERATIONS), "operation")
    fields = OPERATIONS[name]
    _mapping(data, path, ("op", *fields), required=fields)
    readers: dict[str, Callable[[Any, str], Any]] = {
        "of": _string,
        "value": _integer,
        "player": _string,
        "tag": _string,
        "keywords": _keyword_list(with_numbers=name == "gain_keywords"),
        "amount": lambda v, p: _integer(v, p, minimum=0),
        "max": _integer,
        "min": _integer,
    }
    return Operation(name, **{f: readers[f](data[f], _key(path, f)) for f in fields})


def _keyword_list(with_numbers: bool) -> Callable[[Any, str], tuple[Keyword, ...]]:
    def read(value: Any, path: str) -> tuple[Keyword, ...]:
        if isinstance(value, list) and not value:
            # An empty list would be an effect without an operation in the ASP facts.
            raise _Invalid(path, "expected at least one keyword")
        if with_numbers:
            return _items(value, path, _keyword)
        # Facts say which keyword is lost, not a number: a number here would be dropped.
        return _items(value, path, lambda v, p: Keyword(_keyword_name(v, p)))

    return read


def _read_target(value: Any, path: str) -> Target:
    if isinstance(value, str):
        if value in ("self", "bearer"):
            return Target(value)
        if value == "target":
            raise _Invalid(path, "'target' names the affected object in conditions only")
        forms = "'self', 'bearer', {\"ids\": [...]} or {\"filter\": {...}}"
        raise _Invalid(path, f"unknown target {_q(value)}; expected {forms}")
    if not isinstance(value, dict):
        raise _expected("'self', 'bearer' or an object", value, path)
    data = _mapping(value, path, ("ids", "filter"))
    if len(data) != 1:
        raise _Invalid(path, "expected exactly one of 'ids' or 'filter'")
    if "ids" in data:
        return Target("ids", ids=_items(data["ids"], _key(path, "ids"), _string))
    return Target("filter", filter=_read_filter(data["filter"], _key(path, "filter")))


def _read_filter(value: Any, path: str) -> Filter:
    data = _mapping(value, path, FILTER_KEYS, what="filter field")
    return Filter(
        card_type=_optional(data, "type", path, lambda v, p: _enum(v, p, CARD_TYPES, "type")),
        relation=_optional(data, "relation", path, lambda v, p: _enum(v, p, RELATIONS, "relation")),
        tag=_optional(data, "tag", path, _string),
        zone=_optional(data, "zone", path, lambda v, p: _enum(v, p, ZONES, "zone")),
        location=_optional(data, "location", path, _string),
        other=_optional(data, "other", path, _boolean, False),
    )


def _read_condition(value: Any, path: str) -> Condition:
    data = _mapping(value, path, None)
    kinds = [key for key in data if key in CONDITIONS]
    expected = f"expected one of {_one_of(tuple(CONDITIONS))}"
    if not kinds:
        others = [key for key in data if key != "of"]
        if others:
            raise _Invalid(path, f"unknown condition {_q(others[0])}; {expected}")
        raise _Invalid(path, f"missing the condition; {expected}")
    if len(kinds) > 1:
        raise _Invalid(path, f"a condition has one kind, got {_q(kinds[0])} and {_q(kinds[1])}")
    kind = kinds[0]
    if kind == "mighty":
        if "of" in data:
            raise _Invalid(_key(path, "of"), "'mighty' names its object itself: {\"mighty\": \"u1\"}")
        _mapping(data, path, ("mighty",))
        return Condition("mighty", of=_string(data["mighty"], _key(path, "mighty")))
    _mapping(data, path, (kind, "of"))
    parameter_path = _key(path, kind)
    parameter = {
        "status": lambda: _status(data[kind], parameter_path),
        "might_at_least": lambda: _integer(data[kind], parameter_path),
        "has_keyword": lambda: _keyword_name(data[kind], parameter_path),
        "controlled_by": lambda: _string(data[kind], parameter_path),
    }[kind]()
    return Condition(kind, of=_optional(data, "of", path, _string, "self"), **{CONDITIONS[kind]: parameter})


# ---- shape: ASP facts -> model ----------------------------------------------------------------

# Every predicate of the board vocabulary (riftasp/facts.py) and its arity.
_VOCABULARY = {
    "ruleset": 1, "setting": 2, "player": 1, "active_player": 1,
    "object": 1, "object_index": 2, "name": 2, "printed_type": 2, "owner": 2,
    "printed_controller": 2, "zone": 2, "location": 2, "printed_might": 2, "printed_tag": 2,
    "printed_keyword": 3, "status": 2, "since": 2, "buff": 2, "attached": 3, "might_bonus": 2,
    "text": 4, "ongoing": 2, "effect_controller": 2, "effect_source": 2, "effect_timestamp": 2,
    "effect_op": 2, "effect_target": 2, "effect_target_id": 2, "effect_filter": 2,
    "effect_condition": 2,
}  # fmt: skip
_OBJECT_FACTS = (
    "object_index", "name", "printed_type", "owner", "printed_controller", "zone", "since",
    "location", "printed_might", "buff", "attached", "might_bonus", "printed_tag",
    "printed_keyword", "status", "text",
)  # fmt: skip
_REQUIRED_OBJECT_FACTS = ("object_index", "name", "printed_type", "owner", "printed_controller", "zone", "since")
_SINGLE_OBJECT_FACTS = _REQUIRED_OBJECT_FACTS + ("location", "printed_might", "buff", "attached", "might_bonus")
_EFFECT_FACTS = (
    "effect_controller", "effect_source", "effect_timestamp", "effect_op", "effect_target",
    "effect_target_id", "effect_filter", "effect_condition",
)  # fmt: skip
_SINGLE_EFFECT_FACTS = ("effect_controller", "effect_source", "effect_timestamp", "effect_target")

# Argument kinds of operation, filter and condition terms: "str" a string, "int" an integer,
# "nat" an integer ≥ 0, "kw" a keyword name string, "ref" self/bearer/target or an object id,
# a tuple: one of these constants, "player": a player string or `you`.
_OP_TERMS: dict[str, tuple] = {
    "copy": ("str",), "set_might": ("int",), "increase_to": ("int",), "set_controller": ("str",),
    "add_tag": ("str",), "remove_tag": ("str",), "gain_keyword": ("kw", "nat"),
    "lose_keyword": ("kw",), "lose_all_abilities": (), "double": (), "plus": ("nat",),
    "minus": ("nat",), "plus_max": ("nat", "int"), "minus_min": ("nat", "int"),
}  # fmt: skip
_FILTER_TERMS: dict[str, tuple] = {
    "type": (CARD_TYPES,), "relation": (RELATIONS,), "tag": ("str",), "zone": (ZONES,),
    "location": ("str",), "other": (),
}  # fmt: skip
_CONDITION_TERMS: dict[str, tuple] = {
    "mighty": ("ref",), "status": ("ref", STATUSES), "might_at_least": ("ref", "int"),
    "has_keyword": ("ref", "kw"), "controlled_by": ("ref", "player"),
}  # fmt: skip
_CLINGO_LOCATION = re.compile(r"^[^:]*:(\d+):(\d+)(?:-[\d:]+)?: \w+: (.*)$")


# What a board file may hold outside strings and comments: printable ASCII and line breaks.
# Anything else is refused here, before clingo sees it: clingo reports an unexpected character
# byte by byte, and a message holding part of a UTF-8 character aborts the process.
_LP_PIECE = re.compile(r'"(?:[^"\\\n]|\\[\\"n])*"|%\*|%[^\n]*|[^"%]+|"')
_LP_FORBIDDEN = re.compile(r"[^\t\n\r\x20-\x7e]|#|(?<![A-Za-z0-9_'])[0-9]{10,}")
_LP_NESTING = re.compile(r"%\*|\*%")
_BAD_STRING = r'unterminated string or unknown escape (a string ends on its line; its escapes are \\, \" and \n)'
_DIRECTIVE = "directives (#include, #const, #show, #script, …) are not allowed in a board file"
# A plain fact: a predicate with arguments nested at most three deep (the vocabulary needs two)
# of numbers, strings, constants, functions and tuples. Possessive: a long bad line costs one
# pass, not a backtracking search.
_WS = r"[ \t\r\n]*+"
_NAME = r"(?!not\b)_*+[a-z][A-Za-z0-9_']*+"
_STRING = r'"(?:[^"\\\n]|\\[\\"n])*+"'


def _nested(inner: str) -> str:
    arguments = rf"{inner}(?:{_WS},{_WS}{inner})*+"
    # A tuple may end in a comma, as (1,) must; a function may not.
    return rf"(?>{_NAME}\({_WS}(?:{arguments})?{_WS}\)|\({_WS}(?:{arguments}{_WS},?)?{_WS}\)|{inner})"


_TERM = _nested(_nested(_nested(rf"(?>-{_WS}[0-9]++|[0-9]++|{_STRING}|{_NAME})")))
_PLAIN_FACT = re.compile(rf"{_WS}(?P<fact>{_NAME}(?:\({_WS}{_TERM}(?:{_WS},{_WS}{_TERM})*+{_WS}\))?){_WS}\.(?!\.)")
_BLANK = re.compile(_WS)
# One statement: up to a full stop that is not part of `..` (strings are whole, comments gone).
_STATEMENT = re.compile(rf'(?:{_STRING}|\.\.|\.(?={_WS}\[)|[^".])*+(?:\.|\Z)')  # `:~ b. [1]` is one
# A text with nothing for _data_only to do: strings, words, numbers of at most nine digits, and
# printable ASCII other than quotes, `#` and `%`.
_CLEAN = re.compile(rf"(?:{_STRING}|[A-Za-z_'][A-Za-z0-9_']*+|[0-9]{{1,9}}+(?![0-9])|[\t\n\r !$&(-/:-@\[-^`{{-~]++)*+")
_BATCH = 1000  # facts per call of the term builder
_PLAIN_TOKEN = re.compile(rf"({_NAME})(\()?|({_STRING})|(-{_WS}[0-9]++|[0-9]++)|(\()|(\))")
_BLANK_RUN = re.compile(r"[ \t\r\n]+")
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}


def _parse_facts(text: str, source: str) -> list[_Term]:
    """The facts of a `.lp` board, in the order they are written, each once.

    The file is data: nothing is grounded, and only ground facts are accepted (no variables,
    intervals, pools, arithmetic, directives, rules or constraints). Plain facts, the whole of
    a file `riftasp facts` wrote, take a fast path: a strict pattern finds them and `_plain_terms`
    builds them (clingo's Python symbol API costs tens of microseconds per fact, and a large
    board has millions). Any other statement is read alone by clingo's parser, which accepts it
    only if it is a ground fact (`_statement_fact`) and otherwise says what is wrong and where.
    """
    program = _data_only(text, source)
    lines = _Lines(program)
    facts: list[_Term] = []
    plain: list[tuple[int, int]] = []  # spans of plain facts not yet read
    position = 0
    while position < len(program):
        match = _PLAIN_FACT.match(program, position)
        if match is not None:
            plain.append(match.span("fact"))
            position = match.end()
            continue
        if _BLANK.fullmatch(program, position):
            break
        end = _STATEMENT.match(program, position).end()
        facts += _read_plain(program, plain)
        facts += _read_statements(program, position, end, lines, source)
        position = end
    facts += _read_plain(program, plain)
    return list(dict.fromkeys(facts))  # facts are a set; the first spelling sets the order


def _read_plain(program: str, spans: list[tuple[int, int]]) -> list[_Term]:
    """The plain facts at `spans`, a batch at a time (emptying `spans`)."""
    facts: list[_Term] = []
    for first in range(0, len(spans), _BATCH):
        facts += _plain_terms(",".join(program[start:end] for start, end in spans[first : first + _BATCH]))
    spans.clear()
    return facts


def _plain_terms(text: str) -> list[_Term]:
    """The terms in `text`, a comma-separated list that _PLAIN_FACT has checked (so well formed)."""
    stack: list[tuple[str, list[_Term]]] = []
    current: list[_Term] = []
    for name, call, string, number, opening, closing in _PLAIN_TOKEN.findall(text):
        if name:
            if call:
                stack.append((name, current))
                current = []
            else:
                current.append(_Term.function(name, ()))
        elif string:
            current.append(_Term.text(_unescape(string[1:-1])))
        elif number:
            current.append(_Term.integer(int(_BLANK_RUN.sub("", number))))
        elif opening:
            stack.append(("", current))
            current = []
        elif closing:
            name, parent = stack.pop()
            parent.append(_Term.function(name, tuple(current)))
            current = parent
    return current


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES[m[1]], text) if "\\" in text else text


class _Term:
    """A ground term read from a board file, with the parts of clingo.Symbol the reader uses
    (type, name, arguments, string, number, positive, str()) in plain Python."""

    __slots__ = ("type", "name", "arguments", "string", "number", "key")
    positive = True

    def __init__(self, kind: clingo.SymbolType, key: tuple, name: str = "", arguments: tuple = (),
                 string: str = "", number: int = 0) -> None:  # fmt: skip
        self.type, self.key = kind, key
        self.name, self.arguments, self.string, self.number = name, arguments, string, number

    @classmethod
    def function(cls, name: str, arguments: tuple[_Term, ...]) -> _Term:
        return cls(clingo.SymbolType.Function, (2, name, tuple(a.key for a in arguments)), name, arguments)

    @classmethod
    def text(cls, string: str) -> _Term:
        return cls(clingo.SymbolType.String, (1, string), string=string)

    @classmethod
    def integer(cls, number: int) -> _Term:
        return cls(clingo.SymbolType.Number, (0, number), number=number)

    @classmethod
    def of(cls, symbol: clingo.Symbol) -> _Term:
        """From clingo's symbol (facts its parser read; only Number, String and Function occur)."""
        if symbol.type == clingo.SymbolType.Number:
            return cls.integer(symbol.number)
        if symbol.type == clingo.SymbolType.String:
            return cls.text(symbol.string)
        return cls.function(symbol.name, tuple(cls.of(a) for a in symbol.arguments))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Term) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: _Term) -> bool:
        return self.key < other.key

    def __str__(self) -> str:
        """As clingo writes it: p("a",b,(1,))."""
        if self.type == clingo.SymbolType.Number:
            return str(self.number)
        if self.type == clingo.SymbolType.String:
            return quote(self.string)
        inner = ",".join(map(str, self.arguments))
        if not self.name:
            return f"({inner}{',' if len(self.arguments) == 1 else ''})"
        return f"{self.name}({inner})" if self.arguments else self.name


def _read_statements(program: str, start: int, end: int, lines: _Lines, source: str) -> list[_Term]:
    """The facts in `program[start:end]`, read by clingo's parser; the first problem is an error."""
    place = lines.place(start, end)
    messages: list[str] = []
    collect = _FactCollector(place)
    try:
        # The logger only appends: an exception raised inside a clingo callback aborts.
        clingo.ast.parse_string(place.piece, collect, logger=lambda _code, message: messages.append(message))
    except RuntimeError:
        raise _asp_error(messages, source, place) from None
    if collect.problem is not None:
        where, message = collect.problem
        raise BoardError(source, where, message)
    return [_Term.of(fact) for fact in collect.facts]


@dataclass(frozen=True)
class _Place:
    """Where a piece of the file starts; clingo's locations in the piece are relative to it
    (and count bytes, where the file's columns count characters)."""

    line: int
    column: int
    piece: str

    def where(self, line: int, column: int) -> str:
        text = self.piece.split("\n", line)[line - 1] if line <= self.piece.count("\n") + 1 else ""
        characters = len(text.encode()[: column - 1].decode(errors="ignore")) + 1 if text else column
        return f"line {self.line + line - 1} column {characters + (self.column - 1 if line == 1 else 0)}"


class _Lines:
    """Line and column of positions in a text, asked in increasing order (so counting is linear)."""

    def __init__(self, text: str) -> None:
        self.text, self.index, self.line = text, 0, 1

    def place(self, start: int, end: int) -> _Place:
        if start < self.index:
            self.index, self.line = 0, 1
        self.line += self.text.count("\n", self.index, start)
        self.index = start
        return _Place(self.line, start - (self.text.rfind("\n", 0, start) + 1) + 1, self.text[start:end])


def _data_only(text: str, source: str) -> str:
    """`text` with comments blanked (line breaks kept), after refusing what is never data:
    NUL, characters other than printable ASCII outside strings, `#` directives, unterminated
    strings and comments, and numbers beyond clingo's 32 bits (it would wrap them)."""
    if "\x00" not in text and _CLEAN.fullmatch(text):  # the usual file: no comments, nothing to refuse
        return text
    pieces: list[str] = []
    position = 0
    while position < len(text):
        match = _LP_PIECE.match(text, position)
        assert match is not None  # the last alternative matches any one character left
        piece = match.group()
        if piece == '"':
            raise _lp_error(text, position, source, _BAD_STRING)
        if piece == "%*":
            end = _block_comment_end(text, match.end())
            if end is None:
                raise _lp_error(text, position, source, "unterminated block comment %* … *%")
            pieces.append(re.sub(r"[^\n]", " ", text[position:end]))
            position = end
            continue
        if piece.startswith('"'):
            if "\x00" in piece:
                nul = position + piece.index("\x00")
                raise _lp_error(text, nul, source, "a string must not contain a NUL character")
        elif not piece.startswith("%"):
            _check_lp_text(text, position, piece, source)
        pieces.append("" if piece.startswith("%") else piece)
        position = match.end()
    return "".join(pieces)


def _check_lp_text(text: str, position: int, piece: str, source: str) -> None:
    bad = _LP_FORBIDDEN.search(piece)
    if bad is None:
        return
    found, where = bad.group(), position + bad.start()
    if found == "#":
        raise _lp_error(text, where, source, _DIRECTIVE)
    if found[0].isdigit():
        if int(found) > CLINGO_INT_MAX:
            raise _lp_error(text, where, source, f"number {shorten(found, 20)} is beyond clingo's 32-bit integers")
        _check_lp_text(text, where + len(found), piece[bad.end() :], source)
        return
    raise _lp_error(text, where, source, f"unexpected character {found!r} outside a string")


def _block_comment_end(text: str, position: int) -> int | None:
    """Where the block comment opened just before `position` ends (clingo nests them)."""
    depth = 1
    for match in _LP_NESTING.finditer(text, position):
        depth += 1 if match.group() == "%*" else -1
        if depth == 0:
            return match.end()
    return None


def _lp_error(text: str, index: int, source: str, message: str) -> BoardError:
    return BoardError(source, _text_position(text, index), message)


class _NotData(Exception):
    """A statement or term that is not a ground fact of data, at its place in the piece read."""

    def __init__(self, ast: Any, what: str) -> None:
        super().__init__(what)
        self.line, self.column = ast.location.begin.line, ast.location.begin.column
        self.message = f"{what} not allowed: a board file holds ground facts only"


class _FactCollector:
    """The parser's callback: keeps each fact as a symbol, and the first statement that is not one.

    It never raises: an exception inside a clingo callback would abort the process.
    """

    def __init__(self, place: _Place) -> None:
        self.place = place
        self.facts: list[clingo.Symbol] = []
        self.problem: tuple[str, str] | None = None

    def __call__(self, statement: clingo.ast.AST) -> None:
        if self.problem is not None:
            return
        try:
            fact = _statement_fact(statement)
        except _NotData as problem:
            self.problem = (self.place.where(problem.line, problem.column), problem.message)
        except RecursionError:
            begin = statement.location.begin
            self.problem = (self.place.where(begin.line, begin.column), "terms nested too deeply")
        except Exception as problem:  # noqa: BLE001 - see the docstring
            self.problem = ("file", f"cannot read the facts: {problem}")
        else:
            if fact is not None:
                self.facts.append(fact)


_T = clingo.ast.ASTType


def _statement_fact(statement: clingo.ast.AST) -> clingo.Symbol | None:
    kind = statement.ast_type
    if kind == _T.Comment:
        return None
    if kind == _T.Program and statement.location.begin == statement.location.end:
        return None  # the parser's own `#program base.` before the first statement
    if kind != _T.Rule:
        raise _NotData(statement, "directives and statements other than facts are")
    if statement.body:
        raise _NotData(statement, "rules (:-) are")
    head = statement.head
    if head.ast_type != _T.Literal:
        raise _NotData(statement, "choices, disjunctions and aggregates are")
    if head.atom.ast_type == _T.BooleanConstant:
        raise _NotData(statement, "constraints are")
    if head.sign != clingo.ast.Sign.NoSign:
        raise _NotData(statement, "negated facts (not) are")
    if head.atom.ast_type != _T.SymbolicAtom:
        raise _NotData(statement, "comparisons are")
    if head.atom.symbol.ast_type == _T.UnaryOperation:
        raise _NotData(statement, "classically negated facts (-p) are")
    return _ground_term(head.atom.symbol)


def _ground_term(term: clingo.ast.AST) -> clingo.Symbol:
    """A term written as a plain value: a number, a string, a constant, a function or tuple of
    these; a minus sign only before a number."""
    kind = term.ast_type
    if kind == _T.SymbolicTerm:
        symbol = term.symbol
        if symbol.type in (clingo.SymbolType.Infimum, clingo.SymbolType.Supremum):
            raise _NotData(term, "#inf and #sup are")
        return symbol
    if kind == _T.UnaryOperation:
        argument = term.argument
        is_number = argument.ast_type == _T.SymbolicTerm and argument.symbol.type == clingo.SymbolType.Number
        if term.operator_type != clingo.ast.UnaryOperator.Minus or not is_number:
            raise _NotData(term, "arithmetic, classical negation and signs other than a minus before a number are")
        return clingo.Number(-argument.symbol.number)
    if kind == _T.Function:
        if term.external:
            raise _NotData(term, "external functions (@f) are")
        return clingo.Function(term.name, [_ground_term(argument) for argument in term.arguments])
    what = {_T.Variable: "variables are", _T.Interval: "intervals (a..b) are", _T.Pool: "pools (a;b) are"}
    raise _NotData(term, what.get(kind, "arithmetic and other computed terms are"))


def _asp_error(messages: list[str], source: str, place: _Place) -> BoardError:
    lines = messages[0].splitlines() if messages else ["invalid ASP"]
    # Continuation lines carry the rule in question ("unsafe variables in:\n  p(X)."); notes
    # that point elsewhere in the text are left out.
    detail = [line.strip() for line in lines[1:] if line.strip() and not line.startswith("<")]
    first = " ".join([lines[0], *detail]).replace(":-[#inc_base]", "")  # clingo's internal body
    match = _CLINGO_LOCATION.match(first)
    if match is None:
        return BoardError(source, "file", f"invalid ASP: {first}")
    return BoardError(source, place.where(int(match[1]), int(match[2])), f"invalid ASP: {match[3]}")


def _board_from_atoms(atoms: list[clingo.Symbol]) -> Board:
    facts = _by_predicate(atoms)
    ruleset = _fact_ruleset(facts["ruleset"])
    settings = _fact_settings(facts["setting"])
    players = tuple(_arg(s, 0, "str", "a player") for s in facts["player"])
    active = _single(facts["active_player"], "active_player fact")
    effects = _fact_effects(facts)
    objects = _fact_objects(facts, effects, ruleset)
    return Board(
        players=players,
        active_player=_arg(active, 0, "str", "the active player") if active else None,
        objects=objects,
        effects=_fact_ongoing(facts["ongoing"], effects, len(objects)),
        ruleset=ruleset,
        settings=settings,
    )


def _by_predicate(atoms: list[clingo.Symbol]) -> dict[str, list[clingo.Symbol]]:
    facts: dict[str, list[clingo.Symbol]] = defaultdict(list)
    for sym in atoms:
        if sym.type != clingo.SymbolType.Function or not sym.positive or sym.name == "":
            raise _Invalid(str(sym), "not a fact of the board vocabulary (riftasp/facts.py)")
        if _VOCABULARY.get(sym.name) != len(sym.arguments):
            raise _Invalid(str(sym), f"unknown predicate {sym.name}/{len(sym.arguments)}; see riftasp/facts.py")
        facts[sym.name].append(sym)
    return facts


def _single(syms: list[clingo.Symbol], what: str) -> clingo.Symbol | None:
    if len(syms) > 1:
        raise _Invalid(str(syms[1]), f"a second {what}")
    return syms[0] if syms else None


def _arg(sym: clingo.Symbol, index: int, kind: Any, what: str) -> Any:
    """Argument `index` of a fact or term, checked to be of `kind` (see _OP_TERMS)."""
    arg = sym.arguments[index]
    is_string = arg.type == clingo.SymbolType.String
    is_number = arg.type == clingo.SymbolType.Number
    is_constant = arg.type == clingo.SymbolType.Function and not arg.arguments and arg.name != ""
    if kind in ("str", "kw"):
        if not is_string:
            raise _Invalid(str(sym), f"{what} must be a string, e.g. \"x\"")
        _check_fact_text(arg.string, sym, what, keyword=kind == "kw")
        return arg.string
    if kind in ("int", "nat"):
        if not is_number or (kind == "nat" and arg.number < 0):
            raise _Invalid(str(sym), f"{what} must be an integer{' ≥ 0' if kind == 'nat' else ''}")
        if abs(arg.number) > VALUE_MAX:
            limits = f"from {0 if kind == 'nat' else VALUE_MIN} to {VALUE_MAX}"
            raise _Invalid(str(sym), f"{what} must be {limits} (see Limits in docs/board-format.md)")
        return arg.number
    if kind in ("ref", "player"):
        constants = SYMBOLIC_REFS if kind == "ref" else RESERVED_PLAYERS
        if is_string:
            _check_fact_text(arg.string, sym, what)
            return arg.string
        if is_constant and arg.name in constants:
            return arg.name
        raise _Invalid(str(sym), f"{what} must be {' or '.join(constants)} or a string")
    if not is_constant or arg.name not in kind:
        raise _Invalid(str(sym), f"{what} must be one of {_one_of(kind)}")
    return arg.name


def _check_fact_text(text: str, sym: clingo.Symbol, what: str, keyword: bool = False) -> None:
    if not text:
        raise _Invalid(str(sym), f"{what} must not be empty")
    if "\x00" in text:  # clingo strings cannot hold NUL
        raise _Invalid(str(sym), f"{what} must not contain a NUL character")
    if keyword and not _KEYWORD_NAME.fullmatch(text):
        raise _Invalid(str(sym), f"invalid keyword name {_q(text)}")


def _fact_ruleset(syms: list[clingo.Symbol]) -> str:
    sym = _single(syms, "ruleset fact")
    if sym is None:
        return Board.ruleset
    return _arg(sym, 0, tuple(rulesets()), "the ruleset")


def _fact_settings(syms: list[clingo.Symbol]) -> Settings:
    values: dict[str, str] = {}
    for sym in syms:
        name = _arg(sym, 0, SETTINGS_KEYS, "the setting")
        if name in values:
            raise _Invalid(str(sym), f"a second value for setting {name}")
        values[name] = _arg(sym, 1, CONDITION_TIMINGS, "condition_timing")
    return Settings(**values)


# -- effects: declared by text/4 (an object's text) or ongoing/2 (the board's effects)


def _fact_effects(facts: dict[str, list[clingo.Symbol]]) -> dict[str, Effect]:
    """Every declared effect, decoded from its effect_* facts."""
    declarations = [(_arg(s, 1, "str", "the effect id"), s, False) for s in facts["text"]]
    declarations += [(_arg(s, 0, "str", "the effect id"), s, True) for s in facts["ongoing"]]
    per_effect: dict[str, dict[str, list[clingo.Symbol]]] = {e: defaultdict(list) for e, _, _ in declarations}
    for pred in _EFFECT_FACTS:
        for sym in facts[pred]:
            effect_id = _arg(sym, 0, "str", "the effect id")
            if effect_id not in per_effect:
                raise _Invalid(str(sym), f"unknown effect {_q(effect_id)} (declared by neither text/4 nor ongoing/2)")
            per_effect[effect_id][pred].append(sym)
    # An id declared twice decodes to one effect here; the reference checks report the duplicate.
    return {e: _fact_effect(e, decl, per_effect[e], ongoing) for e, decl, ongoing in declarations}


def _fact_effect(effect_id: str, decl: clingo.Symbol, own: dict[str, list[clingo.Symbol]], ongoing: bool) -> Effect:
    for pred in _SINGLE_EFFECT_FACTS:
        if len(own[pred]) > 1:  # the message only when needed: boards have millions of facts
            _single(own[pred], f"{pred} fact for effect {_q(effect_id)}")
    required = ("effect_op", "effect_target") + (("effect_controller", "effect_timestamp") if ongoing else ())
    for pred in required:
        if not own[pred]:
            raise _Invalid(str(decl), f"missing fact {pred}/2")
    if not ongoing:
        for pred in ("effect_controller", "effect_source"):
            if own[pred]:
                # Text belongs to the object holding it: that object is its controller and its self.
                raise _Invalid(str(own[pred][0]), "only ongoing effects have a controller or a source")

    def value(pred: str, kind: str, what: str) -> Any:
        return _arg(own[pred][0], 1, kind, what) if own[pred] else None

    return Effect(
        id=effect_id,
        op=_fact_op(own["effect_op"]),
        target=_fact_target(own),
        conditions=tuple(_fact_condition(s) for s in own["effect_condition"]),
        timestamp=value("effect_timestamp", "int", "the timestamp"),
        controller=value("effect_controller", "str", "the controller"),
        source=value("effect_source", "str", "the source"),
    )


def _check_term(fact: clingo.Symbol, term: clingo.Symbol, table: dict[str, tuple], what: str) -> None:
    kinds = table.get(term.name) if term.type == clingo.SymbolType.Function else None
    if kinds is None or len(kinds) != len(term.arguments):
        shapes = ", ".join(f"{name}/{len(args)}" for name, args in table.items())
        raise _Invalid(str(fact), f"unknown {what} {term}; expected one of {shapes}")
    for index, kind in enumerate(kinds):
        _arg(term, index, kind, f"argument {index + 1} of {term.name}")


def _fact_op(syms: list[clingo.Symbol]) -> Operation:
    terms = [s.arguments[1] for s in syms]
    for sym, term in zip(syms, terms):
        _check_term(sym, term, _OP_TERMS, "operation")
    names = {t.name for t in terms}
    # Keyword operations are one fact per keyword; anything else is a single fact.
    if len(terms) > 1 and names not in ({"gain_keyword"}, {"lose_keyword"}):
        message = "an effect has one operation (several facts only for gain_keyword or lose_keyword)"
        raise _Invalid(str(syms[1]), message)
    return decode_ops(terms)


def _fact_target(own: dict[str, list[clingo.Symbol]]) -> Target:
    sym = own["effect_target"][0]
    kind = _arg(sym, 1, ("self", "bearer", "ids", "filter"), "the target kind")
    for pred, needs in (("effect_target_id", "ids"), ("effect_filter", "filter")):
        if own[pred] and kind != needs:
            raise _Invalid(str(own[pred][0]), f"the effect's target is {kind}, not {needs}")
    ids = [_arg(s, 1, "str", "the object id") for s in own["effect_target_id"]]
    seen: set[str] = set()
    for fact in own["effect_filter"]:
        term = fact.arguments[1]
        _check_term(fact, term, _FILTER_TERMS, "filter")
        if term.name in seen:
            raise _Invalid(str(fact), f"a second filter on {term.name}")
        seen.add(term.name)
    return decode_target(kind, ids, [s.arguments[1] for s in own["effect_filter"]])


def _fact_condition(sym: clingo.Symbol) -> Condition:
    _check_term(sym, sym.arguments[1], _CONDITION_TERMS, "condition")
    return decode_condition(sym.arguments[1])


def _fact_ongoing(syms: list[clingo.Symbol], effects: dict[str, Effect], first_index: int) -> tuple[Effect, ...]:
    listed = sorted((_listing(s, 1), s) for s in syms)
    for position, (listing, sym) in enumerate(listed):
        _expect_listing(sym, listing, (first_index + position, 0, 0, 0))
    return tuple(effects[_arg(sym, 0, "str", "the effect id")] for _, sym in listed)


def _listing(sym: clingo.Symbol, index: int) -> tuple[int, ...]:
    arg = sym.arguments[index]
    parts = arg.arguments if arg.type == clingo.SymbolType.Function and arg.name == "" else []
    if len(parts) != 4 or any(p.type != clingo.SymbolType.Number for p in parts):
        raise _Invalid(str(sym), "the listing must be a tuple of four integers")
    return tuple(p.number for p in parts)


def _expect_listing(sym: clingo.Symbol, listing: tuple[int, ...], expected: tuple[int, ...]) -> None:
    # The listing breaks timestamp ties; it must be what `board_facts` writes for this board
    # order, or reading the facts into a board would change which effect wins a tie.
    if listing != expected:
        shown = "(" + ",".join(map(str, expected)) + ")"
        raise _Invalid(str(sym), f"the listing should be {shown}, from the board order (see riftasp/facts.py)")


# -- objects


def _fact_objects(
    facts: dict[str, list[clingo.Symbol]], effects: dict[str, Effect], ruleset: str
) -> tuple[GameObject, ...]:
    declared = [_arg(s, 0, "str", "an object id") for s in facts["object"]]
    per_object: dict[str, dict[str, list[clingo.Symbol]]] = {o: defaultdict(list) for o in declared}
    for pred in _OBJECT_FACTS:
        for sym in facts[pred]:
            object_id = _arg(sym, 0, "str", "the object id")
            if object_id not in per_object:
                raise _Invalid(str(sym), f"unknown object {_q(object_id)} (no object({quote(object_id)}) fact)")
            per_object[object_id][pred].append(sym)
    for object_id, own in per_object.items():
        for pred in _SINGLE_OBJECT_FACTS:
            if len(own[pred]) > 1:
                _single(own[pred], f"{pred} fact for object {_q(object_id)}")
        for pred in _REQUIRED_OBJECT_FACTS:
            if not own[pred]:
                raise _Invalid(f"object({quote(object_id)})", f"missing fact {pred}/{_VOCABULARY[pred]}")
    cards = library(ruleset)
    return tuple(
        _recognise_card(_fact_object(object_id, per_object[object_id], index, effects), cards)
        for index, object_id in enumerate(_object_order(per_object))
    )


def _object_order(per_object: dict[str, dict[str, list[clingo.Symbol]]]) -> list[str]:
    """Object ids by object_index, which must number them 0..n-1 (the board order)."""
    indexed = sorted(
        (_arg(own["object_index"][0], 1, "int", "the index"), str(own["object_index"][0]), object_id)
        for object_id, own in per_object.items()
    )
    for position, (index, fact, _) in enumerate(indexed):
        if index != position:
            raise _Invalid(fact, f"object indices must number the objects 0..{len(indexed) - 1}, each once")
    return [object_id for _, _, object_id in indexed]


def _fact_object(
    object_id: str, own: dict[str, list[clingo.Symbol]], index: int, effects: dict[str, Effect]
) -> GameObject:
    def value(pred: str, kind: Any, what: str, position: int = 1) -> Any:
        return _arg(own[pred][0], position, kind, what) if own[pred] else None

    since = value("since", "int", "since")
    buff_since = value("buff", "int", "the buff timestamp")
    attached_since = value("attached", "int", "the attachment timestamp", position=2)
    return GameObject(
        id=object_id,
        name=value("name", "str", "the name"),
        card_type=value("printed_type", CARD_TYPES, "the type"),
        owner=value("owner", "str", "the owner"),
        controller=value("printed_controller", "str", "the controller"),
        zone=value("zone", ZONES, "the zone"),
        since=since,
        might=value("printed_might", "int", "Might"),
        tags=tuple(_arg(s, 1, "str", "a tag") for s in own["printed_tag"]),
        keywords=tuple(_fact_keyword(s) for s in own["printed_keyword"]),
        status=tuple(_arg(s, 1, STATUSES, "the status") for s in own["status"]),
        location=value("location", "str", "the location"),
        attached_to=value("attached", "str", "the bearer"),
        # The same canonical spelling as the JSON reader: a default stamp is None.
        attached_since=None if attached_since == since else attached_since,
        buffed=bool(own["buff"]),
        buff_since=None if buff_since == since else buff_since,
        might_bonus=value("might_bonus", "int", "the Might Bonus"),
        rules_text=_fact_text(own["text"], index, "rules", effects),
        effect_text=_fact_text(own["text"], index, "effect", effects),
    )


def _fact_keyword(sym: clingo.Symbol) -> Keyword:
    name = _arg(sym, 1, "kw", "the keyword")
    number = _arg(sym, 2, "nat", "the keyword's number")
    return Keyword(name, number or None)


def _fact_text(syms: list[clingo.Symbol], index: int, part: str, effects: dict[str, Effect]) -> tuple[Effect, ...]:
    """One part of an object's text, in listing order."""
    mine = [s for s in syms if _arg(s, 2, TEXT_PARTS, "the text part") == part]
    listed = sorted((_listing(s, 3), s) for s in mine)
    for position, (listing, sym) in enumerate(listed):
        _expect_listing(sym, listing, (index, TEXT_PART[part], position, 0))
    return tuple(effects[_arg(sym, 1, "str", "the effect id")] for _, sym in listed)


def _recognise_card(obj: GameObject, cards: dict[str, CardDef]) -> GameObject:
    """`card` for an object that is exactly a library card.

    Facts do not say an object came from a card; an object whose printed fields and text are
    exactly those the card gives (with its effect ids `<object>.<key>`) is read as that card,
    so a board read from JSON comes back equal from its facts.
    """
    card = cards.get(obj.name)
    if card is not None and _with_card(obj, card) == replace(obj, card=card.name):
        return replace(obj, card=card.name)
    return obj



# ---- references: checks on the model, for every format ----------------------------------------


class _JsonPaths:
    """Where things are in a JSON/YAML board."""

    def player(self, index: int, player: str) -> str:
        return f"players[{index}]"

    def object(self, index: int, obj: GameObject) -> str:
        return f"objects[{index}]"

    def text(self, index: int, obj: GameObject, part: str, position: int, effect: Effect) -> str:
        return f"objects[{index}].{TEXT_KEYS[part]}[{position}]"

    def ongoing(self, position: int, effect: Effect) -> str:
        return f"effects[{position}]"


class _FactPaths:
    """Where things are in an ASP board: the fact that declares them."""

    def player(self, index: int, player: str) -> str:
        return f"player({quote(player)})"

    def object(self, index: int, obj: GameObject) -> str:
        return f"object({quote(obj.id)})"

    def text(self, index: int, obj: GameObject, part: str, position: int, effect: Effect) -> str:
        return f"text({quote(obj.id)},{quote(effect.id)},{part})"

    def ongoing(self, position: int, effect: Effect) -> str:
        return f"ongoing({quote(effect.id)})"


@dataclass(frozen=True)
class _Placed:
    """An effect and where it stands: "rules", "effect" (Effect Text) or "ongoing"."""

    effect: Effect
    path: str
    context: str


@dataclass(frozen=True)
class _Names:
    """The ids a board defines, for reference checks."""

    players: tuple[str, ...]
    objects: dict[str, GameObject]
    player_set: frozenset[str] = frozenset()  # the players again, for look-ups

    def player(self, player: str, path: str, allow_you: bool = False) -> None:
        if allow_you and player == "you":
            return
        if player not in self.player_set:
            known = ", ".join(_q(p) for p in self.players[:LISTED_NAMES])
            more = len(self.players) - LISTED_NAMES
            known += f" and {more:,} more" if more > 0 else ""
            suffix = f"; players are {known}" if known else "; the board has no players"
            raise _Invalid(path, f"unknown player {_q(player)}{suffix}")

    def object(self, object_id: str, path: str) -> GameObject:
        if object_id not in self.objects:
            raise _Invalid(path, f"unknown object {_q(object_id)}")
        return self.objects[object_id]


def _check_board(board: Board, paths: _JsonPaths | _FactPaths) -> None:
    _check_players(board, paths)
    objects = _check_object_ids(board, paths)
    names = _Names(board.players, objects, frozenset(board.players))
    if board.active_player is not None:
        names.player(board.active_player, "active_player")
    rules = keyword_rules(board.ruleset)
    for index, obj in enumerate(board.objects):
        _check_object(index, obj, names, paths.object(index, obj))
        _check_keyword_numbers(obj.keywords, _key(paths.object(index, obj), "keywords"), rules)
    placed = list(_placed_effects(board, paths))
    _check_effect_ids(placed)
    for entry in placed:
        _check_effect(entry, names)
        _check_keyword_numbers(entry.effect.op.keywords, _key(_key(entry.path, "op"), "keywords"), rules)
    _check_reach(board, paths)


def _check_players(board: Board, paths: _JsonPaths | _FactPaths) -> None:
    seen: set[str] = set()
    for index, player in enumerate(board.players):
        path = paths.player(index, player)
        if player in RESERVED_PLAYERS:
            raise _Invalid(path, f"{_q(player)} is reserved: conditions use it for the effect's controller")
        if player in seen:
            raise _Invalid(path, f"duplicate player {_q(player)}")
        seen.add(player)


def _check_object_ids(board: Board, paths: _JsonPaths | _FactPaths) -> dict[str, GameObject]:
    objects: dict[str, GameObject] = {}
    for index, obj in enumerate(board.objects):
        path = _key(paths.object(index, obj), "id")
        if obj.id in SYMBOLIC_REFS:
            raise _Invalid(path, f"{_q(obj.id)} is reserved: effects use it to refer to an object")
        _check_id_characters(obj.id, path)
        if obj.id in objects:
            raise _Invalid(path, f"duplicate object id {_q(obj.id)}")
        objects[obj.id] = obj
    return objects


def _check_id_characters(identifier: str, path: str) -> None:
    for char in RESERVED_ID_CHARACTERS:
        if char in identifier:
            raise _Invalid(
                path, f"{_q(char)} is reserved in ids: riftasp names instances buff:<id>, bonus:<gear>, "
                f"keyword:<K>:<id> and <effect>@<holder> (got {_q(identifier)})",
            )


def _check_object(index: int, obj: GameObject, names: _Names, path: str) -> None:
    names.player(obj.owner, _key(path, "owner"))
    names.player(obj.controller, _key(path, "controller"))
    _check_unique(obj.tags, _key(path, "tags"), "tag")
    # A keyword is named once: "Shield 2" and "Shield 1" in one list would leave the total to
    # the order of the list (docs/semantics.md §3); write "Shield 3".
    _check_unique(tuple(k.name for k in obj.keywords), _key(path, "keywords"), "keyword")
    _check_unique(obj.status, _key(path, "status"), "status")
    if set(STATUSES) <= set(obj.status):
        raise _Invalid(_key(path, "status"), f"{_q(obj.id)} cannot be attacking and defending at once")
    if obj.buff_since is not None and not obj.buffed:
        raise _Invalid(_key(path, "buff_since"), "given without \"buff\": true")
    _check_gear_fields(obj, path)
    if obj.attached_since is not None and obj.attached_to is None:
        raise _Invalid(_key(path, "attached_since"), "given without 'attached_to'")
    if obj.attached_to is not None:
        _check_attachment(obj, names.object(obj.attached_to, _key(path, "attached_to")), _key(path, "attached_to"))


def _check_gear_fields(obj: GameObject, path: str) -> None:
    """Effect Text and a Might Bonus act through an attachment: only gear has them."""
    if obj.card_type == "gear":
        return
    for key, given in (("effect_text", obj.effect_text), ("might_bonus", obj.might_bonus is not None)):
        if given:
            raise _Invalid(_key(path, key), f"only gear has {key}; {_q(obj.id)} is a {obj.card_type}")


def _check_attachment(obj: GameObject, bearer: GameObject, where: str) -> None:
    """Gear is attached, to a unit, both on the board (so no attachment chains or cycles)."""
    if bearer.id == obj.id:
        raise _Invalid(where, f"an object cannot be attached to itself ({_q(obj.id)})")
    if obj.card_type != "gear":
        raise _Invalid(where, f"only gear is attached; {_q(obj.id)} is a {obj.card_type}")
    if bearer.card_type not in BEARER_TYPES:
        raise _Invalid(where, f"gear is attached to a unit; {_q(bearer.id)} is a {bearer.card_type}")
    if not obj.on_board:
        raise _Invalid(where, f"{_q(obj.id)} is in {obj.zone}; only objects on the board are attached")
    if not bearer.on_board:
        raise _Invalid(where, f"{_q(bearer.id)} is not on the board (it is in {bearer.zone})")


def _check_keyword_numbers(keywords: Sequence[Keyword], path: str, rules: KeywordRules) -> None:
    # Only summing keywords carry a number (docs/semantics.md §3): "Ganking 2" means nothing.
    for index, keyword in enumerate(keywords):
        if keyword.value is not None and not rules.sums(keyword.name):
            summing = ", ".join(sorted(rules.summing))
            raise _Invalid(
                _item(path, index),
                f"{_q(keyword.name)} does not add up, so it takes no number (only {summing} do)",
            )


def _check_unique(values: Sequence[Any], path: str, what: str) -> None:
    # Facts are sets: a repeated value would vanish on the way to the solver.
    seen: set[Any] = set()
    for index, value in enumerate(values):
        if value in seen:
            shown = f" {_q(value)}" if isinstance(value, str) else ""
            raise _Invalid(_item(path, index), f"duplicate {what}{shown}")
        seen.add(value)


def _placed_effects(board: Board, paths: _JsonPaths | _FactPaths) -> Iterator[_Placed]:
    for index, obj in enumerate(board.objects):
        for part, effects in (("rules", obj.rules_text), ("effect", obj.effect_text)):
            for position, effect in enumerate(effects):
                yield _Placed(effect, paths.text(index, obj, part, position, effect), part)
    for position, effect in enumerate(board.effects):
        yield _Placed(effect, paths.ongoing(position, effect), "ongoing")


def _check_effect_ids(placed: list[_Placed]) -> None:
    # Effect ids are global: results and dependencies name effects by id alone.
    first: dict[str, str] = {}
    for entry in placed:
        _check_id_characters(entry.effect.id, _key(entry.path, "id"))
        if entry.effect.id in first:
            raise _Invalid(
                _key(entry.path, "id"), f"duplicate effect id {_q(entry.effect.id)} (also {first[entry.effect.id]})"
            )
        first[entry.effect.id] = entry.path


def _check_effect(entry: _Placed, names: _Names) -> None:
    effect, path = entry.effect, entry.path
    if entry.context == "ongoing":
        for key in ("timestamp", "controller"):
            if getattr(effect, key) is None:
                raise _Invalid(path, f"missing required field {_q(key)}")
        names.player(effect.controller, _key(path, "controller"))
        if effect.source is not None:
            names.object(effect.source, _key(path, "source"))
    else:
        for key in ("controller", "source"):
            if getattr(effect, key) is not None:
                raise _Invalid(_key(path, key), f"only ongoing effects (the board's 'effects') have a {key}")
    _check_op(effect.op, _key(path, "op"), names)
    _check_target(entry, names)
    _check_unique(effect.conditions, _key(path, "conditions"), "condition")
    for index, condition in enumerate(effect.conditions):
        _check_condition(condition, _item(_key(path, "conditions"), index), entry, names)


def _check_op(op: Operation, path: str, names: _Names) -> None:
    if op.name == "copy":
        names.object(op.of, _key(path, "of"))
    if op.name == "set_controller":
        names.player(op.player, _key(path, "player"))
    _check_unique(tuple(k.name for k in op.keywords), _key(path, "keywords"), "keyword")


def _check_target(entry: _Placed, names: _Names) -> None:
    target, path = entry.effect.target, _key(entry.path, "target")
    if target.kind in ("self", "bearer"):
        _check_ref(target.kind, path, entry, names)
    ids_path = _key(path, "ids")
    _check_unique(target.ids, ids_path, "id")
    for index, object_id in enumerate(target.ids):
        names.object(object_id, _item(ids_path, index))


def _check_condition(condition: Condition, path: str, entry: _Placed, names: _Names) -> None:
    _check_ref(condition.of, _key(path, "mighty" if condition.kind == "mighty" else "of"), entry, names)
    if condition.kind == "controlled_by":
        names.player(condition.player, _key(path, "controlled_by"), allow_you=True)


def _check_ref(ref: str, path: str, entry: _Placed, names: _Names) -> None:
    """`self` is the holder (ongoing: the source), `bearer` exists in Effect Text only."""
    if ref == "bearer" and entry.context != "effect":
        raise _Invalid(path, "'bearer' is only meaningful in Effect Text (effect_text)")
    if ref == "self" and entry.context == "ongoing" and entry.effect.source is None:
        raise _Invalid(path, "'self' in an ongoing effect needs the effect's 'source'")
    if ref not in SYMBOLIC_REFS:
        names.object(ref, path)


# ---- model -> JSON data ------------------------------------------------------------------------


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board as JSON data that `board_from_dict` reads back equal (modulo `source`)."""
    data: dict[str, Any] = {"ruleset": board.ruleset}
    if board.settings != Settings():
        data["settings"] = {"condition_timing": board.settings.condition_timing}
    data["players"] = list(board.players)
    if board.active_player is not None:
        data["active_player"] = board.active_player
    data["objects"] = [_object_to_dict(obj) for obj in board.objects]
    if board.effects:
        data["effects"] = [_effect_to_dict(e, "ongoing") for e in board.effects]
    return data


def _object_to_dict(obj: GameObject) -> dict[str, Any]:
    data: dict[str, Any] = {"id": obj.id}
    if obj.card is not None:
        data["card"] = obj.card
    else:
        data |= {"name": obj.name, "type": obj.card_type}
    data |= {"owner": obj.owner, "controller": obj.controller, "zone": obj.zone}
    optional = {
        "location": obj.location,
        "status": list(obj.status) or None,
        "since": obj.since or None,
        "buff": obj.buffed or None,
        "buff_since": obj.buff_since,
        "attached_to": obj.attached_to,
        "attached_since": obj.attached_since,
    }
    if obj.card is None:
        optional |= {
            "might": obj.might,
            "tags": list(obj.tags) or None,
            "keywords": [str(k) for k in obj.keywords] or None,
            "might_bonus": obj.might_bonus,
            "rules_text": [_effect_to_dict(e, "rules") for e in obj.rules_text] or None,
            "effect_text": [_effect_to_dict(e, "effect") for e in obj.effect_text] or None,
        }
    return data | {key: value for key, value in optional.items() if value is not None}


def _effect_to_dict(effect: Effect, context: str) -> dict[str, Any]:
    data: dict[str, Any] = {"id": effect.id, "op": _op_to_dict(effect.op)}
    if context == "ongoing" or effect.target != Target(DEFAULT_TARGET[context]):
        data["target"] = _target_to_dict(effect.target)
    if effect.conditions:
        data["conditions"] = [_condition_to_dict(c) for c in effect.conditions]
    for key in ("timestamp", "controller", "source"):
        if getattr(effect, key) is not None:
            data[key] = getattr(effect, key)
    return data


def _op_to_dict(op: Operation) -> dict[str, Any]:
    data: dict[str, Any] = {"op": op.name}
    for field_name in OPERATIONS[op.name]:
        value = getattr(op, field_name)
        data[field_name] = [str(k) for k in value] if field_name == "keywords" else value
    return data


def _target_to_dict(target: Target) -> Any:
    if target.kind in ("self", "bearer"):
        return target.kind
    if target.kind == "ids":
        return {"ids": list(target.ids)}
    f = target.filter or Filter()
    fields = {"type": f.card_type, "relation": f.relation, "tag": f.tag, "zone": f.zone, "location": f.location}
    data = {key: value for key, value in fields.items() if value is not None}
    return {"filter": data | ({"other": True} if f.other else {})}


def _condition_to_dict(condition: Condition) -> dict[str, Any]:
    if condition.kind == "mighty":
        return {"mighty": condition.of}
    parameter = getattr(condition, CONDITIONS[condition.kind])
    data: dict[str, Any] = {condition.kind: parameter}
    return data if condition.of == "self" else data | {"of": condition.of}


def _check_reach(board: Board, paths: _JsonPaths | _FactPaths) -> None:
    """Refuse a board whose arithmetic could leave clingo's 32-bit integers (limits.py)."""
    reach = might_reach(board)
    if reach is None or max(reach.might, reach.keywords) <= REACH_MAX:
        return
    obj = board.objects[reach.object_index]
    what, value = ("Might", reach.might) if reach.might > REACH_MAX else ("keyword total", reach.keywords)
    shown = f"{value:,}" if value < 10**30 else "beyond 10^30"
    raise _Invalid(
        paths.object(reach.object_index, obj),
        f"the effects that can apply to {_q(obj.id)} could take its {what} to {shown}, beyond "
        f"{REACH_MAX:,} (see Limits in docs/board-format.md)",
    )
