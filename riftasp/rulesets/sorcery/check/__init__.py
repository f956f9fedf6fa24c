"""`riftasp check` for Sorcery boards (docs/check.md, "Sorcery"): a resolution checked against
Sorcery's invariants (docs/semantics-sorcery.md) — one global pass, each effect once per object,
positions and order, and final consistency as Sorcery defines it (conditions checked once, when
the effect applies; nothing rechecked). Like the Riftbound checker it imports neither engine: it
reads the board model, the ruleset data (the manifest's layer table and readings) and the
resolution, and replays the resolution's own trace.

The Sorcery plugin (riftasp/rulesets/sorcery/__init__.py) names `check_report` as its checker.
"""

from __future__ import annotations

from typing import Any

from ....model import Board
from ....check.report import Report
from .invariants import check_sorcery
from .view import read_view


def check_report(board: Board, resolution: Any) -> Report:
    """Every Sorcery invariant checked on `resolution` (the output contract as parsed JSON) of
    `board`; raises ContractError when it is not the contract."""
    report = Report()
    check_sorcery(board, read_view(board, resolution), report)
    return report
