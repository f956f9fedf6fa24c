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
    from .model import Board
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
    from .limits import TimeLimitExceeded
    from .rulesets import UnsupportedRuleset
    from .solver import EncodingError

    resolve = engine_for(engine)
    try:
        if engine == "asp":  # checks its limit between ground calls
            from .resolve import resolve as resolve_asp

            return resolve_asp(board, time_limit=time_limit)
        with _alarm(time_limit):  # plain Python: interrupted by a signal
            return resolve(board)
    except EncodingError as err:
        fail(f"{board.source}: internal error in the encoding: {err}", code=INTERNAL_ERROR)
    except TimeLimitExceeded as err:
        fail(f"{board.source}: --time-limit: {err} ({engine} engine)", code=TIME_LIMIT)
    except UnsupportedRuleset as err:
        fail(f"{board.source}: ruleset: {err}")


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


def resolve_boards(boards: list[Path], as_json: bool, engine: str, time_limit: float | None) -> None:
    """`riftasp resolve`: one board, or several files and folders (resolved in batches)."""
    from .present import printable, resolution_text

    positive(time_limit, "--time-limit")
    if len(boards) == 1 and not boards[0].is_dir():
        res = run_engine(load(boards[0]), engine, time_limit)
        emit_json(res.to_json()) if as_json else echo(resolution_text(res))
        return
    from .crosscheck import board_files  # not for one file: it imports the engines' modules

    files = board_files(boards)
    if not files:
        fail("no board files found in " + ", ".join(map(str, boards)))
    loaded = [load(path) for path in files]
    for board, res in zip(loaded, run_many(loaded, engine, time_limit)):
        if as_json:  # one line per board, its file first
            echo(json.dumps({"board": board.source, **res.to_json()}))
        else:
            echo(f"== {printable(board.source)}\n{resolution_text(res)}\n")


def run_many(boards: list[Board], engine: str, time_limit: float | None) -> list[Resolution]:
    """Several boards: the ASP resolver takes them in batches (riftasp.batch)."""
    if engine != "asp":
        return [run_engine(board, engine, time_limit) for board in boards]
    from .batch import resolve_many
    from .limits import TimeLimitExceeded
    from .rulesets import UnsupportedRuleset
    from .solver import EncodingError

    try:
        return resolve_many(boards, time_limit=time_limit)
    except UnsupportedRuleset as err:
        fail(f"ruleset: {err}")
    except EncodingError as err:
        fail(f"internal error in the encoding: {err}", code=INTERNAL_ERROR)
    except TimeLimitExceeded as err:
        fail(f"{err.board or 'one of the boards'}: --time-limit: stopped at the time limit of {err.seconds:g} s "
             f"({engine} engine)", code=TIME_LIMIT)


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
