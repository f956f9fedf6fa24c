"""The library entry point: `resolve(board) -> Resolution` with the ASP resolver."""

from __future__ import annotations

from .decode import decode
from .facts import board_facts
from .model import Board
from .result import Resolution
from .solver import SolveStats, run


def resolve(board: Board) -> Resolution:
    return resolve_with_stats(board)[0]


def resolve_facts(facts: str, ruleset: str) -> tuple[Resolution, SolveStats]:
    symbols, stats = run(facts, ruleset)
    resolution = decode(symbols, ruleset)
    withdrawn: dict[str, list[str]] = {}
    for inst, obj in stats.withdrawn:
        withdrawn.setdefault(obj.strip('"'), []).append(inst)
    return (
        Resolution(
            ruleset=resolution.ruleset,
            objects=resolution.objects,
            applied=resolution.applied,
            dependency_cycles=resolution.dependency_cycles,
            object_loops=resolution.object_loops,
            timestamp_ties=resolution.timestamp_ties,
            withdrawn=withdrawn,
        ),
        stats,
    )


def resolve_with_stats(board: Board) -> tuple[Resolution, SolveStats]:
    return resolve_facts(board_facts(board), board.ruleset)
