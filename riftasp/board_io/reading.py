"""Getting a board's text safely: from a file or standard input, refusing what is not a
regular file or is too large before reading it, and decoding strict UTF-8."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..limits import MAX_BOARD_BYTES
from .errors import BoardError

STDIN = "-"  # the path that reads standard input
STDIN_SOURCE = "<stdin>"  # how errors name it
NO_SUCH_PATH = "no such file or folder"  # a board path that is not there (`PATH: no such file or folder`)


def read_file(path: Path, source: str) -> str:
    return decode(_read_bytes(path, source), source)


def read_stdin() -> str:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BoardError(STDIN_SOURCE, "file", "standard input is closed")
    try:
        data = _read_limited(stream, STDIN_SOURCE)
    except OSError as problem:
        raise BoardError(STDIN_SOURCE, "file", f"cannot read: {problem.strerror or problem}") from None
    return decode(data, STDIN_SOURCE)


def _read_bytes(path: Path, source: str) -> bytes:
    """The file's bytes, refusing what is not a regular file or is too large before reading."""
    try:
        # Non-blocking: opening a FIFO must not wait for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise BoardError(source, "", NO_SUCH_PATH) from None
    except PermissionError:
        raise BoardError(source, "file", "cannot read: permission denied") from None
    except OSError as problem:
        raise BoardError(source, "file", f"cannot read: {problem.strerror or problem}") from None
    try:
        _check_file_type(os.fstat(fd), source)
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return _read_limited(stream, source)
    except IsADirectoryError:
        raise BoardError(source, "file", "is a directory, not a board file") from None
    except OSError as problem:
        raise BoardError(source, "file", f"cannot read: {problem.strerror or problem}") from None
    finally:
        os.close(fd)


def _check_file_type(info: os.stat_result, source: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise BoardError(source, "file", "is a directory, not a board file")
    if not stat.S_ISREG(info.st_mode):
        kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else "a device or special file"
        hint = "use - to read a JSON board from standard input"
        raise BoardError(source, "file", f"is {kind}, not a regular file ({hint})")
    if info.st_size > MAX_BOARD_BYTES:
        raise BoardError(source, "file", _too_large(info.st_size))


def _read_limited(stream: Any, source: str) -> bytes:
    # Read one byte past the limit: a file that grew, or reports no size (/proc), is caught too.
    data = stream.read(MAX_BOARD_BYTES + 1)
    if len(data) > MAX_BOARD_BYTES:
        raise BoardError(source, "file", _too_large(None))
    return data


def _too_large(size: int | None) -> str:
    limit = f"{MAX_BOARD_BYTES // 2**20} MiB"
    shown = f"{size:,} bytes" if size is not None else "more than that"
    return f"too large: {shown}; a board file is at most {limit} (see Limits in docs/board-format.md)"


def decode(data: bytes, source: str) -> str:
    """Strict UTF-8 (a byte-order mark is dropped); an invalid byte is an error at its place."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = data.count(b"\n", 0, problem.start) + 1
        line_start = data.rfind(b"\n", 0, problem.start) + 1
        column = len(data[line_start : problem.start].decode("utf-8", "replace")) + 1
        raise BoardError(
            source, f"line {line} column {column}", f"not UTF-8 text (byte 0x{data[problem.start]:02x})"
        ) from None
    return text.removeprefix("\ufeff")
