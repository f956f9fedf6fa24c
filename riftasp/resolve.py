"""The library entry point: `resolve(board) -> Resolution` with the ASP resolver, and
`resolve_many(boards)` (each board's Resolution or ResolveFailure) or `resolve_all(boards)`
(every Resolution, or the first failure raised) for many boards at once (riftasp/batch.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .decode import decode
from .facts import board_facts
from .model import Board
from .result import Resolution
from .solver import SolveStats, run

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset


def resolve(board: Board, time_limit: float | None = None) -> Resolution:
    """Every object's characteristics. `time_limit` (seconds) stops the calculation with
    `riftasp.solver.TimeLimitExceeded` when it runs out, whatever the solver is doing: the
    calculation then runs in a worker process, killed at the limit (riftasp/watchdog.py)."""
    if time_limit is None:
        return resolve_facts(board_facts(board), board.ruleset)[0]
    from .watchdog import run_within

    return run_within(time_limit, _resolve_within, board, time_limit)


def _resolve_within(board: Board, time_limit: float) -> Resolution:
    # (In the worker: the solver's own deadline too, so that a calculation of many short ground
    # calls ends by itself.)
    return resolve_facts(board_facts(board), board.ruleset, time_limit)[0]


def resolve_facts(facts: str, ruleset: Ruleset, time_limit: float | None = None) -> tuple[Resolution, SolveStats]:
    symbols, stats = run(facts, ruleset, time_limit=time_limit)
    return decode(symbols, ruleset, stats.withdrawn), stats
