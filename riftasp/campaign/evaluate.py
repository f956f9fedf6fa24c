"""One piece of a campaign's work: boards compared between riftasp and an engine.

The functions here are what the runners (riftasp/campaign/pool.py) run in this process, in a
local worker process or on a Dask worker: module-level, their arguments plain data (board dicts,
an `EngineSpec`, the name of riftasp's engine), so they pickle. A worker builds an engine once
and keeps it for every task it runs (`worker_cached`); a persistent command engine stays up.

Every board ends in one `Outcome`, whatever happens on either side: compared (with its findings,
maybe none), unsupported by the engine, an engine error (anything the engine did that is not an
answer: riftasp/engines.py) or a riftasp error. Nothing a board does stops the others.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..board_io import BoardError, board_from_dict
from ..compare import Disagreement, Violation, compare
from ..engines import Engine, EngineError, Unsupported, make_engine
from ..model import Board
from ..result import Resolution
from .pool import worker_cached

Found = list[Disagreement | Violation]

COMPARED, UNSUPPORTED, ENGINE_ERROR, RIFTASP_ERROR = "compared", "unsupported", "engine_error", "riftasp_error"


@dataclass(frozen=True)
class EngineSpec:
    """An engine as the command line names it: built where the work runs."""

    command: str
    persistent: bool = False
    timeout: float = 30.0
    expand: bool = False

    def make(self) -> Engine:
        return make_engine(self.command, persistent=self.persistent, timeout=self.timeout, expand=self.expand)


@dataclass(frozen=True)
class Sides:
    """What a task compares: the engine (a spec, or an engine object for work in this process),
    riftasp's engine ("asp", "reference", or a callable in this process) and the rules checker."""

    engine: EngineSpec | Engine
    riftasp: str | Callable[[Board], Resolution] = "asp"
    checker: Any = None  # a Checker (riftasp.crosscheck), e.g. riftasp.check.CampaignChecker()
    explain: bool = False  # riftasp's short trace of each object in question (crosscheck reports)

    def the_engine(self) -> Engine:
        if isinstance(self.engine, EngineSpec):
            return worker_cached(("engine", self.engine), self.engine.make)
        return self.engine


@dataclass
class Outcome:
    """One board's comparison."""

    status: str  # COMPARED | UNSUPPORTED | ENGINE_ERROR | RIFTASP_ERROR
    found: Found = field(default_factory=list)
    reason: str = ""  # why unsupported, or the error's one line
    explains: dict[str, str] = field(default_factory=dict)
    applied: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def failing(self) -> bool:
        return self.status == COMPARED and bool(self.found)


def compare_boards(sides: Sides, boards: Sequence[Board]) -> list[Outcome]:
    """Each board's outcome: the engine answers first (a board it does not support is not
    resolved at all), then riftasp resolves the answered boards together."""
    engine = sides.the_engine()
    answers: list[dict[str, Any] | Outcome] = []
    for board in boards:
        try:
            answers.append(engine(board))
        except Unsupported as unsupported:
            answers.append(Outcome(UNSUPPORTED, reason=unsupported.reason))
        except EngineError as err:
            answers.append(Outcome(ENGINE_ERROR, reason=str(err)))
    answered = [b for b, a in zip(boards, answers) if not isinstance(a, Outcome)]
    ours = iter(_riftasp(sides.riftasp, answered))
    out = []
    for board, answer in zip(boards, answers):
        if isinstance(answer, Outcome):
            out.append(answer)
            continue
        resolution = next(ours)
        out.append(resolution if isinstance(resolution, Outcome) else _compared(sides, board, resolution, answer))
    return out


def compare_answer(sides: Sides, board: Board, ours: Resolution, theirs: dict[str, Any]) -> Outcome:
    """One answer compared with riftasp's resolution of `board` (a timeline's moments are compared
    this way too: riftasp/timeline/crosscheck.py)."""
    return _compared(sides, board, ours, theirs)


def _compared(sides: Sides, board: Board, ours: Resolution, theirs: dict[str, Any]) -> Outcome:
    from ..crosscheck import short_explain, violations

    mine = ours.to_json()
    found: Found = list(compare(board.source, mine, theirs, board.ruleset))
    if sides.checker is not None:
        try:
            found += violations(sides.checker, board, mine, "riftasp")
        except Exception as err:  # noqa: BLE001 - a bug of riftasp's own checker: that board's error
            return Outcome(RIFTASP_ERROR, reason=f"the checker failed on {board.source} (riftasp's answer): "
                                                 f"{type(err).__name__}: {err}")  # fmt: skip
        try:
            found += violations(sides.checker, board, theirs, "engine")
        except Exception as err:  # noqa: BLE001 - an answer the checker cannot read is not an answer
            return Outcome(ENGINE_ERROR, reason=f"engine answer on {board.source} cannot be checked: "
                                                f"{type(err).__name__}: {err}")  # fmt: skip
    outcome = Outcome(COMPARED, found)
    if sides.explain and found:
        for oid in dict.fromkeys(d.object for d in found):
            if oid in ours.objects:  # an object only the engine reports has no trace here
                outcome.explains[oid] = short_explain(ours, oid)
                outcome.applied[oid] = [a.to_json() for a in ours.applied.get(oid, [])]
    return outcome


def _riftasp(engine: str | Callable[[Board], Resolution], boards: list[Board]) -> list[Resolution | Outcome]:
    """riftasp's resolution of each board, or a RIFTASP_ERROR outcome for a board it failed on."""
    if not boards:
        return []
    if engine == "asp":
        from ..batch import resolve_many
        from ..failure import ResolveFailure

        # A board riftasp fails on is that board's error; the batch's other answers stand.
        return [Outcome(RIFTASP_ERROR, reason=f"riftasp failed on {r.message}") if isinstance(r, ResolveFailure) else r
                for r in resolve_many(boards)]  # fmt: skip
    if engine == "reference":
        from ..reference import resolve as reference

        return [_one(reference, board) for board in boards]
    assert callable(engine)
    return [_one(engine, board) for board in boards]


def _one(resolve: Callable[[Board], Resolution], board: Board) -> Resolution | Outcome:
    try:
        return resolve(board)
    except Exception as err:  # noqa: BLE001 - a riftasp bug found by a campaign: that board's error
        return Outcome(RIFTASP_ERROR, reason=f"riftasp failed on {board.source}: {type(err).__name__}: {err}")


# ---- tasks ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardsTask:
    """Board dicts to compare, with the source each is reported under."""

    sides: Sides
    boards: tuple[tuple[str, dict[str, Any]], ...]  # (source, board dict)


def compare_dicts(task: BoardsTask) -> list[Outcome]:
    """A task's boards compared (a board that is not valid is an error of riftasp's side: the
    campaign made it)."""
    boards: list[Board | Outcome] = []
    for source, data in task.boards:
        try:
            boards.append(board_from_dict(data, source))
        except BoardError as err:
            boards.append(Outcome(RIFTASP_ERROR, reason=str(err)))
    valid = [b for b in boards if isinstance(b, Board)]
    results = iter(compare_boards(task.sides, valid))
    return [b if isinstance(b, Outcome) else next(results) for b in boards]


@dataclass(frozen=True)
class GenerateTask:
    """A chunk of a fuzz run's boards: generated where the task runs, then compared."""

    sides: Sides
    ruleset: str
    profile: Any  # riftasp.profile.Profile
    seed: int
    chunk: int
    size: int


@dataclass
class ChunkResult:
    chunk: int
    outcomes: list[Outcome]
    boards: list[dict[str, Any] | None]  # the failing and erring boards (None for the others)


def chunk_seed(seed: int, chunk: int) -> int:
    """The hypothesis seed of a chunk: fixed by the run's seed and the chunk's number alone, so
    the boards do not depend on how many workers draw them."""
    digest = hashlib.sha256(f"riftasp-fuzz/{seed}/{chunk}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def generate_and_compare(task: GenerateTask) -> ChunkResult:
    from .draw import drawn_boards
    from ..rulesets import ruleset

    strategy = worker_cached(("strategy", task.ruleset, task.profile),
                             lambda: ruleset(task.ruleset).board_strategy(task.profile))  # fmt: skip
    drawn = drawn_boards(strategy, chunk_seed(task.seed, task.chunk), task.size)
    return compare_drawn(task.sides, task.seed, task.chunk, drawn)


def compare_drawn(sides: Sides, seed: int, chunk: int, drawn: list[dict[str, Any]]) -> ChunkResult:
    sources = [board_source(seed, chunk, i) for i in range(len(drawn))]
    outcomes = compare_dicts(BoardsTask(sides, tuple(zip(sources, drawn))))
    kept = [d if o.failing or o.status in (ENGINE_ERROR, RIFTASP_ERROR) else None for d, o in zip(drawn, outcomes)]
    return ChunkResult(chunk, outcomes, kept)


def board_source(seed: int, chunk: int, index: int) -> str:
    return f"<fuzz seed {seed} chunk {chunk} board {index}>"


# ---- findings as data -------------------------------------------------------------------------


def found_to_json(found: Found) -> list[dict[str, Any]]:
    return [d.to_json() for d in found]


def found_from_json(items: list[dict[str, Any]]) -> Found:
    """Findings read back from `found_to_json`."""
    out: Found = []
    for item in items:
        if "invariant" in item:
            names = {f.name for f in dataclasses.fields(Violation)}
            out.append(Violation(**{k: v for k, v in item.items() if k in names}))
        else:
            out.append(Disagreement(item["board"], item["object"], item["field"], item["riftasp"], item["engine"]))
    for violation in out:
        if isinstance(violation, Violation) and isinstance(violation.decisions, list):  # JSON has no tuples
            out[out.index(violation)] = dataclasses.replace(violation, decisions=tuple(violation.decisions))
    return out
