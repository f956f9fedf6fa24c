"""`riftasp timeline`: read the log, replay it on an engine, print each moment or write one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from ..board_io import BoardError
from ..commands import emit_json, fail
from .log import load_timeline
from .present import moment_json, moment_lines
from ..progress import Progress, make_progress
from .run import Moment, check_events, replay


def timeline_run(log: Path, as_json: bool, at: int | None, output: Path | None, engine: str) -> int:
    from typer import echo

    try:
        timeline = load_timeline(log)
        check_events(timeline)
        if at is not None and not 0 <= at < len(timeline.events):
            last = len(timeline.events) - 1
            fail(f"--at: {timeline.source} has events 0 to {last}, got {at}" if last >= 0
                 else f"--at: {timeline.source} has no events")
        if output is not None and at is None:
            fail("-o: only with --at N (the board after event N)")
        moments = []
        # A bar on a terminal (stderr) for a long game; nothing otherwise.
        progress = make_progress("timeline", len(timeline.events) if at is None else at + 1, False)
        with progress:
            for moment in _advancing(replay(timeline, engine, upto=at), progress):
                if at is not None:
                    moments = [moment]
                elif as_json:
                    moments.append(moment)
                else:
                    echo("\n".join(moment_lines(moment)))
    except BoardError as err:
        fail(str(err))
    if at is not None:
        text = json.dumps(moments[-1].data, indent=2) + "\n"
        if output is None:
            echo(text, nl=False)
        else:
            output.write_text(text)
    elif as_json:
        emit_json({"timeline": str(log), "engine": engine, "moments": [moment_json(m) for m in moments]})
    return 0


def _advancing(moments: Iterator[Moment], progress: Progress) -> Iterator[Moment]:
    for moment in moments:
        if moment.event is not None:
            progress.advance()
        yield moment
