"""Reading a resolution in the output contract (README, riftasp/result.py) for checking.

Any engine's `--json` output is accepted: `applied` (the trace) and each object's `abilities` may
be missing, and then the checks that need them are skipped. Anything else that is not the
contract is a `ContractError` naming the field; nothing is guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from ..model import Board

REASONS = frozenset({
    "timestamp", "dependency", "immediately_after", "cycle", "tie", "recheck", "unblocked",
    "became_applicable", "waited",
})  # fmt: skip


class ContractError(ValueError):
    """A resolution that is not the output contract; str() is `FIELD: message`."""

    def __init__(self, where: str, message: str) -> None:
        self.where, self.message = where, message
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Final:
    """One object's characteristics as the resolution reports them."""

    name: str
    controller: str | None
    might: int | None
    mighty: bool
    tags: frozenset[str]
    types: frozenset[str]
    keywords: dict[str, int]
    zone: str
    abilities: frozenset[str] | None  # None: the engine does not report them


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


@dataclass(frozen=True)
class View:
    objects: dict[str, Final]
    applied: dict[str, list[Row]] | None  # None: no trace
    object_loops: list[list[str]]
    withdrawn: dict[str, frozenset[str]]
    paradoxes: list[frozenset[str]]
    condition_timing: str


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


def _object(oid: str, data: Any, where: str) -> Final:
    _need(isinstance(data, dict), where, "an object", data)
    for key in ("name", "controller", "might", "mighty", "tags", "types", "keywords"):
        if key not in data:
            raise ContractError(where, f"missing field '{key}'")
    name, controller, might, mighty = data["name"], data["controller"], data["might"], data["mighty"]
    _need(isinstance(name, str), f"{where}.name", "a string", name)
    _need(controller is None or isinstance(controller, str), f"{where}.controller", "a string or null", controller)
    _need(might is None or _is_int(might), f"{where}.might", "an integer or null", might)
    _need(isinstance(mighty, bool), f"{where}.mighty", "true or false", mighty)
    tags = _str_list(data["tags"], f"{where}.tags")
    types = _str_list(data["types"], f"{where}.types")
    keywords = data["keywords"]
    _need(isinstance(keywords, dict), f"{where}.keywords", "an object of keyword: integer", keywords)
    for k, v in keywords.items():
        _need(_is_int(v), f"{where}.keywords.{k}", "an integer", v)
    zone = data.get("zone")
    _need(zone is None or isinstance(zone, str), f"{where}.zone", "a string", zone)
    abilities = data.get("abilities")
    if abilities is not None:
        abilities = frozenset(_str_list(abilities, f"{where}.abilities"))
    return Final(name, controller, might, mighty, frozenset(tags), frozenset(types), dict(keywords),
                 zone if zone is not None else "", abilities)


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


def _loops(value: Any, where: str) -> list[list[str]]:
    _need(isinstance(value, list), where, "a list of lists of strings", value)
    return [_str_list(item, f"{where}[{i}]") for i, item in enumerate(value)]


def read_view(board: Board, data: Any) -> View:
    """The resolution `data` (parsed JSON) of `board`, checked against the contract's shape."""
    _need(isinstance(data, dict), "top level", "an object", data)
    if "objects" not in data:
        raise ContractError("top level", "missing field 'objects'")
    objects_data = data["objects"]
    _need(isinstance(objects_data, dict), "objects", "an object of id: characteristics", objects_data)
    ids = [obj.id for obj in board.objects]
    known = set(ids)
    for oid in objects_data:
        if oid not in known:
            raise ContractError(f"objects.{oid}", "not an object of this board")
    for oid in ids:
        if oid not in objects_data:
            raise ContractError("objects", f"missing object '{oid}' of the board")
    objects = {oid: _object(oid, objects_data[oid], f"objects.{oid}") for oid in ids}

    applied: dict[str, list[Row]] | None = None
    if data.get("applied") is not None:
        applied_data = data["applied"]
        _need(isinstance(applied_data, dict), "applied", "an object of id: applications", applied_data)
        applied = {}
        for oid, rows in applied_data.items():
            if oid not in known:
                raise ContractError(f"applied.{oid}", "not an object of this board")
            _need(isinstance(rows, list), f"applied.{oid}", "a list of applications", rows)
            applied[oid] = [_row(oid, i, r, f"applied.{oid}[{i}]") for i, r in enumerate(rows)]

    loops = _loops(data.get("object_loops", []) or [], "object_loops")
    withdrawn_data = data.get("withdrawn", {}) or {}
    _need(isinstance(withdrawn_data, dict), "withdrawn", "an object of id: effect names", withdrawn_data)
    withdrawn = {}
    for oid, names in withdrawn_data.items():
        if oid not in known:
            raise ContractError(f"withdrawn.{oid}", "not an object of this board")
        withdrawn[oid] = frozenset(_str_list(names, f"withdrawn.{oid}"))
    paradoxes = [frozenset(p) for p in _loops(data.get("paradoxes", []) or [], "paradoxes")]
    return View(objects, applied, loops, withdrawn, paradoxes, board.settings.condition_timing)
