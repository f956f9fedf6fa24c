"""`riftasp fuzz`: differential fuzzing of riftasp's ASP resolver against another engine.

Hypothesis draws boards from `riftasp.strategies.boards()` and runs a property that fails when
the two engines disagree; hypothesis then shrinks the failing board, and `riftasp.reduce`
deletes what is left to delete. To collect several disagreements, the search restarts with the
next seed after each one until `count` boards have been generated or the time is up. Nothing is
stored between runs (no example database) and every run is seeded, so a given seed and count
find the same boards every time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from .board_io import board_from_dict
from .compare import Disagreement, compare
from .engines import Engine, EngineError
from .model import Board
from .reduce import reduce_board
from .result import Resolution
from .strategies import boards


@dataclass
class Counterexample:
    """A shrunk board on which the engines disagree, and where it was written."""

    board: dict[str, Any]
    disagreements: list[Disagreement]
    seed: int
    path: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path) if self.path else None,
            "seed": self.seed,
            "objects": len(self.board["objects"]),
            "disagreements": [d.to_json() for d in self.disagreements],
        }


@dataclass
class FuzzFailure:
    """An engine (`side` "engine") or riftasp itself (`side` "riftasp") failed on a board."""

    side: str
    message: str
    board: dict[str, Any]
    path: Path | None = None


@dataclass
class FuzzReport:
    engine: str
    seed: int
    count: int
    generated: int = 0  # boards drawn in search (not counting shrinking)
    shrink_runs: int = 0  # boards compared while shrinking
    counterexamples: list[Counterexample] = field(default_factory=list)
    failure: FuzzFailure | None = None
    timed_out: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "seed": self.seed,
            "count": self.count,
            "generated": self.generated,
            "shrink_runs": self.shrink_runs,
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 2),
            "disagreements_found": len(self.counterexamples),
            "counterexamples": [c.to_json() for c in self.counterexamples],
            "error": None if self.failure is None else {
                "side": self.failure.side, "message": self.failure.message,
                "file": str(self.failure.path) if self.failure.path else None,
            },
        }  # fmt: skip


class _Disagreed(Exception):
    """The property's failure: hypothesis shrinks boards that raise it."""

    def __init__(self, board: dict[str, Any], found: list[Disagreement]) -> None:
        super().__init__(f"{len(found)} disagreements")
        self.board, self.found = board, found


class _Stop(BaseException):
    """Ends a hypothesis run at once: a BaseException is not a test failure, so no shrinking."""

    def __init__(self, failure: FuzzFailure | None = None) -> None:
        super().__init__()
        self.failure = failure


def fuzz(
    engine: Engine,
    *,
    seed: int = 0,
    count: int = 100,
    time_limit: float | None = None,
    riftasp: Callable[[Board], Resolution] | None = None,
    strategy: st.SearchStrategy[dict[str, Any]] | None = None,
    on_found: Callable[[Counterexample], None] | None = None,
    max_found: int = 20,
    shrink_budget: int = 100,
) -> FuzzReport:
    """Compare riftasp with `engine` on `count` generated boards; shrink every disagreement.

    Stops early after `max_found` distinct counterexamples: an engine wrong on most boards
    would otherwise be shrunk once per board. Hypothesis shrinks each for at most
    `shrink_budget` engine runs, then `riftasp.reduce` finishes the job.
    """
    if riftasp is None:
        from .resolve import resolve as riftasp
    strategy = strategy or boards()
    report = FuzzReport(engine.name, seed, count)
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    seen: set[str] = set()
    run = 0
    while report.generated < count and report.failure is None:
        found = _one_run(
            engine, riftasp, strategy, seed + run, count - report.generated, deadline, report, shrink_budget
        )
        run += 1
        if found is not None:
            key = json.dumps(found.board, sort_keys=True)
            if key not in seen:  # another seed can shrink to the same minimal board
                seen.add(key)
                report.counterexamples.append(found)
                if on_found:
                    on_found(found)
        if deadline is not None and time.monotonic() >= deadline:
            report.timed_out = report.generated < count
            break
        if found is None:
            break  # the run used its whole budget without a disagreement
        if len(report.counterexamples) >= max_found:
            break
    report.seconds = time.monotonic() - start
    return report


def _one_run(
    engine: Engine,
    riftasp: Callable[[Board], Resolution],
    strategy: st.SearchStrategy[dict[str, Any]],
    run_seed: int,
    budget: int,
    deadline: float | None,
    report: FuzzReport,
    shrink_budget: int,
) -> Counterexample | None:
    """One hypothesis search of at most `budget` boards; the shrunk counterexample, if any."""
    source = f"<fuzz seed {run_seed}>"
    last_failing: list[_Disagreed] = []  # the smallest failure so far, should shrinking be cut short
    shrink_calls = 0

    def check(data: dict[str, Any]) -> None:
        nonlocal shrink_calls
        shrinking = bool(last_failing)
        if deadline is not None and time.monotonic() >= deadline:
            raise _Stop()
        if shrinking:
            if shrink_calls >= shrink_budget:
                # Hypothesis's long tail of small steps costs an engine run each; the reduction
                # pass after it deletes whole objects and effects more cheaply.
                raise _Stop()
            shrink_calls += 1
            report.shrink_runs += 1
        else:
            report.generated += 1
        found = _disagreements(data, source, engine, riftasp)
        if found:
            failure = _Disagreed(data, found)
            last_failing[:] = [failure]
            raise failure

    test = given(strategy)(check)
    test = settings(
        database=None,
        max_examples=budget,
        deadline=None,
        derandomize=False,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
    )(test)
    test = hypothesis_seed(run_seed)(test)
    shrunk: _Disagreed | None = None
    try:
        with fixed_constants():
            test()
    except _Disagreed as failure:
        shrunk = failure
    except _Stop as stop:
        report.failure = stop.failure
        if stop.failure is None and last_failing:  # shrinking cut short: keep the best so far
            shrunk = last_failing[0]
    except Exception:  # hypothesis gave up on a flaky replay: the last failure seen still stands
        if not last_failing:
            raise
        shrunk = last_failing[0]
    if shrunk is None:
        return None
    try:
        board, found = _polish(shrunk, source, engine, riftasp, deadline, report)
    except _Stop as stop:
        report.failure = stop.failure
        board, found = shrunk.board, shrunk.found
    return Counterexample(board, found, run_seed)


@contextmanager
def fixed_constants() -> Iterator[None]:
    """Keep hypothesis from seeding its draws with literals found in the modules loaded so far.

    Hypothesis mixes into generation constants from the source of every loaded "local" module
    (here riftasp's own, and test files under pytest), re-read whenever a module is imported. The
    boards for a seed would then depend on what happened to be imported before or during the
    run, and `riftasp fuzz --seed N` would not be reproducible. Private API, so patched only if
    present; hypothesis's own fixed constants stay in use.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a hypothesis without the mechanism
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    if original is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if cache is not None:
        cache.cache.clear()  # it holds local constants drawn before
    try:
        yield
    finally:
        providers._get_local_constants = original
        if cache is not None:
            cache.cache.clear()


def _disagreements(
    data: dict[str, Any], source: str, engine: Engine, riftasp: Callable[[Board], Resolution]
) -> list[Disagreement]:
    """Both engines on one board; a failure of either stops the fuzzing (`_Stop`)."""
    board = board_from_dict(data, source)
    try:
        ours = riftasp(board).to_json()
    except Exception as err:  # noqa: BLE001 - a riftasp bug found by fuzzing: report it
        raise _Stop(FuzzFailure("riftasp", f"riftasp failed on {source}: {type(err).__name__}: {err}", data)) from None
    try:
        theirs = engine(board)
    except EngineError as err:
        raise _Stop(FuzzFailure("engine", str(err), data)) from None
    return compare(source, ours, theirs)


def _polish(
    shrunk: _Disagreed,
    source: str,
    engine: Engine,
    riftasp: Callable[[Board], Resolution],
    deadline: float | None,
    report: FuzzReport,
) -> tuple[dict[str, Any], list[Disagreement]]:
    """Reduce hypothesis's shrunk board further (riftasp.reduce), keeping a disagreement on a
    characteristic it already had so the reduction does not drift to another bug."""
    fields = {d.field for d in shrunk.found}
    latest: dict[str, list[Disagreement]] = {}

    def fails(data: dict[str, Any]) -> bool:
        if deadline is not None and time.monotonic() >= deadline:
            return False
        report.shrink_runs += 1
        found = _disagreements(data, source, engine, riftasp)
        if not fields & {d.field for d in found}:
            return False
        latest[json.dumps(data, sort_keys=True)] = found
        return True

    board = reduce_board(shrunk.board, fails)
    return board, latest.get(json.dumps(board, sort_keys=True), shrunk.found)


def write_counterexamples(report: FuzzReport, out: Path) -> None:
    """Each counterexample (and a failing board) as a ready-to-run board file in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for index, example in enumerate(report.counterexamples, 1):
        example.path = out / f"fuzz-seed{report.seed}-{index:02d}.json"
        example.path.write_text(_board_text(example.board), encoding="utf-8")
    if report.failure is not None:
        report.failure.path = out / f"fuzz-seed{report.seed}-{report.failure.side}-error.json"
        report.failure.path.write_text(_board_text(report.failure.board), encoding="utf-8")


def _board_text(data: dict[str, Any]) -> str:
    # Written the way riftasp writes boards (board_to_dict), so it reads like a hand-made board.
    from .board_io import board_to_dict

    return json.dumps(board_to_dict(board_from_dict(data)), indent=2) + "\n"
