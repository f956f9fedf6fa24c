"""`--time-limit S` (CLI and library) stops every board within S + 2 s, whatever one ground call
does (issue 36): the calculation runs in a worker process killed at the limit
(riftasp/watchdog.py); exit 4 and the name of the board that was stopped (among several boards:
its line in its place, the others answered, exit 2).

The slow board: a chain of 1,000 copies (unit i is a copy of unit i+1), whose first ground call
alone (the base program: which object each could take its copiable values from) takes longer than
2 s (3.9 s on the development host). A chain of 300 once ran 120 s under a limit of 10 s that held
only between calls; since chains take a step an object, its first call takes 0.5 s."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from riftasp.batch import ResolveFailure, resolve_all, resolve_many
from riftasp.board_io import board_from_dict
from riftasp.limits import TimeLimitExceeded
from riftasp.resolve import resolve
from riftasp.watchdog import run_within

BAD_INPUT, TIME_LIMIT = 2, 4  # exit codes


def copy_chain(n: int) -> dict:
    objects = [{"id": f"u{i}", "name": f"U{i}", "type": "unit", "owner": "alice", "zone": "battlefield",
                "might": i % 7 + 1} for i in range(n)]  # fmt: skip
    effects = [{"id": f"c{i}", "controller": "alice", "timestamp": i + 1, "op": {"op": "copy", "of": f"u{i + 1}"},
                "target": {"ids": [f"u{i}"]}} for i in range(n - 1)]  # fmt: skip
    return {"players": ["alice", "bob"], "objects": objects, "effects": effects}


def write(path: Path, board: dict) -> Path:
    path.write_text(json.dumps(board), encoding="utf-8")
    return path


def riftasp(*args: object) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], capture_output=True, text=True,
                         timeout=60)  # fmt: skip
    return out, time.monotonic() - started


def test_a_board_whose_first_ground_call_runs_long_is_stopped_at_the_limit(tmp_path):
    slow = write(tmp_path / "chain-of-1000-copies.json", copy_chain(1000))
    out, seconds = riftasp("resolve", slow, "--time-limit", 2)
    assert out.returncode == TIME_LIMIT, out.stderr
    assert out.stderr.strip() == f"{slow}: --time-limit: stopped at the time limit of 2 s (asp engine)"
    assert seconds < 4  # the limit, and the start of the program (about half a second)


def test_the_batch_names_the_board_that_was_slow_and_answers_the_others(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    write(folder / "a-short-chain.json", copy_chain(5))
    slow = write(folder / "b-long-chain.json", copy_chain(1000))
    write(folder / "c-short-chain.json", copy_chain(4))
    out, seconds = riftasp("resolve", folder, "--time-limit", 2, "--json")
    assert out.returncode == BAD_INPUT  # (issue 39: any board that failed)
    line = f"{slow}: --time-limit: stopped at the time limit of 2 s (asp engine)"
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert [a["board"] for a in answers] == [str(folder / f) for f in ("a-short-chain.json", "b-long-chain.json",
                                                                      "c-short-chain.json")]  # fmt: skip
    assert answers[1] == {"board": str(slow), "error": line, "kind": "time_limit"}
    assert [json.loads(x).get("text") for x in out.stderr.splitlines() if "event" in json.loads(x)] == [line]
    # The batch, stopped at the limit; the slow board alone, stopped at the limit again; the
    # short ones alone.
    assert seconds < 10


def test_the_library_stops_too_and_names_the_board_of_a_batch():
    slow = board_from_dict(copy_chain(1000), "long.json")
    started = time.monotonic()
    with pytest.raises(TimeLimitExceeded) as stopped:
        resolve(slow, time_limit=1)
    assert time.monotonic() - started < 3
    assert stopped.value.seconds == 1 and stopped.value.board is None
    short = board_from_dict(copy_chain(3), "short.json")
    answer, failure = resolve_many([short, slow], time_limit=1)
    assert answer.to_json() == resolve(short).to_json()
    assert isinstance(failure, ResolveFailure) and (failure.board, failure.kind) == ("long.json", "time_limit")
    with pytest.raises(TimeLimitExceeded, match="stopped at the time limit of 1 s on long.json") as stopped:
        resolve_all([short, slow], time_limit=1)
    assert stopped.value.board == "long.json"


def test_a_limit_that_is_not_reached_changes_no_answer():
    board = board_from_dict(copy_chain(6), "chain.json")
    assert resolve(board, time_limit=30).to_json() == resolve(board).to_json()
    assert [r.to_json() for r in resolve_all([board, board], time_limit=30)] == [resolve(board).to_json()] * 2


def _fails() -> None:
    raise ValueError("from the worker")


def test_what_the_worker_raises_is_raised_here():
    with pytest.raises(ValueError, match="from the worker"):
        run_within(5, _fails)
