"""What an engine's answer must be before riftasp uses it (docs/crosscheck.md, the protocol's
*Output*): UTF-8 bytes, JSON within bounds, every field riftasp reads or passes on in the
contract's shape, and exactly the board's objects. Anything else is an `EngineError` of one line;
`{"unsupported": reason}` is `Unsupported`.

riftasp/engines.py runs the engines; this module only judges what they gave back.
"""

from __future__ import annotations

import json
import math
import reprlib
import sys
from collections.abc import Callable
from typing import Any

from .check.contract import ContractError, _is_int, _need, _row, _str_list
from .model import Board
from .present import printable, shorten
from .rulesets import Ruleset

MAX_ANSWER = 64 * 1024 * 1024  # bytes of one answer; a board's answer is kilobytes, so more is a runaway engine
MAX_DEPTH = 64  # levels of nesting in an answer; the contract itself needs seven
INT_BOUND = 2**63  # no characteristic is this large: such a number is an overflow or garbage, not a value
_SHOWN = 120  # characters of an engine's text quoted in an error

# Values quoted in errors: a few items of a list, the start of a string, never the whole of a
# 64 MiB answer.
_QUOTE = reprlib.Repr()
_QUOTE.maxstring, _QUOTE.maxother, _QUOTE.maxlong, _QUOTE.maxlevel = _SHOWN // 2, _SHOWN // 2, 40, 3

Bad = Callable[[str, str], "EngineError"]


class EngineError(Exception):
    """An engine failed or broke the protocol; str() is one line with nothing a terminal acts on."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(" ".join(message.split())))


class Unsupported(Exception):
    """The engine cannot represent this board: `{"unsupported": reason}` (or raised by a callable).

    Not a failure: crosscheck and fuzz skip the board and count it under its reason."""

    def __init__(self, reason: str) -> None:
        self.reason = shorten(printable(" ".join(str(reason)[: _SHOWN * 4].split())), _SHOWN) or "unsupported"
        super().__init__(self.reason)


def size_text(size: int) -> str:
    return f"{size / 2**20:g} MiB" if size >= 2**20 else f"{size} bytes"


def quote(value: Any) -> str:
    """A value as an error shows it: its repr, cut short."""
    return _QUOTE.repr(value)


def decode_answer(data: bytes, name: str, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise EngineError(f"engine {name} on {source}: output is not UTF-8 at byte {err.start}") from None


class _NotJson(ValueError):
    """NaN and Infinity: Python's json reads them, JSON has no such numbers."""


def _no_constant(word: str) -> Any:
    raise _NotJson(f"has {word}, which is not a JSON number")


def parse_result(text: str, name: str, board: str) -> Any:
    """The JSON of an answer; JSON the decoder cannot take (too deep, numbers too long) is an
    EngineError too, never the decoder's own exception."""
    if not text.strip():
        raise EngineError(f"engine {name} on {board}: output is empty")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        shown = shorten(text.strip()[: _SHOWN + 1], _SHOWN)
        raise EngineError(f"engine {name} wrote invalid JSON on {board} ({err.msg}): {shown!r}") from None
    except RecursionError:
        raise EngineError(f"engine {name} on {board}: output is JSON nested too deeply to read") from None
    except _NotJson as err:
        raise EngineError(f"engine {name} on {board}: output {err}") from None
    except ValueError as err:
        # Python refuses to read integers of more than sys.get_int_max_str_digits() digits.
        if "integer string conversion" in str(err):
            limit = sys.get_int_max_str_digits()
            raise EngineError(f"engine {name} on {board}: output has an integer of more than {limit} digits") from None
        raise EngineError(f"engine {name} on {board}: output is not readable JSON ({shorten(str(err), _SHOWN)})") from None


def check_refusal(result: Any, answer_key: str, name: str, source: str,
                  bad: Bad) -> None:
    """An engine's refusal instead of an answer (no `answer_key`): its reported error as an
    EngineError, its `unsupported` reason as Unsupported."""
    if isinstance(result, dict) and answer_key not in result:
        if "error" in result:
            raise EngineError(f"engine {name} reported an error on {source}: {_message(result['error'])}")
        if "unsupported" in result:
            reason = result["unsupported"]
            if not isinstance(reason, str) or not reason.strip():
                raise bad("unsupported", f"expected a reason (a non-empty string), got {quote(reason)}")
            raise Unsupported(reason)


def check_result(result: Any, name: str, board: Board) -> dict[str, Any]:
    """The result if it is an answer for `board` in the contract's shape: every compared
    characteristic of its ruleset for exactly the board's objects, and every other field of the
    contract that is present in its shape (a checker reads them)."""

    def bad(where: str, message: str) -> EngineError:
        return EngineError(f"engine {name} on {board.source}: output {where}: {message}")

    _check_values(result, bad)
    check_refusal(result, "objects", name, board.source, bad)
    if not isinstance(result, dict):
        raise bad("top level", f"expected an object, got {_kind(result)}")
    objects = result.get("objects")
    if not isinstance(objects, dict):
        raise bad("objects", "missing" if objects is None else f"expected an object, got {_kind(objects)}")
    for oid, chars in objects.items():
        _check_object(chars, f"objects.{shorten(oid, 40)}", board.ruleset, bad)
    _check_ids(objects, board, f"engine {name} on {board.source}: answer")
    try:
        _check_reports(result, {obj.id for obj in board.objects})
    except ContractError as err:
        raise bad(err.where, err.message) from None
    return result


def _message(value: Any) -> str:
    """An `{"error"}` answer's message, whatever it is, short enough for one line."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return shorten(" ".join(text[: _SHOWN * 4].split()), _SHOWN) or "(no message)"


def _check_values(value: Any, bad: Bad) -> None:
    """Every value is JSON (a callable's result may hold anything) with string keys, no deeper
    than MAX_DEPTH (so a cycle stops too) and no integer of INT_BOUND or more."""
    stack: list[tuple[Any, tuple[Any, ...], int]] = [(value, (), 1)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise bad(_where(path), f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    raise bad(_where(path), f"key {quote(key)} is not a string")
                stack.append((child, (path, key), depth + 1))
        elif isinstance(item, (list, tuple)):
            stack.extend((child, (path, i), depth + 1) for i, child in enumerate(item))
        elif isinstance(item, bool) or item is None or isinstance(item, str):
            pass
        elif isinstance(item, int):
            if abs(item) >= INT_BOUND:
                shown = str(item) if item.bit_length() <= 128 else f"of {item.bit_length()} bits"
                raise bad(_where(path), f"integer {shown} is out of range (at most 2**63 - 1 either side of 0)")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise bad(_where(path), f"{item} is not a JSON number")
        else:
            raise bad(_where(path), f"{type(item).__name__} is not a JSON value")


def _where(path: tuple[Any, ...]) -> str:
    """`objects.u1.tags[0]` from the (parent, key) chain `_check_values` keeps."""
    parts: list[str] = []
    while path:
        path, key = path
        parts.append(f"[{key}]" if isinstance(key, int) else f".{shorten(key, 40)}")
    return shorten("".join(reversed(parts)).lstrip("."), _SHOWN) or "top level"


def _check_object(chars: Any, where: str, ruleset: Ruleset, bad: Bad) -> None:
    """One object's entry: the compared fields are needed, the others checked where present."""
    if not isinstance(chars, dict):
        raise bad(where, f"expected an object, got {_kind(chars)}")
    for key, required, ok, expected in _checks(ruleset):
        if key not in chars or (chars[key] is None and key in _NULLABLE):
            if required:
                raise bad(where, f"missing field {key!r}")
            continue
        if not ok(chars[key]):
            raise bad(f"{where}.{key}", f"expected {expected}, got {quote(chars[key])}")


def _check_ids(objects: dict[str, Any], board: Board, prefix: str) -> None:
    """Exactly the board's objects: a stranger or a gap is an answer to some other board."""
    ids = [obj.id for obj in board.objects]
    known = set(ids)
    for oid in objects:
        if oid not in known:
            raise EngineError(f"{prefix} names object {shorten(oid, 40)!r} which is not on the board")
    for oid in ids:
        if oid not in objects:
            raise EngineError(f"{prefix} has no entry for object {oid!r}")


def _check_reports(result: dict[str, Any], known: set[str]) -> None:
    """The contract's other fields (Resolution.to_json), where present and not null: what the
    invariant checkers (riftasp/check/) read, in the shape they read."""
    for key in ("ruleset", "engine"):
        if result.get(key) is not None:
            _need(isinstance(result[key], str), key, "a string", result[key])
    applied = _mapping(result, "applied", known, "an object of id: applications")
    for oid, rows in applied.items():
        _need(isinstance(rows, list), f"applied.{oid}", "a list of applications", rows)
        for i, row in enumerate(rows):
            _row(oid, i, row, f"applied.{oid}[{i}]")
    for key in ("dependency_cycles", "object_loops", "timestamp_ties", "paradoxes"):
        groups = _given(result, key, [])
        _need(isinstance(groups, list), key, "a list of lists of strings", groups)
        for i, group in enumerate(groups):
            _str_list(group, f"{key}[{i}]")
    for key, ids in (("withdrawn", known), ("needs", None)):
        for oid, names in _mapping(result, key, ids, "an object of id: list of strings").items():
            _str_list(names, f"{key}.{oid}")
    withdrawals = _given(result, "withdrawals", [])
    _need(isinstance(withdrawals, list), "withdrawals", "a list of withdrawals", withdrawals)
    for i, withdrawal in enumerate(withdrawals):
        _withdrawal(withdrawal, f"withdrawals[{i}]")


def _mapping(result: dict[str, Any], key: str, known: set[str] | None, what: str) -> dict[str, Any]:
    """result[key] as id -> something, its ids all on the board when `known` is given."""
    value = _given(result, key, {})
    _need(isinstance(value, dict), key, what, value)
    for oid in value:
        if known is not None and oid not in known:
            raise ContractError(f"{key}.{oid}", "not an object of this board")
    return value


def _given(result: dict[str, Any], key: str, empty: Any) -> Any:
    """result[key]; `empty` when it is left out or null (as the checkers read it)."""
    value = result.get(key)
    return empty if value is None else value


def _withdrawal(data: Any, where: str) -> None:
    _need(isinstance(data, dict), where, "an object", data)
    for key in ("object", "effect", "round", "failed", "because"):
        if key not in data:
            raise ContractError(where, f"missing field '{key}'")
    for key in ("object", "effect"):
        _need(isinstance(data[key], str), f"{where}.{key}", "a string", data[key])
    _need(_is_int(data["round"]), f"{where}.round", "an integer", data["round"])
    for key in ("failed", "because"):
        _str_list(data[key], f"{where}.{key}")


# What each kind of output field (specs.OUTPUT_KINDS) holds, and how an error says it.
_KIND_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "value": (lambda v: v is None or isinstance(v, str), "a string or null"),
    "number": (lambda v: v is None or _is_int(v), "an integer or null"),
    "flag": (lambda v: isinstance(v, bool), "true or false"),
    "set": (lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v), "a list of strings"),
}
# Core fields the checkers take as absent when null (riftasp/rulesets/*/check/view.py).
_NULLABLE = frozenset({"zone", "abilities"})
# The core fields every ruleset reports (Characteristics.to_json); keywords are compared.
_CORE_CHECKS: list[tuple[str, bool, Callable[[Any], bool], str]] = [
    ("keywords", True, lambda v: isinstance(v, dict) and all(_is_int(n) for n in v.values()),
     "an object of keyword -> integer"),
    ("zone", False, lambda v: isinstance(v, str), "a string"),
    ("abilities", False, _KIND_CHECKS["set"][0], "a list of strings"),
]  # fmt: skip


def _checks(ruleset: Ruleset) -> list[tuple[str, bool, Callable[[Any], bool], str]]:
    """(key, whether it must be there, test, what it should be) for every field of an object:
    the ruleset's own in order (compared ones required), then the core ones."""
    own = [(f.key, f.compared, *_KIND_CHECKS[f.kind]) for f in ruleset.output_fields]
    return own + _CORE_CHECKS


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__
