"""`riftasp fuzz --timelines`: random games (generate.py), riftasp against an engine moment by
moment (crosscheck.py), each disagreement shrunk (shrink.py) and known by an identity.

A run of `count` games is cut into chunks of `CHUNK`; chunk c's games are drawn with a seed made
of the run's seed and c alone (as `riftasp fuzz` draws boards), and compared on the runner, so
the games and what is found on them are the same for any number of workers. Every failing game
is shrunk; its finding's identity is that of riftasp's board at the moment the shrunk game first
differs, with the fields that differ there (riftasp/campaign/identity.py): failing games that
shrink to one identity are one finding, counted on each.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..campaign.draw import drawn_boards
from ..campaign.evaluate import COMPARED, ENGINE_ERROR, RIFTASP_ERROR, UNSUPPORTED, EngineSpec, Sides, chunk_seed
from ..campaign.identity import identity
from ..campaign.pool import Runner, make_runner
from ..crosscheck import short_explain
from ..engines import Engine
from ..fuzz import FINDINGS_FILE, Counterexample, FuzzFailure, FuzzReport
from ..profile import Profile
from ..progress import Progress
from ..signature import signature
from .crosscheck import TimelineOutcome, TimelinesTask, compare_timeline_dicts
from .generate import timeline_strategy, vocabulary
from .shrink import shrink_game

CHUNK = 10  # games a task draws and compares (a game is a board per event)
TASK = 2  # games per task while shrinking


def fuzz_timelines(engine: Engine | EngineSpec, *, ruleset: str = "riftbound", seed: int = 0, count: int = 50,
                   time_limit: float | None = None, riftasp: str = "asp", profile: Profile | None = None,
                   max_found: int = 20, progress: Progress | None = None, runner: Runner | None = None,
                   baseline: frozenset[str] = frozenset()) -> FuzzReport:  # fmt: skip
    """Compare riftasp with `engine` on `count` generated games of `ruleset`; one finding per
    identity. The rules checker is not asked (a game's moments are compared on their values)."""
    profile = profile or Profile()
    own_runner = runner is None
    runner = runner or make_runner(1)
    progress = progress or Progress()
    name = engine.command if isinstance(engine, EngineSpec) else engine.name
    report = FuzzReport(name, seed, count, profile, jobs=runner.jobs)
    sides = Sides(engine, riftasp, None)
    strategy = timeline_strategy(ruleset, profile)
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    by_identity: dict[str, Counterexample] = {}

    def compare(games: Sequence[dict[str, Any]], sources: Sequence[str]) -> list[TimelineOutcome]:
        named = list(zip(sources, games))
        tasks = [TimelinesTask(sides, tuple(named[i:i + TASK])) for i in range(0, len(named), TASK)]
        return [o for chunk in runner.map(compare_timeline_dicts, tasks) for o in chunk]

    def evaluate(games: Sequence[dict[str, Any]]) -> list[TimelineOutcome | None]:
        if deadline is not None and time.monotonic() >= deadline:
            return [None] * len(games)
        report.shrink_runs += len(games)
        return list[TimelineOutcome | None](compare(games, [f"<fuzz --timelines seed {seed}: shrinking>"] * len(games)))

    try:
        for chunk in range(math.ceil(count / CHUNK)):
            size = min(CHUNK, count - chunk * CHUNK)
            games = drawn_boards(strategy, chunk_seed(seed, chunk), size)
            sources = [f"<fuzz --timelines seed {seed} chunk {chunk} game {i}>" for i in range(len(games))]
            outcomes = compare(games, sources)
            for source, game, outcome in zip(sources, games, outcomes):
                report.generated += 1
                if outcome.status == UNSUPPORTED:
                    report.unsupported[outcome.reason] += 1
                elif outcome.status == ENGINE_ERROR:
                    report.engine_errors.append(FuzzFailure("engine", outcome.reason, game))
                elif outcome.status == RIFTASP_ERROR:
                    report.riftasp_errors.append(FuzzFailure("riftasp", outcome.reason, game))
                elif outcome.status == COMPARED:
                    report.supported += 1
                    if outcome.found:
                        report.failing_boards += 1
                        _found(game, outcome, source, evaluate, report, by_identity, baseline, riftasp, progress)
            progress.advance(len(games))
            if deadline is not None and time.monotonic() >= deadline:
                report.timed_out, report.stopped = True, "time limit reached"
                break
            if len(report.new_findings) >= max_found:
                report.stopped = f"{max_found} distinct findings (--max-found)"
                break
    finally:
        report.seconds = time.monotonic() - start
        if own_runner:
            runner.close()
    return report


def _found(game: dict[str, Any], outcome: TimelineOutcome, source: str, evaluate: Any, report: FuzzReport,
           by_identity: dict[str, Counterexample], baseline: frozenset[str], riftasp: str,
           progress: Progress) -> None:  # fmt: skip
    shrunk, last = shrink_game(game, outcome, evaluate)
    assert last.board is not None
    ident = timeline_identity(last)
    if ident in by_identity:
        by_identity[ident].count += 1
        return
    finding = Counterexample(shrunk, last.found, report.seed, signature(last.board, last.found), identity=ident,
                             known=ident in baseline, first_board=source, announced=True)  # fmt: skip
    finding.explains = _explains(last, riftasp)
    by_identity[ident] = finding
    report.counterexamples.append(finding)
    first = last.found[0]
    progress.event(f"disagreement {ident}: {first.object}.{first.field} after events[{last.event}], shrunk to "
                   f"{len(shrunk['events'])} events", event="found", identity=ident, board=source)  # fmt: skip


def timeline_identity(outcome: TimelineOutcome) -> str:
    """A timeline finding's identity: what riftasp's bookkeeping did at the first moment the two
    differ (`renewed`, else `new`, else `lost`: transition_kinds), when it did anything; else, as for a
    board, riftasp's board at that moment in canonical form and the fields that differ there.

    Failing games of one bookkeeping defect shrink to games that differ in everything but this:
    which text comes back (an object re-entering, a condition holding again, gear attached again)
    and which characteristic shows it (a keyword, Might) are the game's, not the defect's."""
    if not outcome.transitions:
        assert outcome.board is not None
        return identity(outcome.board, outcome.found)
    # The one that says most: a renewal beside a loss (a text returning as another leaves) is a renewal.
    kind = next(k for k in ("renewed", "new", "lost") if k in outcome.transitions)
    text = json.dumps({"timeline": kind}, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _explains(outcome: TimelineOutcome, riftasp: str) -> dict[str, str]:
    """riftasp's short trace of each object in question, at the moment the two differ."""
    from ..board_io import board_from_dict
    from ..commands import engine_for

    try:
        ours = engine_for(riftasp)(board_from_dict(outcome.board, "<finding>"))
    except Exception:  # noqa: BLE001 - already compared; a trace is a nicety
        return {}
    return {oid: short_explain(ours, oid) for oid in dict.fromkeys(d.object for d in outcome.found) if oid in ours.objects}


def write_games(report: FuzzReport, out: Path) -> None:
    """Each finding's shrunk game as `fuzz-<identity>.json` (a timeline file `riftasp timeline`
    and `riftasp crosscheck` read), and findings.json; nothing when nothing was found."""
    if not report.counterexamples:
        return
    out.mkdir(parents=True, exist_ok=True)
    for example in report.counterexamples:
        example.path = out / f"fuzz-{example.identity}.json"
        example.path.write_text(json.dumps(example.board, indent=2) + "\n", encoding="utf-8")
    (out / FINDINGS_FILE).write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")


def fuzz_command(spec: EngineSpec, ruleset: str, seed: int, count: int, time_limit: float | None, riftasp: str,
                 profile: Profile, max_found: int, baseline: frozenset[str], out: Path, as_json: bool, resume: bool,
                 runner: Runner, text: Callable[[FuzzReport], str]) -> int:  # fmt: skip
    """`riftasp fuzz --timelines`: the run, its findings written to `out`, the report (`text`:
    fuzz's own report text); the exit
    code of `riftasp fuzz` (0 nothing new, 1 new findings, 2 engine errors only, 3 riftasp failed)."""
    from typer import echo

    from ..commands import emit_json, fail
    from ..present import printable
    from ..progress import make_progress

    if resume:
        fail("--resume: not with --timelines (a run of games keeps no progress in --out)")
    try:
        vocabulary(ruleset)
    except ValueError as err:
        fail(f"--ruleset: {err}")
    try:
        with make_progress("fuzz", count, as_json) as progress:
            report = fuzz_timelines(spec, ruleset=ruleset, seed=seed, count=count, time_limit=time_limit,
                                    riftasp=riftasp, profile=profile, max_found=max_found, progress=progress,
                                    runner=runner, baseline=baseline)  # fmt: skip
    finally:
        runner.close()
    try:
        write_games(report, out)
    except OSError as err:
        fail(f"{out}: file: cannot write the findings: {err.strerror or err}")
    if as_json:
        emit_json(report.to_json())
    else:
        echo(printable(text(report).replace(" boards generated", " games generated"), keep_newlines=True))
    if report.riftasp_errors:
        fail(report.riftasp_errors[0].message, code=3)
    return 1 if report.new_findings else 2 if report.engine_errors else 0
