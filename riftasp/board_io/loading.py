"""The ways in: a board file (its format chosen by suffix), JSON text, parsed data or `.lp`
facts, each read in two passes: its shape into the model, then the reference checks that all
formats share."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..model import Board
from .errors import BoardError, Invalid
from .parsing import parse_json, parse_yaml
from .reading import NO_SUCH_PATH, STDIN, STDIN_SOURCE, read_file, read_stdin
from .references import FactPaths, JsonPaths, check_board
from .shape import read_board

SUFFIXES = (".json", ".yaml", ".yml", ".lp")


@contextmanager
def _bulk() -> Iterator[None]:
    """Reading makes millions of objects and no garbage: the cyclic collector's passes over
    them would make loading a large board superlinear, so it waits until the end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_board(path: str | Path) -> Board:
    """Read a board file, choosing the format by suffix: .json, .yaml/.yml or .lp.

    `-` reads a JSON board from standard input. A file larger than MAX_BOARD_BYTES, or one that
    is not a regular file (a FIFO, a device, a directory), is refused before it is read.
    """
    with _bulk():
        return _load_board(path)


def _load_board(path: str | Path) -> Board:
    if str(path) == STDIN:
        return load_board_text(read_stdin(), STDIN_SOURCE)
    path = Path(path)
    source = str(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        if not path.exists() and not path.is_symlink():  # a folder or file that is not there
            raise BoardError(source, "", NO_SUCH_PATH)
        expected = f"{', '.join(SUFFIXES[:-1])} or {SUFFIXES[-1]}"
        raise BoardError(source, "file", f"unknown board format {suffix or '(no suffix)'!r}; expected {expected}")
    text = read_file(path, source)
    if suffix == ".lp":
        board = board_from_facts(text, source)
        if not board.objects:  # an empty or cut file reads as no facts at all, not as an empty board
            raise BoardError(source, "file", "no objects: an .lp board file declares each object with an object/1 fact")
        return board
    if suffix == ".json":
        return load_board_text(text, source)
    return board_from_dict(parse_yaml(text, source), source)


def load_board_text(text: str, source: str = STDIN_SOURCE) -> Board:
    """A board from JSON text."""
    with _bulk():
        return board_from_dict(parse_json(text, source), source)


def board_from_dict(data: Any, source: str = "<board>") -> Board:
    """A board from parsed JSON/YAML data (dicts, lists, strings, numbers, booleans)."""
    try:
        return _checked(lambda: read_board(data), source, JsonPaths())
    except BoardError:
        named = "FILE" if source == STDIN_SOURCE else source
        if is_resolution(data):  # asked only of a board that failed: a valid one costs nothing
            raise BoardError(source, "", f"this is a resolution, not a board — pass it to riftasp check BOARD "
                                         f"--resolution {named}") from None
        if isinstance(data, dict) and "events" in data and "objects" in data:  # a game (docs/board-format.md)
            raise BoardError(source, "", f"this is a timeline (a board with events), not a board — replay it with "
                                         f"riftasp timeline {named}, or take one moment with --at N") from None
        raise


def is_resolution(data: Any) -> bool:
    """Whether parsed data looks like a resolution (an engine's --json output: "objects" is an
    object of characteristics by id) rather than a board (a "players" key, an "objects" list)."""
    return isinstance(data, dict) and "players" not in data and isinstance(data.get("objects"), dict)


def board_from_facts(text: str, source: str = "<facts>") -> Board:
    """A board from ASP facts in the vocabulary of `riftasp.facts`: the inverse of `board_facts`.

    The text is data, never a program: only ground facts are accepted (see `parse_facts`).
    """
    # Imported here: compiling lp_parsing's patterns takes ~90 ms, which a JSON or YAML board
    # (and `riftasp resolve` of one, bench/coldstart.py) does not need to pay.
    from .lp_parsing import parse_facts
    from .lp_shape import board_from_terms

    return _checked(lambda: board_from_terms(parse_facts(text, source)), source, FactPaths())


def _checked(read: Callable[[], Board], source: str, paths: JsonPaths | FactPaths) -> Board:
    """The board `read` gives (its shape pass) after the reference checks, named by `source`."""
    try:
        with _bulk():
            board = replace(read(), source=source)
            check_board(board, paths)
    except Invalid as problem:
        raise BoardError(source, problem.where, problem.message) from None
    return board
