"""`riftasp fuzz`: differential fuzzing of riftasp against another engine, as a campaign.

A run of `count` boards is cut into chunks of `CHUNK` boards. Chunk c's boards are drawn by
hypothesis from the ruleset plugin's generators (within a `Profile`: what the engine supports)
with a seed made of the run's seed and c alone, and compared where the chunk runs: in this
process, in a pool of local processes (`--jobs`) or on a Dask cluster (`--scheduler`;
riftasp/campaign/pool.py). So the boards, and everything found on them, are the same for any
number of workers.

Every board ends in an outcome (riftasp/campaign/evaluate.py): agreed, disagreed (the two
answers differ, or the rules checker finds an invariant broken in either), unsupported by the
engine, an engine error (whatever the engine did that is not an answer) or a riftasp error. No
board stops the run; `max_engine_errors` does.

Findings, one per defect: after each round of `ROUND_CHUNKS` chunks, every failing board of the
round is shrunk (riftasp/campaign/shrink.py: deletions, then numbers lowered, all boards stepping
together in batches), and a finding's *identity* is read off its shrunk board in canonical form
with what differs on it (riftasp/campaign/identity.py). Failing boards that shrink to one
identity are one finding, counted on each; the operations of a new finding's board are then
knocked out of its failing board one kind at a time, and a disagreement that survives is shrunk
too (a second defect hiding on the same board). A `baseline` (the identities of a findings file
an earlier run wrote) marks known defects as known.

riftasp's side is the ASP resolver in batches, or the reference engine (`riftasp="reference"`,
faster on small boards); then the ASP resolver confirms each new finding on its shrunk board
before it is reported. With a `store` (`--out DIR`), every chunk's outcomes and every shrunk
board are written as they come, and a resumed run replays them instead of repeating the work.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from .board_io import board_from_dict, board_to_dict
from .campaign.evaluate import (
    ENGINE_ERROR, RIFTASP_ERROR, UNSUPPORTED, BoardsTask, ChunkResult, EngineSpec, GenerateTask, Outcome, Sides,
    chunk_seed, compare_dicts, compare_drawn, generate_and_compare,
)  # fmt: skip
from .campaign.draw import drawn_boards
from .campaign.draw import fixed_constants as fixed_constants  # (tests and bench draw as fuzz does)
from .campaign.pool import Runner, make_runner
from .campaign.rounds import settle_round
from .campaign.shrink import primary, shrink_all
from .campaign.store import CampaignStore
from .compare import Disagreement, Violation
from .crosscheck import Checker, findings_text, plural, short_explain, styled_lines
from .engines import Engine
from .model import Board
from .profile import Profile
from .progress import Progress
from .result import Resolution
from .rulesets import Ruleset
from .signature import Signature, knock_out, signature

Found = list[Disagreement | Violation]

CHUNK = 50  # boards a task draws and compares: fixed, so the boards do not depend on the workers
ROUND_CHUNKS = 10  # chunks between two shrinking rounds (a fixed number too)
SHRINK_CHUNK = 24  # boards a shrinking task compares
ERRORS_WRITTEN = 5  # boards written to --out for engine errors (the first ones)


@dataclass
class Counterexample:
    """One distinct finding: its identity, the smallest board shown with it, and how often."""

    board: dict[str, Any]
    disagreements: Found
    seed: int
    signature: Signature | None = None
    count: int = 1  # generated boards whose shrunk board is this one
    explains: dict[str, str] = field(default_factory=dict)  # riftasp's short trace per object
    path: Path | None = None
    identity: str = ""
    known: bool = False  # listed in the baseline
    confirmed: bool | None = None  # with riftasp's reference side: the ASP resolver sees it too
    first_board: str = ""  # the generated board it was first found on
    announced: bool = field(default=False, repr=False)
    only_violations: bool = False  # no characteristic differs: the checker alone found it
    also: Counter = field(default_factory=Counter)  # identity -> boards: the same defect seen otherwise

    @property
    def signature_text(self) -> str:
        return self.signature.text() if self.signature else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "identity": self.identity,
            "known": self.known,
            "file": str(self.path) if self.path else None,
            "seed": self.seed,
            "first_board": self.first_board,
            "signature": self.signature.to_json() if self.signature else None,
            "count": self.count,
            "objects": len(self.board["objects"]),
            "confirmed": self.confirmed,
            "also_seen_as": dict(self.also),
            "disagreements": [d.to_json() for d in self.disagreements],
            "explain": self.explains,
        }


Finding = Counterexample


@dataclass
class FuzzFailure:
    """A board an engine (`side` "engine") or riftasp itself (`side` "riftasp") failed on."""

    side: str
    message: str
    board: dict[str, Any]
    path: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "message": self.message, "file": str(self.path) if self.path else None}


@dataclass
class FuzzReport:
    engine: str
    seed: int
    count: int
    profile: Profile = field(default_factory=Profile)
    generated: int = 0  # boards drawn and compared (not counting shrinking)
    supported: int = 0  # of those, boards the engine answered
    unsupported: Counter = field(default_factory=Counter)  # reason -> boards
    shrink_runs: int = 0  # boards compared while shrinking and sorting findings
    failing_boards: int = 0  # generated boards on which the engines disagreed
    counterexamples: list[Counterexample] = field(default_factory=list)  # one per identity
    engine_errors: list[FuzzFailure] = field(default_factory=list)
    riftasp_errors: list[FuzzFailure] = field(default_factory=list)
    timed_out: bool = False
    stopped: str | None = None  # why the run stopped before `count` boards, when it did
    seconds: float = 0.0
    jobs: int = 1
    resumed_chunks: int = 0

    @property
    def findings(self) -> list[Counterexample]:
        return self.counterexamples

    @property
    def new_findings(self) -> list[Counterexample]:
        return [c for c in self.counterexamples if not c.known]

    @property
    def failure(self) -> FuzzFailure | None:
        """The first board riftasp failed on (the command's exit code 3)."""
        return self.riftasp_errors[0] if self.riftasp_errors else None

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "seed": self.seed,
            "count": self.count,
            "profile": self.profile.to_json(),
            "jobs": self.jobs,
            "generated": self.generated,
            "supported": self.supported,
            "unsupported": sum(self.unsupported.values()),
            "unsupported_reasons": dict(self.unsupported.most_common()),
            "engine_errors": len(self.engine_errors),
            "engine_error_boards": [e.to_json() for e in self.engine_errors],
            "riftasp_errors": [e.to_json() for e in self.riftasp_errors],
            "shrink_runs": self.shrink_runs,
            "timed_out": self.timed_out,
            "stopped": self.stopped,
            "resumed_chunks": self.resumed_chunks,
            "seconds": round(self.seconds, 2),
            "disagreements_found": len(self.counterexamples),  # distinct identities
            "new": len(self.new_findings),
            "known": len(self.counterexamples) - len(self.new_findings),
            "failing_boards": self.failing_boards,
            "counterexamples": [c.to_json() for c in self.counterexamples],
            "error": None if self.failure is None else self.failure.to_json(),
        }

    def text(self, styled: bool = False) -> str:
        """The report for people, printable (riftasp.present); `styled`: each new finding's line
        and a summary with new findings in red, one without in green (at a terminal only)."""
        lines: list[tuple[str, bool | None]] = []  # (line, good: green / bad: red / None: plain)
        for example in self.new_findings:
            unconfirmed = "" if example.confirmed is not False else \
                " (the ASP resolver agrees with the engine here: riftasp's reference engine differs)"  # fmt: skip
            lines.append((f"{example.path}: finding {example.identity}: {example.signature_text}; on "
                          f"{plural(example.count, 'board')}, shrunk to {plural(len(example.board['objects']), 'object')}"
                          f"{unconfirmed}", False))  # fmt: skip
            lines += [(line, None) for line in findings_text(example.disagreements, example.explains, indent="  ")]
        known = [c for c in self.counterexamples if c.known]
        if known:
            lines.append(("known (in the baseline): " + "; ".join(
                f"{c.identity} ({c.signature_text}) on {plural(c.count, 'board')}" for c in known), None))
        for failure in self.engine_errors[:5]:
            lines.append((f"engine error: {failure.message}" + (f" (board: {failure.path})" if failure.path else ""), None))
        if len(self.engine_errors) > 5:
            lines.append((f"... and {len(self.engine_errors) - 5} more engine errors (--json lists them all)", None))
        lines.append((self.summary(), self.nothing_found))
        return styled_lines(lines, styled)

    @property
    def nothing_found(self) -> bool:
        """No new finding and no error of either side (known findings are no news)."""
        return not self.new_findings and not self.engine_errors and not self.riftasp_errors

    def summary(self) -> str:
        """The report's last line: boards, findings, and the run's engine, seed, jobs and time."""
        stop = f" ({self.stopped})" if self.stopped else ""
        counted = [f"{self.supported} supported"]
        unsupported = sum(self.unsupported.values())
        if unsupported:
            reasons = "; ".join(f"{why}: {n}" for why, n in self.unsupported.most_common())
            counted.append(f"{unsupported} unsupported: {reasons}")
        if self.engine_errors:
            counted.append(plural(len(self.engine_errors), "engine error"))
        if self.riftasp_errors:
            counted.append(plural(len(self.riftasp_errors), "riftasp error"))
        generated = f"{plural(self.generated, 'board')} generated{stop} ({', '.join(counted)})"
        known = len(self.counterexamples) - len(self.new_findings)
        found = f"{plural(len(self.new_findings), 'new finding')}" + (f", {known} known" if known else "") + (
            f" on {plural(self.failing_boards, 'board')}" if self.failing_boards else "")
        return (f"{generated}, {self.shrink_runs} compared while shrinking, {found} "
                f"(riftasp vs {self.engine}, seed {self.seed}, {self.jobs} jobs, {self.seconds:.1f}s)")

    def html(self, resolve: Callable[[Board], Resolution], parameters: list[tuple[str, Any]]) -> str:
        """`--format html`: each new finding's shrunk board with riftasp's and the engine's
        values side by side, its graph and the explanations (`resolve`: riftasp's side, run
        again here on the shrunk boards only)."""
        from .crosscheck import finding_line
        from .picture.findings import Finding, findings_page, side_rows, with_disagreements

        found = []
        for example in self.new_findings:
            board = board_from_dict(example.board, str(example.path or f"finding {example.identity}"))
            res = resolve(board)
            ours = res.to_json()["objects"]
            rows = side_rows(board.ruleset, ours, with_disagreements(ours, example.disagreements))
            notes = [f"finding {example.identity}: {example.signature_text}; on {plural(example.count, 'board')}, "
                     f"shrunk to {plural(len(example.board['objects']), 'object')}"]  # fmt: skip
            if example.confirmed is False:
                notes.append("the ASP resolver agrees with the engine here: riftasp's reference engine differs")
            notes += [finding_line(d) for d in example.disagreements]
            found.append(Finding(board.source, notes, board, ("riftasp", "engine"), rows, res,
                                 list(dict.fromkeys(d.object for d in example.disagreements))))  # fmt: skip
        counts = [("boards generated", self.generated), ("supported", self.supported),
                  ("unsupported", sum(self.unsupported.values())), ("compared while shrinking", self.shrink_runs),
                  ("new findings", len(self.new_findings)),
                  ("known findings", len(self.counterexamples) - len(self.new_findings)),
                  ("failing boards", self.failing_boards), ("engine errors", len(self.engine_errors)),
                  ("riftasp errors", len(self.riftasp_errors)), ("seconds", f"{self.seconds:.1f}")]  # fmt: skip
        notes = [f"known (in the baseline): {c.identity} ({c.signature_text}) on {plural(c.count, 'board')}"
                 for c in self.counterexamples if c.known]  # fmt: skip
        notes += [f"{f.side} error: {f.message}" + (f" (board: {f.path})" if f.path else "")
                  for f in self.engine_errors + self.riftasp_errors]  # fmt: skip
        notes += [f"unsupported by the engine: {why}: {n}" for why, n in self.unsupported.most_common()]
        head = [("engine", self.engine), ("seed", self.seed), ("count", self.count), ("jobs", self.jobs), *parameters]
        return findings_page("riftasp fuzz", head, counts, self.summary(), self.nothing_found, found, notes)


def fuzz(
    engine: Engine | EngineSpec,
    *,
    seed: int = 0,
    count: int = 100,
    time_limit: float | None = None,
    riftasp: str | Callable[[Board], Resolution] = "asp",
    strategy: st.SearchStrategy[dict[str, Any]] | None = None,
    profile: Profile | None = None,
    on_found: Callable[[Counterexample], None] | None = None,
    max_found: int = 20,
    checker: Checker | None = None,
    progress: Progress | None = None,
    knockout_depth: int = 3,
    ruleset: Ruleset | None = None,
    runner: Runner | None = None,
    baseline: frozenset[str] = frozenset(),
    max_engine_errors: int | None = None,
    store: CampaignStore | None = None,
) -> FuzzReport:
    """Compare riftasp with `engine` on `count` generated boards; one finding per identity.

    `engine` is an engine object (work in this process) or an `EngineSpec` (built where the work
    runs). `checker(board, result_json)` (optional) returns the invariant violations of one
    answer; its violations count as findings. Stops once `max_found` distinct findings are known
    at the end of a round, after `max_engine_errors` engine errors, or at `time_limit` seconds.
    Boards are the `ruleset`'s, from its plugin's generators, unless a `strategy` is given (then
    they are drawn in this process).
    """
    profile = profile or Profile()
    if ruleset is None:
        from .rulesets import default_ruleset, ruleset as ruleset_named

        ruleset = ruleset_named(default_ruleset())
    if strategy is None and ruleset.board_strategy(profile) is None:
        raise ValueError(f"the {ruleset} ruleset has no board generators to fuzz with")
    own_runner = runner is None
    runner = runner or make_runner(1)
    name = engine.command if isinstance(engine, EngineSpec) else engine.name
    report = FuzzReport(name, seed, count, profile, jobs=runner.jobs)
    campaign = _Campaign(Sides(engine, riftasp, checker), runner, report, progress or Progress(), on_found,
                         knockout_depth, baseline, store)  # fmt: skip
    start = time.monotonic()
    campaign.deadline = None if time_limit is None else start + time_limit
    try:
        campaign.run(strategy, ruleset, profile, count, max_found, max_engine_errors)
        campaign.merge_violations()
    finally:
        report.seconds = time.monotonic() - start
        if own_runner:
            runner.close()
    return report


class _Campaign:
    """A fuzz run's rounds: chunks compared, failing boards shrunk, findings by identity."""

    def __init__(self, sides: Sides, runner: Runner, report: FuzzReport, progress: Progress,
                 on_found: Callable[[Counterexample], None] | None, knockout_depth: int,
                 baseline: frozenset[str], store: CampaignStore | None) -> None:  # fmt: skip
        self.sides, self.runner, self.report, self.progress = sides, runner, report, progress
        # While shrinking a difference the checker is not asked: its violations do not decide
        # whether a candidate still shows the difference (`primary`), and it costs a grounding.
        self.unchecked = Sides(sides.engine, sides.riftasp, None)
        self.on_found, self.knockout_depth, self.baseline, self.store = on_found, knockout_depth, baseline, store
        self.deadline: float | None = None
        self.by_identity: dict[str, Counterexample] = {}
        self.shrunk_boards: dict[str, tuple[dict[str, Any], Found]] = {}

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    # ---- rounds ----

    def run(self, strategy: st.SearchStrategy[dict[str, Any]] | None, ruleset: Ruleset, profile: Profile,
            count: int, max_found: int, max_engine_errors: int | None) -> None:  # fmt: skip
        report = self.report
        chunks = math.ceil(count / CHUNK)
        for first in range(0, chunks, ROUND_CHUNKS):
            ids = range(first, min(first + ROUND_CHUNKS, chunks))
            failing: list[tuple[str, dict[str, Any], Found]] = []
            results = self.chunk_results(ids, strategy, ruleset, profile, count)
            try:
                for result in results:
                    failing += self.take(result, max_engine_errors)
                    if report.stopped:
                        break
                    if self.expired():
                        report.timed_out = True
                        report.stopped = "time limit reached"
                        break
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()  # cancels what is still pending on the workers
            self.shrink_round(failing)
            if report.stopped:
                return
            if len(report.new_findings) >= max_found:
                report.stopped = f"{max_found} distinct findings (--max-found)"
                return

    def merge_violations(self) -> None:
        """A finding of the checker alone (both answers' values agree, the engine's trace does
        not hold) that is gone once a difference finding's operations are knocked out of its
        board is that defect seen on a board where it changes no value: counted there, under
        `also_seen_as`, not reported on its own."""
        report = self.report
        differences = [f for f in report.counterexamples if not f.only_violations]
        for finding in [f for f in report.counterexamples if f.only_violations]:
            assert finding.signature is not None
            for other in differences:
                assert other.signature is not None
                ops = set(other.signature.ops)
                if not ops or not ops <= set(finding.signature.ops):
                    continue
                rest = knock_out(finding.board, ops)
                if rest is None or self.evaluate([rest])[0]:
                    continue
                other.count += finding.count
                other.also[finding.identity] += finding.count
                report.counterexamples.remove(finding)
                del self.by_identity[finding.identity]
                break

    def chunk_results(self, ids: range, strategy: st.SearchStrategy[dict[str, Any]] | None, ruleset: Ruleset,
                      profile: Profile, count: int) -> Iterator[ChunkResult]:  # fmt: skip
        """Each chunk's result in order: from the store when a resumed run has it, else computed
        (on the runner; boards of a given strategy are drawn and compared in this process)."""
        seed = self.report.seed

        def size(chunk: int) -> int:
            return min(CHUNK, count - chunk * CHUNK)

        stored = {c: r for c in ids if self.store is not None and (r := self.store.chunk(c)) is not None}
        todo = [c for c in ids if c not in stored]
        computed: Iterator[ChunkResult]
        if strategy is None:
            tasks = [GenerateTask(self.sides, ruleset.name, profile, seed, c, size(c)) for c in todo]
            computed = iter(self.runner.map(generate_and_compare, tasks))
        else:
            computed = (compare_drawn(self.sides, seed, c, drawn_boards(strategy, chunk_seed(seed, c), size(c)))
                        for c in todo)  # fmt: skip
        try:
            for c in ids:
                if c in stored:
                    self.report.resumed_chunks += 1
                    yield stored[c]
                    continue
                result = next(computed)
                if self.store is not None:
                    self.store.save_chunk(result)
                yield result
        finally:
            close = getattr(computed, "close", None)
            if close is not None:
                close()

    def take(self, result: ChunkResult, max_engine_errors: int | None = None) -> list[tuple[str, dict[str, Any], Found]]:
        """Count a chunk's outcomes; its failing boards (source, board, findings), in order. The
        run stops at the board that brings the engine errors to `max_engine_errors`."""
        report, failing = self.report, []
        for index, (outcome, data) in enumerate(zip(result.outcomes, result.boards)):
            if max_engine_errors is not None and len(report.engine_errors) >= max_engine_errors:
                report.stopped = f"--max-engine-errors {max_engine_errors} reached"
                break
            report.generated += 1
            source = f"<fuzz seed {report.seed} chunk {result.chunk} board {index}>"
            if outcome.status == UNSUPPORTED:
                report.unsupported[outcome.reason] += 1
            elif outcome.status == ENGINE_ERROR:
                assert data is not None
                report.engine_errors.append(FuzzFailure("engine", outcome.reason, data))
                self.progress.event(outcome.reason, event="engine_error", board=source)
            elif outcome.status == RIFTASP_ERROR:
                assert data is not None
                report.riftasp_errors.append(FuzzFailure("riftasp", outcome.reason, data))
                self.progress.event(outcome.reason, event="riftasp_error", board=source)
            else:
                report.supported += 1
                if outcome.found:
                    assert data is not None
                    report.failing_boards += 1
                    failing.append((source, data, outcome.found))
        if max_engine_errors is not None and len(report.engine_errors) >= max_engine_errors:
            report.stopped = f"--max-engine-errors {max_engine_errors} reached"
        self.progress.update(unsupported=sum(report.unsupported.values()) or None,
                             engine_errors=len(report.engine_errors) or None, failing=report.failing_boards or None)  # fmt: skip
        self.progress.advance(index + 1 if result.outcomes else 0)
        return failing

    # ---- shrinking, identities ----

    def shrink_round(self, failing: list[tuple[str, dict[str, Any], Found]]) -> None:
        if not failing:
            return
        self.progress.update(phase="shrinking")
        settle_round(failing, findings=self.by_identity, shrunk=self.shrunk, evaluate=self.evaluate, add=self.add,
                     depth=self.knockout_depth, expired=self.expired)  # fmt: skip
        self.finish_new()
        self.progress.update(phase=None)

    def shrunk(self, items: Sequence[tuple[dict[str, Any], Found]]) -> list[tuple[dict[str, Any], Found]]:
        """Each failing board shrunk: once per distinct board, from the store when it has it."""
        keys = [_key(data) for data, _ in items]
        todo: dict[str, tuple[dict[str, Any], Found]] = {}
        for key, item in zip(keys, items):
            if key in self.shrunk_boards or key in todo:
                continue
            stored = self.store.shrunk(key) if self.store is not None else None
            if stored is not None:
                self.shrunk_boards[key] = stored
            else:
                todo[key] = item
        # Differences shrink without the checker; violations alone with it.
        for checked in (False, True):
            part = {k: item for k, item in todo.items() if _only_violations(item[1]) == checked}
            if not part:
                continue
            evaluate = partial(self.evaluate, checked=checked)
            for key, result in zip(part, shrink_all(list(part.values()), evaluate)):
                self.shrunk_boards[key] = result
                if self.store is not None:
                    self.store.save_shrunk(key, *result)
        return [self.shrunk_boards[key] for key in keys]

    def evaluate(self, boards: Sequence[dict[str, Any]], checked: bool = True) -> list[Found | None]:
        """Boards compared while shrinking (None: not comparable, or out of time)."""
        if not boards:
            return []
        if self.expired():
            return [None] * len(boards)
        outcomes = self.compare(self.sides if checked else self.unchecked, boards)
        self.report.shrink_runs += len(boards)
        self.progress.update(shrink_runs=self.report.shrink_runs)
        return [o.found if o.status == "compared" else None for o in outcomes]

    def compare(self, sides: Sides, boards: Sequence[dict[str, Any]]) -> list[Outcome]:
        source = f"<fuzz seed {self.report.seed}: shrinking>"
        # Every worker gets a share of a small round too (a board's outcome does not depend on
        # the boards compared with it, so the grouping changes nothing but the time).
        size = max(4, min(SHRINK_CHUNK, math.ceil(len(boards) / (2 * self.runner.jobs))))
        tasks = [BoardsTask(sides, tuple((source, b) for b in boards[i:i + size]))
                 for i in range(0, len(boards), size)]  # fmt: skip
        return [o for chunk in self.runner.map(compare_dicts, tasks) for o in chunk]

    def add(self, board: dict[str, Any], found: Found, ident: str, source: str) -> Counterexample:
        finding = Counterexample(board, found, self.report.seed, signature(board, found), identity=ident,
                                 known=ident in self.baseline, first_board=source,
                                 only_violations=_only_violations(primary(found)))  # fmt: skip
        self.by_identity[ident] = finding
        self.report.counterexamples.append(finding)
        return finding

    def finish_new(self) -> None:
        """The findings added this round: confirmed by the ASP resolver when riftasp's side was
        the reference engine, explained, announced."""
        fresh = [f for f in self.report.counterexamples if not f.announced]
        if not fresh:
            return
        # Each new finding's board once more with everything: the checker's violations beside a
        # difference (not asked while shrinking), and the ASP resolver's answer when riftasp's
        # side was the reference engine.
        confirming = self.sides.riftasp == "reference"
        full = Sides(self.sides.engine, "asp", self.sides.checker) if confirming else self.sides
        for finding, outcome in zip(fresh, self.compare(full, [f.board for f in fresh])):
            finding.announced = True
            if confirming:
                finding.confirmed = outcome.status == "compared" and bool(outcome.found)
            if outcome.status == "compared" and outcome.found:
                finding.disagreements = outcome.found
        explain_with = self.sides.riftasp if callable(self.sides.riftasp) else None
        for finding in fresh:
            finding.explains = _explains(finding.board, finding.disagreements, explain_with)
            self.progress.update(found=len(self.report.counterexamples))
            self.progress.event(_found_text(finding), event="found", identity=finding.identity,
                                known=finding.known, signature=finding.signature.to_json() if finding.signature else None,
                                seed=self.report.seed, board=finding.first_board, objects=len(finding.board["objects"]),
                                disagreements=[d.to_json() for d in finding.disagreements])  # fmt: skip
            if self.on_found:
                self.on_found(finding)


def _only_violations(found: Found) -> bool:
    return all(isinstance(getattr(f, "side", None), str) for f in found)


def _key(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _explains(board: dict[str, Any], found: Found, resolve: Callable[[Board], Resolution] | None) -> dict[str, str]:
    """riftasp's short trace of each object in question (the ASP resolver's, unless given)."""
    if resolve is None:
        from .resolve import resolve as resolve_asp

        resolve = resolve_asp
    try:
        ours = resolve(board_from_dict(board, "<finding>"))
    except Exception:  # noqa: BLE001 - already compared; a trace is a nicety
        return {}
    return {oid: short_explain(ours, oid) for oid in dict.fromkeys(d.object for d in found) if oid in ours.objects}


def _found_text(finding: Counterexample) -> str:
    first = finding.disagreements[0]
    where = f"{first.object}.{first.field}"
    sig = finding.signature.text() if finding.signature else ""
    objects = len(finding.board["objects"])
    known = "known " if finding.known else ""
    unconfirmed = "; the ASP resolver agrees with the engine here (riftasp's reference engine differs)" \
        if finding.confirmed is False else ""  # fmt: skip
    return (f"{known}disagreement {finding.identity}: {where} ({sig}), shrunk to "
            f"{objects} object{'s' if objects != 1 else ''}{unconfirmed}")


def write_counterexamples(report: FuzzReport, out: Path) -> None:
    """Each finding as a ready-to-run board file in `out` (named by its identity), the first
    boards the engine failed on, a board riftasp failed on, and findings.json (the run's report:
    a later run's `--baseline`); the folder is made only when there is something to write."""
    errors = report.engine_errors[:ERRORS_WRITTEN] + report.riftasp_errors[:1]
    if not (report.counterexamples or errors):
        return
    out.mkdir(parents=True, exist_ok=True)
    for example in report.counterexamples:
        example.path = out / f"fuzz-{example.identity}.json"
        example.path.write_text(_board_text(example.board), encoding="utf-8")
    for index, failure in enumerate(errors, 1):
        failure.path = out / f"fuzz-seed{report.seed}-{failure.side}-error-{index:02d}.json"
        failure.path.write_text(_board_text(failure.board), encoding="utf-8")
    (out / FINDINGS_FILE).write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")


FINDINGS_FILE = "findings.json"


def read_baseline(path: Path) -> frozenset[str]:
    """The identities a findings file lists (findings.json of a run's --out, or its --json
    report); ValueError with one line when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ValueError(f"{path}: cannot read: {err.strerror or err}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as err:
        raise ValueError(f"{path}: invalid JSON: {str(err).splitlines()[0]}") from None
    items = data.get("counterexamples") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ValueError(f"{path}: counterexamples: not a findings file (riftasp fuzz writes findings.json in --out)")
    found = set()
    for n, item in enumerate(items):
        ident = item.get("identity") if isinstance(item, dict) else None
        if not isinstance(ident, str) or not ident:
            raise ValueError(f"{path}: counterexamples[{n}].identity: missing")
        found.add(ident)
    return frozenset(found)


def _board_text(data: dict[str, Any]) -> str:
    # Written the way riftasp writes boards (board_to_dict), so it reads like a hand-made board.
    return json.dumps(board_to_dict(board_from_dict(data)), indent=2) + "\n"
