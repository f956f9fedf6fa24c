"""`riftasp fuzz`: differential fuzzing of riftasp's ASP resolver against another engine.

Hypothesis draws boards from the ruleset plugin's generators (Riftbound's:
`riftasp.rulesets.riftbound.strategies.boards()`, within a `Profile`: what the engine supports) and runs a
property that fails when the two engines disagree — or when an optional rules `checker` finds
an invariant broken in either answer, a third voice reported like a disagreement. A board the engine answers `unsupported` is skipped and counted by reason.

Findings are grouped by *signature* (riftasp/signature.py: the kinds of characteristic that
differ and the kinds of operations on the shrunk board), and each signature is reported once,
with the number of generated boards it was found on:
- a failing board that agrees once a known signature's operations are knocked out is a repeat
  of it: counted, not shrunk again, and the search goes on;
- any other failing board is shrunk by hypothesis, then by `riftasp.reduce`, keeping only
  boards that still disagree on the same kinds of characteristic (so the reduction does not
  drift to another kind of defect); its signature is read off the shrunk board;
- then the shrunk board's operations are knocked out one kind at a time: a disagreement that
  survives is another defect on the same board, shrunk and reported on its own.
To collect several findings, the search restarts with the next seed after each new one until
`count` boards have been generated or the time is up. Nothing is stored between runs (no
example database) and every run is seeded, so a given seed and count find the same boards.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from .board_io import board_from_dict, board_to_dict
from .compare import Disagreement, Violation, compare
from .crosscheck import Checker, short_explain, violations
from .engines import Engine, EngineError, Unsupported
from .model import Board
from .profile import Profile
from .progress import Progress
from .reduce import reduce_board
from .result import Resolution
from .signature import Signature, board_ops, kinds, knock_out, signature, size
from .rulesets import Ruleset

Found = list[Disagreement | Violation]


@dataclass
class Counterexample:
    """One distinct finding: a signature, the smallest board shown with it, and how often."""

    board: dict[str, Any]
    disagreements: Found
    seed: int
    signature: Signature | None = None
    count: int = 1  # generated boards it was found on (a board can show several findings)
    explains: dict[str, str] = field(default_factory=dict)  # riftasp's short trace per object
    path: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path) if self.path else None,
            "seed": self.seed,
            "signature": self.signature.to_json() if self.signature else None,
            "count": self.count,
            "objects": len(self.board["objects"]),
            "disagreements": [d.to_json() for d in self.disagreements],
            "explain": self.explains,
        }


Finding = Counterexample


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
    profile: Profile = field(default_factory=Profile)
    generated: int = 0  # boards drawn in search (not counting shrinking)
    supported: int = 0  # of those, boards the engine answered
    unsupported: Counter = field(default_factory=Counter)  # reason -> boards
    shrink_runs: int = 0  # boards compared while shrinking and sorting findings
    failing_boards: int = 0  # generated boards on which the engines disagreed
    counterexamples: list[Counterexample] = field(default_factory=list)  # one per signature
    failure: FuzzFailure | None = None
    timed_out: bool = False
    seconds: float = 0.0

    @property
    def findings(self) -> list[Counterexample]:
        return self.counterexamples

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "seed": self.seed,
            "count": self.count,
            "profile": self.profile.to_json(),
            "generated": self.generated,
            "supported": self.supported,
            "unsupported": sum(self.unsupported.values()),
            "unsupported_reasons": dict(self.unsupported.most_common()),
            "shrink_runs": self.shrink_runs,
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 2),
            "disagreements_found": len(self.counterexamples),  # distinct signatures
            "failing_boards": self.failing_boards,
            "counterexamples": [c.to_json() for c in self.counterexamples],
            "error": None if self.failure is None else {
                "side": self.failure.side, "message": self.failure.message,
                "file": str(self.failure.path) if self.failure.path else None,
            },
        }  # fmt: skip


class _Disagreed(Exception):
    """The property's failure: hypothesis shrinks boards that raise it."""

    def __init__(self, board: dict[str, Any], found: Found) -> None:
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
    profile: Profile | None = None,
    on_found: Callable[[Counterexample], None] | None = None,
    max_found: int = 20,
    shrink_budget: int = 100,
    checker: Checker | None = None,
    progress: Progress | None = None,
    knockout_depth: int = 3,
    ruleset: Ruleset | None = None,
) -> FuzzReport:
    """Compare riftasp with `engine` on `count` generated boards; one finding per signature.

    `checker(board, result_json)` (optional) returns the invariant violations of one engine's
    answer (items or mappings with object, invariant, expected, found); it runs on both answers
    and its violations count as findings. Stops early after `max_found` distinct signatures.
    Boards are the `ruleset`'s, from its plugin's generators (`board_strategy`).
    Hypothesis shrinks each new failure for at most `shrink_budget` engine runs, then
    `riftasp.reduce` finishes the job.
    """
    if riftasp is None:  # riftasp's side in batches (riftasp/batch.py)
        from .batch import Prefetching

        riftasp = Prefetching()
    profile = profile or Profile()
    if strategy is None:
        if ruleset is None:
            from .rulesets import default_ruleset, ruleset as ruleset_named

            ruleset = ruleset_named(default_ruleset())
        strategy = ruleset.board_strategy(profile)
        if strategy is None:
            raise ValueError(f"the {ruleset} ruleset has no board generators to fuzz with")
    report = FuzzReport(engine.name, seed, count, profile)
    harness = _Harness(engine, riftasp, checker, report, progress or Progress(), on_found, knockout_depth)
    start = time.monotonic()
    harness.deadline = None if time_limit is None else start + time_limit
    run = 0
    while report.generated < count and report.failure is None:
        failed = harness.one_run(strategy, seed + run, count - report.generated, shrink_budget)
        run += 1
        if harness.deadline is not None and time.monotonic() >= harness.deadline:
            report.timed_out = report.generated < count
            break
        if not failed:
            break  # the run used its whole budget without a new disagreement
        if len(report.counterexamples) >= max_found:
            break
    report.seconds = time.monotonic() - start
    return report


class _Enough(Exception):
    """A dry run has drawn the boards it was asked to foretell."""


class _Harness:
    """Both engines (and the checker) on boards, and the bookkeeping of signatures."""

    def __init__(self, engine: Engine, riftasp: Callable[[Board], Resolution], checker: Checker | None,
                 report: FuzzReport, progress: Progress, on_found: Callable[[Counterexample], None] | None,
                 knockout_depth: int) -> None:  # fmt: skip
        self.engine, self.riftasp, self.checker = engine, riftasp, checker
        self.report, self.progress, self.on_found = report, progress, on_found
        self.knockout_depth = knockout_depth
        self.deadline: float | None = None
        self.source = "<fuzz>"
        self.seed = report.seed

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    # ---- one board ----

    def evaluate(self, data: dict[str, Any]) -> tuple[Found, str | None]:
        """(findings, None), or ([], reason) when the engine does not support the board. A
        failure of either engine stops the fuzzing (`_Stop`)."""
        board = board_from_dict(data, self.source)
        try:
            theirs = self.engine(board)
        except Unsupported as unsupported:
            return [], unsupported.reason
        except EngineError as err:
            raise _Stop(FuzzFailure("engine", str(err), data)) from None
        try:
            ours = self.riftasp(board).to_json()
        except Exception as err:  # noqa: BLE001 - a riftasp bug found by fuzzing: report it
            message = f"riftasp failed on {self.source}: {type(err).__name__}: {err}"
            raise _Stop(FuzzFailure("riftasp", message, data)) from None
        found: Found = list(compare(self.source, ours, theirs, board.ruleset))
        if self.checker is not None:
            try:
                found += violations(self.checker, board, ours, "riftasp")
                found += violations(self.checker, board, theirs, "engine")
            except Exception as err:  # noqa: BLE001
                message = f"the checker failed on {self.source}: {type(err).__name__}: {err}"
                raise _Stop(FuzzFailure("riftasp", message, data)) from None
        return found, None

    def side_run(self, data: dict[str, Any]) -> tuple[Found, str | None]:
        """A comparison made while shrinking or sorting findings (not a generated board)."""
        self.report.shrink_runs += 1
        self.progress.update(shrink_runs=self.report.shrink_runs)
        return self.evaluate(data)

    # ---- signatures ----

    def known(self, data: dict[str, Any], found: Found) -> Counterexample | None:
        """The known finding this failing board repeats: the board agrees once that finding's
        operations are knocked out (for a finding with no operations, a defect on printed
        values: the board still shows it with every effect knocked out)."""
        ops = board_ops(data)
        bare: dict[str, Any] | None = None  # the board without any effect, computed once
        for finding in self.report.counterexamples:
            sig = finding.signature
            if sig is None or not set(sig.ops) <= ops:
                continue
            if not sig.ops:
                # A defect on printed values: nothing to knock out. The board repeats it when,
                # without any effect at all, it still shows it (and only disagreements of its kinds).
                if not kinds(found) <= set(sig.fields):
                    continue
                bare = bare if bare is not None else (knock_out(data, ops) if ops else data)
                if bare is None:
                    continue
                left, reason = self.side_run(bare)
                if reason is None and left and kinds(left) <= set(sig.fields):
                    return finding
                continue
            rest = knock_out(data, sig.ops)
            if rest is None:
                continue
            left, reason = self.side_run(rest)
            if reason is None and not left:
                return finding
        return None

    def record(self, board: dict[str, Any], found: Found, repeat_count: bool = True) -> Counterexample:
        """Add a shrunk board under its signature (a known signature: counted, smaller board kept)."""
        sig = signature(board, found)
        for finding in self.report.counterexamples:
            if finding.signature == sig:
                if repeat_count:
                    finding.count += 1
                if size(board) < size(finding.board):
                    finding.board, finding.disagreements = board, found
                    finding.explains = self.explain(board, found)
                return finding
        finding = Counterexample(board, found, self.seed, sig, explains=self.explain(board, found))
        self.report.counterexamples.append(finding)
        self.progress.update(found=len(self.report.counterexamples))
        self.progress.event(_found_text(finding), event="found", signature=sig.to_json(), seed=self.seed,
                            objects=len(board["objects"]), disagreements=[d.to_json() for d in found])  # fmt: skip
        if self.on_found:
            self.on_found(finding)
        return finding

    def explain(self, board: dict[str, Any], found: Found) -> dict[str, str]:
        try:
            ours = self.riftasp(board_from_dict(board, self.source))
        except Exception:  # noqa: BLE001 - already compared once; a trace is a nicety
            return {}
        return {oid: short_explain(ours, oid) for oid in dict.fromkeys(d.object for d in found) if oid in ours.objects}

    # ---- a hypothesis run ----

    def one_run(self, strategy: st.SearchStrategy[dict[str, Any]], run_seed: int, budget: int,
                shrink_budget: int) -> bool:  # fmt: skip
        """One hypothesis search of at most `budget` boards; True if it ended on a new failure."""
        self.seed = run_seed
        self.source = f"<fuzz seed {run_seed}>"
        report = self.report
        last_failing: list[_Disagreed] = []  # the smallest failure so far, should shrinking be cut short
        target: set[str] = set()  # kinds of disagreement being shrunk
        shrink_calls = 0

        def check(data: dict[str, Any]) -> None:
            nonlocal shrink_calls
            shrinking = bool(last_failing)
            if self.expired():
                raise _Stop()
            if shrinking:
                if shrink_calls >= shrink_budget:
                    # Hypothesis's long tail of small steps costs an engine run each; the
                    # reduction pass after it deletes whole objects and effects more cheaply.
                    raise _Stop()
                shrink_calls += 1
                found, reason = self.side_run(data)
                if reason is None and found and kinds(found) <= target:
                    last_failing[:] = [_Disagreed(data, found)]
                    raise last_failing[0]
                return
            report.generated += 1
            found, reason = self.evaluate(data)
            if reason is not None:
                report.unsupported[reason] += 1
                self.progress.update(unsupported=sum(report.unsupported.values()))
            else:
                report.supported += 1
            if found:
                report.failing_boards += 1
                self.progress.update(failing=report.failing_boards)
            self.progress.advance()
            if not found:
                return
            repeat = self.known(data, found)
            if repeat is not None:
                repeat.count += 1
                return
            target.update(kinds(found))
            last_failing[:] = [_Disagreed(data, found)]
            self.stop_foretelling()  # what shrinking tries cannot be foretold
            raise last_failing[0]

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
        self.prefetch(strategy, run_seed, budget)
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
        self.stop_foretelling()
        if shrunk is None:
            return False
        self.progress.update(phase="shrinking")
        try:
            self.settle(shrunk.board, shrunk.found, depth=0)
        except _Stop as stop:
            report.failure = stop.failure
            if stop.failure is None:  # out of time: keep the failure as hypothesis left it
                self.record(shrunk.board, shrunk.found)
        self.progress.update(phase=None)
        return True

    def prefetch(self, strategy: st.SearchStrategy[dict[str, Any]], run_seed: int, budget: int) -> None:
        """Let riftasp foretell the boards this run will draw, so that they resolve in batches.

        Until a test fails, hypothesis draws the same boards for the same seed and settings
        whatever the test does with them, so a dry run that collects the first n of them (and
        then stops) foretells the run; a board drawn after a failure (while shrinking) is
        resolved alone.
        """
        start = getattr(self.riftasp, "start", None)
        if start is None:
            return

        def foretell(n: int) -> list[Board]:
            return [board_from_dict(data, self.source) for data in drawn_boards(strategy, run_seed, n, budget)]

        start(foretell)

    def stop_foretelling(self) -> None:
        start = getattr(self.riftasp, "start", None)
        if start is not None:
            start(None)

    def settle(self, board: dict[str, Any], found: Found, depth: int, first: bool = True) -> None:
        """Reduce a failing board, record its signature, then look for other defects on it by
        knocking out the signature's operations one kind at a time."""
        reduced, reduced_found = self.reduce(board, found)
        finding = self.record(reduced, reduced_found, repeat_count=first)
        if depth + 1 >= self.knockout_depth or finding.signature is None:
            return
        for op in finding.signature.ops:
            if self.expired():
                return
            rest = knock_out(board, {op})
            if rest is None:
                continue
            rest_found, reason = self.side_run(rest)
            if reason is not None or not rest_found or not kinds(rest_found) <= kinds(found):
                continue
            if self.known(rest, rest_found) is not None:
                continue
            self.settle(rest, rest_found, depth + 1, first=False)

    def reduce(self, board: dict[str, Any], found: Found) -> tuple[dict[str, Any], Found]:
        """Reduce the board (riftasp.reduce) while it disagrees on the same kinds of
        characteristic, so the reduction does not drift to another kind of defect."""
        target = kinds(found)
        latest: dict[str, Found] = {}

        def fails(data: dict[str, Any]) -> bool:
            if self.expired():
                return False
            candidate, reason = self.side_run(data)
            if reason is not None or not candidate or not kinds(candidate) <= target:
                return False
            latest[json.dumps(data, sort_keys=True)] = candidate
            return True

        reduced = reduce_board(board, fails)
        return reduced, latest.get(json.dumps(reduced, sort_keys=True), found)


def _found_text(finding: Counterexample) -> str:
    first = finding.disagreements[0]
    where = f"{first.object}.{first.field}"
    sig = finding.signature.text() if finding.signature else ""
    objects = len(finding.board["objects"])
    return f"disagreement: {where} ({sig}), shrunk to {objects} object{'s' if objects != 1 else ''}"


def drawn_boards(strategy: st.SearchStrategy[dict[str, Any]], seed: int, n: int,
                 budget: int | None = None) -> list[dict[str, Any]]:
    """The first `n` boards a fuzz run of `seed` (and `budget` boards, default n) draws, as
    board dicts: the same for the same arguments on every run (`fixed_constants`). Until a test
    fails, hypothesis draws the same boards whatever the test does with them, so this foretells
    a run (`_Harness.prefetch`), and gives `riftasp properties` its boards."""
    drawn: list[dict[str, Any]] = []

    def draw(data: dict[str, Any]) -> None:
        if len(drawn) >= n:
            raise _Enough()
        drawn.append(data)

    collect = settings(  # a fuzz run's settings, but generation only
        database=None, max_examples=max(budget or n, 1), deadline=None, derandomize=False,
        phases=(Phase.generate,), suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
    )(given(strategy)(draw))  # fmt: skip
    try:
        with fixed_constants():
            hypothesis_seed(seed)(collect)()
    except _Enough:
        pass
    return drawn


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


def write_counterexamples(report: FuzzReport, out: Path) -> None:
    """Each finding (and a failing board) as a ready-to-run board file in `out`; the folder is
    made only when there is something to write."""
    if report.counterexamples or report.failure is not None:
        out.mkdir(parents=True, exist_ok=True)
    for index, example in enumerate(report.counterexamples, 1):
        example.path = out / f"fuzz-seed{report.seed}-{index:02d}.json"
        example.path.write_text(_board_text(example.board), encoding="utf-8")
    if report.failure is not None:
        report.failure.path = out / f"fuzz-seed{report.seed}-{report.failure.side}-error.json"
        report.failure.path.write_text(_board_text(report.failure.board), encoding="utf-8")


def _board_text(data: dict[str, Any]) -> str:
    # Written the way riftasp writes boards (board_to_dict), so it reads like a hand-made board.
    return json.dumps(board_to_dict(board_from_dict(data)), indent=2) + "\n"
