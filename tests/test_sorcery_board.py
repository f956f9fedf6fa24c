"""The Sorcery board format (docs/board-format.md, Sorcery): its objects' keys, the schema, the
relations of the realm's grid, the facts and their round trip, and the ASP engine's one-line
refusal of a ruleset whose encoding is not written (a variant of Sorcery without its procedure). Bad Sorcery boards
are in tests/bad_boards/ (sorcery-*)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from riftasp.board_io import board_from_dict, board_from_facts, board_to_dict, load_board
from riftasp.facts import board_facts
from riftasp.rulesets.sorcery.reference.realm import Realm
from riftasp.resources import encoding_files, missing_encodings

EXAMPLES = ROOT / "examples" / "sorcery"
BOARDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def riftasp(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def _unwritten_ruleset(tmp_path):
    """A variant of Sorcery whose procedure has no files yet (encodings/procedures/unwritten/),
    in a folder of its own (RIFTASP_RULESETS), and Land Deed's board in that ruleset."""
    folder = tmp_path / "rulesets"
    (folder / "sorcery_unwritten").mkdir(parents=True)
    (folder / "sorcery_unwritten" / "manifest.toml").write_text(
        'name = "sorcery_unwritten"\nextends = "sorcery"\ndescription = "Sorcery, procedure not written"\n'
        'procedure = "unwritten"\n', encoding="utf-8")  # fmt: skip
    data = json.loads((EXAMPLES / "land-deed.json").read_text(encoding="utf-8"))
    data["ruleset"] = "sorcery_unwritten"
    board = tmp_path / "land-deed.json"
    board.write_text(json.dumps(data), encoding="utf-8")
    return folder, board


def test_the_asp_engine_refuses_a_ruleset_without_encoding_in_one_line(tmp_path):
    folder, board = _unwritten_ruleset(tmp_path)
    env = {**os.environ, "RIFTASP_RULESETS": str(folder)}
    # (crosscheck is left out: the reference engine has no such variant, so the board is reported
    # unsupported by the other engine before riftasp is asked.)
    for args in (("resolve", board), ("explain", board, "field"), ("check", board)):
        out = subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], capture_output=True, text=True,
                             timeout=120, env=env, cwd=ROOT)  # fmt: skip
        assert (out.returncode, out.stdout) == (2, ""), (args, out.stderr)
        assert out.stderr.count("\n") == 1, out.stderr
        assert "ruleset: the asp engine cannot resolve sorcery_unwritten boards yet: missing " in out.stderr
        assert "encodings/procedures/unwritten/procedure.toml" in out.stderr
    assert missing_encodings("sorcery") == [] and missing_encodings("riftbound") == []
    encoding_files("sorcery")


def test_the_asp_engine_resolves_sorcery_boards_from_the_command_line():
    out = riftasp("resolve", EXAMPLES / "land-deed.json", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["objects"]["field"]["controller"] == "alice"


def test_the_reference_engine_resolves_sorcery_boards_from_the_command_line():
    out = riftasp("resolve", EXAMPLES / "land-deed.json", "--engine", "reference", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["objects"]["field"]["controller"] == "alice"
    table = riftasp("resolve", EXAMPLES / "land-deed.json", "--engine", "reference").stdout
    assert table.splitlines()[0].split() == ["id", "name", "controller", "power", "types", "sub-types", "affinity",
                                             "keywords", "disabled", "silenced"]  # fmt: skip


def test_the_output_has_power_controller_types_subtypes_abilities_and_affinity():
    from riftasp.reference import resolve

    res = resolve(load_board(EXAMPLES / "bound-spirit-holding-coral.json")).to_json()
    assert res["objects"]["spirit"] == {
        "name": "Bound Spirit", "controller": "alice", "power": 4, "types": ["minion"], "subtypes": ["Spirit"],
        "affinity": [], "disabled": False, "silenced": False, "keywords": {"Spellcaster": 1}, "zone": "realm",
        "abilities": ["coral.coral_power@spirit", "spirit.bound"],
    }  # fmt: skip


def test_the_schema_documents_sorcery_objects():
    schema = json.loads(riftasp("schema", "--ruleset", "sorcery").stdout)
    props = schema["$defs"]["object"]["properties"]
    assert {"power", "air", "earth", "fire", "water", "row", "column", "at_rest", "burrowed", "submerged",
            "entry_order", "linked"} <= set(props)  # fmt: skip
    assert "might" not in props and "status" not in props
    assert props["type"]["enum"] == ["minion", "site", "artifact", "aura", "magic", "avatar"]
    assert "realm" in props["zone"]["enum"]
    ops = [v["properties"]["op"]["const"] for v in schema["$defs"]["operation"]["oneOf"]]
    assert {"silence", "disable", "gain_control", "gain_affinity", "set_power", "double"} <= set(ops)
    assert "set_might" not in ops
    riftbound = json.loads(riftasp("schema").stdout)["$defs"]["object"]["properties"]
    assert "power" not in riftbound and "might" in riftbound


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_a_sorcery_board_round_trips_through_json_and_facts(path):
    board = load_board(path)
    again = board_from_dict(board_to_dict(board), str(path))
    assert again == board
    assert board_from_facts(board_facts(board), str(path)).objects == board.objects


def test_facts_state_the_sorcery_keys():
    facts = board_facts(load_board(EXAMPLES / "pallid-bust.json"))
    assert 'row("soldier",2).' in facts and 'linked("bust","sisters").' in facts
    assert 'printed_power("soldier",1).' in facts and 'zone("sisters",banished).' in facts


def _realm() -> Realm:
    squares = {"me": (2, 3), "here": (2, 3), "east": (2, 4), "north": (3, 3), "diagonal": (3, 4), "far": (4, 3),
               "behind": (1, 3), "corner": (1, 1)}  # fmt: skip
    objects = [{"id": oid, "name": oid, "type": "minion", "owner": "alice", "zone": "realm", "row": r, "column": c}
               for oid, (r, c) in squares.items()]  # fmt: skip
    objects.append({"id": "spider", "name": "S", "type": "minion", "owner": "bob", "zone": "realm", "row": 2,
                    "column": 3, "burrowed": True})  # fmt: skip
    objects.append({"id": "aura", "name": "A", "type": "aura", "owner": "bob", "zone": "realm", "row": 2, "column": 3})
    objects.append({"id": "gear", "name": "G", "type": "artifact", "owner": "alice", "zone": "realm", "attached_to": "east"})
    return Realm(board_from_dict({"ruleset": "sorcery", "players": ["alice", "bob"], "objects": objects}))


@pytest.mark.parametrize(("relation", "holder", "controller", "expected"), [
    ("here", "me", "alice", {"me", "here", "spider", "aura"}),
    ("adjacent", "me", "alice", {"east", "north", "behind", "gear"}),
    ("nearby", "me", "alice", {"me", "here", "east", "north", "diagonal", "behind", "spider", "aura", "gear"}),
    # alice is the first player: in front is the next higher row; for bob, the next lower.
    ("one_step_in_front", "me", "alice", {"north"}),
    ("in_front", "me", "alice", {"north", "far"}),
    ("one_step_in_front", "me", "bob", {"behind"}),
    # Directly above a burrowed minion: what stands on its square, not beneath it.
    ("above", "spider", "bob", {"me", "here", "aura"}),
    ("above", "me", "alice", set()),
    # An aura affects the 2 x 2 block from its square.
    ("area", "aura", "bob", {"me", "here", "east", "north", "diagonal", "spider", "aura", "gear"}),
])  # fmt: skip
def test_relations_on_the_grid(relation, holder, controller, expected):
    realm = _realm()
    found = {oid for oid in realm.objects if realm.related(relation, holder, oid, controller)}
    assert found == expected


def test_the_board_format_s_sorcery_example_reads_and_resolves():
    from riftasp.board_io import load_board_text
    from riftasp.reference import resolve

    text = (ROOT / "docs" / "board-format.md").read_text(encoding="utf-8")
    section = text.split("## Sorcery boards", 1)[1]
    example = section.split("```json", 1)[1].split("```", 1)[0]
    res = resolve(load_board_text(example, "board-format.md"))
    # The Land Deed gives alice the site; the Mesmerism gives her the Gorgons.
    assert res.objects["field"].controller == "alice" and res.objects["gorgons"].controller == "alice"


def test_the_invariant_checker_checks_a_sorcery_board_with_either_engine():
    # Sorcery's invariants (riftasp/rulesets/sorcery/check/, docs/check.md): riftasp's own resolution,
    # the reference engine's, and a stored one.
    for engine in ("asp", "reference"):
        out = riftasp("check", EXAMPLES / "land-deed.json", "--engine", engine, "--json")
        report = json.loads(out.stdout)
        # (What the rules allow, Sorcery's declarative program, judges it too: nothing skipped.)
        assert (out.returncode, report["violations"]) == (0, [])
        assert report["skipped"] == []
        assert report["checked"] > 20
    golden = EXAMPLES / "land-deed.reference.expected.json"
    out = riftasp("check", EXAMPLES / "land-deed.json", "--resolution", golden)
    assert out.returncode == 0 and out.stdout.rstrip().endswith("checks: consistent")


def test_fuzz_draws_sorcery_boards_and_finds_the_engines_agree(tmp_path):
    # `riftasp fuzz --ruleset sorcery`: the plugin's generators (riftasp/rulesets/sorcery/strategies.py),
    # the reference engine as the other engine, Sorcery's invariant checker on both answers.
    out = riftasp("fuzz", "--ruleset", "sorcery", "--count", 4, "--seed", 3, "--out", tmp_path / "found", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert (report["generated"], report["supported"], report["disagreements_found"]) == (4, 4, 0)
    assert not list((tmp_path / "found").glob("fuzz-*.json"))  # only the run's progress
    text = riftasp("fuzz", "--ruleset", "sorcery", "--count", 2, "--seed", 3, "--out", tmp_path / "found")
    assert text.returncode == 0 and "2 boards generated" in text.stdout and "0 new findings" in text.stdout


def test_crosscheck_compares_and_checks_sorcery_boards():
    boards = [EXAMPLES / "land-deed.json", EXAMPLES / "two-busts-one-ability.json"]
    out = riftasp("crosscheck", "--engine", "reference", "--json", *boards)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert (report["boards"], report["agree"], report["disagree"]) == (2, 2, 0)


def test_crosscheck_and_fuzz_check_sorcery_answers_against_sorcery_s_invariants():
    # The checker crosscheck and fuzz run on both answers (`check_where_known`) knows Sorcery: a
    # stored answer whose Sisters are not silenced although their silencing row is there.
    from riftasp.check import check_where_known

    board = load_board(EXAMPLES / "two-busts-one-ability.json")
    answer = json.loads((EXAMPLES / "two-busts-one-ability.reference.expected.json").read_text(encoding="utf-8"))
    assert check_where_known(board, answer) == []
    answer["objects"]["rival"]["silenced"] = False
    found = check_where_known(board, answer)
    # The replay's invariant, and what the rules allow: no calculation leaves the rival unsilenced.
    assert {(v.object, v.invariant, v.check) for v in found} >= {("rival", "final-consistency", "flags")}
    assert {v.invariant for v in found} == {"final-consistency", "rules-allow"}


def _why(board: str, effect: str, obj: str) -> str:
    from riftasp.resolve import resolve

    rows = resolve(load_board(EXAMPLES / f"{board}.json")).applied[obj]
    return next(a.why for a in rows if a.effect == effect)


def test_the_independent_control_effect_s_why_names_what_waited_for_it() -> None:
    """[S] "apply the independent effect first (e.g. Mesmerism), then apply any dependent
    effects (e.g. King of the Realm), ignoring normal timestamp order": the Mesmerism's row says
    which effect waited for it (it once read "after , which it depends on")."""
    assert _why("king-then-mesmerism", "mesmerize", "king") == (
        "control layer, timestamp 2; before king.mortals_control, which depends on it: "
        "the independent effect applies first")
    assert _why("king-then-mesmerism", "king.mortals_control", "king") == (
        "control layer, timestamp 1; after mesmerize, which it depends on")


def test_an_effect_picked_ahead_of_an_older_one_says_what_that_one_waited_for() -> None:
    """The older King waits for the Mesmerism and is in a cycle with the newer King, which goes
    first (docs/semantics-sorcery.md §5, "What an effect depended on")."""
    assert _why("two-kings-and-mesmerism", "king_b.mortals_control", "king_b") == (
        "control layer, timestamp 2; ahead of the older king_a.mortals_control, which waits for "
        "mesmerize; mutual dependency with king_a.mortals_control: timestamp order")


@pytest.mark.parametrize("board", BOARDS, ids=lambda p: p.stem)
def test_no_why_names_an_empty_list(board) -> None:
    # (The stored ASP outputs: tests/test_golden.py holds every example's output to them.)
    golden = json.loads(board.with_name(f"{board.stem}.expected.json").read_text())
    for rows in golden["applied"].values():
        for row in rows:
            assert "after ," not in row["why"] and "before ," not in row["why"], row["why"]
