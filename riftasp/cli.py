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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
