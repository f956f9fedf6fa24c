"""The `riftasp` command line."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, NoReturn

import typer

from .model import Board
from .present import printable
from .result import Resolution

# Plain click messages (no boxes): usage errors stay a few plain lines.
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Resolve card characteristics through the layer system, declaratively.")

ENGINES = ("asp", "reference")
# Exit codes (README): 0 done, 1 engines disagree (crosscheck, fuzz), 2 bad input or usage,
# 3 internal error in the encoding, 4 time limit reached.
BAD_INPUT, INTERNAL_ERROR, TIME_LIMIT = 2, 3, 4
BOARD_HELP = "A board: .json, .yaml or .lp facts; - reads JSON from standard input"
TIME_LIMIT_HELP = f"Stop a calculation after this many seconds (exit code {TIME_LIMIT})"


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    typer.echo(printable(message), err=True)
    raise typer.Exit(code)


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
    from .solver import EncodingError

    resolve = engine_for(engine)
    try:
        if engine == "asp":  # checks its limit between ground calls
            return resolve(board, time_limit=time_limit)
        with _alarm(time_limit):  # plain Python: interrupted by a signal
            return resolve(board)
    except EncodingError as err:
        fail(f"{board.source}: internal error in the encoding: {err}", code=INTERNAL_ERROR)
    except TimeLimitExceeded as err:
        fail(f"{board.source}: --time-limit: {err} ({engine} engine)", code=TIME_LIMIT)


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


def emit_json(data) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False))


@app.command()
def resolve(
    board: Path = typer.Argument(..., help=BOARD_HELP),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp (the encoding) or reference (plain Python)"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help=TIME_LIMIT_HELP),
) -> None:
    """Every object's current characteristics."""
    from .present import resolution_text

    positive(time_limit, "--time-limit")
    res = run_engine(load(board), engine, time_limit)
    if as_json:
        emit_json(res.to_json())
    else:
        typer.echo(resolution_text(res))


@app.command()
def explain(
    board: Path = typer.Argument(..., help=BOARD_HELP),
    object_id: str = typer.Argument(..., metavar="OBJECT", help="The object to explain"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help=TIME_LIMIT_HELP),
) -> None:
    """Each application to one object, in order, with why it came then."""
    from .present import explain_text, shorten

    positive(time_limit, "--time-limit")
    b = load(board)
    if object_id not in {obj.id for obj in b.objects}:  # before the calculation, not after it
        fail(f"{b.source}: OBJECT: unknown object {shorten(repr(object_id))}")
    res = run_engine(b, engine, time_limit)
    if as_json:
        emit_json({
            "object": object_id,
            "characteristics": res.objects[object_id].to_json(),
            "needs": res.needs.get(object_id, []),
            "object_loops": [l for l in res.object_loops if object_id in l],
            "applied": [a.to_json() for a in res.applied.get(object_id, [])],
            "withdrawn": res.withdrawn.get(object_id, []),
        })
    else:
        typer.echo(explain_text(res, object_id))


@app.command()
def diff(
    before: Path = typer.Argument(..., help="The board before (- for standard input)"),
    after: Path = typer.Argument(..., help="The board after (- for standard input)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS",
                                            help=TIME_LIMIT_HELP + ", for each board"),
) -> None:
    """Real transitions between two calculations (never intermediate layer values)."""
    from .transitions import transitions

    positive(time_limit, "--time-limit")
    if str(before) == str(after) == "-":
        fail("-: file: standard input holds one board; give a file for the other")
    boards = load(before), load(after)
    changes = transitions(*(run_engine(b, engine, time_limit) for b in boards))
    if as_json:
        emit_json([t.to_json() for t in changes])
    else:
        typer.echo("\n".join(printable(t.text) for t in changes) or "no changes")


@app.command()
def facts(board: Path = typer.Argument(..., help=BOARD_HELP)) -> None:
    """The ASP facts the encoding sees for a board."""
    from .facts import board_facts

    sys.stdout.write(board_facts(load(board)))


@app.command()
def schema() -> None:
    """The JSON Schema of the board format."""
    from .schema import board_schema

    emit_json(board_schema())


# ---- cross-checking engines (docs/crosscheck.md) ----------------------------------------------

ENGINE_HELP = "asp, reference, or a command: one JSON board on stdin, the resolve JSON on stdout"
PERSISTENT_HELP = "The command reads one board per line and answers one result per line (started once)"
PROGRESS_AFTER = 20  # boards; fewer finish before a progress bar would help


def _engine(spec: str, persistent: bool, timeout: float):
    from .engines import EngineError, make_engine

    try:
        return make_engine(spec, persistent=persistent, timeout=timeout)
    except EngineError as err:
        fail(str(err))


@app.command()
def crosscheck(
    boards: list[Path] = typer.Argument(..., help="Board files or folders (searched for .json, .yaml, .lp)"),
    engine: str = typer.Option(..., "--engine", help=ENGINE_HELP),
    persistent: bool = typer.Option(False, "--persistent", help=PERSISTENT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable report"),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds the engine may take per board"),
) -> None:
    """Compare riftasp with another engine on board files; exit 0 only when all agree."""
    from contextlib import nullcontext

    from .crosscheck import CrosscheckReport, board_files, check_board
    from .engines import EngineError
    from .resolve import resolve as riftasp
    from .solver import EncodingError

    positive(timeout, "--timeout")
    files = board_files(boards)
    if not files:
        fail("no board files found in " + ", ".join(map(str, boards)))
    loaded = [load(path) for path in files]  # bad input stops before any engine starts
    other = _engine(engine, persistent, timeout)
    report = CrosscheckReport(other.name, [])
    show = sys.stderr.isatty() or len(loaded) > PROGRESS_AFTER
    bar = typer.progressbar(loaded, label="crosscheck", file=sys.stderr) if show else nullcontext(loaded)
    try:
        with bar as items:
            for b in items:
                report.checks.append(check_board(b, other, riftasp))
    except EngineError as err:
        fail(str(err))
    except EncodingError as err:
        fail(f"internal error in the encoding: {err}", code=3)
    finally:
        other.close()
    if as_json:
        emit_json(report.to_json())
    else:
        typer.echo(printable(report.text(), keep_newlines=True))
    raise typer.Exit(1 if report.disagreeing else 0)


@app.command()
def fuzz(
    engine: str = typer.Option("reference", "--engine", help=ENGINE_HELP),
    persistent: bool = typer.Option(False, "--persistent", help=PERSISTENT_HELP),
    seed: int = typer.Option(0, "--seed", help="The same seed and count generate the same boards"),
    count: int = typer.Option(200, "--count", min=1, help="Boards to generate (shrinking not counted)"),
    time_limit: float | None = typer.Option(None, "--time-limit", help="Stop generating after this many seconds"),
    out: Path = typer.Option(Path("fuzz-out"), "--out", help="Folder for the shrunk counterexamples"),
    max_found: int = typer.Option(20, "--max-found", min=1, help="Stop after this many distinct disagreements"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable report"),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds the engine may take per board"),
) -> None:
    """Random boards, riftasp against an engine; every disagreement shrunk and written to --out."""
    try:
        from .fuzz import fuzz as run_fuzz, write_counterexamples
    except ImportError as err:
        fail(f"riftasp fuzz needs hypothesis ({err}): pip install 'hypothesis>=6.100'")

    positive(timeout, "--timeout")
    positive(time_limit, "--time-limit")
    _check_out_folder(out)  # before the run, not after it
    other = _engine(engine, persistent, timeout)

    def found(example) -> None:
        if not as_json:
            first = example.disagreements[0]
            typer.echo(printable(f"disagreement: {first.object}.{first.field} on a board of "
                                 f"{len(example.board['objects'])} objects (shrunk)"), err=True)

    try:
        report = run_fuzz(other, seed=seed, count=count, time_limit=time_limit, on_found=found, max_found=max_found)
    finally:
        other.close()
    try:
        write_counterexamples(report, out)
    except OSError as err:
        fail(f"{out}: file: cannot write the counterexamples: {err.strerror or err}")
    if as_json:
        emit_json(report.to_json())
    else:
        typer.echo(printable(_fuzz_text(report), keep_newlines=True))
    if report.failure is not None:
        fail(f"{report.failure.message} (board written to {report.failure.path})",
             code=3 if report.failure.side == "riftasp" else 2)
    raise typer.Exit(1 if report.counterexamples else 0)


def _check_out_folder(out: Path) -> None:
    """--out must be a folder, or a place one can be made in."""
    if out.exists() and not out.is_dir():
        fail(f"{out}: file: exists and is not a folder (--out names the folder for counterexamples)")
    existing = next((p for p in (out, *out.parents) if p.exists()), Path("."))
    if not existing.is_dir():
        fail(f"{out}: file: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        fail(f"{out}: file: cannot write in {existing}")


def _fuzz_text(report) -> str:
    from .crosscheck import value_text

    lines = []
    for example in report.counterexamples:
        lines.append(f"{example.path}: {len(example.board['objects'])} objects")
        for d in example.disagreements:
            lines.append(f"  {d.object}.{d.field}: riftasp {value_text(d.riftasp_value, d.field)}, "
                         f"engine {value_text(d.engine_value, d.field)}")
    stop = " (time limit reached)" if report.timed_out else ""
    lines.append(f"{report.generated} boards generated{stop}, {report.shrink_runs} compared while shrinking, "
                 f"{len(report.counterexamples)} disagreements (riftasp vs {report.engine}, seed {report.seed}, "
                 f"{report.seconds:.1f}s)")
    return "\n".join(lines)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
