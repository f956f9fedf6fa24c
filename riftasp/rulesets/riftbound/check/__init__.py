"""Riftbound's invariants (docs/semantics.md §13, docs/check.md): 1. final consistency
(`evaluate`), 2. the trace (`replay`), 3. the reported object loops (`needs`). The Riftbound
plugin (riftasp/rulesets/riftbound/__init__.py) names `check_report` as its checker; a variant of
Riftbound may name it too (its plugin's `checker()`). What each operation does is read from its
registry entry (`operations`); a board with an operation the checker cannot restate, or of a
ruleset whose layer table is not §1's, is not judged (a `skipped` reason, no violations)."""

from __future__ import annotations

from typing import Any

from ....model import Board
from .view import read_view
from .evaluate import final_consistency
from .index import BoardIndex
from .needs import loop_checks
from .operations import not_judged
from .replay import Replay, dependency_reading, final_checks
from ....check.report import Report


def check_report(board: Board, resolution: Any) -> Report:
    """Every Riftbound invariant checked on `resolution` (the output contract as parsed JSON) of
    `board`; raises ContractError when it is not the contract."""
    view = read_view(board, resolution)
    report = Report()
    why = not_judged(board)
    if why is not None:
        # An operation this checker cannot restate, or a layer table that is not §1's: nothing
        # is judged rather than judged against rules the board does not follow.
        report.skipped.append(f"every invariant (not judged): {why}")
        return report
    index = BoardIndex(board)
    out = report.violations
    replayed = None
    if view.applied is not None:
        replay = Replay(index, view, out)
        replayed = replay.run()
        report.checked += replay.checked + final_checks(index, view, replayed, out)
        if any(view.objects[o].abilities is None for o in index.on_board):
            report.skipped.append("final abilities compared with the replay: the resolution has no 'abilities'")
    else:
        report.skipped.append("trace replay: the resolution has no 'applied' trace")
    report.checked += dependency_reading(index, view, out)
    report.checked += final_consistency(index, view, replayed, out, report.skipped)
    report.checked += loop_checks(index, view.object_loops, out)
    return report
