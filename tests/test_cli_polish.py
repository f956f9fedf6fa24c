"""The command line's finish (issue 40): --version and -h, choices in --help, helpful one-line
messages, output that fits the terminal, colour only at a terminal."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from riftasp import style
from riftasp.cli import app

from conftest import EXAMPLES, ROOT

runner = CliRunner()
FIORA = EXAMPLES / "fiora-buffed-defending.json"


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def one_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def run(module: str, *args: object, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env}, timeout=60)


# ---- --version, -h -----------------------------------------------------------------------------

def test_version_prints_the_installed_version():
    from importlib.metadata import version

    result = cli("--version")
    assert result.exit_code == 0 and result.stdout == f"riftasp {version('riftasp')}\n"


@pytest.mark.parametrize("module", ["riftasp", "riftasp.launch"])
def test_version_from_the_programs(module):
    done = run(module, "--version")
    assert done.returncode == 0 and done.stdout.startswith("riftasp ") and len(done.stdout.split()) == 2


COMMANDS = ["resolve", "explain", "diff", "facts", "schema", "check", "outcomes", "crosscheck", "fuzz",
            "compare", "properties", "cards", "rulesets"]


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_h_is_help(command):
    short, long = cli(*command, "-h"), cli(*command, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "-h, --help" in short.stdout


def test_h_reaches_typer_from_the_launcher():
    done = run("riftasp.launch", "resolve", "-h")
    assert done.returncode == 0 and "<asp|reference>" in done.stdout


# ---- choices in --help ---------------------------------------------------------------------------

@pytest.mark.parametrize("command, option, choices", [
    *((c, "--engine", "<asp|reference>") for c in ["resolve", "explain", "diff", "check", "outcomes", "compare"]),
    ("crosscheck", "--riftasp-engine", "<asp|reference>"),
    ("fuzz", "--riftasp-engine", "<asp|reference>"),
    ("outcomes", "--format", "<text|md|html>"),
    ("compare", "--format", "<text|md|html>"),
    ("properties", "--format", "<text|md|html>"),
    ("crosscheck", "--format", "<text|html>"),
    ("fuzz", "--format", "<text|html>"),
    ("properties", "--engine", "<auto|asp|reference>"),
    ("crosscheck", "--engine", "<str>"),  # a command line as well: free text
    ("fuzz", "--engine", "<str>"),
])
def test_help_shows_the_choices(command, option, choices):
    shown = [line.split() for line in cli(command, "--help").stdout.splitlines()]
    assert [option, choices] in [words[:2] for words in shown]


@pytest.mark.parametrize("args, message", [
    (["resolve", FIORA, "--engine", "clingo"], "--engine: unknown engine 'clingo': choose one of asp, reference"),
    (["explain", FIORA, "fiora", "--engine", "x"], "--engine: unknown engine 'x': choose one of asp, reference"),
    (["outcomes", FIORA, "--format", "pdf"], "--format: unknown format 'pdf': choose one of text, md, html"),
    (["crosscheck", FIORA, "--engine", "reference", "--riftasp-engine", "x"],
     "--riftasp-engine: unknown engine 'x': choose one of asp, reference"),
    (["properties", "riftbound", "--engine", "fast"], "--engine: unknown engine 'fast': choose one of auto, asp, reference"),
])
def test_a_value_out_of_the_choices_is_one_line(args, message):
    assert one_line(cli(*args)) == message


def test_the_choices_keep_their_values():
    result = cli("resolve", FIORA, "--engine", "reference", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["engine"] == "reference"


# ---- messages --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["gone", "gone.json", "gone.yaml", "gone.lp", "gone.txt"])
def test_a_missing_path(tmp_path, name):
    missing = tmp_path / name
    assert one_line(cli("resolve", missing)) == f"{missing}: no such file or folder"
    several = cli("resolve", missing, FIORA)  # the other board is still answered
    assert several.exit_code == 2 and f"{missing}: no such file or folder" in several.stderr.splitlines()


def test_a_missing_path_from_the_launcher(tmp_path):
    done = run("riftasp.launch", "resolve", tmp_path / "gone")
    assert (done.returncode, done.stderr) == (2, f"{tmp_path / 'gone'}: no such file or folder\n")


def test_a_resolution_where_a_board_belongs(tmp_path):
    resolution = tmp_path / "out.json"
    resolution.write_text(cli("resolve", FIORA, "--json").stdout)
    hint = f"{resolution}: this is a resolution, not a board — pass it to riftasp check BOARD --resolution {resolution}"
    assert one_line(cli("resolve", resolution)) == hint
    assert one_line(cli("explain", resolution, "fiora")) == hint
    assert one_line(cli("check", resolution)) == hint
    # and the advice works
    assert cli("check", FIORA, "--resolution", resolution).exit_code == 0


def test_a_broken_board_with_an_objects_list_is_not_called_a_resolution(tmp_path):
    board = tmp_path / "b.json"
    board.write_text(json.dumps({"ruleset": "riftbound", "objects": [{"id": 3}]}))
    assert "resolution" not in one_line(cli("resolve", board))


@pytest.mark.parametrize("wanted, hint", [
    ("Fiora", "did you mean 'fiora'?"),
    ("FIORA", "did you mean 'fiora'?"),
    ("fiorra", "did you mean 'fiora'?"),
    ("zzzz", "the board's objects: fiora"),
])
def test_explain_an_unknown_object(wanted, hint):
    assert one_line(cli("explain", FIORA, wanted)) == f"{FIORA}: OBJECT: unknown object {wanted!r}; {hint}"


def test_explain_lists_at_most_ten_ids(tmp_path):
    board = json.loads(FIORA.read_text())
    template = board["objects"][0]
    board["objects"] = [{**template, "id": f"unit{i:02}"} for i in range(12)]
    board["effects"] = []
    path = tmp_path / "many.json"
    path.write_text(json.dumps(board))
    ids = ", ".join(f"unit{i:02}" for i in range(10))
    assert one_line(cli("explain", path, "zzzz")).endswith(f"the board's objects: {ids}, ... (12 in all)")


@pytest.mark.parametrize("command", [["cards"], ["schema"], ["fuzz", "--count", "1"]])
def test_an_unknown_ruleset_lists_the_known_ones(command):
    from riftasp.rulesets import known

    line = one_line(cli(*command, "--ruleset", "foo"))
    assert line == f"--ruleset: unknown ruleset 'foo'; known rulesets: {', '.join(known())}"
    assert "riftbound-immediate" in line


# ---- width and colour ------------------------------------------------------------------------------

def test_rulesets_wraps_its_lists_at_100_columns_off_a_terminal():
    lines = cli("rulesets").stdout.splitlines()
    assert max(map(len, lines)) <= 100
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("files: "))
    indent = lines[start].index("files: ") + len("files: ")
    assert lines[start + 1].startswith(" " * indent) and not lines[start + 1][indent].isspace()
    shown = " ".join(line.strip() for line in lines[start:start + 3])
    assert "core/instances.lp, core/reads.lp" in shown


def test_no_escape_codes_off_a_terminal():
    for args in (["resolve", FIORA], ["explain", FIORA, "fiora"], ["rulesets"]):
        assert "\x1b" not in cli(*args).stdout
    assert "\x1b" not in run("riftasp", "resolve", FIORA).stdout


def _at_a_terminal(*args: object, code: int = 0, **env: str) -> str:
    """What `python -m riftasp ARGS` writes to a pseudo-terminal (exiting with `code`)."""
    main, secondary = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "riftasp", *map(str, args)], stdout=secondary,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=60,
                              env={**{k: v for k, v in os.environ.items() if k != "NO_COLOR"},
                                   "PYTHONPATH": str(ROOT), "COLUMNS": "80", **env})
        os.close(secondary)
        secondary = -1
        assert done.returncode == code, done.stderr
        out = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            out += chunk
        return out.decode()
    finally:
        os.close(main)
        if secondary != -1:
            os.close(secondary)


def test_table_headers_are_bold_at_a_terminal_unless_no_color():
    coloured = _at_a_terminal("resolve", FIORA)
    assert style.BOLD in coloured and coloured.count("\x1b") == 2
    assert "\x1b" not in _at_a_terminal("resolve", FIORA, NO_COLOR="1")


def test_rulesets_fits_the_terminal():
    lines = _at_a_terminal("rulesets").splitlines()
    assert max(map(len, lines)) <= 80


def test_style_follows_isatty_and_no_color(monkeypatch):
    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert style.bold("id", Terminal()) == "\x1b[1mid\x1b[0m"  # type: ignore[arg-type]
    assert style.red("x", Terminal()) == "\x1b[31mx\x1b[0m"  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert style.bold("id", Terminal()) == "id"  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "")  # empty: as if unset (no-color.org)
    assert style.bold("id", Terminal()) != "id"  # type: ignore[arg-type]
