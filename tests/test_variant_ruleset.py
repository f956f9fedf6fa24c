"""A ruleset is a manifest, its files and a plugin (issue 8): the test ruleset in
tests/fixtures/rulesets/halving/ extends Riftbound with its own layer table (decreases before
increases) and its own operation ("halve": one encoding file and one registry entry in its
plugin), and needs no change to riftasp itself. Both engines resolve it and agree.

riftasp reads plugins when its registries are first imported, so each run here is a process
of its own with RIFTASP_RULESETS naming the fixture's folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from budget import thorough_only
from conftest import ROOT

FOLDER = ROOT / "tests" / "fixtures" / "rulesets"
BOARD = FOLDER / "halving" / "boards" / "order.json"


def riftasp(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RIFTASP_RULESETS": str(FOLDER)}
    return subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], input=stdin, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def might(output: str) -> dict[str, int]:
    return {oid: chars["might"] for oid, chars in json.loads(output)["objects"].items()}


def test_the_variant_is_listed_with_its_own_operation_file_and_riftbound_s_others():
    listed = {r["name"]: r for r in json.loads(riftasp("rulesets", "--json").stdout)}
    shipped = {"riftbound-timestamps", "riftbound-immediate", "sorcery-clamp", "sorcery-all-dependencies", "sorcery-codex"}
    assert set(listed) == {"riftbound", "sorcery", "halving", "narrow", "tiny", *shipped}
    assert listed["halving"]["extends"] == "riftbound"
    files = listed["halving"]["files"]
    assert str(FOLDER / "halving" / "operations" / "halve.lp") in files
    assert {"riftbound/operations/set_might.lp", "riftbound/conditions/mighty.lp", "operations/minus.lp",
            "riftbound/instances.lp"} <= set(files)  # fmt: skip
    # Its layer table's order: the decreases' files before the increases'.
    assert files.index("operations/minus.lp") < files.index("operations/plus.lp")


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_decreases_come_first_and_halve_halves(engine):
    # u1: 4, +3 (timestamp 1) and -5 to no less than 2 (timestamp 2): the decrease first, at 4,
    # takes 2; then +3: 5. u2: 6, halved (3) then +2: 5. u3 (Fiora, Might 4) halved: 2.
    out = riftasp("resolve", BOARD, "--json", "--engine", engine)
    assert out.returncode == 0, out.stderr
    assert might(out.stdout) == {"u1": 5, "u2": 5, "u3": 2}


def test_both_engines_give_the_same_characteristics_and_the_same_order():
    asp, ref = (json.loads(riftasp("resolve", BOARD, "--json", "--engine", e).stdout) for e in ("asp", "reference"))
    assert asp["objects"] == ref["objects"]
    steps = lambda res: {o: [(a["effect"], a["sublayer"], a["before"], a["after"]) for a in applied]  # noqa: E731
                         for o, applied in res["applied"].items()}  # fmt: skip
    assert steps(asp) == steps(ref) == {
        "u1": [("cap", "decrease", 4, 2), ("grow", "increase", 2, 5)],
        "u2": [("half", "decrease", 6, 3), ("pump", "increase", 3, 5)],
        "u3": [("shrink", "decrease", 4, 2)],
    }


def test_the_same_board_under_riftbound_applies_increases_first():
    data = json.loads(BOARD.read_text())
    data["effects"] = [e for e in data["effects"] if e["op"]["op"] != "halve"]
    out = riftasp("resolve", "-", "--json", stdin=json.dumps(data | {"ruleset": "riftbound"}))
    assert out.returncode == 0, out.stderr
    assert might(out.stdout)["u1"] == 2  # 4 + 3 = 7, then -5 to no less than 2


def test_an_operation_of_another_ruleset_is_refused_in_one_line():
    data = json.loads(BOARD.read_text()) | {"ruleset": "riftbound"}
    out = riftasp("resolve", "-", stdin=json.dumps(data))
    assert out.returncode == 2
    assert out.stderr == "<stdin>: effects[2].op.op: 'halve' is not an operation of the riftbound ruleset\n"


def test_nothing_in_riftasp_or_its_encodings_names_the_variant():
    for folder in (ROOT / "riftasp", ROOT / "encodings", ROOT / "facts"):
        for path in folder.rglob("*"):
            if path.is_file() and path.suffix in (".py", ".lp", ".toml"):
                text = path.read_text(encoding="utf-8")
                assert "halve" not in text and "halving" not in text, path


def test_the_invariant_checker_refuses_a_variant_without_its_own():
    # `riftasp check` restates a ruleset's rules (docs/check.md), from its own plugin; a variant
    # without one is refused in one line rather than checked against its base's layer table.
    out = riftasp("check", BOARD)
    assert out.returncode == 2
    assert out.stderr.endswith("ruleset: no invariant checker for the halving ruleset (rulesets with one: "
                               "riftbound, sorcery)\n")
    assert out.stderr.count("\n") == 1


def test_the_schema_of_a_variant_has_its_operation_and_riftbound_s_object_keys():
    schema = json.loads(riftasp("schema", "--ruleset", "halving").stdout)
    ops = [v["properties"]["op"]["const"] for v in schema["$defs"]["operation"]["oneOf"]]
    assert "halve" in ops and "set_might" in ops
    assert {"might", "buff", "buff_since", "might_bonus"} <= set(schema["$defs"]["object"]["properties"])
    riftbound = json.loads(riftasp("schema").stdout)
    assert "halve" not in [v["properties"]["op"]["const"] for v in riftbound["$defs"]["operation"]["oneOf"]]


def test_the_variant_fuzzes_with_riftbound_s_boards_and_both_engines_agree(tmp_path):
    # Riftbound's generators, labelled with the variant's name; the reference engine as the
    # other engine (its own process, with the same plugins). The invariant checker knows
    # Riftbound only: the two engines are compared alone.
    engine = f"{sys.executable} -m riftasp.reference"
    out = riftasp("fuzz", "--ruleset", "halving", "--engine", engine, "--count", 6, "--seed", 0,
                  "--out", tmp_path / "found", "--json")  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["generated"] == 6 and report["disagreements_found"] == 0
    refused = riftasp("fuzz", "--ruleset", "nope", "--out", tmp_path / "x")
    assert refused.returncode == 2 and "unknown ruleset 'nope'" in refused.stderr


@pytest.mark.parametrize(
    ("effect", "message"),
    [({"conditions": [{"might_at_least": 3, "of": "u1"}]}, "effects[0].conditions[0]: 'might_at_least' is not a condition of the narrow ruleset"),
     ({"target": {"filter": {"location": "Arena"}}}, "effects[0].target.filter.location: 'location' is not a filter of the narrow ruleset")],
)  # fmt: skip
def test_a_board_uses_only_its_ruleset_s_conditions_and_filters(effect, message):
    ongoing = {"id": "e", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u1"]}, "timestamp": 1,
               "controller": "alice"} | effect  # fmt: skip
    board = {"ruleset": "narrow", "players": ["alice"], "effects": [ongoing],
             "objects": [{"id": "u1", "name": "U", "type": "unit", "owner": "alice", "zone": "base", "might": 2}]}
    out = riftasp("resolve", "-", stdin=json.dumps(board))
    assert (out.returncode, out.stderr) == (2, f"<stdin>: {message}\n")
    loaded = riftasp("resolve", "-", "--json", stdin=json.dumps(board | {"ruleset": "riftbound"}))
    assert loaded.returncode == 0, loaded.stderr


@thorough_only
def test_the_variants_files_pass_the_encoding_interface_checks():
    # tests/test_encoding_interface.py checks every ruleset riftasp knows; run with the fixture
    # folder, it checks the variants' files (halve.lp's header included) as well.
    env = {**os.environ, "RIFTASP_RULESETS": str(FOLDER)}
    out = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                          str(ROOT / "tests" / "test_encoding_interface.py")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:]
    # Two checks for each of riftbound, sorcery, their five shipped variants, halving, narrow and
    # tiny, and Sorcery's declarative checker's files.
    assert "21 passed" in out.stdout


def test_a_ruleset_of_its_own_without_a_plugin_resolves_and_reports_its_families():
    # tests/fixtures/rulesets/tiny: shared operations, conditions and filters, one file of its
    # own, no plugin. u1 (alice's) becomes bob's; "mark" (enemies of alice) then depends on that
    # change of controller and comes right after it; "strip" removes Mech.
    out = riftasp("resolve", FOLDER / "tiny" / "boards" / "traits.json", "--json")
    assert out.returncode == 0, out.stderr
    objects = json.loads(out.stdout)["objects"]
    assert objects["u1"] == {"controller": "bob", "name": "U", "tags": ["Marked"], "types": ["unit"],
                             "keywords": {}, "zone": "base", "abilities": []}  # fmt: skip
    assert objects["u2"]["tags"] == ["Marked"] and objects["u2"]["controller"] == "bob"
    applied = [a["effect"] for a in json.loads(out.stdout)["applied"]["u1"]]
    assert applied == ["give", "mark", "strip"]
    # The reference engine has no ruleset "tiny": one line, exit 2.
    ref = riftasp("resolve", FOLDER / "tiny" / "boards" / "traits.json", "--engine", "reference")
    assert ref.returncode == 2
    assert ref.stderr.endswith("traits.json: ruleset: the reference engine has no ruleset 'tiny'\n")


def test_crosscheck_compares_the_variants_and_a_ruleset_the_engine_lacks_is_unsupported():
    # The reference engine knows halving (its plugin's reference_ruleset) but not tiny: it
    # answers `unsupported` (the engine protocol), which crosscheck counts apart.
    engine = f"{sys.executable} -m riftasp.reference"
    out = riftasp("crosscheck", "--engine", engine, FOLDER / "halving" / "boards", FOLDER / "tiny" / "boards")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("2 boards: 1 supported (1 agree, 0 disagree), 1 unsupported "
                                 "(the reference engine has no ruleset 'tiny': 1)")  # fmt: skip


# Counts, in a process of its own (plugins), the worlds a chain asked and the steps it took.
CHAIN_PROBE = """
import json, sys, clingo
from riftasp.board_io import board_from_dict
from riftasp.facts import board_facts
from riftasp.solver import run
worlds = []
solve = clingo.Control.solve
def counting(ctl, *args, **kwargs):
    worlds.append(sum(1 for a in ctl.symbolic_atoms.by_signature("chain_world", 5)))
    return solve(ctl, *args, **kwargs)
clingo.Control.solve = counting
board = board_from_dict(json.load(open(sys.argv[1])), sys.argv[1])
_, stats = run(board_facts(board), board.ruleset)
print(json.dumps({"worlds": sum(worlds), "steps": stats.steps}))
"""


def test_a_chain_whose_reader_does_not_say_where_it_changes_asks_it_value_by_value(tmp_path):
    # The fixture's "at least N Might" declares no change points (its conditions/might_at_least.lp):
    # the chain of 40 +1s "while at least 1 Might", which the keyword gain waiting for 20 Might
    # also reads, is asked value by value (worlds), and still goes in fewer steps than one
    # application a step, stopping before 20.
    effects = [{"id": f"e{i}", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u"]}, "timestamp": i + 1,
                "controller": "alice", "conditions": [{"might_at_least": 1, "of": "u"}]} for i in range(40)]
    effects.append({"id": "tank", "op": {"op": "gain_keywords", "keywords": ["Tank"]}, "target": {"ids": ["u"]},
                    "timestamp": 50, "controller": "alice", "conditions": [{"might_at_least": 20, "of": "u"}]})
    board = {"ruleset": "halving", "players": ["alice"], "effects": effects,
             "objects": [{"id": "u", "name": "U", "type": "unit", "owner": "alice", "zone": "base", "might": 3}]}
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(board))
    asp, ref = (json.loads(riftasp("resolve", path, "--json", "--engine", e).stdout) for e in ("asp", "reference"))
    rows = lambda res: [(a["effect"], a["step"], a["before"], a["after"], a["reasons"])  # noqa: E731
                        for a in res["applied"]["u"]]
    assert asp["objects"] == ref["objects"] and rows(asp) == rows(ref)
    assert asp["objects"]["u"]["might"] == 43 and asp["objects"]["u"]["keywords"] == {"Tank": 1}
    # Tank comes back (an earlier stage: a recheck) right after the increase that reaches 20.
    assert [r for r in rows(asp) if r[0] == "tank"] == [("tank", 18, {}, {"Tank": 1}, ["timestamp", "recheck"])]
    assert rows(asp)[16][1:4] == (17, 19, 20)
    probe = subprocess.run([sys.executable, "-c", CHAIN_PROBE, str(path)], capture_output=True, text=True,
                           env={**os.environ, "RIFTASP_RULESETS": str(FOLDER)}, timeout=120)  # fmt: skip
    counted = json.loads(probe.stdout)
    assert counted["worlds"] > 0 and counted["steps"] < 20, counted
