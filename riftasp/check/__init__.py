"""`riftasp check`: a resolution checked against the rules' invariants (docs/semantics.md §13,
docs/check.md).

This package does not replay the procedure of sections 5–8 and imports neither engine: it reads
the board model, the ruleset data and a resolution in the output contract, and checks
1. final consistency (`evaluate`), 2. the trace (`replay`), 3. the reported object loops (`needs`).

    from riftasp.check import check
    violations = check(board, resolution.to_json())   # [] when consistent
"""

from __future__ import annotations

from typing import Any

from ..model import Board
from .contract import ContractError, read_view
from .evaluate import final_consistency
from .index import RULESET, BoardIndex
from .needs import loop_checks
from .replay import Replay, final_checks
from .report import FINAL, NEEDS, TRACE, Report, Violation

__all__ = ["check", "check_report", "check_where_known", "ContractError", "Report", "Violation", "FINAL", "TRACE", "NEEDS"]


def check_report(board: Board, resolution: Any) -> Report:
    """Every invariant checked on `resolution` (the output contract as parsed JSON) of `board`.
    Raises ContractError when `resolution` is not the contract, or the board is not of the
    ruleset the checker knows."""
    if board.ruleset != RULESET:
        raise ContractError("ruleset", f"the checker knows the {RULESET} ruleset only, not {board.ruleset}")
    view = read_view(board, resolution)
    index = BoardIndex(board)
    report = Report()
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
    report.checked += final_consistency(index, view, replayed, out, report.skipped)
    report.checked += loop_checks(index, view.object_loops, out)
    return report


def check_where_known(board: Board, resolution: Any) -> list[Violation]:
    """`check`, for the boards of the ruleset the checker restates; no violations for the others
    (crosscheck and fuzz then compare the two engines alone on them)."""
    return check(board, resolution) if board.ruleset == RULESET else []


def check(board: Board, resolution: Any) -> list[Violation]:
    """The violations of the invariants in `resolution` of `board` ([] when consistent)."""
    return check_report(board, resolution).violations
