"""The engine protocol: how riftasp talks to an engine it cross-checks (docs/crosscheck.md).

An engine turns a board into the resolve output contract (`Resolution.to_json()`). It is either
- a Python callable `Board -> dict` (or `-> Resolution`), run in this process, or
- a command that reads one JSON board (`board_to_dict` form) on stdin and writes the result JSON
  on stdout, started once per board; or, in persistent mode, started once and fed one board
  per line, answering one result per line (so a slow-starting engine starts once).

Whatever goes wrong on the engine's side — it cannot start, times out, exits, crashes, answers
something that is not the contract — is an `EngineError` whose text is one line naming the
engine and the board, so the command line can print it and exit 2 without a traceback.

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
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from .board_io import board_to_dict
from .model import Board
from .result import Resolution
from .rulesets import Ruleset

DEFAULT_TIMEOUT = 30.0  # seconds per board; clingo on a small board takes well under one
_SHOWN = 120  # characters of garbled output quoted in an error


class EngineError(Exception):
    """An engine failed or broke the protocol; str() is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class Unsupported(Exception):
    """The engine cannot represent this board: `{"unsupported": reason}` (or raised by a callable).

    Not a failure: crosscheck and fuzz skip the board and count it under its reason."""

    def __init__(self, reason: str) -> None:
        self.reason = " ".join(str(reason).split()) or "unsupported"
        super().__init__(self.reason)


class Engine(Protocol):
    name: str

    def __call__(self, board: Board) -> dict[str, Any]: ...

    def close(self) -> None: ...


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
    if spec == "asp":
        from .resolve import resolve

        return CallableEngine("asp", resolve, expand)
    if spec == "reference":
        from .reference import resolve as reference_resolve

        return CallableEngine("reference", reference_resolve, expand)
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
    """A Python callable as an engine; its exceptions become EngineErrors."""

    name: str
    function: Callable[[Board], dict[str, Any] | Resolution]
    expand: bool = False

    def __call__(self, board: Board) -> dict[str, Any]:
        try:
            result = self.function(expand_cards(board) if self.expand else board)
        except Unsupported:
            raise
        except Exception as err:  # noqa: BLE001 - any engine bug is reported, not raised through
            raise EngineError(f"engine {self.name} failed on {board.source}: {type(err).__name__}: {err}") from None
        if isinstance(result, Resolution):
            result = result.to_json()
        return check_result(result, self.name, board.source, board.ruleset)

    def close(self) -> None:
        pass


@dataclass
class CommandEngine:
    """A command started once per board: board on stdin, result on stdout, exit code 0."""

    argv: list[str]
    timeout: float = DEFAULT_TIMEOUT
    name: str = ""
    expand: bool = False

    def __post_init__(self) -> None:
        self.name = self.name or shlex.join(self.argv)

    def __call__(self, board: Board) -> dict[str, Any]:
        try:
            done = subprocess.run(
                self.argv, input=board_json(board, self.expand), capture_output=True, text=True,
                timeout=self.timeout,
            )  # fmt: skip
        except FileNotFoundError:
            raise EngineError(f"engine {self.name}: cannot start: no such command {self.argv[0]!r}") from None
        except PermissionError:
            raise EngineError(f"engine {self.name}: cannot start: {self.argv[0]!r} is not executable") from None
        except subprocess.TimeoutExpired:
            raise EngineError(f"engine {self.name} timed out after {self.timeout:g}s on {board.source}") from None
        if done.returncode != 0:
            raise EngineError(
                f"engine {self.name} exited with code {done.returncode} on {board.source}{_tail(done.stderr)}"
            )
        return check_result(parse_result(done.stdout, self.name, board.source), self.name, board.source, board.ruleset)

    def close(self) -> None:
        pass


@dataclass
class PersistentEngine:
    """A command started once: one board per line in, one result per line out, until EOF.

    Its output is read on a thread so a silent engine times out instead of hanging riftasp;
    its stderr is drained on another (a full pipe would block it) and the tail kept for errors.
    """

    argv: list[str]
    timeout: float = DEFAULT_TIMEOUT
    name: str = ""
    expand: bool = False
    _process: subprocess.Popen | None = field(default=None, repr=False)
    _lines: queue.Queue = field(default_factory=queue.Queue, repr=False)
    _stderr: deque = field(default_factory=lambda: deque(maxlen=20), repr=False)
    _threads: list[threading.Thread] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.name = self.name or shlex.join(self.argv)

    def _start(self) -> subprocess.Popen:
        try:
            process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", bufsize=1,
            )  # fmt: skip
        except FileNotFoundError:
            raise EngineError(f"engine {self.name}: cannot start: no such command {self.argv[0]!r}") from None
        except PermissionError:
            raise EngineError(f"engine {self.name}: cannot start: {self.argv[0]!r} is not executable") from None
        assert process.stdout is not None and process.stderr is not None
        self._lines, self._stderr = queue.Queue(), deque(maxlen=20)  # nothing from an earlier run
        self._threads = [
            threading.Thread(target=_pump, args=(process.stdout, self._lines.put), daemon=True),
            threading.Thread(target=_pump, args=(process.stderr, self._stderr.append, False), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self._process = process
        return process

    def __call__(self, board: Board) -> dict[str, Any]:
        process = self._process or self._start()
        if process.poll() is not None:
            raise self._died(board, process)
        try:
            assert process.stdin is not None
            process.stdin.write(board_json(board, self.expand) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died(board, process) from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            # Its state is unknown now (half an answer may follow): stop it.
            self.close(kill=True)
            raise EngineError(
                f"engine {self.name} timed out after {self.timeout:g}s on {board.source} (persistent mode: "
                "it must answer each line at once; does the command need its own flag for that?)"
            ) from None
        if line is None:  # end of its output: it exited (or closed stdout, which is as bad)
            raise self._died(board, process)
        return check_result(parse_result(line, self.name, board.source), self.name, board.source, board.ruleset)

    def _died(self, board: Board, process: subprocess.Popen) -> EngineError:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for thread in self._threads[1:]:  # the stderr tail, complete
            thread.join(timeout=1)
        # Exiting cleanly after one board is what a one-shot engine does.
        hint = " (persistent mode: it must answer every line until EOF)" if process.returncode == 0 else ""
        return EngineError(
            f"engine {self.name} exited with code {process.returncode} on {board.source}{hint}"
            f"{_tail(''.join(self._stderr))}"
        )

    def close(self, kill: bool = False) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if not kill and process.stdin is not None:
            try:
                process.stdin.close()  # EOF: the protocol's way of saying goodbye
                process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if process.poll() is None:
            process.kill()
            process.wait()
        for thread in self._threads:
            thread.join(timeout=1)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _pump(stream: Any, put: Callable[[Any], None], end: bool = True) -> None:
    """Copy a stream's lines to `put`, then None for its end (when `end`)."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):  # closed under us by close()
        pass
    if end:
        put(None)


def _tail(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return f": {lines[-1][:_SHOWN * 2]}" if lines else ""


def parse_result(text: str, name: str, board: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        shown = text.strip()[:_SHOWN] or "(nothing)"
        raise EngineError(f"engine {name} wrote invalid JSON on {board} ({err.msg}): {shown!r}") from None


def check_result(result: Any, name: str, board: str, ruleset: Ruleset) -> dict[str, Any]:
    """The result if it has the contract's shape for every compared characteristic of the
    board's ruleset."""

    def bad(where: str, message: str) -> EngineError:
        return EngineError(f"engine {name} on {board}: output {where}: {message}")

    if isinstance(result, dict) and set(result) == {"error"}:
        raise EngineError(f"engine {name} reported an error on {board}: {result['error']}")
    if isinstance(result, dict) and "unsupported" in result and "objects" not in result:
        reason = result["unsupported"]
        if not isinstance(reason, str) or not reason.strip():
            raise bad("unsupported", f"expected a reason (a non-empty string), got {reason!r}"[:_SHOWN * 2])
        raise Unsupported(reason)
    if not isinstance(result, dict):
        raise bad("top level", f"expected an object, got {_kind(result)}")
    objects = result.get("objects")
    if not isinstance(objects, dict):
        raise bad("objects", "missing" if objects is None else f"expected an object, got {_kind(objects)}")
    for oid, chars in objects.items():
        where = f"objects.{oid}"
        if not isinstance(chars, dict):
            raise bad(where, f"expected an object, got {_kind(chars)}")
        for key, ok, expected in _checks(ruleset):
            if key not in chars:
                raise bad(where, f"missing field {key!r}")
            if not ok(chars[key]):
                raise bad(f"{where}.{key}", f"expected {expected}, got {chars[key]!r}"[:_SHOWN * 2])
    return result


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What each kind of output field (specs.OUTPUT_KINDS) holds, and how an error says it.
_KIND_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "value": (lambda v: v is None or isinstance(v, str), "a string or null"),
    "number": (lambda v: v is None or _is_int(v), "an integer or null"),
    "flag": (lambda v: isinstance(v, bool), "true or false"),
    "set": (lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v), "a list of strings"),
}
_KEYWORDS_CHECK = (lambda v: isinstance(v, dict) and all(_is_int(n) for n in v.values()),
                   "an object of keyword -> integer")  # fmt: skip


def _checks(ruleset: Ruleset) -> list[tuple[str, Callable[[Any], bool], str]]:
    """(key, test, what it should be) for every compared characteristic, keywords last."""
    own = [(f.key, *_KIND_CHECKS[f.kind]) for f in ruleset.output_fields if f.compared]
    return own + [("keywords", *_KEYWORDS_CHECK)]


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__
