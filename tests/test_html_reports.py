"""`--format html` of crosscheck, fuzz, compare, outcomes and properties, and `riftasp report` on
every example of both rulesets (issue 40): each page opened in Debian's headless Chromium through
Playwright (conftest.py's `chromium`, tests/test_report.py's `opened`: no console or page error,
no request but file:), each finding's objects in the DOM and one graph node per object of its
board; hostile ids escaped; crosscheck's and fuzz's text coloured at a terminal only."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import riftasp.research.properties as P
from conftest import ROOT
from test_cli_polish import _at_a_terminal
from test_properties import broken, first_listed_gains_one
from test_report import Page, opened
from typer.testing import CliRunner

from riftasp.board_io import load_board
from riftasp.cli import app
from riftasp.crosscheck import board_files

runner = CliRunner()
PYTHON = shlex.quote(sys.executable)
PARTIAL = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'partial_engine.py'))}"
RIFTBOUND = ROOT / "examples" / "riftbound"
SORCERY = ROOT / "examples" / "sorcery"
# set_controller ignored by the partial engine: u1's controller differs (riftasp bob, engine alice).
STOLEN = RIFTBOUND / "enabling-dependency.json"
HOSTILE_ID = '<script>alert(1)</script>&"u'


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def self_contained(html: str) -> Page:
    """The page parsed; no script, no link, no URL but the SVG namespace's."""
    page = Page(html)
    assert html.startswith("<!DOCTYPE html>") and html.endswith("</html>\n")
    assert not [tag for tag, _ in page.elements if tag in ("script", "link", "img", "iframe")]
    assert re.findall(r"https?://[^\"'\s)]+", html) == ["http://www.w3.org/2000/svg"] * html.count("<svg")
    return page


def differing_rows(page: Page) -> list[tuple[str, str]]:
    return sorted((a["data-object"], a["data-field"]) for tag, a in page.elements
                  if tag == "tr" and a.get("class") == "differs")  # fmt: skip


def in_the_browser(chromium, path: Path, html: str, boards: list[list[str]], findings: list[list[str]]) -> None:
    """The page at `path` in Chromium: one section per finding, in order; section i's graph has
    one node per object of boards[i] and findings[i]'s objects are in its DOM."""
    path.write_text(html, encoding="utf-8")
    with opened(chromium, path) as page:
        assert page.locator("script").count() == 0
        sections = page.locator("section.finding")
        assert sections.count() == len(boards)
        for i, (ids, found) in enumerate(zip(boards, findings)):
            section = sections.nth(i)
            nodes = section.locator("svg g.object").evaluate_all("els => els.map(e => e.dataset.id)")
            assert sorted(nodes) == sorted(ids), (i, nodes)
            assert section.locator("svg").count() == 1
            for oid in found:
                assert section.locator(f"[data-object={json.dumps(oid)}]").count() >= 1, (i, oid)


# ---- crosscheck and fuzz -------------------------------------------------------------------------


def test_crosscheck_html(chromium, tmp_path):
    agreeing, unsupported = RIFTBOUND / "fiora-buffed.json", RIFTBOUND / "copy.json"
    result = cli("crosscheck", "--engine", PARTIAL, "--no-check", STOLEN, agreeing, unsupported, "--format", "html")
    assert result.exit_code == 1, result.output
    page = self_contained(result.stdout)
    text = "".join(page.text)
    assert f"3 boards: 2 supported (1 agree, 1 disagree), 1 unsupported (copy effects: 1) (riftasp vs {PARTIAL})" in text
    assert [a["class"] for tag, a in page.elements if tag == "p" and "verdict" in a.get("class", "")] == ["verdict bad"]
    assert differing_rows(page) == [("u1", "controller")]
    assert 'u1.controller: riftasp "bob", engine "alice"' in text
    assert f"{unsupported}: unsupported by the engine: copy effects" in text
    in_the_browser(chromium, tmp_path / "crosscheck.html", result.stdout, [["u1"]], [["u1"]])


def test_crosscheck_html_and_json_are_one_choice():
    result = cli("crosscheck", "--engine", "reference", STOLEN, "--json", "--format", "html")
    assert result.exit_code == 2 and result.stderr.strip() == "--json and --format html: choose one"
    result = cli("crosscheck", "--engine", "reference", STOLEN, "--format", "md")
    assert result.exit_code == 2
    assert result.stderr.strip() == "--format: unknown format 'md': choose one of text, html"


def test_fuzz_html(chromium, tmp_path):
    out = tmp_path / "out"
    result = cli("fuzz", "--engine", f"{PARTIAL} --persistent", "--persistent", "--count", 20, "--seed", 0,
                 "--without", "copy", "--no-check", "--riftasp-engine", "reference", "--jobs", 1, "--out", out,
                 "--format", "html")  # fmt: skip
    assert result.exit_code == 1, result.output
    page = self_contained(result.stdout)
    found = json.loads((out / "findings.json").read_text())["counterexamples"]
    assert len(found) >= 1
    titles = [t for t in page.text if t.startswith(tuple(f"{n}. " for n in range(1, 10)))]
    assert titles == [f"{n}. {c['file']}" for n, c in enumerate(found, 1)]  # each new finding, by its board file
    assert differing_rows(page) == sorted((d["object"], d["field"]) for c in found for d in c["disagreements"])
    boards = [[o.id for o in load_board(Path(c["file"])).objects] for c in found]
    objects = [sorted({d["object"] for d in c["disagreements"]}) for c in found]
    in_the_browser(chromium, tmp_path / "fuzz.html", result.stdout, boards, objects)


# ---- the rules-research commands -------------------------------------------------------------------


def test_compare_html(chromium, tmp_path):
    older, agreeing = RIFTBOUND / "increase-to-5-older-than-plus2.json", RIFTBOUND / "set-then-modify.json"
    args = ["compare", "riftbound", "riftbound-timestamps", older, agreeing]
    data = json.loads(cli(*args, "--json").stdout)
    result = cli(*args, "--format", "html")
    assert result.exit_code == 1, result.output
    page = self_contained(result.stdout)
    (finding,) = [b for b in data["boards"] if not b["agree"]]
    assert differing_rows(page) == sorted((d["object"], d["field"]) for d in finding["differences"])
    assert f"{agreeing}: agree" in "".join(page.text)
    ids = [o.id for o in load_board(older).objects]
    in_the_browser(chromium, tmp_path / "compare.html", result.stdout, [ids],
                   [sorted({d["object"] for d in finding["differences"]})])


def test_outcomes_html(chromium, tmp_path):
    board = SORCERY / "entering-together-chosen-order.json"
    data = json.loads(cli("outcomes", board, "--json").stdout)
    result = cli("outcomes", board, "--format", "html")
    assert result.exit_code == 1, result.output
    page = self_contained(result.stdout)
    assert len(data["outcomes"]) == 2 and data["differing"] == [{"object": "plain", "field": "affinity",
                                                                 "values": [["earth 1"], ["earth 1", "water 1"]]}]
    assert differing_rows(page) == [("plain", "affinity")] * 2  # outcome 1 beside 2, outcome 2 beside 1
    assert "2 outcomes (2 branches)" in page.text
    ids = [o.id for o in load_board(board).objects]
    in_the_browser(chromium, tmp_path / "outcomes.html", result.stdout, [ids, ids], [["plain"], ["plain"]])


def test_properties_html(chromium, tmp_path, monkeypatch):
    for engine in ("reference", "asp"):  # a broken engine in place of both (tests/test_properties.py)
        monkeypatch.setitem(P.RESOLVERS, engine, broken(first_listed_gains_one))
    args = ["properties", "riftbound", "--bound", 0, "--out", tmp_path, "--property", "order-independent",
            "--engine", "reference", "--jobs", 1]  # fmt: skip
    (r,) = json.loads(cli(*args, "--json").stdout)["results"]
    result = cli(*args, "--format", "html")
    assert result.exit_code == 1, result.output
    page = self_contained(result.stdout)
    assert differing_rows(page) == sorted((d["object"], d["field"]) for d in r["failure"]["differences"])
    assert "1 property check: 1 failing" in page.text
    ids = [o["id"] for o in r["board"]["objects"]]
    in_the_browser(chromium, tmp_path / "properties.html", result.stdout, [ids],
                   [sorted({d["object"] for d in r["failure"]["differences"]})])


@pytest.mark.parametrize("command", [["compare", "riftbound", "riftbound-immediate", RIFTBOUND / "copy.json"],
                                     ["outcomes", RIFTBOUND / "copy.json"], ["properties", "riftbound", "--bound", 0]])
def test_html_and_json_are_one_choice(command):
    result = cli(*command, "--json", "--format", "html")
    assert result.exit_code == 2 and "--json and --format html: choose one" in result.stderr


# ---- hostile ids ---------------------------------------------------------------------------------------


def test_hostile_ids_are_escaped(chromium, tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({
        "players": ["alice", "bob"],
        "objects": [{"id": HOSTILE_ID, "name": "<b>U</b>", "type": "unit", "owner": "alice", "zone": "battlefield",
                     "might": 3}],
        "effects": [{"id": "<img src=x onerror=alert(2)>", "op": {"op": "set_controller", "player": "bob"},
                     "target": {"ids": [HOSTILE_ID]}, "timestamp": 1, "controller": "alice"}],
    }))  # fmt: skip
    result = cli("crosscheck", "--engine", PARTIAL, "--no-check", path, "--format", "html")
    assert result.exit_code == 1, result.output
    page = self_contained(result.stdout)
    assert not [tag for tag, _ in page.elements if tag in ("b", "img")]
    assert differing_rows(page) == [(HOSTILE_ID, "controller")]
    assert HOSTILE_ID in "".join(page.text) and "<b>U</b>" in "".join(page.text)
    in_the_browser(chromium, tmp_path / "hostile.html", result.stdout, [[HOSTILE_ID]], [[HOSTILE_ID]])


# ---- riftasp report on every example of both rulesets ---------------------------------------------------


@pytest.mark.parametrize("folder", [RIFTBOUND, SORCERY], ids=lambda p: p.name)
def test_report_on_every_example(chromium, tmp_path, folder):
    files = board_files([folder])
    boards = [load_board(f) for f in files]
    assert len(boards) >= 30
    out = tmp_path / f"{folder.name}.html"
    # The reference engine: a twentieth of the ASP resolver's time on these 79 boards (each
    # example's answers on both engines are stored beside it and checked by tests/test_golden.py).
    result = cli("report", folder, "-o", out, "--engine", "reference")
    assert result.exit_code == 0, result.output
    self_contained(out.read_text(encoding="utf-8"))
    with opened(chromium, out) as page:
        # (One call into the page for every section: a locator call per board took seconds.)
        shown = page.evaluate("""() => [...document.querySelectorAll("section.board")].map(s => ({
            board: s.dataset.board,
            nodes: [...s.querySelectorAll("svg g.object")].map(e => e.dataset.id).sort(),
            rows: [...s.querySelectorAll("tr.object")].map(e => e.dataset.object).sort(),
            svgs: s.querySelectorAll("svg").length}))""")
    assert [s["board"] for s in shown] == [b.source for b in boards]
    for board, section in zip(boards, shown):
        ids = sorted(o.id for o in board.objects)
        assert (section["nodes"], section["rows"], section["svgs"]) == (ids, ids, 1), board.source


# ---- colour at a terminal ---------------------------------------------------------------------------------


def test_crosscheck_colours_at_a_terminal_only():
    red = _at_a_terminal("crosscheck", "--engine", PARTIAL, "--no-check", STOLEN, code=1)
    assert f"\x1b[31m{STOLEN}: disagreement\x1b[0m" in red
    assert red.count("\x1b[31m") == 2 and "\x1b[32m" not in red  # the board's line and the summary
    green = _at_a_terminal("crosscheck", "--engine", "reference", "--no-check", STOLEN)
    assert green.strip() == "\x1b[32m1 board: 1 agree, 0 disagree (riftasp vs reference)\x1b[0m"
    assert "\x1b" not in _at_a_terminal("crosscheck", "--engine", PARTIAL, "--no-check", STOLEN, code=1, NO_COLOR="1")
    assert "\x1b" not in cli("crosscheck", "--engine", PARTIAL, "--no-check", STOLEN).stdout  # not a terminal


def test_fuzz_colours_at_a_terminal_only(tmp_path):
    args = ["fuzz", "--engine", "reference", "--riftasp-engine", "reference", "--count", 3, "--no-check",
            "--jobs", 1, "--out", tmp_path]  # fmt: skip
    green = _at_a_terminal(*args).strip().splitlines()
    assert green[-1].startswith("\x1b[32m3 boards generated") and green[-1].endswith("\x1b[0m")
    assert "\x1b" not in _at_a_terminal(*args, NO_COLOR="1")
    red = _at_a_terminal("fuzz", "--engine", f"{PARTIAL} --persistent", "--persistent", "--count", 20, "--without",
                         "copy", "--no-check", "--riftasp-engine", "reference", "--jobs", 1, "--out", tmp_path / "red",
                         "--max-found", 1, code=1).strip().splitlines()  # fmt: skip
    assert red[-1].startswith("\x1b[31m20 boards generated") and red[-1].endswith("\x1b[0m")
    assert [line for line in red if ": finding " in line] == [line for line in red if line.startswith("\x1b[31m")][:-1]
