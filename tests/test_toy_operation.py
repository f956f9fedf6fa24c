"""One operation is one place (issue 37): a toy operation, "triple" (the Might gains twice itself,
never below 0), is added to a copy of Riftbound made in a temporary folder — its encoding file,
its registry entry (with its reach) and its place in the layer table, nothing in riftasp — and
both engines resolve it, `riftasp check` judges it (from the entry's `Does`, not its name), the
limits bound it (its reach) and the generators draw it (its weight). docs/architecture.md ("Adding an operation")
walks through exactly these steps.

riftasp reads plugins when its registries are first imported, so each run is a process of its
own with RIFTASP_RULESETS naming the temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

# Step 1: the operation's encoding, operations/triple.lp (in the generic words of the core:
# its amount at the value M it applies to, and that the amount reads M).
TRIPLE_LP = """\
% triple.lp (a toy ruleset's own) — the operation triple: the arithmetic characteristic gains
% twice its value (an increase: never lowers it).
%
% Expects:  inst_op/2, probe/5, the board facts (the manifest's input).
% Provides: delta/6, op_changes_at/3, op_name/2, op_value_dependent/1.

#program base.
op_name(triple,triple) :- effect_op(_,triple).
op_value_dependent(triple) :- effect_op(_,triple).
% Its amount, 2M and never below 0, differs at M from M-1 for every M from 1 on.
op_changes_at(triple,1,#sup) :- effect_op(_,triple).

#program eval(p,k).
delta(k,I,O,M,M+|M|,p) :- probe(k,I,O,M,p), inst_op(I,triple).
"""

# Step 2: its registry entry, in the ruleset's plugin.py: what it does (an increase by an
# amount that reads the current Might), how far it can take Might (three times itself), how the
# card library words it and how often the generators draw it. The plugin also names Riftbound's
# checkers as its own (a variant does not take its base's unasked: they restate §1's layer table).
PLUGIN_PY = """\
from riftasp.specs import Does, OperationSpec


def _tripled(op, current):
    return 2 * max(0, current)


OPERATIONS = (
    OperationSpec("triple", (), Does("arithmetic", sign=1, amount=_tripled, dependent=True,
                                     reach="multiplies", factor=3),
                  "get{s} {its} {number} tripled", weight=2),
)


def checker():
    from riftasp.rulesets.riftbound.check import check_report

    return check_report


def declarative():
    from riftasp.rulesets.riftbound.check import declarative

    return declarative
"""

# Step 3: its place in the layer table: Riftbound's, with triple among the increases.
LAYERS = [
    ("copy", "copy", None, ["copy"]),
    ("traits", "traits", None, ["set_might", "set_controller", "add_tag", "remove_tag"]),
    ("abilities", "abilities", None, ["gain_keyword", "lose_keyword", "lose_all_abilities"]),
    ("increase", "arithmetic", "increase", ["plus", "increase_to", "plus_max", "double", "triple"]),
    ("decrease", "arithmetic", "decrease", ["minus", "minus_min"]),
]

# u1 (Might 2): +1 (timestamp 1), tripled (2), -1 (3): 2 -> 3 -> 9 -> 8. u2 (Might 3): +2 while
# u1 has at least 8 Might (its rules text, timestamp 0), and +1: 6.
BOARD = {
    "ruleset": "tripling",
    "players": ["alice", "bob"],
    "objects": [
        {"id": "u1", "name": "Grower", "type": "unit", "owner": "alice", "zone": "base", "might": 2},
        {"id": "u2", "name": "Watcher", "type": "unit", "owner": "bob", "zone": "base", "might": 3,
         "rules_text": [{"id": "watch", "op": {"op": "plus", "amount": 2},
                         "conditions": [{"might_at_least": 8, "of": "u1"}]}]},
    ],
    "effects": [
        {"id": "grow", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u1", "u2"]}, "timestamp": 1,
         "controller": "alice"},
        {"id": "thrice", "op": {"op": "triple"}, "target": {"ids": ["u1"]}, "timestamp": 2, "controller": "alice"},
        {"id": "shrink", "op": {"op": "minus", "amount": 1}, "target": {"ids": ["u1"]}, "timestamp": 3,
         "controller": "bob"},
    ],
}  # fmt: skip


def manifest(name: str, layers: list, extends: str = "riftbound") -> str:
    lines = [f'name = "{name}"', f'description = "Riftbound with a toy operation, triple ({name})"',
             f'extends = "{extends}"']  # fmt: skip
    for stage, layer, sublayer, operations in layers:
        lines += ["", "[[layers]]", f'stage = "{stage}"', f'layer = "{layer}"']
        lines += [f'sublayer = "{sublayer}"'] if sublayer else []
        lines += ["operations = [" + ", ".join(f'"{op}"' for op in operations) + "]"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    """The folder RIFTASP_RULESETS names, and the board: `tripling/` (manifest.toml,
    operations/triple.lp, plugin.py) and `tripling_late/`, a variant of it applying decreases
    first (not Riftbound's §1), with Riftbound's checker named in a plugin of its own."""
    folder = tmp_path_factory.mktemp("rulesets")
    (folder / "tripling" / "operations").mkdir(parents=True)
    (folder / "tripling" / "manifest.toml").write_text(manifest("tripling", LAYERS), encoding="utf-8")
    (folder / "tripling" / "operations" / "triple.lp").write_text(TRIPLE_LP, encoding="utf-8")
    (folder / "tripling" / "plugin.py").write_text(PLUGIN_PY, encoding="utf-8")
    (folder / "tripling_late").mkdir()
    late = [*LAYERS[:3], LAYERS[4], LAYERS[3]]
    (folder / "tripling_late" / "manifest.toml").write_text(manifest("tripling_late", late, "tripling"), encoding="utf-8")
    (folder / "tripling_late" / "plugin.py").write_text(PLUGIN_PY[PLUGIN_PY.index("def checker"):], encoding="utf-8")
    (folder / "board.json").write_text(json.dumps(BOARD), encoding="utf-8")
    return folder


def riftasp(folder: Path, *args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RIFTASP_RULESETS": str(folder)}
    return subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], input=stdin, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def resolved(folder: Path, engine: str) -> dict:
    out = riftasp(folder, "resolve", folder / "board.json", "--json", "--engine", engine)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def rows(resolution: dict) -> dict[str, list[tuple]]:
    return {o: [(a["effect"], a["layer"], a["sublayer"], a["characteristic"], a["before"], a["after"]) for a in applied]
            for o, applied in resolution["applied"].items()}  # fmt: skip


@pytest.fixture(scope="module")
def answers(toy) -> dict[str, dict]:
    return {engine: resolved(toy, engine) for engine in ("asp", "reference")}


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_both_engines_apply_triple_where_the_layer_table_puts_it(answers, engine):
    res = answers[engine]
    assert {o: (c["might"], c["mighty"]) for o, c in res["objects"].items()} == {"u1": (8, True), "u2": (6, True)}
    assert rows(res) == {
        "u1": [("grow", "arithmetic", "increase", "might", 2, 3), ("thrice", "arithmetic", "increase", "might", 3, 9),
               ("shrink", "arithmetic", "decrease", "might", 9, 8)],
        # watch, u2's rules text, has u2's timestamp (0): before grow.
        "u2": [("watch", "arithmetic", "increase", "might", 3, 5), ("grow", "arithmetic", "increase", "might", 5, 6)],
    }  # fmt: skip


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_check_judges_triple_from_its_registry_entry_and_finds_both_answers_consistent(toy, answers, engine, tmp_path):
    path = tmp_path / f"{engine}.json"
    path.write_text(json.dumps(answers[engine]), encoding="utf-8")
    out = riftasp(toy, "check", toy / "board.json", "--resolution", path, "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["violations"] == [] and report["checked"] > 40
    # The invariants are judged (the replay computes triple from Does.amount); only the
    # declarative checker, whose ASP program states each operation it knows, leaves it out.
    assert report["skipped"] == ["what the rules allow (declarative check): operation 'triple' is unknown to the "
                                 "declarative checker"]  # fmt: skip
    text = riftasp(toy, "check", toy / "board.json", "--resolution", path)
    assert (text.returncode, text.stdout) == (0, CHECKED.format(checks=report["checked"]))


# What `riftasp check` says of either answer (docs/architecture.md ("Adding an operation") shows it).
CHECKED = """\
skipped: what the rules allow (declarative check): operation 'triple' is unknown to the declarative checker
rules allow: not judged (operation 'triple' is unknown to the declarative checker)
{checks} checks: consistent
"""


def test_check_finds_a_wrong_triple_in_a_trace(toy, answers, tmp_path):
    wrong = json.loads(json.dumps(answers["asp"]))
    row = next(a for a in wrong["applied"]["u1"] if a["effect"] == "thrice")
    row["after"] = 6  # doubled, not tripled
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(wrong), encoding="utf-8")
    out = riftasp(toy, "check", toy / "board.json", "--resolution", path, "--no-declarative")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "u1      trace-replay  after   thrice  9         6" in out.stdout


def test_a_layer_table_that_is_not_riftbound_s_is_not_judged_rather_than_crashing(toy):
    board = BOARD | {"ruleset": "tripling_late"}
    path = toy / "late.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    out = riftasp(toy, "check", path, "--no-declarative")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout == (
        "skipped: every invariant (not judged): the tripling_late ruleset's layer table applies minus_min "
        "(decrease) before plus (increase), unlike docs/semantics.md §1\n0 checks: not judged\n")


def test_triple_s_reach_bounds_a_board_before_it_is_grounded(toy):
    # 1,000,000 tripled six times could reach 729,000,000: beyond the limit, refused in one line.
    board = {"ruleset": "tripling", "players": ["alice"],
             "objects": [{"id": "u1", "name": "U", "type": "unit", "owner": "alice", "zone": "base", "might": 1_000_000}],
             "effects": [{"id": f"t{n}", "op": {"op": "triple"}, "target": {"ids": ["u1"]}, "timestamp": n,
                          "controller": "alice"} for n in range(6)]}  # fmt: skip
    out = riftasp(toy, "resolve", "-", stdin=json.dumps(board))
    assert (out.returncode, out.stderr) == (2, "<stdin>: objects[0]: the effects that can apply to 'u1' could take "
                                               "its Might to 729,000,000, beyond 500,000,000 (see Limits in "
                                               "docs/board-format.md)\n")  # fmt: skip
    board["effects"] = board["effects"][:5]  # 243,000,000: within it
    assert riftasp(toy, "resolve", "-", "--json", stdin=json.dumps(board)).returncode == 0


DRAWN = """
from hypothesis import HealthCheck, find, settings
from riftasp.profile import Profile
from riftasp.rulesets import ruleset
boards = ruleset("tripling").board_strategy(Profile())
found = find(boards, lambda b: any(e["op"]["op"] == "triple" for o in b["objects"] for e in o.get("rules_text", []))
             and b["ruleset"] == "tripling",
             settings=settings(derandomize=True, database=None, max_examples=2000,
                               suppress_health_check=list(HealthCheck)))
print("drawn")
"""


def test_the_generators_draw_triple_for_the_ruleset_that_has_it(toy):
    out = subprocess.run([sys.executable, "-c", DRAWN], env={**os.environ, "RIFTASP_RULESETS": str(toy)},
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.stdout.strip() == "drawn", out.stderr[-2000:]


def test_the_schema_and_the_card_words_come_from_the_entry(toy):
    schema = json.loads(riftasp(toy, "schema", "--ruleset", "tripling").stdout)
    assert "triple" in [v["properties"]["op"]["const"] for v in schema["$defs"]["operation"]["oneOf"]]
    explained = riftasp(toy, "explain", toy / "board.json", "u1")
    assert explained.returncode == 0, explained.stderr
    assert [line.split()[:6] for line in explained.stdout.splitlines() if " thrice " in line] == [
        ["2", "arithmetic.increase", "thrice", "might", "3", "->"]]


def test_nothing_in_riftasp_or_its_encodings_names_the_toy_operation():
    for folder in (ROOT / "riftasp", ROOT / "encodings", ROOT / "facts"):
        for path in folder.rglob("*"):
            if path.is_file() and path.suffix in (".py", ".lp", ".toml"):
                text = path.read_text(encoding="utf-8")
                assert '"triple"' not in text and "triple(" not in text and "tripling" not in text, path


def test_a_reach_the_operation_cannot_have_is_refused_where_it_is_written():
    # In-process: the registry entry itself says what is wrong (no board load ever meets it).
    from riftasp.specs import Does, OperationSpec

    def lost(op: object, current: int) -> int:
        return max(0, current) // 2

    with pytest.raises(ValueError, match="reach 'subtracts' reads its parameter 'amount', which it has not"):
        OperationSpec("halve", (), Does("arithmetic", sign=-1, amount=lost, reach="subtracts"), "")
    with pytest.raises(ValueError, match="an arithmetic operation says how far it can take the number"):
        Does("arithmetic", sign=-1, amount=lost)
    assert OperationSpec("halve", (), Does("arithmetic", sign=-1, amount=lost, reach="shrinks"), "").does.reach == "shrinks"


def test_an_operation_the_checker_cannot_restate_is_named_as_not_judged():
    from riftasp.kinds import TEXT
    from riftasp.operations import OPERATIONS
    from riftasp.rulesets import ruleset
    from riftasp.rulesets.riftbound.check.operations import (
        layer_table_differs,
        unjudged,
    )
    from riftasp.specs import Does, OperationSpec, Param

    rename = OperationSpec("rename", (Param("title", TEXT),), Does("set", "name", "title"), "{is} called {title}")
    assert unjudged(rename) == ("operation 'rename' (set name): the checker replays set Might and set controller "
                                "to a parameter only")  # fmt: skip
    # Every operation of Riftbound is judged, and its layer table is §1's.
    riftbound = ruleset("riftbound")
    assert [n for n, spec in OPERATIONS.items() if spec.functor in riftbound.operations and unjudged(spec)] == []
    assert layer_table_differs(riftbound) is None


def test_the_walkthrough_in_the_docs_is_exactly_these_files():
    # docs/architecture.md ("Adding an operation") shows the
    # encoding, the plugin, the manifest and the board this test writes, and the check's answer.
    import re

    blocks = [(lang, text) for path in sorted((ROOT / "docs").glob("*.md"))
              for lang, text in re.findall(r"```(\w*)\n(.*?)```", path.read_text(encoding="utf-8"), re.DOTALL)]  # fmt: skip
    assert ("prolog", TRIPLE_LP) in blocks
    assert ("python", PLUGIN_PY) in blocks
    assert ("toml", manifest("tripling", LAYERS)) in blocks
    assert BOARD in [json.loads(text) for lang, text in blocks if lang == "json" and '"tripling"' in text]
    shown = [text for lang, text in blocks if lang == "" and "riftasp check board.json" in text]
    assert len(shown) == 1 and shown[0].endswith(CHECKED.format(checks=58))
