"""Hostile and huge input (issue 10): what the bad-board folder cannot hold as files, the number
limits on both engines, the time and size limits, stdin, diff, ids and output hygiene.
tests/test_bad_boards.py runs the folder of bad boards; tests/test_mutated_bytes.py mutates the
bundled boards byte by byte."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import riftasp.board_io
from riftasp.board_io import BoardError, board_from_dict, load_board, load_board_text, lp_parsing, reading
from riftasp.cli import app
from riftasp.limits import REACH_MAX, VALUE_MAX, TimeLimitExceeded, arithmetic_reach
from riftasp.reference import resolve as reference
from riftasp.resolve import resolve
from riftasp.solver import run

from budget import budget
from conftest import EXAMPLES, ROOT

M = VALUE_MAX
runner = CliRunner()


def cli(*args: Any, **kwargs: Any):
    return runner.invoke(app, [str(a) for a in args], **kwargs)


def one_line_error(result, exit_code: int = 2) -> str:
    assert (result.exit_code, result.stdout) == (exit_code, ""), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def unit(object_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": object_id, "name": object_id.upper(), "type": "unit", "owner": "a", "zone": "battlefield"} | fields


def ongoing(effect_id: str, op: dict, target: str, timestamp: int, **fields: Any) -> dict[str, Any]:
    return {"id": effect_id, "controller": "a", "timestamp": timestamp, "op": op, "target": {"ids": [target]}} | fields


# ---- numbers never wrap: the extremes the limits allow, exactly, on both engines -------------

EXTREME_BOARDS: dict[str, dict[str, Any]] = {
    # Might, a plus, a buff, Shield while defending, a gained Shield, all at the limit, doubled six
    # times: 256,000,064, about half the bound on what arithmetic may reach.
    "highest": {"players": ["a"], "objects": [
        unit("u1", might=M, buff=True, since=-M, keywords=[f"Shield {M}"], status=["defending"],
             rules_text=[{"id": "r1", "op": {"op": "plus", "amount": M}, "timestamp": M}])],
        "effects": [ongoing(f"d{i}", {"op": "double"}, "u1", M - 10 + i) for i in range(6)]
        + [ongoing("g", {"op": "gain_keywords", "keywords": [f"Shield {M}"]}, "u1", -M)]},
    "lowest": {"players": ["a"], "objects": [
        unit("u1", might=-M, since=M),
        {"id": "g1", "name": "G", "type": "gear", "owner": "a", "zone": "battlefield", "attached_to": "u1",
         "might_bonus": -M}],
        "effects": [ongoing(f"m{i}", {"op": "minus", "amount": M}, "u1", i) for i in range(5)] + [
            ongoing("mm", {"op": "minus_min", "amount": M, "min": -M}, "u1", 10),
            ongoing("it", {"op": "increase_to", "value": -M}, "u1", 11),
            ongoing("dd", {"op": "double"}, "u1", 12)]},
    "bounds": {"players": ["a"], "objects": [
        unit("u1", might=-M + 1, since=-M),
        unit("u2", might=M, since=M, status=["attacking"], keywords=[f"Assault {M}"])],
        "effects": [
            ongoing("pm", {"op": "plus_max", "amount": M, "max": M}, "u1", 1),
            ongoing("mm", {"op": "minus_min", "amount": M, "min": -M}, "u2", 2,
                    conditions=[{"might_at_least": M, "of": "u2"}]),
            ongoing("it", {"op": "increase_to", "value": M}, "u2", 3, conditions=[{"might_at_least": -M, "of": "u1"}]),
            ongoing("sm", {"op": "set_might", "value": -M}, "u1", -M),
            ongoing("d", {"op": "double"}, "u2", 5)]},
}  # fmt: skip


@pytest.mark.parametrize("name", EXTREME_BOARDS)
def test_extreme_allowed_values_give_the_same_exact_answers_on_both_engines(name: str):
    board = board_from_dict(EXTREME_BOARDS[name], name)
    asp, ref = resolve(board).to_json(), reference(board).to_json()
    assert asp["objects"] == ref["objects"]

    def values(result: dict) -> dict:  # every intermediate value, in order
        return {o: [(a["effect"], a["before"], a["after"]) for a in apps] for o, apps in result["applied"].items()}

    assert values(asp) == values(ref)


def test_the_highest_board_comes_close_to_the_bound_and_one_more_double_passes_it():
    board = board_from_dict(EXTREME_BOARDS["highest"], "highest")
    assert resolve(board).objects["u1"].might == 256_000_064  # exact: no wrap
    assert arithmetic_reach(board).number <= REACH_MAX
    data = copy.deepcopy(EXTREME_BOARDS["highest"])
    data["effects"].append(ongoing("d6", {"op": "double"}, "u1", 0))
    with pytest.raises(BoardError) as caught:
        board_from_dict(data, "board.json")
    assert str(caught.value) == (
        "board.json: objects[0]: the effects that can apply to 'u1' could take its Might to 512,000,128, beyond "
        "500,000,000 (see Limits in docs/board-format.md)")


def test_the_issue_wraparounds_are_refused_not_answered():
    # Might 2147483647 plus 1 once resolved to -2147483648; increase_to -2147483648 to 0.
    for field, value in (("might", 2**31 - 1), ("since", -(2**31))):
        with pytest.raises(BoardError, match=rf"objects\[0\]\.{field}: must be at (most|least)"):
            board_from_dict({"players": ["a"], "objects": [unit("u1", **{field: value})]})
    text = 'player("a").\nobject("u").\nprinted_might("u",2147483648).\n'
    with pytest.raises(BoardError, match=r"^b\.lp: line 3 column 19: number 2147483648 is beyond clingo's 32-bit"):
        riftasp.board_io.board_from_facts(text, "b.lp")


def test_copies_count_once_per_possible_copy_in_the_bound():
    data = {"players": ["a"], "objects": [
        unit("u1", might=1, rules_text=[{"id": "p", "op": {"op": "plus", "amount": 1000},
                                         "target": {"filter": {"type": "unit"}}}]),
        *[unit(f"c{i}", might=1) for i in range(4)]],
        "effects": [{"id": "cp", "controller": "a", "timestamp": 1, "op": {"op": "copy", "of": "u1"},
                     "target": {"ids": ["c0", "c1"]}}]}  # fmt: skip
    # u1's aura is held by u1 and by each of the two possible copies: 3 × 1000 on any unit.
    assert arithmetic_reach(board_from_dict(data)).number == 1 + 3000


# ---- .lp boards are data: parsed, never grounded ----------------------------------------------


def test_reading_an_lp_board_grounds_nothing(monkeypatch: pytest.MonkeyPatch):
    def no_control(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a board file must not be grounded")

    monkeypatch.setattr(clingo, "Control", no_control)
    board = load_board(ROOT / "facts" / "boards" / "showcase.lp")
    assert [o.id for o in board.objects] == ["fiora", "boots", "squire", "brute"]
    with pytest.raises(BoardError, match="rules"):
        riftasp.board_io.board_from_facts("n(0).\nn(X+1) :- n(X).\n", "b.lp")


def test_an_lp_board_may_use_comments_spacing_and_any_text_in_strings():
    text = ('%* a board\n   in a comment *% player( "al\\"ice" ) . % é in a comment\n'
            'player("bö\\\\b").\nactive_player("al\\"ice").\n')  # fmt: skip
    board = riftasp.board_io.board_from_facts(text, "b.lp")
    assert board.players == ('al"ice', "bö\\b") and board.active_player == 'al"ice'


def test_a_fact_written_twice_counts_once():
    board = riftasp.board_io.board_from_facts('player("a").\nplayer("a").\n', "b.lp")
    assert board.players == ("a",)


# ---- files, streams and sizes -------------------------------------------------------------------


def test_a_fifo_is_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "board.json"
    os.mkfifo(fifo)
    # In a process of its own: a reader that waited for a writer would hang the test run.
    proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "resolve", str(fifo)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == (f"{fifo}: file: is a FIFO, not a regular file (use - to read a JSON board from "
                           "standard input)\n")  # fmt: skip


def test_a_link_to_dev_zero_is_refused_before_reading(tmp_path: Path):
    link = tmp_path / "board.json"
    link.symlink_to("/dev/zero")
    line = one_line_error(cli("resolve", link))
    assert line == f"{link}: file: is a device or special file, not a regular file (use - to read a JSON board from " \
                   "standard input)"  # fmt: skip


def test_a_directory_and_a_missing_file(tmp_path: Path):
    (tmp_path / "d.lp").mkdir()
    folder = tmp_path / "d.lp"
    assert one_line_error(cli("facts", folder)) == f"{folder}: file: is a directory, not a board file"
    # `resolve` takes folders of boards: one without any is an error too.
    assert one_line_error(cli("resolve", folder)) == f"no board files found in {folder}"
    assert one_line_error(cli("facts", tmp_path / "no.yaml")) == f"{tmp_path / 'no.yaml'}: no such file or folder"


def test_an_unreadable_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "board.json"
    path.write_text("{}")

    def denied(*args: Any, **kwargs: Any) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(reading.os, "open", denied)  # root reads any file: simulate it
    assert one_line_error(cli("resolve", path)) == f"{path}: file: cannot read: permission denied"


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"players": ["a"], "objects": []}))
    monkeypatch.setattr(reading, "MAX_BOARD_BYTES", 16)
    assert one_line_error(cli("resolve", path)) == (
        f"{path}: file: too large: 33 bytes; a board file is at most 0 MiB (see Limits in docs/board-format.md)")


def test_standard_input_holds_a_json_board():
    text = (EXAMPLES / "set-then-modify.json").read_text()
    result = cli("resolve", "-", "--json", input=text)
    assert result.exit_code == 0 and json.loads(result.stdout)["objects"]["u1"]["might"] == 6
    proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "resolve", "-"], input='{"players": [',
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (proc.returncode, proc.stderr) == (2, "<stdin>: line 1 column 14: invalid JSON: Expecting value\n")
    assert one_line_error(cli("diff", "-", "-", input=text)) == (
        "-: file: standard input holds one board; give a file for the other")


def test_invalid_utf8_anywhere_is_an_error_at_its_place_never_an_abort(tmp_path: Path):
    # Before: clingo's logger raised on the partial character and the process aborted (PANIC).
    for name, data, where in (("p.lp", b'player("alice").\n\xc3\xa9\n', "line 2 column 1: unexpected character 'é'"),
                              ("q.lp", b'player("alice").\n\xc3\n', "line 2 column 1: not UTF-8 text (byte 0xc3)"),
                              ("r.json", b'{"players": ["\xff"]}', "line 1 column 15: not UTF-8 text (byte 0xff)")):
        path = tmp_path / name
        path.write_bytes(data)
        assert one_line_error(cli("resolve", path)).startswith(f"{path}: {where}")


def test_loading_is_linear_in_the_number_of_players_and_tags():
    def seconds(n: int) -> float:
        tags = [f"t{i}" for i in range(n)]
        data = {"players": [f"p{i}" for i in range(n)], "objects": [unit("u1", owner="p0", tags=tags)]}
        text = json.dumps(data)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            load_board_text(text, "board.json")
            best = min(best, time.perf_counter() - start)
        return best

    # Quadratic checks made 50,000 tags take 15 s; 8 times the size must cost about 8 times the time.
    assert seconds(40_000) / seconds(5_000) < 30


# ---- the time limit -----------------------------------------------------------------------------


def test_the_time_limit_stops_a_calculation_with_its_own_exception():
    board = load_board(EXAMPLES / "showcase.json")
    with pytest.raises(TimeLimitExceeded):
        resolve(board, time_limit=1e-9)
    with pytest.raises(TimeLimitExceeded):
        run("player(\"a\").\n", board.ruleset, time_limit=1e-9)
    assert resolve(board, time_limit=600).objects["fiora"].might == 7


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_the_time_limit_is_one_line_and_exit_code_4(engine: str):
    path = EXAMPLES / "showcase.json"
    line = one_line_error(cli("resolve", path, "--engine", engine, "--time-limit", "0.000001"), exit_code=4)
    assert line == f"{path}: --time-limit: stopped at the time limit of 1e-06 s ({engine} engine)"
    assert cli("explain", path, "fiora", "--engine", engine, "--time-limit", "600").exit_code == 0


@pytest.mark.parametrize(("args", "message"), [
    (["resolve", EXAMPLES / "showcase.json", "--time-limit", "0"],
     "--time-limit: must be a positive number of seconds, got 0"),
    (["crosscheck", "--engine", "reference", "--persistent", "--timeout", "-5", EXAMPLES / "showcase.json"],
     "--timeout: must be a positive number of seconds, got -5"),
    (["fuzz", "--timeout", "-5"], "--timeout: must be a positive number of seconds, got -5"),
])  # fmt: skip
def test_seconds_must_be_positive(args: list, message: str):
    assert one_line_error(cli(*args)) == message


# ---- no tracebacks: commands check their arguments before the work -----------------------------


def test_fuzz_refuses_an_existing_file_as_out_before_the_run(tmp_path: Path):
    out = tmp_path / "out"
    out.write_text("not a folder")
    start = time.monotonic()
    assert one_line_error(cli("fuzz", "--out", out, "--count", 100_000)) == (
        f"{out}: file: exists and is not a folder (--out names the folder for counterexamples)")
    assert time.monotonic() - start < 10  # refused before 100,000 boards
    below = out / "below"
    assert one_line_error(cli("fuzz", "--out", below, "--count", 1)) == f"{below}: file: {out} is not a folder"


def test_explain_refuses_an_unknown_object_before_resolving(monkeypatch: pytest.MonkeyPatch):
    import riftasp.cli

    monkeypatch.setattr(riftasp.cli, "run_engine", lambda *a, **k: pytest.fail("resolved before checking"))
    path = EXAMPLES / "showcase.json"
    assert one_line_error(cli("explain", path, "zz\x1b")) == \
        f"{path}: OBJECT: unknown object 'zz\\x1b'; the board's objects: fiora, boots, squire, brute"


def test_a_script_board_is_refused_as_a_directive(tmp_path: Path):
    path = tmp_path / "s.lp"
    path.write_text('player("a").\n#script (python)\nimport os\n#end.\n')
    assert one_line_error(cli("resolve", path)) == (
        f"{path}: line 2 column 1: directives (#include, #const, #show, #script, …) are not allowed in a board file")


# ---- diff sees what an object is and where ------------------------------------------------------


def test_diff_reports_name_type_and_zone_changes(tmp_path: Path):
    gear = {"id": "g1", "name": "Blade", "type": "gear", "owner": "a", "zone": "base"}
    before = {"players": ["a"], "objects": [unit("u1", might=2, zone="base"), gear]}
    after = copy.deepcopy(before)
    after["objects"][0]["zone"] = "battlefield"
    after["effects"] = [ongoing("c", {"op": "copy", "of": "g1"}, "u1", 1)]
    paths = tmp_path / "before.json", tmp_path / "after.json"
    for path, data in zip(paths, (before, after)):
        path.write_text(json.dumps(data))
    result = cli("diff", *paths)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "u1 moves base -> battlefield", "u1 name 'U1' -> 'Blade'", "u1 gains type gear", "u1 loses type unit",
        "u1 Might 2 -> None"]  # fmt: skip
    kinds = [t["kind"] for t in json.loads(cli("diff", *paths, "--json").stdout)]
    assert kinds[:4] == ["zone", "name", "gains_type", "loses_type"]


# ---- documented rules for boards that look doubtful but mean something ------------------------


def test_a_buff_on_an_object_without_might_counts_once_it_has_might():
    data = {"players": ["a"], "objects": [
        {"id": "g", "name": "G", "type": "gear", "owner": "a", "zone": "base", "buff": True},
        {"id": "g2", "name": "G2", "type": "gear", "owner": "a", "zone": "base", "buff": True},
        unit("u", might=4)],
        "effects": [ongoing("c", {"op": "copy", "of": "u"}, "g2", 1)]}  # fmt: skip
    board = board_from_dict(data)
    for engine in (resolve, reference):
        objects = engine(board).objects
        assert (objects["g"].might, objects["g2"].might) == (None, 5)


def test_a_status_off_the_board_gives_no_bonus_but_conditions_read_it():
    data = {"players": ["a"], "objects": [
        unit("h", might=3, zone="hand", status=["defending"], keywords=["Shield 2"]),
        unit("w", might=1, rules_text=[{"id": "r", "op": {"op": "plus", "amount": 5},
                                        "conditions": [{"status": "defending", "of": "h"}]}])]}  # fmt: skip
    board = board_from_dict(data)
    for engine in (resolve, reference):
        objects = engine(board).objects
        assert (objects["h"].might, objects["w"].might) == (3, 6)


# ---- output hygiene -----------------------------------------------------------------------------


def hostile_names(tmp_path: Path) -> Path:
    data = {"players": ["a\x1b[2J"], "objects": [
        {"id": "u1\nforged row", "name": "Evil\x1b[31m\u202eName", "type": "unit", "owner": "a\x1b[2J",
         "zone": "base", "might": 3, "tags": ["t\r"],
         "rules_text": [{"id": "r\x07", "op": {"op": "plus", "amount": 1}}]}]}  # fmt: skip
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data))
    return path


def test_tables_explain_and_diff_escape_control_characters(tmp_path: Path):
    path = hostile_names(tmp_path)
    table = cli("resolve", path)
    assert table.exit_code == 0 and len(table.stdout.splitlines()) == 3  # header, rule, one row
    assert "u1\\nforged row" in table.stdout and "Evil\\x1b[31m\\u202eName" in table.stdout
    explain = cli("explain", path, "u1\nforged row")
    assert explain.exit_code == 0
    assert not any(c in explain.stdout.replace("\n", "") for c in "\x1b\x07\r\u202e")
    assert explain.stdout.startswith("u1\\nforged row (Evil")
    before = tmp_path / "before.json"
    before.write_text(json.dumps({"players": ["a"], "objects": []}))
    diff = cli("diff", before, path)
    assert diff.stdout == "u1\\nforged row appears\n"


def test_error_lines_escape_and_cut_long_values(tmp_path: Path):
    data = {"players": ["a"], "objects": [unit("u1", owner="x" * 5000 + "\x1b")]}
    with pytest.raises(BoardError) as caught:
        board_from_dict(data, "b\x1b.json")
    line = str(caught.value)
    assert line.startswith("b\\x1b.json: objects[0].owner: unknown player 'xxx") and "\x1b" not in line
    assert "…" in line and len(line) < 400


# ---- the fast path for plain facts reads exactly what clingo's parser reads -------------------

NAMES = st.from_regex(r"_{0,2}[a-z][A-Za-z0-9_']{0,4}", fullmatch=True).filter(lambda n: n != "not")
STRINGS = st.text(st.sampled_from('ab "\\\né✓\t,()%.#'), max_size=6)
SPACE = st.sampled_from(["", " ", "\n", " \t"])


@st.composite
def ground_terms(draw: st.DrawFn, depth: int = 3) -> str:
    kind = draw(st.sampled_from(["number", "string", "constant"] + (["function", "tuple"] if depth else [])))
    if kind == "number":
        return str(draw(st.integers(-(2**31) + 1, 2**31 - 1)))
    if kind == "string":
        return riftasp.board_io.quote(draw(STRINGS))
    if kind == "constant":
        return draw(NAMES)
    parts = [draw(ground_terms(depth - 1)) for _ in range(draw(st.integers(1 if kind == "function" else 0, 3)))]
    gap = draw(SPACE)
    inner = f"{gap},{gap}".join(parts)
    if kind == "tuple" and (len(parts) == 1 or draw(st.booleans())) and parts:
        inner += ","  # (1,) is a one-tuple; (1,2,) is (1,2)
    return f"{draw(NAMES)}({gap}{inner}{gap})" if kind == "function" else f"({gap}{inner}{gap})"


@pytest.mark.thorough
@settings(max_examples=budget(30, 600), deadline=None)
@given(st.lists(st.tuples(NAMES, st.lists(ground_terms(), min_size=1, max_size=3), SPACE), min_size=1, max_size=5))
def test_plain_facts_read_as_clingo_reads_them(facts: list[tuple[str, list[str], str]]):
    text = "".join(f"{name}({','.join(arguments)}){gap}.{gap}\n" for name, arguments, gap in facts)
    fast = lp_parsing.parse_facts(text, "b.lp")
    program = lp_parsing._data_only(text, "b.lp")
    by_clingo = lp_parsing._read_statements(program, 0, len(program), lp_parsing._Lines(program), "b.lp")
    assert [str(t) for t in fast] == [str(t) for t in dict.fromkeys(by_clingo)]
    assert fast == list(dict.fromkeys(by_clingo))
