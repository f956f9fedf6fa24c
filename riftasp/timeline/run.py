"""Replaying a timeline: the state after every event, calculated, with the real transitions it
caused (docs/semantics.md §10).

For each event: apply it (replay.py), let the engine's bookkeeping give timestamps to what is
active (stamps.py, or the reference engine's own riftasp/reference/timeline.py), calculate,
and ask the bookkeeping again with what the calculation gave (a condition that now holds makes
its text active: it gains the event's time). When the answer equals the timestamps calculated
with, the moment is settled; a calculation already done for the same board is reused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..model import Board
from ..result import Resolution
from ..transitions import Transition, transitions
from .log import Event, Timeline
from .replay import State, apply, checked_board, start_state
from .things import Stamps, Thing, board_stamps, thing_words, write_stamps

# A moment whose timestamps still change after this many calculations is reported as not
# settling (a text whose new timestamp turns its own condition off): the last one is kept.
MAX_ROUNDS = 4


class Bookkeeping(Protocol):
    name: str

    def stamps(self, board: Board, resolution: Resolution, was: Stamps, now: int) -> Stamps: ...


@dataclass(frozen=True)
class StampChange:
    thing: Thing
    before: int | None
    after: int | None

    @property
    def text(self) -> str:
        who = thing_words(self.thing)
        if self.after is None and self.thing[0] in ("effect", "flag"):
            return f"{who} ends"
        if self.after is None:
            return f"{who} loses its timestamp (inactive)"
        return f"{who} gains timestamp {self.after}"

    def to_json(self) -> dict[str, Any]:
        return {"thing": list(self.thing), "before": self.before, "after": self.after, "text": self.text}


@dataclass
class Moment:
    """The game after one event (`event` None: the starting board)."""

    event: Event | None
    time: int
    board: Board
    data: dict[str, Any]  # the board's data, timestamps filled in: a board file
    resolution: Resolution
    stamps: Stamps  # what is active, with its timestamp
    transitions: list[Transition] = field(default_factory=list)
    stamp_changes: list[StampChange] = field(default_factory=list)
    note: str | None = None
    calculations: int = 0  # the calculations this moment needed (0: all reused)

    @property
    def index(self) -> int:
        return -1 if self.event is None else self.event.index


def bookkeeping_for(engine: str) -> Bookkeeping:
    if engine == "reference":
        from ..reference.timeline import ReferenceBookkeeping

        return ReferenceBookkeeping()
    from .stamps import AspBookkeeping

    return AspBookkeeping()


def replay(timeline: Timeline, engine: str = "asp", upto: int | None = None,
           resolve: Callable[[Board], Resolution] | None = None,
           keeper: Bookkeeping | None = None) -> Iterator[Moment]:
    """The starting moment, then the moment after each event (up to event `upto`). `resolve`
    and `keeper` replace the engine's calculation and bookkeeping (the fixture engines of the
    tests plant defects in them)."""
    if resolve is None:
        from ..commands import engine_for

        resolve = engine_for(engine)
    keeper = keeper or bookkeeping_for(engine)
    cache = _Calculations(resolve)
    state = start_state(timeline)
    data = state.board_data()
    board = checked_board(data, timeline, None)
    resolution = cache(board, data)
    latest = max([0, *board_stamps(board).values()])
    stamps = keeper.stamps(board, resolution, board_stamps(board), latest)
    moment = Moment(None, latest, board, data, resolution, stamps, calculations=cache.done)
    yield moment
    for event in timeline.events:
        if upto is not None and event.index > upto:
            return
        before = moment
        cache.done = 0
        state = apply(replace(state, objects={o["id"]: o for o in before.data["objects"]},
                              effects={e["id"]: e for e in before.data.get("effects", [])}), event, timeline)
        moment = _settle(state, event, before, keeper, cache, timeline)
        yield moment


def _settle(state: State, event: Event, before: Moment, keeper: Bookkeeping, cache: _Calculations,
            timeline: Timeline) -> Moment:
    data = state.board_data()
    plain = checked_board(data, timeline, event)  # the event's changes with the old timestamps
    # First guess: conditions as the last calculation left them (what is new holds nothing yet).
    stamps = keeper.stamps(plain, before.resolution, before.stamps, event.time)
    note = None
    for _ in range(MAX_ROUNDS):
        stamped = write_stamps(data, stamps, plain)
        board = checked_board(stamped, timeline, event)
        resolution = cache(board, stamped)
        again = keeper.stamps(board, resolution, before.stamps, event.time)
        if again == stamps:
            break
        stamps = again
    else:
        note = (f"the timestamps do not settle after {MAX_ROUNDS} calculations (a text's new timestamp "
                f"turns its own condition off): the last calculation is kept")
    changes = [StampChange(t, before.stamps.get(t), stamps.get(t))
               for t in sorted(set(before.stamps) | set(stamps)) if before.stamps.get(t) != stamps.get(t)]  # fmt: skip
    return Moment(event, event.time, board, stamped, resolution, stamps, transitions(before.resolution, resolution),
                  changes, note, cache.done)


class _Calculations:
    """The engine's calculations, each board calculated once (a moment that changes nothing the
    calculation reads, such as a card moving between hidden zones, costs no solving)."""

    def __init__(self, resolve: Callable[[Board], Resolution]) -> None:
        self.resolve = resolve
        self.seen: dict[str, Resolution] = {}
        self.done = 0

    def __call__(self, board: Board, data: dict[str, Any]) -> Resolution:
        key = json.dumps(data, sort_keys=True)
        if key not in self.seen:
            self.seen[key] = self.resolve(board)
            self.done += 1
            if len(self.seen) > 64:  # a game revisits recent states, rarely old ones
                self.seen.pop(next(iter(self.seen)))
        return self.seen[key]
