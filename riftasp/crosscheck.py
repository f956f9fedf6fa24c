"""`riftasp crosscheck`: riftasp's ASP resolver against another engine on board files."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .compare import OBJECT_FIELD, Disagreement, compare
from .engines import Engine
from .model import Board
from .present import explain_text
from .result import Resolution

BOARD_SUFFIXES = (".json", ".yaml", ".yml", ".lp")


def board_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, and every board file under the folders named (sorted, recursively).

    A named file is kept whatever its suffix, so loading it gives the usual one-line error.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in BOARD_SUFFIXES))
        else:
            found.append(path)
    return found


@dataclass
class BoardCheck:
    """One board's comparison, with riftasp's explain trace of every object in question."""

    board: str
    disagreements: list[Disagreement]
    explains: dict[str, str] = field(default_factory=dict)
    applied: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return not self.disagreements


@dataclass
class CrosscheckReport:
    engine: str
    checks: list[BoardCheck]

    @property
    def disagreeing(self) -> list[BoardCheck]:
        return [c for c in self.checks if not c.agrees]

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "boards": len(self.checks),
            "agree": len(self.checks) - len(self.disagreeing),
            "disagree": len(self.disagreeing),
            "disagreements": [
                d.to_json() | {"explain": c.explains.get(d.object, ""), "applied": c.applied.get(d.object, [])}
                for c in self.checks
                for d in c.disagreements
            ],
        }

    def text(self) -> str:
        lines: list[str] = []
        for check in self.disagreeing:
            lines.append(f"{check.board}: disagreement")
            by_object: dict[str, list[Disagreement]] = {}
            for d in check.disagreements:
                by_object.setdefault(d.object, []).append(d)
            for oid, found in by_object.items():
                for d in found:
                    lines.append(f"  {oid}.{d.field}: riftasp {value_text(d.riftasp_value, d.field)}, "
                                 f"engine {value_text(d.engine_value, d.field)}")
                if oid in check.explains:
                    lines.append(f"  riftasp explain {oid}:")
                    lines.extend(f"    {line}" for line in check.explains[oid].splitlines())
        agree = len(self.checks) - len(self.disagreeing)
        lines.append(f"{len(self.checks)} boards: {agree} agree, {len(self.disagreeing)} disagree "
                     f"(riftasp vs {self.engine})")
        return "\n".join(lines)


def value_text(value: Any, field: str = "") -> str:
    """A compared value as JSON, so null, true and lists read unambiguously."""
    if field == OBJECT_FIELD and value is None:
        return "missing"
    return json.dumps(value, sort_keys=True)


def check_board(board: Board, engine: Engine, riftasp: Callable[[Board], Resolution]) -> BoardCheck:
    """Compare riftasp's resolution of one board with the engine's."""
    ours = riftasp(board)
    theirs = engine(board)
    found = compare(board.source, ours.to_json(), theirs)
    check = BoardCheck(board.source, found)
    for oid in dict.fromkeys(d.object for d in found):
        if oid in ours.objects:  # an object only the engine reports has no trace here
            check.explains[oid] = explain_text(ours, oid)
            check.applied[oid] = [a.to_json() for a in ours.applied.get(oid, [])]
    return check
