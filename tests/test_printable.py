"""Text for people (issue 39): every id and value that reaches a terminal goes through
riftasp/present.py `printable`, which escapes what a terminal would act on or not show — controls,
format characters (zero-width, bidi marks and controls, tag characters), invisible spaces — so
two ids that differ never look the same; letters of any script stay. Tables cut a long cell with
an ellipsis and stay aligned. `--json` stays exact."""

from __future__ import annotations

import io
import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from riftasp.cli import app
from riftasp.present import CELL_WIDTH, LAST_CELL_WIDTH, display_width, hidden, printable, table
from riftasp.progress import Progress

runner = CliRunner()

# The characters issue 39 names, each with the escape it must show as.
INVISIBLE = {
    "\u200b": "\\u200b", "\u200c": "\\u200c", "\u200d": "\\u200d", "\u2060": "\\u2060", "\ufeff": "\\ufeff",
    "\u200e": "\\u200e", "\u200f": "\\u200f", "\u061c": "\\u061c",
    "\u202a": "\\u202a", "\u202b": "\\u202b", "\u202c": "\\u202c", "\u202d": "\\u202d", "\u202e": "\\u202e",
    "\u2066": "\\u2066", "\u2067": "\\u2067", "\u2068": "\\u2068", "\u2069": "\\u2069",
    "\U000e0000": "\\U000e0000", "\U000e0001": "\\U000e0001", "\U000e0041": "\\U000e0041",
    "\U000e007f": "\\U000e007f",
    "\x00": "\\x00", "\x1b": "\\x1b", "\x7f": "\\x7f", "\x85": "\\x85", "\x9b": "\\x9b", "\n": "\\n",
    "\r": "\\r", "\t": "\\t", "\u2028": "\\u2028", "\u2029": "\\u2029", "\xa0": "\\xa0", "\u3000": "\\u3000",
    "\u00ad": "\\xad", "\ufe0f": "\\ufe0f", "\u3164": "\\u3164", "\ud800": "\\ud800",
}  # fmt: skip


@pytest.mark.parametrize("char", sorted(INVISIBLE))
def test_each_invisible_or_control_character_is_escaped(char: str):
    assert printable(f"a{char}b") == f"a{INVISIBLE[char]}b"


def test_every_format_and_control_character_is_escaped():
    # Whatever this Python's Unicode data calls a control (Cc) or format (Cf) character, a space
    # other than the ASCII one (Zs), a separator or a surrogate.
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Cs") and char != " ":
            assert hidden(char), hex(code)


def test_letters_of_any_script_stay():
    for text in ("é", "日本", "Ünïcödé", "Ελληνικά", "עברית", "العربية", "한국어", "e\u0301", "…", "→", "✓"):
        assert printable(text) == text


def test_two_ids_that_differ_never_print_the_same():
    ids = ["u1", "u\u200b1", "u\u20601", "u1\ufeff", "\u202eu1", "u\u00a01", "u\U000e00311", "u 1", "u\u30001"]
    shown = [printable(i) for i in ids]
    assert len(set(shown)) == len(ids)


def test_newlines_kept_on_request_and_escapes_idempotent():
    assert printable("a\nb\u200b", keep_newlines=True) == "a\nb\\u200b"
    text = "x\x1b[2J\u202e\U000e0041\ud800"
    assert printable(printable(text)) == printable(text)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_printable_text_is_one_line_of_visible_characters(text: str):
    out = printable(text)
    assert "\n" not in out and not any(hidden(c) for c in out)


def test_a_long_cell_is_cut_with_an_ellipsis_and_the_table_stays_aligned():
    long_id = "x" * 500
    out = table([[long_id, "a", "y" * 500], ["u1", "b" * 60, "z"]], ["id", "value", "last"])
    lines = out.splitlines()
    assert lines[2].startswith("x" * (CELL_WIDTH - 1) + "…  ")
    assert ("b" * (CELL_WIDTH - 1) + "…") in lines[3]
    assert lines[2].endswith("y" * (LAST_CELL_WIDTH - 1) + "…")  # the last column may be longer
    # Every column starts at the same place on every line.
    starts = [line.index(cell) for line, cell in zip(lines[2:], ["a", "b"])]
    assert len(set(starts)) == 1 and starts[0] == CELL_WIDTH + 2


def test_wide_and_invisible_characters_keep_a_table_aligned():
    out = table([["日本語", "1"], ["u\u200b1", "2"], ["ab", "3"]], ["id", "n"])
    lines = out.splitlines()
    assert lines[3].startswith("u\\u200b1")
    # Display columns, not characters: 日本語 takes six, the same as the escaped id's padding.
    assert {display_width(line[: line.rindex(" ") + 1]) for line in lines[2:]} == {len("u\\u200b1") + 2}


def test_a_wide_cell_is_cut_by_its_display_width():
    cell = table([["日" * 100, "x"]], ["id", "n"]).splitlines()[2].split("  ")[0]
    assert display_width(cell) <= CELL_WIDTH and cell.endswith("…")


# ---- every place ids reach the terminal ---------------------------------------------------------

ZW = "u\u200b1"  # looks like "u1"


def _board(tmp_path: Path) -> Path:
    data = {"players": ["a"], "objects": [
        {"id": ZW, "name": "N\u202eame", "type": "unit", "owner": "a", "zone": "base", "might": 3,
         "tags": ["t\u2066"], "rules_text": [{"id": "r\u200d", "op": {"op": "plus", "amount": 1}}]},
        {"id": "u1", "name": "Plain", "type": "unit", "owner": "a", "zone": "base", "might": 2}]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data))
    return path


def _visible(text: str) -> bool:
    return not any(hidden(c) for c in text.replace("\n", ""))


def test_resolve_explain_diff_and_check_show_invisible_characters(tmp_path: Path):
    path = _board(tmp_path)
    out = runner.invoke(app, ["resolve", str(path)])
    assert out.exit_code == 0 and _visible(out.stdout) and "u\\u200b1" in out.stdout
    out = runner.invoke(app, ["explain", str(path), ZW])
    assert out.exit_code == 0 and _visible(out.stdout) and out.stdout.startswith("u\\u200b1 (N\\u202eame)")
    before = tmp_path / "before.json"
    before.write_text(json.dumps({"players": ["a"], "objects": []}))
    out = runner.invoke(app, ["diff", str(before), str(path)])
    assert out.stdout.splitlines() == ["u1 appears", "u\\u200b1 appears"]
    # A resolution of the board whose answer names things with invisible characters.
    res = json.loads(runner.invoke(app, ["resolve", str(path), "--json"]).stdout)
    assert ZW in res["objects"]  # --json stays exact
    res["objects"][ZW]["tags"] = ["t\u2067"]
    answer = tmp_path / "r.json"
    answer.write_text(json.dumps(res))
    out = runner.invoke(app, ["check", str(path), "--resolution", str(answer), "--no-declarative"])
    assert out.exit_code == 1 and _visible(out.stdout) and "\\u2067" in out.stdout


def test_error_lines_show_invisible_characters(tmp_path: Path):
    out = runner.invoke(app, ["explain", str(_board(tmp_path)), "u\u20601"])
    assert out.exit_code == 2 and out.stderr.count("\n") == 1 and "u\\u20601" in out.stderr and _visible(out.stderr)
    path = tmp_path / "b\u202e.json"
    path.write_text("{")
    out = runner.invoke(app, ["resolve", str(path)])
    assert out.exit_code == 2 and "b\\u202e.json" in out.stderr and _visible(out.stderr)


def test_several_boards_name_each_file_visibly(tmp_path: Path):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a\u200b.json").write_text((_board(tmp_path)).read_text())
    (folder / "b.json").write_text((_board(tmp_path)).read_text())
    out = runner.invoke(app, ["resolve", str(folder)])
    assert out.exit_code == 0 and _visible(out.stdout) and "== " + str(folder / "a\\u200b.json") in out.stdout


def test_progress_events_show_invisible_characters():
    stream = io.StringIO()
    Progress(stream).event("f\u200b.json: skipped, not a board")
    assert stream.getvalue() == "f\\u200b.json: skipped, not a board\n"
