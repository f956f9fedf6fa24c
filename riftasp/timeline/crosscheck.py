"""The timeline mode of the engine protocol (docs/crosscheck.md): an engine is sent a timeline
(a board with `events`) the way it is sent a board, and answers the game's state after each
event, `{"moments": [<the answer for a board>, ... one per event]}`, or `{"unsupported":
reason}` / `{"error": message}` as for a board.

riftasp replays the same timeline (run.py) and the two are compared moment by moment with the
comparison of boards (riftasp/campaign/evaluate.py); a disagreement is reported at the first
event after which they differ, with the board riftasp computed at that moment (a board file).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..board_io import BoardError
from ..campaign.evaluate import COMPARED, ENGINE_ERROR, RIFTASP_ERROR, UNSUPPORTED, Outcome, Sides, compare_answer
from ..engine_answers import EngineError, Unsupported, _check_values, check_refusal, check_result
from ..crosscheck import BoardCheck
from ..engines import Engine
from ..model import Board
from ..result import Resolution
from .log import Timeline, is_timeline, load_timeline, timeline_from_dict, timeline_to_dict
from .answer import replay_answer as replay_answer  # (the fixture engines answer with it)
from .run import Moment, replay
from .valid import event_boards

UNSUPPORTED_REASON = "timelines"  # what an engine without a timeline mode is counted under


def judge_moments(result: Any, name: str, source: str, boards: Sequence[Board]) -> dict[str, Any]:
    """The answer if it is one for the timeline: a list of moments, one per event, each the
    answer for the board after that event (exactly its objects, in the contract's shape)."""

    def bad(where: str, message: str) -> EngineError:
        return EngineError(f"engine {name} on {source}: output {where}: {message}")

    _check_values(result, bad)
    check_refusal(result, "moments", name, source, bad)
    if not isinstance(result, dict):
        raise bad("top level", f"expected an object with `moments`, got {type(result).__name__}")
    moments = result.get("moments")
    if not isinstance(moments, list):
        raise bad("moments", "missing" if moments is None else f"expected a list, got {type(moments).__name__}")
    if len(moments) != len(boards):
        raise bad("moments", f"{len(moments)} moments for {len(boards)} events (one per event, after it)")
    for i, (moment, board) in enumerate(zip(moments, boards)):
        check_result(moment, name, replace(board, source=f"{source} moments[{i}]"))
    return result


def engine_moments(engine: Engine, timeline: Timeline, boards: Sequence[Board]) -> list[dict[str, Any]]:
    """The engine's state after each event; EngineError or Unsupported otherwise. An engine with
    no timeline mode at all (a Python callable without one) does not support timelines."""
    ask = getattr(engine, "timeline", None)
    if ask is None:
        raise Unsupported(UNSUPPORTED_REASON)
    answer = ask(timeline_to_dict(timeline), timeline.source,
                 lambda result: judge_moments(result, engine.name, timeline.source, boards))  # fmt: skip
    moments: list[dict[str, Any]] = answer["moments"]
    return moments


@dataclass
class TimelineOutcome(Outcome):
    """A timeline's comparison: as a board's, and where the two first differ."""

    event: int | None = None  # the first event after which they differ
    time: int | None = None
    board: dict[str, Any] | None = None  # riftasp's board at that moment (a board file)
    events: int = 0
    # What riftasp's bookkeeping did at that moment, by kind (`renewed`: a thing active again
    # gains a new timestamp; `new`, `lost`): what a bookkeeping defect is about (fuzz.py).
    transitions: tuple[str, ...] = ()


def compare_timeline(sides: Sides, timeline: Timeline) -> TimelineOutcome:
    """Replay `timeline` on both sides and compare them after each event, up to the first
    difference. A log that does not replay is riftasp's error (the caller checked it first)."""
    try:
        boards = event_boards(timeline)
    except BoardError as err:
        return TimelineOutcome(RIFTASP_ERROR, reason=str(err), events=len(timeline.events))
    try:
        theirs = engine_moments(sides.the_engine(), timeline, boards)
    except Unsupported as unsupported:
        return TimelineOutcome(UNSUPPORTED, reason=unsupported.reason, events=len(timeline.events))
    except EngineError as err:
        return TimelineOutcome(ENGINE_ERROR, reason=str(err), events=len(timeline.events))
    try:
        ours = riftasp_moments(sides.riftasp, timeline)
    except Exception as err:  # noqa: BLE001 - a riftasp bug found on a timeline: that timeline's error
        return TimelineOutcome(RIFTASP_ERROR, reason=f"riftasp failed on {timeline.source}: "
                                                     f"{type(err).__name__}: {err}", events=len(timeline.events))
    return compare_moments(sides, timeline, ours, theirs)


def riftasp_moments(riftasp: str | Callable[[Board], Resolution], timeline: Timeline) -> list[Moment]:
    """riftasp's moments: the starting one, then one after each event."""
    if isinstance(riftasp, str):
        return list(replay(timeline, riftasp))
    return list(replay(timeline, "asp", resolve=riftasp))


def compare_moments(sides: Sides, timeline: Timeline, ours: Sequence[Moment],
                    theirs: Sequence[dict[str, Any]]) -> TimelineOutcome:  # fmt: skip
    for moment, answer in zip(ours[1:], theirs):  # (the starting moment is no event's)
        assert moment.event is not None
        where = f"{timeline.source} events[{moment.event.index}]"
        outcome = compare_answer(sides, replace(moment.board, source=where), moment.resolution, answer)
        if outcome.status != COMPARED:
            return TimelineOutcome(outcome.status, reason=outcome.reason, event=moment.event.index,
                                   time=moment.time, events=len(timeline.events))  # fmt: skip
        if outcome.found:
            return TimelineOutcome(COMPARED, outcome.found, explains=outcome.explains, applied=outcome.applied,
                                   event=moment.event.index, time=moment.time, board=moment.data,
                                   events=len(timeline.events), transitions=transition_kinds(ours, moment))  # fmt: skip
    return TimelineOutcome(COMPARED, events=len(timeline.events))


def transition_kinds(moments: Sequence[Moment], moment: Moment) -> tuple[str, ...]:
    """The kinds of stamp changes riftasp made at `moment`: a thing that gains a timestamp it had
    at an earlier moment (and lost since) is `renewed`, one never stamped before `new`; a thing
    that loses its timestamp `lost`."""
    earlier = {thing for m in moments if m.index < moment.index for thing in m.stamps}
    kinds = set()
    for change in moment.stamp_changes:
        if change.after is None:
            kinds.add("lost")
        elif change.before is None:
            kinds.add("renewed" if change.thing in earlier else "new")
    return tuple(sorted(kinds))


# ---- tasks (riftasp/campaign/pool.py runs them anywhere) --------------------------------------


@dataclass(frozen=True)
class TimelinesTask:
    """Timelines to compare, as data: (source, the timeline's dict)."""

    sides: Sides
    timelines: tuple[tuple[str, dict[str, Any]], ...]


def compare_timeline_dicts(task: TimelinesTask) -> list[TimelineOutcome]:
    out = []
    for source, data in task.timelines:
        try:
            timeline = timeline_from_dict(data, source)
        except BoardError as err:
            out.append(TimelineOutcome(RIFTASP_ERROR, reason=str(err)))
            continue
        out.append(compare_timeline(task.sides, timeline))
    return out


# ---- `riftasp crosscheck` on timeline files --------------------------------------------------

TIMELINE_GROUP = 2  # timeline files per task (a timeline is a board per event)


def split_timelines(files: Sequence[Path]) -> tuple[list[Path], list[Timeline]]:
    """(the board files, the timelines): a file whose data has `events` is a timeline, read and
    checked event by event here (a bad log is a `BoardError`, before any engine starts)."""
    boards, timelines = [], []
    for path in files:
        if path.suffix.lower() in (".json", ".yaml", ".yml") and _is_timeline_file(path):
            timeline = load_timeline(path)
            event_boards(timeline)
            timelines.append(timeline)
        else:
            boards.append(path)
    return boards, timelines


def _is_timeline_file(path: Path) -> bool:
    from ..board_io.parsing import parse_json, parse_yaml

    try:
        text = path.read_text(encoding="utf-8")
        data = parse_json(text, str(path)) if path.suffix.lower() == ".json" else parse_yaml(text, str(path))
    except (OSError, UnicodeDecodeError, BoardError):
        return False  # the board loader says what is wrong with it
    return is_timeline(data)


@dataclass
class TimelineCheck(BoardCheck):
    """A timeline's comparison in a crosscheck report (`board` names it and the event)."""

    timeline: str = ""
    event: int | None = None
    time: int | None = None
    moment: dict[str, Any] | None = None  # riftasp's board after `event`
    file: str | None = None  # where it was written (--out)

    def to_json(self) -> dict[str, Any]:
        return {"timeline": self.timeline, "event": self.event, "time": self.time, "board": self.moment,
                "file": self.file}  # fmt: skip


def timeline_checks(runner: Any, sides: Sides, timelines: Sequence[Timeline],
                    each: Callable[[TimelineCheck], None]) -> list[TimelineCheck]:  # fmt: skip
    """Each timeline compared on the runner (a few per task); `each` is told of every check."""
    tasks = [TimelinesTask(sides, tuple((t.source, timeline_to_dict(t)) for t in timelines[i:i + TIMELINE_GROUP]))
             for i in range(0, len(timelines), TIMELINE_GROUP)]  # fmt: skip
    checks = []
    position = 0
    for outcomes in runner.map(compare_timeline_dicts, tasks):
        for outcome in outcomes:
            source = timelines[position].source
            position += 1
            check = as_check(source, outcome)
            checks.append(check)
            each(check)
    return checks


def as_check(source: str, outcome: TimelineOutcome) -> TimelineCheck:
    where = source if outcome.event is None else f"{source} events[{outcome.event}] (time {outcome.time})"
    check = TimelineCheck(where, outcome.found, outcome.explains, outcome.applied, timeline=source,
                          event=outcome.event, time=outcome.time, moment=outcome.board)  # fmt: skip
    if outcome.status == UNSUPPORTED:
        check.unsupported = outcome.reason
    elif outcome.status == ENGINE_ERROR:
        check.engine_error = outcome.reason
    elif outcome.status == RIFTASP_ERROR:
        check.riftasp_error = outcome.reason
    return check


def write_moments(checks: Sequence[BoardCheck], out: Path | None) -> list[str]:
    """Each disagreeing timeline's board at the moment they first differ, written to `out` as
    `<timeline>-event<N>.json` (a board file riftasp resolve and explain read); a line for each."""
    lines = []
    for check in checks:
        if not isinstance(check, TimelineCheck) or check.moment is None or not check.supported:
            continue
        if out is None:
            lines.append(f"{check.timeline}: first differs after events[{check.event}]; --out DIR writes riftasp's "
                         f"board at that moment")
            continue
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{Path(check.timeline).stem}-event{check.event}.json"
        path.write_text(json.dumps(check.moment, indent=2) + "\n", encoding="utf-8")
        check.file = str(path)
        lines.append(f"{check.timeline}: first differs after events[{check.event}]; riftasp's board at that moment: "
                     f"{path}")
    return lines


def timelines_json(checks: Sequence[BoardCheck]) -> dict[str, Any]:
    """The report's `timelines` (only when some file was a timeline)."""
    found = [c.to_json() for c in checks if isinstance(c, TimelineCheck)]
    return {"timelines": found} if found else {}
