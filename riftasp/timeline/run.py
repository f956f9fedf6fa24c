"""Replaying a timeline: the state after every event, calculated, with the real transitions it
caused (docs/semantics.md §14).

For each event: apply it (replay.py), let the engine's bookkeeping give timestamps to what is
active (stamps.py, or the reference engine's own riftasp/reference/timeline.py), calculate,
and ask the bookkeeping again with what the calculation gave (a condition that now holds makes
its text active: it gains the event's time). When the answer equals the timestamps calculated
with, the moment is settled; a calculation already done for the same board is reused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..model import Board
from ..result import Resolution
from ..transitions import Transition, transitions
from .log import Event, Timeline
from .parts import merged, split
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
    last: Stamps = field(default_factory=dict)  # every thing's last timestamp, active or not

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
    tests plant defects in them).

    The ASP engine settles a window of events at a time: it guesses every moment's timestamps,
    calculates the window's boards in one program (riftasp/batch.py), asks the bookkeeping again
    with what each calculation gave, and calculates again only the boards whose timestamps
    changed, until none does; what it yields is what settling the events one by one gives (each
    moment's timestamps are the bookkeeping's answer for its own calculation), at a fraction of
    the cost. Other engines settle event by event."""
    state = start_state(timeline)
    # Windows where the ruleset's batches pay (its manifest's [timeline] windows, default true).
    windowed = bool(state.ruleset.manifest.get("timeline", {}).get("windows", True))
    batched = resolve is None and engine == "asp" and windowed
    many: Callable[[list[Board]], list[Resolution]]
    if batched:
        from ..batch import resolve_all

        many = resolve_all
    else:
        if resolve is None:
            resolve = _engine(engine)
        many = _one_by_one(resolve)
    keeper = keeper or bookkeeping_for(engine)
    cache = _Calculations(many)
    data = state.board_data()
    board = checked_board(data, timeline, None)
    resolution = cache.one(board)
    given = board_stamps(board)
    latest = max([0, *given.values()])
    stamps = keeper.stamps(board, resolution, given, latest)
    moment = Moment(None, latest, board, data, resolution, stamps, last=given, calculations=cache.done)
    yield moment
    events = [e for e in timeline.events if upto is None or e.index <= upto]
    if not batched:
        for event in events:
            cache.done = 0
            moment = _settle(_after(moment, event, timeline), event, moment, keeper, cache, timeline)
            yield moment
        return
    for first in range(0, len(events), WINDOW):
        moments = _settle_window(events[first:first + WINDOW], moment, keeper, cache, timeline)
        yield from moments
        moment = moments[-1]


def check_events(timeline: Timeline) -> None:
    """Every event's sense at its moment and every board it leaves, before anything is
    calculated: a bad event is reported before the moments before it are printed."""
    state = start_state(timeline)
    checked_board(state.board_data(), timeline, None)
    for event in timeline.events:
        state = apply(state, event, timeline)
        checked_board(state.board_data(), timeline, event)


def _engine(name: str) -> Callable[[Board], Resolution]:
    # (Not riftasp.commands' engine_for: the engine protocol reads timelines through this module.)
    if name == "reference":
        from ..reference import resolve as reference

        return reference
    from ..resolve import resolve as asp

    return asp


def _one_by_one(resolve: Callable[[Board], Resolution]) -> Callable[[list[Board]], list[Resolution]]:
    return lambda boards: [resolve(b) for b in boards]


def _after(moment: Moment, event: Event, timeline: Timeline) -> State:
    """The state `event` leaves, from the moment before it (its changes, no new timestamps)."""
    return apply(_after_state(moment), event, timeline)


def _written(data: dict[str, Any], plain: Board, stamps: Stamps, last: Stamps) -> dict[str, Any]:
    """The board's data with the active things' timestamps, and what is inactive with the last
    timestamp it had."""
    return write_stamps(data, {**last, **stamps}, plain)


def _settle(state: State, event: Event, before: Moment, keeper: Bookkeeping, cache: _Calculations,
            timeline: Timeline) -> Moment:
    data = state.board_data()
    plain = checked_board(data, timeline, event)  # the event's changes with the old timestamps
    # First guess: conditions as the last calculation left them (what is new holds nothing yet).
    stamps = keeper.stamps(plain, before.resolution, before.stamps, event.time)
    note = None
    for _ in range(MAX_ROUNDS):
        stamped = _written(data, plain, stamps, before.last)
        board = checked_board(stamped, timeline, event)
        resolution = cache.one(board)
        again = keeper.stamps(board, resolution, before.stamps, event.time)
        if again == stamps:
            break
        stamps = again
    else:
        note = NOT_SETTLED
    return _moment(event, before, board, stamped, resolution, stamps, note, cache.done)


NOT_SETTLED = (f"the timestamps do not settle after {MAX_ROUNDS} calculations (a text's new timestamp "
               f"turns its own condition off): the last calculation is kept")
WINDOW = 64  # events settled together by the ASP engine (a window's moments are yielded at once)


def _moment(event: Event, before: Moment, board: Board, data: dict[str, Any], resolution: Resolution,
            stamps: Stamps, note: str | None, calculations: int) -> Moment:
    changes = [StampChange(t, before.stamps.get(t), stamps.get(t))
               for t in sorted(set(before.stamps) | set(stamps)) if before.stamps.get(t) != stamps.get(t)]  # fmt: skip
    return Moment(event, event.time, board, data, resolution, stamps, transitions(before.resolution, resolution),
                  changes, note, calculations, last={**before.last, **stamps})


def _settle_window(window: list[Event], before: Moment, keeper: Bookkeeping, cache: _Calculations,
                   timeline: Timeline) -> list[Moment]:
    """Settle `window`'s events together (see `replay`): the same moments as one by one."""
    plains: list[tuple[dict[str, Any], Board]] = []
    state_before = _after_state(before)
    for event in window:
        state_before = apply(state_before, event, timeline)
        data = state_before.board_data()
        plains.append((data, checked_board(data, timeline, event)))
    n = len(window)
    # First guesses: each event's bookkeeping over the last calculation known (the window's start).
    stamps: list[Stamps] = []
    was = before.stamps
    for event, (_, plain) in zip(window, plains, strict=True):
        was = keeper.stamps(plain, before.resolution, was, event.time)
        stamps.append(was)
    boards: list[Board | None] = [None] * n
    datas: list[dict[str, Any] | None] = [None] * n
    results: list[Resolution | None] = [None] * n
    rounds = [0] * n
    calculations = [0] * n
    settled_upto = 0  # every moment before this one is settled
    while True:
        last, fresh = before.last, []
        for j in range(n):
            data = _written(plains[j][0], plains[j][1], stamps[j], last)
            last = {**last, **stamps[j]}
            if data != datas[j]:
                datas[j] = data
                boards[j] = checked_board(data, timeline, window[j])
                results[j] = None
                fresh.append(j)
        done_before = cache.done
        for j, resolution in zip(fresh, cache([boards[j] for j in fresh]), strict=True):  # type: ignore[misc]
            results[j] = resolution
        if fresh:
            calculations[fresh[0]] += cache.done - done_before
        changed = False
        was = before.stamps
        for j in range(n):
            if j >= settled_upto:
                again = keeper.stamps(boards[j], results[j], was, window[j].time)  # type: ignore[arg-type]
                if again == stamps[j]:
                    if not changed:
                        settled_upto = j + 1
                else:
                    if not changed:  # the first moment not settled: one more round of its own
                        rounds[j] += 1
                    if not changed and rounds[j] >= MAX_ROUNDS:
                        settled_upto = j + 1  # it does not settle: its last calculation is kept
                    else:
                        stamps[j] = again
                        changed = True
            was = stamps[j]
        if not changed:
            break
    moments = []
    moment = before
    for j, event in enumerate(window):
        note = NOT_SETTLED if rounds[j] >= MAX_ROUNDS else None
        moment = _moment(event, moment, boards[j], datas[j], results[j], stamps[j], note,  # type: ignore[arg-type]
                         calculations[j])
        moments.append(moment)
    return moments


def _after_state(moment: Moment) -> State:
    return State(top={k: v for k, v in moment.data.items() if k not in ("objects", "effects")},
                 ruleset=moment.board.ruleset, objects={o["id"]: o for o in moment.data["objects"]},
                 effects={e["id"]: e for e in moment.data.get("effects", [])}, time=moment.time)


class _Calculations:
    """The engine's calculations, by parts (parts.py): each part of a board calculated once, the
    parts new to a round calculated together (`many`: one program for the ASP engine), so an
    event costs the parts it changed."""

    KEEP = 512  # parts remembered: a game revisits recent states, rarely old ones

    def __init__(self, many: Callable[[list[Board]], list[Resolution]]) -> None:
        self.many = many
        self.seen: dict[Board, Resolution] = {}
        self.done = 0  # parts calculated so far

    def one(self, board: Board) -> Resolution:
        return self([board])[0]

    def __call__(self, boards: list[Board]) -> list[Resolution]:
        split_boards = [split(board) for board in boards]
        todo = list(dict.fromkeys(part for parts in split_boards for part in parts if part not in self.seen))
        for part, resolution in zip(todo, self.many(todo) if todo else [], strict=True):
            self.seen[part] = resolution
        self.done += len(todo)
        out = [merged(board, [self.seen[p] for p in parts]) for board, parts in zip(boards, split_boards, strict=True)]
        while len(self.seen) > self.KEEP:
            self.seen.pop(next(iter(self.seen)))
        return out
