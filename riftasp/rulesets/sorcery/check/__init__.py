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
from .invariants import JUDGED, check_sorcery
from .view import read_view


def check_report(board: Board, resolution: Any) -> Report:
    """Every Sorcery invariant checked on `resolution` (the output contract as parsed JSON) of
    `board`; raises ContractError when it is not the contract."""
    view = read_view(board, resolution)
    report = Report()
    effects = [e for o in board.objects for e in (*o.rules_text, *o.effect_text)] + list(board.effects)
    unknown = next((e.op.name for e in effects if e.op.name not in JUDGED), None)
    if unknown is not None:
        # An operation this restatement does not cover (a variant's own): not judged, rather
        # than judged as if it did nothing.
        report.skipped.append(f"every invariant (not judged): operation {unknown!r} is not one Sorcery's checker "
                              f"restates ({', '.join(sorted(JUDGED))})")
        return report
    check_sorcery(board, view, report)
    return report
