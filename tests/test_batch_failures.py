"""One board's failure never loses the others' answers (issue 39): `resolve_many` gives a
ResolveFailure in the place of a board that failed (its batch is tried again in parts, then
alone, riftasp/batch.py `_settle`), and `riftasp resolve FOLDER` prints every other answer, one
line for each board that failed, and exits 2.

The slow board is test_time_limit's chain of 1,000 copies (its first ground call alone takes
seconds); with a limit of 1 s it is stopped three times (its batch, its part, itself alone)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from riftasp.batch import Prefetching, ResolveFailure, resolve_all, resolve_many
from riftasp.board_io import board_from_dict
from riftasp.commands import resolve_boards
from riftasp.limits import TimeLimitExceeded
from riftasp.solver import EncodingError
from test_time_limit import copy_chain

LIMIT = 1  # seconds
BAD, SLOW = 50, 120  # positions in the folder of 200


def unit(oid: str, might: int) -> dict:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "base", "might": might}


def good_board(i: int) -> dict:
    """Small boards of two shapes: an aura over friendly units, a short copy chain."""
    if i % 2:
        return copy_chain(2 + i % 4)
    aura = {"id": "aura", "controller": "alice", "timestamp": 1, "op": {"op": "plus", "amount": 1},
            "target": {"filter": {"type": "unit", "relation": "friendly"}}}  # fmt: skip
    return {"players": ["alice", "bob"], "objects": [unit(f"u{k}", 1 + (i + k) % 5) for k in range(1 + i % 3)],
            "effects": [aura]}  # fmt: skip


@pytest.fixture(scope="module")
def expected() -> list[dict]:
    """The 199 good boards' answers (0-199 but SLOW), in batches without a limit: as each board
    alone (tests/test_batch.py)."""
    return [r.to_json() for r in resolve_all(board_from_dict(good_board(i)) for i in range(200) if i != SLOW)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 board files: 198 small ones, malformed JSON at BAD, the slow chain at SLOW."""
    folder = tmp_path_factory.mktemp("boards")
    for i in range(200):
        path = folder / f"{i:03}.json"
        if i == BAD:
            path.write_text('{"players": ["alice", "bob"], "objects": [', encoding="utf-8")
        else:
            path.write_text(json.dumps(copy_chain(1000) if i == SLOW else good_board(i)), encoding="utf-8")
    return folder


def files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def riftasp(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def slow_line(folder: Path, engine: str = "asp") -> str:
    return f"{folder / f'{SLOW:03}.json'}: --time-limit: stopped at the time limit of {LIMIT} s ({engine} engine)"


def test_a_folder_prints_every_answer_and_one_line_for_each_board_that_failed(folder):
    out = riftasp("resolve", folder, "--time-limit", LIMIT)
    assert out.returncode == 2, out.stderr
    bad, slow = out.stderr.splitlines()
    assert bad.startswith(f"{folder / f'{BAD:03}.json'}: ")
    assert slow == slow_line(folder)
    shown = [line[3:] for line in out.stdout.splitlines() if line.startswith("== ")]
    assert shown == [str(p) for i, p in enumerate(files(folder)) if i not in (BAD, SLOW)]


def test_with_json_each_failure_has_its_line_in_its_place(folder, expected):
    out = riftasp("resolve", folder, "--time-limit", LIMIT, "--json")
    assert out.returncode == 2, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    paths = files(folder)
    assert [line["board"] for line in lines] == list(map(str, paths))
    assert (lines[BAD]["kind"], lines[SLOW]) == ("input", {"board": str(paths[SLOW]), "error": slow_line(folder),
                                                           "kind": "time_limit"})  # fmt: skip
    assert lines[BAD]["error"].startswith(f"{paths[BAD]}: ") and set(lines[BAD]) == {"board", "error", "kind"}
    # The answers are the boards' own (a batch answers as each board alone: tests/test_batch.py).
    answers = [{"board": str(p), **r} for p, r in zip(paths[:SLOW] + paths[SLOW + 1:], expected)]
    assert [line for i, line in enumerate(lines) if i != SLOW] == answers[:BAD] + [lines[BAD]] + answers[BAD + 1:]
    # stderr: JSON-lines progress, the two failures as events, the file being resolved.
    records = [json.loads(line) for line in out.stderr.splitlines()]
    assert [(r["file"], r["kind"], r["text"]) for r in records if r.get("event") == "failed"] == [
        (str(paths[BAD]), "input", lines[BAD]["error"]), (str(paths[SLOW]), "time_limit", slow_line(folder))]
    assert any("file" in r and "seconds" in r for r in records)
    assert records[-1]["finished"] and records[-1]["done"] == 200


def test_resolve_many_answers_every_board_but_the_slow_one(expected):
    boards = [board_from_dict(good_board(i), f"good[{i}]") for i in range(200)]
    boards[SLOW] = board_from_dict(copy_chain(1000), "slow.json")
    outcomes = resolve_many(boards, time_limit=LIMIT)
    failed = [(i, o) for i, o in enumerate(outcomes) if isinstance(o, ResolveFailure)]
    assert failed == [(SLOW, ResolveFailure("slow.json", "time_limit", f"slow.json: stopped at the time limit of {LIMIT} s",
                                            4))]  # fmt: skip
    failure = outcomes.pop(SLOW)
    assert isinstance(failure.error(), TimeLimitExceeded) and failure.error().board == "slow.json"
    assert [o.to_json() for o in outcomes] == expected


CURSED = "cursed"  # an object id: the solver "fails" on any program that holds it


@pytest.fixture
def cursed_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver raises EncodingError on a program holding an object called CURSED, in a batch
    (ids prefixed `K:`) as alone."""
    import riftasp.batch
    import riftasp.solver

    real = riftasp.solver.solve_round

    def solve_round(program: str, *args, **kwargs):
        if f'{CURSED}")' in program:
            raise EncodingError(f"{CURSED} is in the program")
        return real(program, *args, **kwargs)

    monkeypatch.setattr(riftasp.solver, "solve_round", solve_round)
    monkeypatch.setattr(riftasp.batch, "solve_round", solve_round)


def test_an_encoding_error_is_the_failing_board_s_and_the_batch_keeps_the_others(expected, cursed_solver):
    good = [board_from_dict(good_board(i), f"good[{i}]") for i in range(12)]
    cursed = board_from_dict({"players": ["alice", "bob"], "objects": [unit(CURSED, 1)]}, "cursed.json")
    boards = [*good[:7], cursed, *good[7:]]
    outcomes = resolve_many(boards)
    assert outcomes.pop(7) == ResolveFailure(
        "cursed.json", "encoding", f"cursed.json: internal error in the encoding: {CURSED} is in the program", 3)
    assert [o.to_json() for o in outcomes] == expected[:12]
    with pytest.raises(EncodingError, match=f"{CURSED} is in the program"):
        resolve_all(boards)
    # Asked for one at a time (crosscheck, fuzz): each board its own answer, or its own error.
    prefetching = Prefetching(boards)
    assert prefetching(boards[0]).to_json() == outcomes[0].to_json()
    with pytest.raises(EncodingError):
        prefetching(cursed)
    assert prefetching.alone == 0 and len(prefetching.done) == 12


def test_the_reference_engine_goes_on_too(tmp_path, monkeypatch, capsys):
    # Its time limit is a timer signal, per board: a board the engine takes too long on (here it
    # sleeps) is stopped, the others answered.
    import time

    import riftasp.reference

    real = riftasp.reference.resolve

    def resolve(board):
        if board.objects[0].id == "sleepy":
            time.sleep(30)
        return real(board)

    monkeypatch.setattr(riftasp.reference, "resolve", resolve)
    (tmp_path / "a.json").write_text(json.dumps(good_board(0)), encoding="utf-8")
    (tmp_path / "b.json").write_text("[", encoding="utf-8")
    sleepy = {"players": ["alice", "bob"], "objects": [unit("sleepy", 1)]}
    (tmp_path / "c.json").write_text(json.dumps(sleepy), encoding="utf-8")
    (tmp_path / "d.json").write_text(json.dumps(good_board(1)), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        resolve_boards([tmp_path], as_json=True, engine="reference", time_limit=0.5)
    assert done.value.code == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("kind") for line in lines] == [None, "input", "time_limit", None]
    assert lines[2]["error"] == f"{tmp_path / 'c.json'}: --time-limit: stopped at the time limit of 0.5 s (reference engine)"
