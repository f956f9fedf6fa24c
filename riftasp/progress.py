"""Progress of long commands (fuzz, crosscheck of many boards), on stderr.

- On a terminal: a rich progress bar (boards done / total, elapsed time, running counts); lines
  the command prints meanwhile (`event`) appear above it.
- With `--json`: JSON-lines records, one object per line, so a script (or a person watching a
  log) sees the command is alive:
      {"progress": "fuzz", "done": 40, "total": 200, "seconds": 3.1, "time": "2026-12-07T20:01:02+00:00", "found": 1}
      {"progress": "fuzz", "event": "found", "signature": {...}, ...}
      {"progress": "fuzz", "done": 200, "total": 200, "seconds": 14.8, ..., "finished": true}
  A record at the start, then at most one every `INTERVAL` seconds, and one at the end.
- Otherwise (stderr is a file or a pipe, and no --json): nothing but the events' text lines.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any

INTERVAL = 1.0  # seconds between two JSON-lines progress records


class Progress:
    """No progress display; events are printed as plain lines (when `stream` is given)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance(self, n: int = 1) -> None:
        pass

    def update(self, **fields: Any) -> None:
        pass

    def event(self, text: str, **data: Any) -> None:
        """Something worth a line of its own (a finding): `text` for people, `data` for JSON."""
        if self.stream is not None:
            print(_printable(text), file=self.stream, flush=True)

    def close(self) -> None:
        pass


class JsonLinesProgress(Progress):
    def __init__(self, command: str, total: int | None, stream: IO[str], interval: float | None = None) -> None:
        super().__init__(stream)
        self.command, self.total = command, total
        self.interval = INTERVAL if interval is None else interval
        self.done = 0
        self.fields: dict[str, Any] = {}
        self.start = time.monotonic()
        self.last: float | None = None
        self.closed = False
        self._record()

    def _write(self, record: dict[str, Any]) -> None:
        assert self.stream is not None
        self.stream.write(json.dumps(record, separators=(", ", ": ")) + "\n")
        self.stream.flush()

    def _record(self, **extra: Any) -> None:
        self.last = time.monotonic()
        self._write({"progress": self.command, "done": self.done, "total": self.total,
                     "seconds": round(self.last - self.start, 2), "time": _now(),
                     **{k: v for k, v in self.fields.items() if v is not None}, **extra})  # fmt: skip

    def _maybe(self) -> None:
        if self.last is None or time.monotonic() - self.last >= self.interval:
            self._record()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._maybe()

    def update(self, **fields: Any) -> None:
        self.fields.update(fields)
        self._maybe()  # a long shrink, with no board done, still shows it is alive

    def event(self, text: str, **data: Any) -> None:
        self._write({"progress": self.command, "event": data.pop("event", "note"), "text": text, "time": _now(), **data})

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._record(finished=True)


class BarProgress(Progress):
    """A rich progress bar on a console (stderr, a terminal)."""

    def __init__(self, command: str, total: int | None, console: Any = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress
        from rich.progress import TextColumn, TimeElapsedColumn

        super().__init__(None)
        self.console = console or Console(stderr=True)
        self.bar = RichProgress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("{task.fields[status]}"), console=self.console, transient=False,
            # What the command prints on stdout meanwhile goes above the bar when stdout is the
            # terminal too; to a file or a pipe, as it is (rich would send it to the bar's stream).
            redirect_stdout=_is_terminal(sys.stdout),
        )  # fmt: skip
        self.task = self.bar.add_task(command, total=total, status="")
        self.fields: dict[str, Any] = {}
        self.bar.start()

    def advance(self, n: int = 1) -> None:
        self.bar.advance(self.task, n)

    def update(self, **fields: Any) -> None:
        self.fields.update(fields)
        status = "  ".join(f"{key.replace('_', ' ')} {value}" for key, value in self.fields.items()
                           if value not in (None, ""))
        self.bar.update(self.task, status=status)

    def event(self, text: str, **data: Any) -> None:
        # soft_wrap: one line stays one line (the terminal folds it; rich would cut it in lines).
        self.bar.console.print(_printable(text), markup=False, highlight=False, soft_wrap=True)

    def close(self) -> None:
        self.bar.stop()


def _now() -> str:
    """The wall-clock time of a record, so a log of a long run says when each thing happened."""
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="seconds")


def make_progress(command: str, total: int | None, as_json: bool, stream: IO[str] | None = None) -> Progress:
    """JSON-lines records with --json, a bar on a terminal, else plain event lines (stderr)."""
    stream = stream or sys.stderr
    if as_json:
        return JsonLinesProgress(command, total, stream)
    if _is_terminal(stream):
        from rich.console import Console

        return BarProgress(command, total, Console(file=stream))
    return Progress(stream)


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _printable(text: str) -> str:
    """An event's text for a terminal: file names and ids with their control and invisible
    characters escaped (riftasp/present.py `printable`); JSON-lines records keep it exact."""
    from .present import printable

    return printable(text, keep_newlines=True)
