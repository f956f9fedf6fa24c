"""Reading a resolution in the output contract (README, riftasp/result.py) for checking: what
every ruleset's checker reads alike (the trace's rows, the errors); each reads its own
characteristics (riftasp/rulesets/<name>/check/view.py).

Any engine's `--json` output is accepted: `applied` (the trace) and each object's `abilities` may
be missing, and then the checks that need them are skipped; so may `ruleset`, `engine` and the
reports (`dependency_cycles`, `object_loops`, `timestamp_ties`, `withdrawn`, `needs`,
`paradoxes`, `withdrawals`), read as empty. Anything else that is not the contract is a
`ContractError` naming the field (`check_contract`, where a ruleset's view of the resolution
starts); nothing is guessed. A resolution file (`read_resolution`) is refused above
MAX_RESOLUTION_BYTES before it is read.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from ..board_io.parsing import LONGEST_NUMBER, LongNumber
from ..present import SHORT, shorten

if TYPE_CHECKING:
    from ..model import Board

# A resolution file larger than this is refused before it is read (a board is at most as large,
# riftasp/limits.py MAX_BOARD_BYTES, and its resolution is of the same order).
MAX_RESOLUTION_BYTES = 64 * 2**20
# Every number in a resolution is below this in magnitude (a 64-bit integer); a longer one is
# not even converted (board_io/parsing.py LONGEST_NUMBER).
NUMBER_LIMIT = 2**63
# How deep lists and objects nest in a resolution: the contract's deepest value is a row's
# `before` of abilities, six levels down; the checks compare values recursively.
MAX_DEPTH = 32
# The reports of the output contract (riftasp/result.py `Resolution.to_json`) that are lists of
# lists of instance names (`object_loops` lists object ids; `check_contract` reads the others).
REPORT_LISTS = ("dependency_cycles", "timestamp_ties", "paradoxes")

REASONS = frozenset({
    "timestamp", "dependency", "immediately_after", "cycle", "tie", "recheck", "unblocked",
    "became_applicable", "waited",
})  # fmt: skip


class ContractError(ValueError):
    """A resolution that is not the output contract; str() is `FIELD: message`."""

    def __init__(self, where: str, message: str) -> None:
        self.where, self.message = where, message
        # One short line whatever the answer holds (an id of a megabyte, a long value).
        super().__init__(f"{shorten(where, SHORT)}: {shorten(message, 4 * SHORT)}")


class ResolutionFileError(ValueError):
    """A resolution file that cannot be read or parsed; str() is the message (`cannot read: …`,
    `too large: …`, `invalid JSON: …`), the file's name going before it."""


@dataclass(frozen=True)
class Row:
    """One application in the trace of one object."""

    object: str
    index: int  # position in the object's list
    effect: str
    step: int
    layer: str
    sublayer: str | None
    timestamp: int
    reasons: tuple[str, ...]
    depends_on: tuple[str, ...]
    characteristic: str
    before: Any
    after: Any


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# The shapes of a row's values, for the replays: a value of another shape than its
# characteristic's, from any engine's answer, is a violation where the replay meets it, never a
# value it computes with.
def is_names(value: Any) -> TypeGuard[list[str]]:
    """A list of names, as tags, types, sub-types, abilities and keywords are written."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def is_counts(value: Any) -> TypeGuard[dict[str, int]]:
    """Name -> integer, as Riftbound's keywords are written."""
    return isinstance(value, dict) and all(isinstance(k, str) and _is_int(v) for k, v in value.items())


def _need(ok: bool, where: str, what: str, value: Any) -> None:
    if not ok:
        shown = "null" if value is None else type(value).__name__
        raise ContractError(where, f"expected {what}, got {shown}")


def _str_list(value: Any, where: str) -> list[str]:
    _need(isinstance(value, list), where, "a list of strings", value)
    for i, item in enumerate(value):
        _need(isinstance(item, str), f"{where}[{i}]", "a string", item)
    return value


def _row(oid: str, index: int, data: Any, where: str) -> Row:
    _need(isinstance(data, dict), where, "an object", data)
    for key in ("effect", "step", "layer", "timestamp", "reasons", "characteristic", "before", "after"):
        if key not in data:
            raise ContractError(where, f"missing field '{key}'")
    effect, step, layer, stamp = data["effect"], data["step"], data["layer"], data["timestamp"]
    _need(isinstance(effect, str), f"{where}.effect", "a string", effect)
    _need(_is_int(step), f"{where}.step", "an integer", step)
    _need(isinstance(layer, str), f"{where}.layer", "a string", layer)
    sublayer = data.get("sublayer")
    _need(sublayer is None or isinstance(sublayer, str), f"{where}.sublayer", "a string or null", sublayer)
    _need(_is_int(stamp), f"{where}.timestamp", "an integer", stamp)
    reasons = tuple(_str_list(data["reasons"], f"{where}.reasons"))
    depends = tuple(_str_list(data.get("depends_on", []), f"{where}.depends_on"))
    characteristic = data["characteristic"]
    _need(isinstance(characteristic, str), f"{where}.characteristic", "a string", characteristic)
    return Row(oid, index, effect, step, layer, sublayer, stamp, reasons, depends, characteristic,
               data["before"], data["after"])


# ---- the file --------------------------------------------------------------------------------


def read_resolution(path: Path) -> Any:
    """The parsed JSON of a resolution file: a regular file of at most MAX_RESOLUTION_BYTES
    (refused before it is read: a FIFO would wait for a writer, /dev/zero never ends), strict
    UTF-8 (a byte-order mark dropped). Numbers longer than LONGEST_NUMBER characters are kept
    as `LongNumber`, refused by `check_contract` at their field; NaN and Infinity are not JSON."""
    return parse_resolution(_decoded(_read_bytes(path)))


def _read_bytes(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise ResolutionFileError(f"cannot read: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ResolutionFileError("cannot read: is a directory")
        if not stat.S_ISREG(info.st_mode):
            kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else "a device or special file"
            raise ResolutionFileError(f"cannot read: is {kind}, not a regular file")
        if info.st_size > MAX_RESOLUTION_BYTES:
            raise ResolutionFileError(_too_large(f"{info.st_size:,} bytes"))
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(MAX_RESOLUTION_BYTES + 1)  # one byte past: a file that grew
    except OSError as err:
        raise ResolutionFileError(f"cannot read: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_RESOLUTION_BYTES:
        raise ResolutionFileError(_too_large("more than that"))
    return data


def _too_large(size: str) -> str:
    return f"too large: {size}; a resolution file is at most {MAX_RESOLUTION_BYTES // 2**20} MiB"


def _decoded(data: bytes) -> str:
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = len(data[data.rfind(b"\n", 0, err.start) + 1 : err.start].decode("utf-8", "replace")) + 1
        raise ResolutionFileError(f"invalid JSON: not UTF-8 text (byte 0x{data[err.start]:02x} "
                                  f"at line {line} column {column})") from None


def _parse_int(text: str) -> int | LongNumber:
    return int(text) if len(text) <= LONGEST_NUMBER else LongNumber(text)


def _parse_float(text: str) -> float | LongNumber:
    return float(text) if len(text) <= LONGEST_NUMBER else LongNumber(text)


def _no_constant(name: str) -> Any:
    raise ResolutionFileError(f"invalid JSON: {name} is not a JSON number")


def parse_resolution(text: str) -> Any:
    """JSON text as a resolution is read: see `read_resolution`."""
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise ResolutionFileError(f"invalid JSON: {err}") from None
    except RecursionError:
        raise ResolutionFileError("invalid JSON: nested too deeply") from None


# ---- what every ruleset's resolution shares --------------------------------------------------


def _family(name: str) -> str | None:
    """The ruleset a named ruleset extends at the root of its lineage (None: not a ruleset)."""
    from ..resources import lineage

    try:
        return lineage(name)[-1]
    except (KeyError, ValueError, OSError, Exception):  # noqa: BLE001 - any name riftasp does not know
        return None


def check_contract(board: Board, data: Any) -> None:
    """The parts of the output contract every ruleset shares, checked on `data` (parsed JSON) of
    `board`; each ruleset's view (`read_view`) starts with it, then reads the characteristics.
    Raises ContractError naming the field: every number below NUMBER_LIMIT in magnitude, every
    string valid Unicode without NUL, nothing nested deeper than MAX_DEPTH; `ruleset` (if given)
    the board's; `engine` a string; `objects` every object of the board and no other; and each
    report, when given, of its shape, the objects it names objects of the board."""
    _need(isinstance(data, dict), "top level", "an object", data)
    if not _all_fit(data):  # (the paths are made only to name the first that does not)
        for where, value in _scalars(data):
            _scalar(value, where)
    if "ruleset" in data:
        name = data["ruleset"]
        _need(isinstance(name, str), "ruleset", "a string", name)
        if name != board.ruleset.name and _family(name) != board.ruleset.lineage[-1]:
            # A variant's answer may be judged under another reading of its family (riftasp
            # compare, the readings tests); another family's answer is not an answer to this board.
            raise ContractError("ruleset", f"{shorten(repr(name))}, but the board is of the {board.ruleset.name} ruleset")
    if "engine" in data:
        _need(isinstance(data["engine"], str), "engine", "a string", data["engine"])
    if "objects" not in data:
        raise ContractError("top level", "missing field 'objects'")
    objects = data["objects"]
    _need(isinstance(objects, dict), "objects", "an object of id: characteristics", objects)
    ids = {obj.id for obj in board.objects}
    for oid in objects:
        _known(oid, ids, f"objects.{oid}")
    for obj in board.objects:
        if obj.id not in objects:
            raise ContractError("objects", f"missing object {shorten(repr(obj.id))} of the board")
    applied = data.get("applied")
    if applied is not None:
        _need(isinstance(applied, dict), "applied", "an object of id: applications", applied)
        for oid, rows in applied.items():
            _known(oid, ids, f"applied.{oid}")
            _need(isinstance(rows, list), f"applied.{oid}", "a list of applications", rows)
    for key in REPORT_LISTS:
        _name_lists(data.get(key, []), key)
    for i, loop in enumerate(_name_lists(data.get("object_loops", []), "object_loops")):
        for j, oid in enumerate(loop):
            _known(oid, ids, f"object_loops[{i}][{j}]", named=True)
    for key, named in (("withdrawn", False), ("needs", True)):
        found = data.get(key, {})
        _need(isinstance(found, dict), key, "an object of id: names", found)
        for oid, names in found.items():
            _known(oid, ids, f"{key}.{oid}")
            _str_list(names, f"{key}.{oid}")
            if named:
                for j, other in enumerate(names):
                    _known(other, ids, f"{key}.{oid}[{j}]", named=True)
    withdrawals = data.get("withdrawals", [])
    _need(isinstance(withdrawals, list), "withdrawals", "a list of withdrawals", withdrawals)
    for i, w in enumerate(withdrawals):
        _withdrawal(w, f"withdrawals[{i}]", ids)


def _known(oid: str, ids: set[str], where: str, named: bool = False) -> None:
    """An object id of the board (`named`: the value at `where` names it; else `where` ends with it)."""
    if oid not in ids:
        said = f"{shorten(repr(oid))} is not an object of this board" if named else "not an object of this board"
        raise ContractError(where, said)


def _name_lists(value: Any, where: str) -> list[list[str]]:
    _need(isinstance(value, list), where, "a list of lists of strings", value)
    return [_str_list(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _withdrawal(data: Any, where: str, ids: set[str]) -> None:
    _need(isinstance(data, dict), where, "an object", data)
    for key in ("object", "effect", "round", "failed", "because"):
        if key not in data:
            raise ContractError(where, f"missing field '{key}'")
    _need(isinstance(data["object"], str), f"{where}.object", "a string", data["object"])
    _known(data["object"], ids, f"{where}.object", named=True)
    _need(isinstance(data["effect"], str), f"{where}.effect", "a string", data["effect"])
    _need(_is_int(data["round"]), f"{where}.round", "an integer", data["round"])
    _str_list(data["failed"], f"{where}.failed")
    _str_list(data["because"], f"{where}.because")


def _all_fit(data: Any) -> bool:
    """Whether every number and string in `data` (keys included) is one `_scalar` accepts, no
    deeper than MAX_DEPTH: a quick pass over the whole answer, without recursion and paths."""
    todo = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        kind = type(value)
        if kind is dict or kind is list:
            if depth >= MAX_DEPTH:
                return False
            inner = depth + 1
            if kind is dict:
                todo.extend((key, inner) for key in value)
                todo.extend((item, inner) for item in value.values())
            else:
                todo.extend((item, inner) for item in value)
        elif kind is str:
            if "\x00" in value or not (value.isascii() or _encodes(value)):
                return False
        elif kind is int:
            if not -NUMBER_LIMIT < value < NUMBER_LIMIT:
                return False
        elif kind is float:
            if not (math.isfinite(value) and abs(value) < NUMBER_LIMIT):
                return False
        elif value is not None and kind is not bool:
            return False  # a LongNumber, or any other object a caller passed: `_scalar` says
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _scalars(data: Any) -> Iterator[tuple[str, Any]]:
    """(path, value) of every number and string in `data`, keys included, without recursion;
    ContractError at a list or object nested deeper than MAX_DEPTH."""
    todo: list[tuple[str, Any, int]] = [("", data, 0)]
    while todo:
        where, value, depth = todo.pop()
        if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
            raise ContractError(where or "top level", f"nested too deeply: a resolution nests at most {MAX_DEPTH} levels")
        if isinstance(value, dict):
            items = []
            for key, item in value.items():
                inner = f"{where}.{key}" if where else str(key)
                yield inner, key
                items.append((inner, item, depth + 1))
            todo.extend(reversed(items))  # (in the order of the text)
        elif isinstance(value, list):
            todo.extend(reversed([(f"{where}[{i}]", item, depth + 1) for i, item in enumerate(value)]))
        else:
            yield where or "top level", value


def _scalar(value: Any, where: str) -> None:
    if isinstance(value, LongNumber):
        raise ContractError(where, f"{value!r}: a resolution's numbers are below 2**63 in magnitude")
    if isinstance(value, bool):
        return
    if isinstance(value, int) and abs(value) >= NUMBER_LIMIT:
        shown = f"{value:,}" if value.bit_length() <= 256 else f"an integer of {value.bit_length():,} bits"
        raise ContractError(where, f"{shown} is out of range: a resolution's numbers are below 2**63 in magnitude")
    if isinstance(value, float) and not (math.isfinite(value) and abs(value) < NUMBER_LIMIT):
        raise ContractError(where, f"{value} is out of range: a resolution's numbers are below 2**63 in magnitude")
    if isinstance(value, str):
        if "\x00" in value:
            raise ContractError(where, "a string must not contain a NUL character")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ContractError(where, "a string is not valid Unicode (an unpaired surrogate)") from None
