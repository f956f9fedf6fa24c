"""What the commands share, without typer: loading boards, running an engine, failing in one
line, and `riftasp resolve BOARD... [--json]` itself.

Start-up time (bench/coldstart.py, issue 9: `riftasp resolve` of one board within 0.25 s):
importing typer costs ~26 ms, a tenth of that budget, and the commonest call needs none of
it. The `riftasp` program starts in riftasp.launch, which runs that call from here and loads
riftasp.cli (typer) only for anything else. A failure prints its one line and raises
SystemExit, which typer, click and click's test runner all pass on as the exit code.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from .failure import ResolveFailure
    from .model import Board
    from .progress import Progress
    from .result import Resolution

ENGINES = ("asp", "reference")
# Exit codes (README): 0 done, 1 engines disagree (crosscheck, fuzz), 2 bad input or usage,
# 3 internal error in the encoding, 4 time limit reached.
BAD_INPUT, INTERNAL_ERROR, TIME_LIMIT = 2, 3, 4


def echo(text: str, err: bool = False) -> None:
    """One message and a newline, flushed at once (as click's echo: a closed pipe shows here)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    from .present import printable

    echo(printable(message), err=True)
    raise SystemExit(code)


def emit_json(data) -> None:
    echo(json.dumps(data, indent=2, sort_keys=False))


def load(path: Path) -> Board:
    from .board_io import BoardError, load_board

    try:
        return load_board(path)
    except BoardError as err:
        fail(str(err))


def engine_for(name: str) -> Callable[[Board], Resolution]:
    if name == "asp":
        from .resolve import resolve

        return resolve
    if name == "reference":
        from .reference import resolve as reference_resolve

        return reference_resolve
    fail(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}")


def run_engine(board: Board, engine: str, time_limit: float | None = None) -> Resolution:
    from .failure import ResolveFailure
    from .limits import TimeLimitExceeded
    from .rulesets import UnsupportedRuleset
    from .solver import EncodingError

    try:
        return _resolved(board, engine, time_limit)
    except (EncodingError, TimeLimitExceeded, UnsupportedRuleset) as err:
        failure = ResolveFailure.of(board.source, err)
        fail(failure_line(failure, engine), code=failure.exit_code)


def _resolved(board: Board, engine: str, time_limit: float | None) -> Resolution:
    resolve = engine_for(engine)
    if engine == "asp":  # in a worker process killed at the limit (riftasp/watchdog.py)
        from .resolve import resolve as resolve_asp

        return resolve_asp(board, time_limit=time_limit)
    with _alarm(time_limit):  # plain Python: interrupted by a signal
        return resolve(board)


def failure_line(failure: ResolveFailure, engine: str) -> str:
    """The command's one line for a board that failed: the failure's message, and for a time
    limit, the option and the engine that was stopped."""
    from .limits import TimeLimitExceeded

    err = failure.error()
    if isinstance(err, TimeLimitExceeded):
        return f"{failure.board}: --time-limit: stopped at the time limit of {err.seconds:g} s ({engine} engine)"
    return failure.message


@contextmanager
def _alarm(seconds: float | None) -> Iterator[None]:
    """Raise TimeLimitExceeded in the main thread after `seconds` (where signals allow it).

    Only for pure-Python engines: a signal handler raising inside a clingo call would abort.
    """
    from .limits import TimeLimitExceeded

    main_thread = threading.current_thread() is threading.main_thread()
    if seconds is None or not hasattr(signal, "setitimer") or not main_thread:
        yield
        return

    def ring(_signal: int, _frame: object) -> None:
        raise TimeLimitExceeded(seconds)

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def positive(value: float | None, option: str) -> float | None:
    """A number of seconds must be > 0 (a negative one would mean "no time at all")."""
    if value is not None and not value > 0:
        fail(f"{option}: must be a positive number of seconds, got {value:g}")
    return value


def resolve_boards(boards: list[Path], as_json: bool, engine: str, time_limit: float | None,
                   jobs: int | None = None, scheduler: str | None = None) -> None:
    """`riftasp resolve`: one board, or several files and folders (resolved in batches)."""
    from .present import resolution_text

    positive(time_limit, "--time-limit")
    if len(boards) == 1 and not boards[0].is_dir():
        res = run_engine(load(boards[0]), engine, time_limit)
        emit_json(res.to_json()) if as_json else echo(resolution_text(res, styled=True))
        return
    from .crosscheck import board_files  # not for one file: it imports the engines' modules

    files = board_files(boards)
    if not files:
        fail("no board files found in " + ", ".join(map(str, boards)))
    if not resolve_files(files, as_json, engine, time_limit, jobs, scheduler):
        raise SystemExit(BAD_INPUT)


# Many boards go to worker processes (--jobs) in groups of GROUP, from PARALLEL_FROM boards on:
# a pool costs ~0.3 s to start, about what the ASP resolver takes for 200 small boards in batches.
GROUP, PARALLEL_FROM = 250, 400


def resolve_files(files: list[Path], as_json: bool, engine: str, time_limit: float | None,
                  jobs: int | None = None, scheduler: str | None = None) -> bool:
    """Each file's answer in order, or in the place of a board that could not be read or
    resolved, one line on stderr (with --json also `{"board", "error", "kind"}` on stdout); the
    others go on. Progress on stderr (riftasp/progress.py). Whether every board was answered."""
    from .failure import ResolveFailure
    from .progress import make_progress

    loaded = [_load_or_failure(path) for path in files]
    boards = [b for b in loaded if not isinstance(b, ResolveFailure)]
    answered = True
    with make_progress("resolve", len(files), as_json) as progress:
        def starting(calculation: list[Board]) -> None:  # the file (and batch) being resolved
            together = len(calculation)
            progress.update(file=calculation[0].source, batch=together if together > 1 else None)

        if scheduler is not None or (jobs != 1 and len(boards) >= PARALLEL_FROM):
            outcomes = run_spread(boards, engine, time_limit, jobs, scheduler, progress)
        else:
            outcomes = run_many(boards, engine, time_limit, starting)
        for item in loaded:
            outcome: Resolution | ResolveFailure
            if isinstance(item, ResolveFailure):  # a board that could not be read
                source, outcome = item.board, item
            else:
                source, outcome = item.source, next(outcomes)
            if isinstance(outcome, ResolveFailure):
                answered = False
                _show_failure(outcome, as_json, engine, progress)
            else:
                _show(source, outcome, as_json)
            progress.advance()
        progress.update(file=None, batch=None)
    return answered


def _load_or_failure(path: Path) -> Board | ResolveFailure:
    from .board_io import BoardError, load_board
    from .failure import ResolveFailure

    try:
        return load_board(path)
    except BoardError as err:
        return ResolveFailure.of(str(path), err)


def _show(source: str, res: Resolution, as_json: bool) -> None:
    from .present import printable, resolution_text

    if as_json:  # one line per board, its file first
        echo(json.dumps({"board": source, **res.to_json()}))
    else:
        echo(f"== {printable(source)}\n{resolution_text(res, styled=True)}\n")


def _show_failure(failure: ResolveFailure, as_json: bool, engine: str, progress: Progress) -> None:
    line = failure_line(failure, engine)
    progress.event(line, event="failed", file=failure.board, kind=failure.kind)
    if as_json:
        echo(json.dumps({"board": failure.board, "error": line, "kind": failure.kind}))


def run_many(boards: list[Board], engine: str, time_limit: float | None,
             starting: Callable[[list[Board]], None] | None = None) -> Iterator[Resolution | ResolveFailure]:
    """Several boards, each one's Resolution or ResolveFailure in order: the ASP resolver takes
    them in batches (riftasp.batch), the others one at a time, each within `time_limit`."""
    if engine == "asp":
        from .batch import resolve_each

        yield from resolve_each(boards, time_limit=time_limit, starting=starting)
        return
    from .failure import ResolveFailure

    for board in boards:
        if starting is not None:
            starting([board])
        outcome: Resolution | ResolveFailure
        try:
            outcome = _resolved(board, engine, time_limit)
        except Exception as err:  # noqa: BLE001 - the board's failure, in its place
            outcome = ResolveFailure.of(board.source, err)
        yield outcome


def run_spread(boards: list[Board], engine: str, time_limit: float | None, jobs: int | None,
               scheduler: str | None, progress: Progress) -> Iterator[Resolution | ResolveFailure]:
    """run_many on worker processes or a cluster (riftasp/campaign/pool.py): groups of GROUP
    boards, answers in order as each group is done."""
    from functools import partial

    from .campaign.pool import RunnerError, make_runner

    try:
        runner = make_runner(jobs, scheduler)
    except RunnerError as err:
        fail(str(err))
    groups = [boards[i:i + GROUP] for i in range(0, len(boards), GROUP)]
    try:
        for group in runner.map(partial(resolve_group, engine, time_limit), groups):
            progress.update(file=None, jobs=runner.jobs)
            yield from group
    except RunnerError as err:
        fail(str(err))
    finally:
        runner.close()


def resolve_group(engine: str, time_limit: float | None, boards: list[Board]) -> list[Resolution | ResolveFailure]:
    """One group of `run_spread`, where it runs."""
    return list(run_many(boards, engine, time_limit))


def plain_resolve(argv: list[str]) -> tuple[list[Path], bool] | None:
    """(boards, --json) when `argv` is `resolve`, board paths (or -) and at most `--json`."""
    if argv[:1] != ["resolve"] or any(k.endswith("_COMPLETE") for k in os.environ):  # completion: typer's
        return None
    boards = [arg for arg in argv[1:] if arg != "--json"]
    if not boards or any(not arg or (arg.startswith("-") and arg != "-") for arg in boards):
        return None
    return [Path(arg) for arg in boards], len(boards) < len(argv) - 1


def run_plain(boards: list[Path], as_json: bool) -> int:
    """`riftasp resolve BOARD... [--json]` with the asp engine, ending as typer's main would
    (its exit code, Ctrl-C, a closed pipe); the exit code."""
    try:
        resolve_boards(boards, as_json=as_json, engine="asp", time_limit=None)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # as click's main: a closed stdout (`| head`) ends quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
