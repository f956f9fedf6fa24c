"""Reading a Riftbound resolution in the output contract (README; riftasp/rulesets/riftbound/output.py
`OUTPUT`) for checking: each object's characteristics, the trace, the object loops, what was
withdrawn, the paradoxes and the dependency cycles. Anything that is not the contract is a
`ContractError` naming the field; `applied` and `abilities` may be missing (the checks that need
them are then skipped)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....check.contract import ContractError, Row, _is_int, _need, _row, _str_list, check_contract
from ....model import Board


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
class View:
    objects: dict[str, Final]
    applied: dict[str, list[Row]] | None  # None: no trace
    object_loops: list[list[str]]
    withdrawn: dict[str, frozenset[str]]
    paradoxes: list[frozenset[str]]
    condition_timing: str
    dependency_cycles: list[list[str]] = field(default_factory=list)


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


def _loops(value: Any, where: str) -> list[list[str]]:
    _need(isinstance(value, list), where, "a list of lists of strings", value)
    return [_str_list(item, f"{where}[{i}]") for i, item in enumerate(value)]


def read_view(board: Board, data: Any) -> View:
    """The resolution `data` (parsed JSON) of `board`, checked against the contract's shape."""
    check_contract(board, data)
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
    cycles = _loops(data.get("dependency_cycles", []) or [], "dependency_cycles")
    return View(objects, applied, loops, withdrawn, paradoxes, board.reading("condition_timing"), cycles)
