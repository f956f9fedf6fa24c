"""The engine protocol: how riftasp talks to an engine it cross-checks (docs/crosscheck.md).

An engine turns a board into the resolve output contract (`Resolution.to_json()`). It is either
- a Python callable `Board -> dict` (or `-> Resolution`), run in this process, or
- a command that reads one JSON board (`board_to_dict` form) on stdin and writes the result JSON
  on stdout, started once per board; or, in persistent mode, started once and fed one board
  per line, answering one result per line (so a slow-starting engine starts once).

Whatever goes wrong on the engine's side — it cannot start, times out, exits, crashes, answers
something that is not the contract (riftasp/engine_answers.py judges the answer) — is an
`EngineError` whose text is one line naming the engine and the board, so the command line can
print it and exit 2 without a traceback. Nothing an engine writes is read without a limit.

An engine that cannot represent a board (a partial engine: no copies, say) answers
`{"unsupported": "reason"}`; that is `Unsupported`, not an error: the board is skipped and
counted. With `expand_cards`, boards are sent with library cards written out (name, type,
printed values and text) instead of by name, so the engine need not know riftasp's card library.
"""

from __future__ import annotations

import json
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Protocol

from .board_io import board_to_dict
from .engine_answers import (
    _SHOWN,
    MAX_ANSWER,
    EngineError,
    Unsupported,
    check_result,
    decode_answer,
    parse_result,
    quote,
    size_text,
)
from .model import Board
from .present import printable, shorten
from .result import Resolution

__all__ = [
    "MAX_ANSWER", "CallableEngine", "CommandEngine", "Engine", "EngineError", "PersistentEngine", "Unsupported",
    "board_json", "check_result", "expand_cards", "make_engine", "parse_result",
]  # fmt: skip

DEFAULT_TIMEOUT = 30.0  # seconds per board; clingo on a small board takes well under one
_CHUNK = 1 << 16  # bytes read from a pipe at a time
_STDERR_KEPT = 1 << 14  # bytes of the end of a one-shot engine's stderr kept for its error
_STDERR_LINE = 1 << 12  # bytes of one line of a persistent engine's stderr kept (20 lines)
_TOO_LONG = object()  # a persistent engine's line over the answer limit: the reader stopped there


class Engine(Protocol):
    name: str

    def __call__(self, board: Board) -> dict[str, Any]: ...

    def close(self) -> None: ...


# How a timeline's answer is judged (riftasp/timeline/crosscheck.py): the parsed JSON -> the
# checked answer, or an EngineError / Unsupported.
Judge = Callable[[Any], dict[str, Any]]


def expand_cards(board: Board) -> Board:
    """The board with every library-card object written out: its name, type, printed values and
    text (effect ids `<object>.<key>`) as if given on the board; it resolves the same."""
    if not any(obj.card for obj in board.objects):
        return board
    return replace(board, objects=tuple(replace(obj, card=None) if obj.card else obj for obj in board.objects))


def board_json(board: Board, expand: bool = False) -> str:
    """The board as one line of JSON: what a command engine reads."""
    data = board_to_dict(expand_cards(board) if expand else board)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def make_engine(
    spec: str, persistent: bool = False, timeout: float = DEFAULT_TIMEOUT, expand: bool = False
) -> Engine:
    """`asp` and `reference` run in this process; anything else is a command line (shlex).

    `persistent` is the user's statement that the command speaks the line protocol; it is not
    guessed, and means nothing for the in-process engines. `expand` sends boards with library
    cards written out (`expand_cards`).
    """
    if spec in ("asp", "reference"):
        from functools import partial

        from .timeline.answer import replay_answer

        if spec == "asp":
            from .resolve import resolve

            return CallableEngine("asp", resolve, expand, timelines=partial(replay_answer, engine="asp"))
        from .reference import resolve as reference_resolve

        return CallableEngine("reference", reference_resolve, expand, timelines=partial(replay_answer, engine="reference"))
    try:
        argv = shlex.split(spec)
    except ValueError as err:
        raise EngineError(f"engine {spec!r}: cannot split the command line: {err}") from None
    if not argv:
        raise EngineError("engine: empty command")
    argv = [_command(argv[0]), *argv[1:]]
    if persistent:
        return PersistentEngine(argv, timeout, name=shlex.join(shlex.split(spec)), expand=expand)
    return CommandEngine(argv, timeout, name=shlex.join(shlex.split(spec)), expand=expand)


def _command(program: str) -> str:
    """A bare command name not on PATH is looked up next to riftasp's own Python too, so
    `riftasp-reference` (and any engine installed in riftasp's venv) runs from `.venv/bin/riftasp`
    without an activated venv."""
    if "/" in program or shutil.which(program):
        return program
    beside = Path(sys.executable).parent / program
    return str(beside) if beside.is_file() and shutil.which(str(beside)) else program


@dataclass
class CallableEngine:
    """A Python callable as an engine; its exceptions, and results that are not JSON or not the
    contract, become EngineErrors."""

    name: str
    function: Callable[[Board], dict[str, Any] | Resolution]
    expand: bool = False
    # The timeline mode (docs/crosscheck.md): a timeline's data -> {"moments": [...]}; without
    # one, every timeline is unsupported.
    timelines: Callable[[dict[str, Any]], Any] | None = None

    def timeline(self, data: dict[str, Any], source: str, judge: Judge) -> dict[str, Any]:
        if self.timelines is None:
            raise Unsupported("timelines")
        try:
            result = self.timelines(data)
        except Unsupported:
            raise
        except Exception as err:  # noqa: BLE001 - any engine bug is reported, not raised through
            raise EngineError(f"engine {self.name} failed on {source}: {_describe(err)}") from None
        return judge(result)

    def __call__(self, board: Board) -> dict[str, Any]:
        try:
            result = self.function(expand_cards(board) if self.expand else board)
            if isinstance(result, Resolution):
                result = result.to_json()
        except Unsupported:
            raise
        except Exception as err:  # noqa: BLE001 - any engine bug is reported, not raised through
            raise EngineError(f"engine {self.name} failed on {board.source}: {_describe(err)}") from None
        return check_result(result, self.name, board)

    def close(self) -> None:
        pass


def _describe(err: BaseException) -> str:
    """`Type: message`, short, even when the exception's own str() fails."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a broken __str__ must not replace the engine's error
        text = "(its message cannot be shown)"
    return shorten(f"{type(err).__name__}: {text[:_SHOWN * 4]}", _SHOWN * 2)


@dataclass
class CommandEngine:
    """A command started once per board: board on stdin, result on stdout, exit code 0.

    Its output is read on threads with a limit (`max_answer` bytes), so neither a silent nor a
    torrential engine can hang riftasp or fill its memory."""

    argv: list[str]
    timeout: float = DEFAULT_TIMEOUT
    name: str = ""
    expand: bool = False
    max_answer: int = MAX_ANSWER

    def __post_init__(self) -> None:
        self.name = self.name or shlex.join(self.argv)

    def __call__(self, board: Board) -> dict[str, Any]:
        return self.ask(board_json(board, self.expand), board.source, lambda r: check_result(r, self.name, board))

    def timeline(self, data: dict[str, Any], source: str, judge: Judge) -> dict[str, Any]:
        """A timeline sent the way a board is (docs/crosscheck.md, the timeline mode)."""
        return self.ask(json.dumps(data, separators=(",", ":"), ensure_ascii=False), source, judge)

    def ask(self, request: str, source: str, judge: Judge) -> dict[str, Any]:
        """One request (a board or a timeline as JSON) answered, the answer judged."""
        process = _popen(self.argv, self.name)
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        output = _Capture(process.stdout, self.max_answer)
        stderr = _Capture(process.stderr, _STDERR_KEPT, tail=True)
        writer = _send(process.stdin, request.encode(), close=True)
        deadline = time.monotonic() + self.timeout
        # Its output ends (or overflows) first, then it exits: both within the one timeout.
        finished = output.wait(self.timeout) and (output.overflow or _exits(process, deadline - time.monotonic()))
        _stop(process, [output, stderr, writer])
        if not finished:
            raise EngineError(f"engine {self.name} timed out after {self.timeout:g}s on {source}")
        if output.overflow:
            raise EngineError(f"engine {self.name} on {source}: output is larger than {size_text(self.max_answer)}")
        if process.returncode != 0:
            raise EngineError(
                f"engine {self.name} exited with code {process.returncode} on {source}{_tail(stderr.text())}"
            )
        text = decode_answer(bytes(output.data), self.name, source)
        return judge(parse_result(text, self.name, source))

    def close(self) -> None:
        pass


@dataclass
class PersistentEngine:
    """A command started once: one board per line in, one result per line out, until EOF.

    Its output is read on a thread so a silent engine times out instead of hanging riftasp;
    its stderr is drained on another (a full pipe would block it) and the tail kept for errors.
    Boards are written on a thread of their own too: an engine that stops reading must not block
    riftasp on a full pipe.

    An answer belongs to a board only by its place in the line order, so wherever that order is
    in doubt — a timeout, a line too long, a blank line, a line already waiting before a board is
    sent, an answer that is no valid answer to its board — the process is stopped, and the next
    board starts a new one. So does an engine that exited.
    """

    argv: list[str]
    timeout: float = DEFAULT_TIMEOUT
    name: str = ""
    expand: bool = False
    max_answer: int = MAX_ANSWER
    _process: subprocess.Popen | None = field(default=None, repr=False)
    # Lists of lines, each list what one read of the pipe brought: lines that arrived together are
    # seen together, so an extra line sent along with an answer is waiting by the next board.
    _reads: queue.Queue = field(default_factory=queue.Queue, repr=False)
    _lines: deque = field(default_factory=deque, repr=False)  # lines read but not yet taken
    _stderr: deque = field(default_factory=lambda: deque(maxlen=20), repr=False)
    _threads: list[threading.Thread] = field(default_factory=list, repr=False)
    _previous: str | None = field(default=None, repr=False)  # the board last sent to this process
    _writer: threading.Thread | None = field(default=None, repr=False)  # the last board's; the only one that can be stuck

    def __post_init__(self) -> None:
        self.name = self.name or shlex.join(self.argv)

    def _start(self) -> subprocess.Popen:
        process = _popen(self.argv, self.name)
        assert process.stdout is not None and process.stderr is not None
        # All new: nothing from an earlier process can pass for this one's answer.
        self._reads, self._lines, self._stderr, self._previous = queue.Queue(), deque(), deque(maxlen=20), None
        self._threads = [
            threading.Thread(target=_pump_answers, args=(process.stdout, self._reads.put, self.max_answer), daemon=True),
            threading.Thread(target=_pump_stderr, args=(process.stderr, self._stderr.append), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self._process = process
        return process

    def __call__(self, board: Board) -> dict[str, Any]:
        return self.ask(board_json(board, self.expand), board.source, lambda r: check_result(r, self.name, board))

    def timeline(self, data: dict[str, Any], source: str, judge: Judge) -> dict[str, Any]:
        """A timeline sent the way a board is: one line (docs/crosscheck.md, the timeline mode)."""
        return self.ask(json.dumps(data, separators=(",", ":"), ensure_ascii=False), source, judge)

    def ask(self, request: str, source: str, judge: Judge) -> dict[str, Any]:
        """One request (a board or a timeline, one line of JSON) answered, the answer judged."""
        process = self._process or self._start()
        if process.poll() is not None:
            raise self._died(source, process)
        self._no_line_waiting(source, process)
        assert process.stdin is not None
        self._writer = _send(process.stdin, (request + "\n").encode())
        self._previous = source
        line = self._next_line(source, process)
        result = None
        try:
            text = decode_answer(line, self.name, source)
            if not text.strip():
                # Maybe a stray newline before the real answer, which would then pass for the next
                # board's.
                raise EngineError(f"engine {self.name} on {source}: answered with an empty line; {_RESTART}")
            result = parse_result(text, self.name, source)
            return judge(result)
        except EngineError:
            # An `{"error"}` answer is the protocol's own; anything else that is no answer to this
            # board may be another board's (a second answer that came late): start afresh.
            if not _reported(result):
                self.close(kill=True)
            raise

    def _take(self, timeout: float | None) -> Any:
        """The next line (bytes, None at the end of the output, or _TOO_LONG); waits up to
        `timeout` seconds, or not at all when None. queue.Empty when there is none."""
        if not self._lines:
            batch = self._reads.get_nowait() if timeout is None else self._reads.get(timeout=timeout)
            self._lines.extend(batch)
        return self._lines.popleft()

    def _no_line_waiting(self, source: str, process: subprocess.Popen) -> None:
        """A line already there before the board is sent is no answer to it: the engine answered
        the board before more than once (or spoke unasked). Taken as this board's answer, it would
        shift every answer after it by one."""
        try:
            waiting = self._take(None)
        except queue.Empty:
            return
        if waiting is None:  # its output ended after its last answer: it has exited
            raise self._died(source, process)
        self.close(kill=True)
        shown = "a line longer than the answer limit" if waiting is _TOO_LONG else quote(_text(waiting))
        if self._previous is None:
            raise EngineError(f"engine {self.name} on {source}: it wrote {shown} before it was sent a board; {_RESTART}")
        raise EngineError(
            f"engine {self.name} on {source}: it answered the previous board ({self._previous}) more than once "
            f"(another line, {shown}, was waiting before this board was sent); {_RESTART}"
        )

    def _next_line(self, source: str, process: subprocess.Popen) -> bytes:
        try:
            line = self._take(self.timeout)
        except queue.Empty:
            # Its state is unknown now (half an answer may follow): stop it.
            self.close(kill=True)
            raise EngineError(
                f"engine {self.name} timed out after {self.timeout:g}s on {source} (persistent mode: "
                "it must answer each line at once; does the command need its own flag for that?)"
            ) from None
        if line is None:  # end of its output: it exited (or closed stdout, which is as bad)
            raise self._died(source, process)
        if line is _TOO_LONG:  # the rest of that line is still coming: only a new process is clean
            self.close(kill=True)
            raise EngineError(
                f"engine {self.name} on {source}: its answer line is longer than {size_text(self.max_answer)}; "
                f"{_RESTART}"
            )
        return line

    def _died(self, source: str, process: subprocess.Popen) -> EngineError:
        """The error for an engine that exited; the next board starts it again."""
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for thread in self._threads[1:]:  # the stderr tail, complete
            thread.join(timeout=1)
        # Exiting cleanly after one board is what a one-shot engine does.
        hint = " (persistent mode: it must answer every line until EOF)" if process.returncode == 0 else ""
        tail = _tail(b"".join(self._stderr).decode("utf-8", "replace"))
        self.close(kill=True)
        return EngineError(f"engine {self.name} exited with code {process.returncode} on {source}{hint}{tail}")

    def close(self, kill: bool = False) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        writing = self._writer is not None and self._writer.is_alive()  # then it stopped reading: no goodbye
        if not kill and not writing and process.stdin is not None and process.poll() is None:
            try:
                process.stdin.close()  # EOF: the protocol's way of saying goodbye
                process.wait(timeout=5)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        _stop(process, [*self._threads, *([self._writer] if self._writer else [])])


def _reported(result: Any) -> bool:
    """Whether a parsed answer is the protocol's `{"error": ...}`."""
    return isinstance(result, dict) and "error" in result and "objects" not in result


_RESTART = "restarting it for the next board"


def _popen(argv: list[str], name: str) -> subprocess.Popen:
    """The engine's process with three byte pipes (riftasp decodes what it reads itself)."""
    try:
        return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise EngineError(f"engine {name}: cannot start: no such command {argv[0]!r}") from None
    except PermissionError:
        raise EngineError(f"engine {name}: cannot start: {argv[0]!r} is not executable") from None
    except OSError as err:
        raise EngineError(f"engine {name}: cannot start: {err.strerror or err}") from None


def _exits(process: subprocess.Popen, timeout: float) -> bool:
    """Whether the process exits within `timeout` seconds (its output has ended by now)."""
    try:
        process.wait(timeout=max(timeout, 0.0))
    except subprocess.TimeoutExpired:
        return False
    return True


def _stop(process: subprocess.Popen, helpers: list[Any]) -> None:
    """Kill the process if it runs, reap it, and close its pipes once no helper thread uses them.

    A helper still stuck on a pipe (a grandchild holds it open) is left to end on its own: closing
    a stream under a reading thread could block on the stream's lock."""
    if process.poll() is None:
        process.kill()
    process.wait()
    for helper in helpers:
        helper.join(timeout=1)
    if all(not helper.is_alive() for helper in helpers):
        for stream in (process.stdin, process.stdout, process.stderr):
            _close(stream)


def _close(stream: IO[bytes] | None) -> None:
    if stream is None:
        return
    try:
        stream.close()
    except (OSError, ValueError):  # a pipe the engine closed first: nothing left to flush
        pass


def _send(stream: IO[bytes], data: bytes, close: bool = False) -> threading.Thread:
    """Write `data` on a thread (and close the stream after, when `close`); a dead engine's broken
    pipe is noticed on its output, not here."""

    def write() -> None:
        try:
            stream.write(data)
            stream.flush()
            if close:
                stream.close()
        except (OSError, ValueError):
            pass

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


class _Capture:
    """A stream read on a thread to its end: its first `limit` bytes (`overflow` when there were
    more; reading stops there), or with `tail` its last `limit` bytes."""

    def __init__(self, stream: IO[bytes], limit: int, tail: bool = False) -> None:
        self.data = bytearray()
        self.overflow = False
        self._thread = threading.Thread(target=self._read, args=(stream, limit, tail), daemon=True)
        self._thread.start()

    def _read(self, stream: Any, limit: int, tail: bool) -> None:
        try:
            while chunk := stream.read1(_CHUNK):
                self.data += chunk
                if tail:
                    del self.data[:-limit]
                elif len(self.data) > limit:
                    self.overflow = True
                    return
        except (OSError, ValueError):  # closed under us
            pass

    def wait(self, timeout: float) -> bool:
        """Whether the stream ended (or overflowed) within `timeout` seconds."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def text(self) -> str:
        return bytes(self.data).decode("utf-8", "replace")


def _pump_answers(stream: Any, put: Callable[[list[Any]], None], limit: int) -> None:
    """Copy a stream's lines (bytes, the newline kept) to `put`, a list of the complete lines
    each read brought, then [None] for its end. A line over `limit` bytes is `_TOO_LONG`, and
    reading stops: the engine is stopped for it, and no more than `limit` bytes are held."""
    pending = bytearray()
    try:
        while chunk := stream.read1(_CHUNK):
            searched = len(pending)
            pending += chunk
            lines: list[Any] = []
            cut = 0
            # Only the new bytes are searched: a long line must not be scanned again and again.
            while (end := pending.find(b"\n", max(searched, cut))) >= 0:
                lines.append(bytes(pending[cut : end + 1]))
                cut = end + 1
            del pending[:cut]
            long = next((i for i, line in enumerate(lines) if len(line) > limit + 1), None)
            if long is not None or len(pending) > limit:
                put([*lines[:long], _TOO_LONG])
                return
            if lines:
                put(lines)
    except (OSError, ValueError):  # closed under us by close()
        pass
    put([bytes(pending), None] if pending else [None])  # a last line without its newline, then the end


def _pump_stderr(stream: Any, put: Callable[[bytes], None]) -> None:
    """Keep a stream's lines (each cut at _STDERR_LINE bytes) until its end."""
    try:
        while line := stream.readline(_STDERR_LINE):
            put(line)
    except (OSError, ValueError):
        pass


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").strip()


def _tail(stderr: str) -> str:
    """`: <the last line of stderr>`, short and printable, or nothing."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return f": {shorten(printable(lines[-1]), _SHOWN * 2)}" if lines else ""
