"""`riftasp timeline`: read the log, replay it on an engine, print each moment or write one."""

from __future__ import annotations

import json
from pathlib import Path

from ..board_io import BoardError
from ..commands import emit_json, fail
from .log import load_timeline
from .present import moment_json, moment_lines
from .run import check_events, replay


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
        for moment in replay(timeline, engine, upto=at):
            if at is not None:
                moments = [moment]
                continue
            if as_json:
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
