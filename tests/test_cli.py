"""The command line: resolve, explain, diff, facts, schema and bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from riftasp.cli import app

from budget import spread
from conftest import EXAMPLES, ROOT

runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_resolve_json_follows_the_output_contract():
    result = cli("resolve", EXAMPLES / "fiora-buffed-defending.json", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ruleset"] == "riftbound"
    assert data["objects"]["fiora"] == {
        "name": "Fiora, Victorious", "controller": "alice", "might": 6, "mighty": True,
        "tags": [], "types": ["unit"], "keywords": {"Deflect": 1, "Ganking": 1, "Shield": 1},
        "zone": "battlefield", "abilities": ["fiora.mighty_keywords"]}
    assert [a["effect"] for a in data["applied"]["fiora"]] == [
        "buff:fiora", "fiora.mighty_keywords", "keyword:Shield:fiora:fiora.mighty_keywords"]
    assert data["dependency_cycles"] == [] and data["object_loops"] == []


def test_resolve_table_lists_every_object():
    result = cli("resolve", EXAMPLES / "showcase.json")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "name", "controller", "might", "mighty", "types", "tags",
                                "keywords"]
    fiora = next(line for line in lines if line.startswith("fiora"))
    assert "7" in fiora.split() and "Deflect, Ganking, Shield" in fiora


def test_resolve_with_the_reference_engine():
    result = cli("resolve", EXAMPLES / "set-then-modify.json", "--json", "--engine", "reference")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["objects"]["u1"]["might"] == 6


def test_explain_shows_the_recheck_of_the_ability_layer():
    result = cli("explain", EXAMPLES / "fiora-buffed-defending.json", "fiora")
    assert result.exit_code == 0
    grant = next(line for line in result.stdout.splitlines() if "fiora.mighty_keywords" in line)
    assert grant.split()[:2] == ["2", "abilities"]
    assert "recheck" in grant and "none -> Deflect, Ganking, Shield" in grant
    data = json.loads(cli("explain", EXAMPLES / "fiora-buffed-defending.json", "fiora", "--json").stdout)
    assert [(a["effect"], a["before"], a["after"]) for a in data["applied"]] == [
        ("buff:fiora", 4, 5),
        ("fiora.mighty_keywords", {}, {"Deflect": 1, "Ganking": 1, "Shield": 1}),
        ("keyword:Shield:fiora:fiora.mighty_keywords", 5, 6)]


def test_explain_names_the_objects_calculated_first():
    result = cli("explain", EXAMPLES / "object-chain.json", "c")
    assert "calculated after b" in result.stdout


def test_explain_rejects_an_unknown_object():
    result = cli("explain", EXAMPLES / "object-chain.json", "zz")
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("unknown object 'zz'; the board's objects: c, b, a")


def test_diff_reports_no_transition_from_intermediate_values():
    # 4 -> (set 5, -1) = 4: never Mighty, whatever the layers used on the way.
    result = cli("diff", EXAMPLES / "intermediate-start.json",
                 EXAMPLES / "intermediate-set5-minus1.json", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_diff_reports_a_real_transition_to_mighty():
    result = cli("diff", EXAMPLES / "intermediate-start.json", EXAMPLES / "intermediate-real-five.json")
    assert result.stdout.splitlines() == ["u1 becomes Mighty", "u1 Might 4 -> 5"]


def test_diff_buff_removed_reports_fiora_losing_her_keywords():
    result = cli("diff", EXAMPLES / "fiora-buffed-defending.json",
                 EXAMPLES / "fiora-defending-buff-removed.json")
    assert result.stdout.splitlines() == [
        "fiora is no longer Mighty", "fiora Might 6 -> 4", "fiora loses Deflect",
        "fiora loses Ganking", "fiora loses Shield"]


def test_facts_round_trip_through_an_lp_board(tmp_path):
    facts = cli("facts", EXAMPLES / "showcase.json")
    assert facts.exit_code == 0 and "effect_op(" in facts.stdout
    board_lp = tmp_path / "showcase.lp"
    board_lp.write_text(facts.stdout)
    from_lp = json.loads(cli("resolve", board_lp, "--json").stdout)
    from_json = json.loads(cli("resolve", EXAMPLES / "showcase.json", "--json").stdout)
    assert from_lp["objects"] == from_json["objects"]


def test_schema_is_json():
    result = cli("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["type"] == "object"


def test_bad_input_exits_2_with_one_line_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["alice"], "objects": [')
    proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "resolve", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{bad}: ")
    assert "Traceback" not in proc.stderr


def test_bad_input_names_the_field(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text(json.dumps({"players": ["alice"], "objects": [
        {"id": "u1", "name": "U", "type": "unit", "owner": "alice", "zone": "base", "might": 3,
         "attached_to": "u9"}]}))
    result = cli("resolve", bad)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{bad}: objects[0].attached_to: unknown object 'u9'"


@pytest.mark.thorough
@pytest.mark.parametrize(
    "args",
    spread([["--json", "showcase.json", "copy.json"], ["showcase.json"], ["missing.json"], ["showcase.json", "--json"],
            ["showcase.json", "--engine", "reference"]], 2),  # (three programs a case: the first, third, fifth by default)
)  # fmt: skip
def test_the_plain_resolve_shortcut_answers_as_typer_does(args):
    # `riftasp resolve BOARD... [--json]` skips typer's parameter conversion when run as a
    # program (cli._Riftasp); typer's test runner always goes through typer. Both must answer the
    # same: output, errors and exit code.
    # The `riftasp` program (riftasp.launch, before any typer import) takes it too.
    argv = ["resolve", *args]
    runs = [subprocess.run([sys.executable, "-m", module, *argv], cwd=EXAMPLES, capture_output=True, text=True,
                           timeout=120) for module in ("riftasp.cli", "riftasp.launch")]  # fmt: skip
    # The same through typer: its main, called from a program that cannot take the shortcut.
    typer_main = "import sys; from riftasp.cli import app; typer_app = app.__class__.__mro__[1]; typer_app.__call__(app)"
    via_typer = subprocess.run([sys.executable, "-c", typer_main, *argv], cwd=EXAMPLES, capture_output=True,
                               text=True, timeout=120)  # fmt: skip
    for proc in runs:
        assert (proc.returncode, proc.stdout, untimed(proc.stderr)) == (
            via_typer.returncode, via_typer.stdout, untimed(via_typer.stderr))


def untimed(stderr: str) -> str:
    """stderr without the progress records of several boards (`{"progress": ...}`, issue 39):
    how many there are, and their seconds, depend on the time the run took; events are kept."""
    return "".join(line for line in stderr.splitlines(keepends=True)
                   if not (line.startswith('{"progress": ') and '"event": ' not in line))


def test_the_riftasp_program_resolves_a_board_without_importing_typer():
    # Start-up time (bench/coldstart.py): typer costs ~26 ms of the 0.25 s `riftasp resolve` may
    # take; the program's entry point (pyproject.toml) runs the plain call without it.
    from riftasp.launch import main  # noqa: F401 - the entry point must exist

    assert "riftasp.launch:main" in (ROOT / "pyproject.toml").read_text()
    probe = ("import sys; from riftasp.launch import main; sys.argv = ['riftasp', 'resolve', 'showcase.json']\n"
             "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
             "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'pydantic')),"
             " file=sys.stderr)")  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", probe], cwd=EXAMPLES, capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip() == "0 []"
    assert proc.stdout.splitlines()[0].split()[:2] == ["id", "name"]
