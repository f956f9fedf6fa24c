"""Whether a timeline can be replayed at all, without calculating anything: every event applied
in turn (replay.py) and the board after it read as a board file is. What replaying would refuse
(`riftasp timeline`'s one-line errors) is refused here, at the cost of reading boards only, so
`crosscheck` stops on a bad log before any engine starts, and the generator and the shrinker
(generate.py, shrink.py) keep only games that replay.
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Board
from .log import Timeline
from .replay import apply, checked_board, start_state


def event_boards(timeline: Timeline) -> list[Board]:
    """The board after each event (its timestamps not yet assigned: the objects, zones and keys
    are what they will be); a `BoardError` naming the event when one makes no sense."""
    state = start_state(timeline)
    checked_board(state.board_data(), timeline, None)
    boards = []
    for event in timeline.events:
        state = apply(state, event, timeline)
        boards.append(checked_board(state.board_data(), timeline, event))
        state = replace(state, together=None)
    return boards
