"""The library entry point: `resolve(board) -> Resolution` with the ASP resolver."""

from __future__ import annotations

from .decode import decode
from .facts import board_facts
from .model import Board
from .result import Resolution
from .solver import SolveStats, run


def resolve(board: Board) -> Resolution:
    return resolve_facts(board_facts(board), board.ruleset)[0]


def resolve_facts(facts: str, ruleset: str) -> tuple[Resolution, SolveStats]:
    symbols, stats = run(facts, ruleset)
    return decode(symbols, ruleset, stats.withdrawn), stats
