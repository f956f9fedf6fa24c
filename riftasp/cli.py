"""The `riftasp` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Callable, NoReturn

import typer

from .model import Board
from .result import Resolution

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Resolve card characteristics through the layer system, declaratively.")

ENGINES = ("asp", "reference")


def fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(message, err=True)
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


def run_engine(board: Board, engine: str) -> Resolution:
    from .solver import EncodingError

    try:
        return engine_for(engine)(board)
    except EncodingError as err:
        fail(f"{board.source}: internal error in the encoding: {err}", code=3)


def emit_json(data) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False))


@app.command()
def resolve(
    board: Path = typer.Argument(..., help="A board: .json, .yaml or .lp facts"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp (the encoding) or reference (plain Python)"),
) -> None:
    """Every object's current characteristics."""
    from .present import resolution_text

    res = run_engine(load(board), engine)
    if as_json:
        emit_json(res.to_json())
    else:
        typer.echo(resolution_text(res))


@app.command()
def explain(
    board: Path = typer.Argument(..., help="A board file"),
    object_id: str = typer.Argument(..., metavar="OBJECT", help="The object to explain"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp or reference"),
) -> None:
    """Each application to one object, in order, with why it came then."""
    from .present import explain_text

    b = load(board)
    res = run_engine(b, engine)
    if object_id not in res.objects:
        fail(f"{b.source}: unknown object {object_id!r}")
    if as_json:
        emit_json({
            "object": object_id,
            "characteristics": res.objects[object_id].to_json(),
            "needs": res.needs.get(object_id, []),
            "object_loops": [l for l in res.object_loops if object_id in l],
            "applied": [a.to_json() for a in res.applied.get(object_id, [])],
            "withdrawn": res.withdrawn.get(object_id, []),
            "withdrawals": [w.to_json() for w in res.withdrawals if w.object == object_id],
            "paradoxes": [p for p in res.paradoxes
                          if any(w.object == object_id and w.effect in p for w in res.withdrawals)],
        })
    else:
        typer.echo(explain_text(res, object_id))


@app.command()
def diff(
    before: Path = typer.Argument(..., help="The board before"),
    after: Path = typer.Argument(..., help="The board after"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp or reference"),
) -> None:
    """Real transitions between two calculations (never intermediate layer values)."""
    from .transitions import transitions

    changes = transitions(run_engine(load(before), engine), run_engine(load(after), engine))
    if as_json:
        emit_json([t.to_json() for t in changes])
    else:
        typer.echo("\n".join(t.text for t in changes) or "no changes")


@app.command()
def facts(board: Path = typer.Argument(..., help="A board file")) -> None:
    """The ASP facts the encoding sees for a board."""
    from .facts import board_facts

    sys.stdout.write(board_facts(load(board)))


@app.command()
def schema() -> None:
    """The JSON Schema of the board format."""
    from .schema import board_schema

    emit_json(board_schema())


@app.command()
def check(
    board: Path = typer.Argument(..., help="A board file"),
    resolution: Path | None = typer.Option(None, "--resolution", help="An engine's --json output for BOARD "
                                           "(default: riftasp's own resolution)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: str = typer.Option("asp", help="asp or reference (without --resolution)"),
) -> None:
    """Check a resolution against the rules' invariants; exit 0 consistent, 1 violations."""
    from .check import ContractError, check_report

    b = load(board)
    if resolution is None:
        data = run_engine(b, engine).to_json()
        source = f"{b.source} ({engine} resolution)"
    else:
        source = str(resolution)
        try:
            data = json.loads(resolution.read_text(encoding="utf-8-sig"))
        except OSError as err:
            fail(f"{source}: cannot read: {err.strerror or err}")
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
            fail(f"{source}: invalid JSON: {str(err).splitlines()[0]}")
    try:
        report = check_report(b, data)
    except ContractError as err:
        fail(f"{source}: {err}".replace("\n", "\\n"))
    if as_json:
        emit_json(report.to_json())
    else:
        typer.echo(report.text())
    raise typer.Exit(0 if report.consistent else 1)


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
        typer.echo(report.text())
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

    other = _engine(engine, persistent, timeout)

    def found(example) -> None:
        if not as_json:
            first = example.disagreements[0]
            typer.echo(f"disagreement: {first.object}.{first.field} on a board of "
                       f"{len(example.board['objects'])} objects (shrunk)", err=True)

    try:
        report = run_fuzz(other, seed=seed, count=count, time_limit=time_limit, on_found=found, max_found=max_found)
    finally:
        other.close()
    write_counterexamples(report, out)
    if as_json:
        emit_json(report.to_json())
    else:
        typer.echo(_fuzz_text(report))
    if report.failure is not None:
        fail(f"{report.failure.message} (board written to {report.failure.path})",
             code=3 if report.failure.side == "riftasp" else 2)
    raise typer.Exit(1 if report.counterexamples else 0)


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
