"""Shrinking many failing boards at once, each exactly as `riftasp.reduce.reduce_board` would.

`reduce_board` tries one edit at a time: the first edit (from a position) whose board still fails
is kept, and the pass goes on from there. Whether a board fails depends on that board alone, so
trying the next few edits together and keeping the first failing one reaches the same board; the
only cost is the edits tried past it. Many reductions step together this way, and each round's
boards are compared in one call (`evaluate`: in batches, on every core or a cluster), so a
campaign's shrinking is batched and parallel, and its result the same for any number of jobs.

After the deletions come the simplifications of riftasp/campaign/simplify.py and lower numbers
(`riftasp.reduce.value_edits`), so that boards of one defect meet in one shape.

A candidate "fails" when it still shows the failure's `primary` findings, all of kinds the
original showed (`riftasp.signature.kinds`), so a reduction does not drift to another kind of
defect.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..reduce import board_edits, renumbered, valid, value_edits
from ..signature import kinds
from .simplify import simplify_edits

Found = list[Any]  # Disagreement | Violation
Board = dict[str, Any]
# Each board's findings, or None when it could not be compared (unsupported, an engine error).
Evaluate = Callable[[Sequence[Board]], Sequence[Found | None]]

# Edits tried together per reduction and round (any value gives the same boards). Wider is not
# faster: most deletions are kept, and each kept one makes the rest of its window wasted work
# (measured: 48 boards a round made a 200-board fuzz on the ASP resolver 30 s -> 48 s).
WINDOW = 6
MAX_CHECKS = 600  # candidate boards per reduction


@dataclass
class Reduction:
    """One board's reduction, a round at a time."""

    board: Board
    found: Found
    target: frozenset[str] = field(default=frozenset())
    index: int = 0
    checks: int = 0
    passes_changed: bool = False  # the current pass kept an edit (another pass follows)
    renumbering: bool = False  # the last step: the names
    done: bool = False

    def __post_init__(self) -> None:
        self.target = self.target or kinds(primary(self.found))

    def candidates(self, window: int) -> list[tuple[int, Board]]:
        """(edit index, board) of the next edits to try; [] when the reduction is done."""
        if self.done:
            return []
        if self.checks >= MAX_CHECKS:
            return self._last_step()
        edits = edits_of(self.board)
        if self.index >= len(edits):
            if self.passes_changed:  # another pass, from the start, as reduce_board makes
                self.index, self.passes_changed = 0, False
                return self.candidates(window)
            return self._last_step()
        # Whether an edit leaves a valid board is asked where the boards are compared (a board
        # that is not one is never a failing one there), not here: reading every candidate in
        # this process would be the one part of a campaign that does not spread over the workers.
        end = min(self.index + window, len(edits))
        self._window_end = end
        return [(i, edits[i](self.board)) for i in range(self.index, end)]

    def _last_step(self) -> list[tuple[int, Board]]:
        if self.renumbering:
            self.done = True
            return []
        self.renumbering = True
        board = renumbered(self.board)
        if board == self.board or not valid(board):
            self.done = True
            return []
        return [(-1, board)]

    def feed(self, tried: list[tuple[int, Board]], results: list[Found | None]) -> None:
        """The results of `candidates`: keep the first that still fails."""
        for (index, board), found in zip(tried, results):
            self.checks += 1
            if found is not None and still_fails(found, self.target):
                self.board, self.found = board, found
                if index < 0:
                    self.done = True
                else:
                    self.index, self.passes_changed = index, True
                return
        if tried and tried[0][0] < 0:
            self.done = True
            return
        self.index = self._window_end


def primary(found: Found) -> Found:
    """What a failure is about: the characteristics that differ, when any do; else the broken
    invariants (a rules checker's violations on a board where both answers agree). A checker's
    violations beside a difference only describe it further, and vary with the board."""
    differs = [f for f in found if not isinstance(getattr(f, "side", None), str)]
    return differs or list(found)


def still_fails(found: Found | None, target: frozenset[str]) -> bool:
    """A candidate shows the failure being shrunk: a failure of the same nature (a difference, or
    only violations) whose kinds are all the target's."""
    if not found:
        return False
    return kinds(primary(found)) <= target


def edits_of(board: Board) -> list[Any]:
    """What a reduction tries, in order: deletions, simplifications, lower numbers."""
    return board_edits(board) + simplify_edits(board) + value_edits(board)


def shrink_all(failing: Sequence[tuple[Board, Found]], evaluate: Evaluate, window: int = WINDOW,
               on_round: Callable[[int], None] | None = None) -> list[tuple[Board, Found]]:
    """Each failing board reduced; all reductions step together, each round evaluated at once.

    Boards tried by several reductions are compared once (a cache by content)."""
    reductions = [Reduction(board, found) for board, found in failing]
    cache: dict[str, Found | None] = {}
    while True:
        wanted = [(r, r.candidates(window)) for r in reductions if not r.done]
        wanted = [(r, c) for r, c in wanted if c]
        if not wanted:
            break
        fresh: dict[str, Board] = {}
        for _, tried in wanted:
            for _, board in tried:
                key = _key(board)
                if key not in cache:
                    fresh.setdefault(key, board)
        if fresh:
            for key, found in zip(fresh, evaluate(list(fresh.values()))):
                cache[key] = found
            if on_round is not None:
                on_round(len(fresh))
        for reduction, tried in wanted:
            reduction.feed(tried, [cache[_key(board)] for _, board in tried])
    return [(r.board, r.found) for r in reductions]


def _key(board: Board) -> str:
    return json.dumps(board, sort_keys=True, separators=(",", ":"))
