"""Reading a Sorcery resolution in the output contract (README; riftasp/rulesets/sorcery/__init__.py
`OUTPUT`) for checking: each object's characteristics and the trace. Anything that is not the
contract is a `ContractError` naming the field; `applied` and `abilities` may be missing (the
checks that need them are then skipped)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....model import Board
from ....check.contract import ContractError, Row, _is_int, _need, _row, _str_list, check_contract


@dataclass(frozen=True)
class Final:
    name: str
    controller: str | None
    power: int | None
    types: frozenset[str]
    subtypes: frozenset[str]
    affinity: frozenset[str]
    keywords: frozenset[str]
    disabled: bool
    silenced: bool
    zone: str
    abilities: frozenset[str] | None


@dataclass(frozen=True)
class View:
    objects: dict[str, Final]
    applied: dict[str, list[Row]] | None
    reports: dict[str, Any]  # what a global pass leaves empty: withdrawn, paradoxes, ...


def _final(data: Any, where: str) -> Final:
    _need(isinstance(data, dict), where, "an object", data)
    for key in ("name", "controller", "power", "types", "subtypes", "affinity", "keywords", "disabled", "silenced"):
        if key not in data:
            raise ContractError(where, f"missing field '{key}'")
    name, controller, power = data["name"], data["controller"], data["power"]
    _need(isinstance(name, str), f"{where}.name", "a string", name)
    _need(controller is None or isinstance(controller, str), f"{where}.controller", "a string or null", controller)
    _need(power is None or _is_int(power), f"{where}.power", "an integer or null", power)
    for flag in ("disabled", "silenced"):
        _need(isinstance(data[flag], bool), f"{where}.{flag}", "true or false", data[flag])
    keywords = data["keywords"]
    _need(isinstance(keywords, dict), f"{where}.keywords", "an object of keyword: integer", keywords)
    for k, v in keywords.items():
        _need(_is_int(v), f"{where}.keywords.{k}", "an integer", v)
    abilities = data.get("abilities")
    zone = data.get("zone")
    _need(zone is None or isinstance(zone, str), f"{where}.zone", "a string", zone)
    types, subtypes, affinity = (frozenset(_str_list(data[k], f"{where}.{k}"))
                                 for k in ("types", "subtypes", "affinity"))
    return Final(
        name, controller, power, types, subtypes, affinity,
        frozenset(keywords), data["disabled"], data["silenced"], zone or "",
        None if abilities is None else frozenset(_str_list(abilities, f"{where}.abilities")),
    )  # fmt: skip


def read_view(board: Board, data: Any) -> View:
    """The resolution `data` (parsed JSON) of the Sorcery `board`, checked against the contract."""
    check_contract(board, data)
    objects_data = data.get("objects")
    _need(isinstance(objects_data, dict), "objects", "an object of id: characteristics", objects_data)
    ids = [obj.id for obj in board.objects]
    known = set(ids)  # (a look-up in the list made reading a large realm quadratic)
    for oid in objects_data:
        if oid not in known:
            raise ContractError(f"objects.{oid}", "not an object of this board")
    for oid in ids:
        if oid not in objects_data:
            raise ContractError("objects", f"missing object '{oid}' of the board")
    objects = {oid: _final(objects_data[oid], f"objects.{oid}") for oid in ids}
    applied = None
    if data.get("applied") is not None:
        applied_data = data["applied"]
        _need(isinstance(applied_data, dict), "applied", "an object of id: applications", applied_data)
        applied = {}
        for oid, rows in applied_data.items():
            if oid not in known:
                raise ContractError(f"applied.{oid}", "not an object of this board")
            _need(isinstance(rows, list), f"applied.{oid}", "a list of applications", rows)
            applied[oid] = [_row(oid, i, r, f"applied.{oid}[{i}]") for i, r in enumerate(rows)]
    reports = {k: data.get(k) for k in ("withdrawn", "withdrawals", "paradoxes", "object_loops", "needs")}
    return View(objects, applied, reports)
