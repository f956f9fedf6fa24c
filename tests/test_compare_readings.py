"""`riftasp compare A B` (issue 38): two rulesets of one family on the same boards, given,
generated or searched for (riftasp/research/compare.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from budget import thorough_only
from conftest import EXAMPLES, ROOT
from riftasp.rulesets import ruleset
from riftasp.board_io import load_board
from riftasp.cli import app
from riftasp.research.compare import first_parting

runner = CliRunner()
OLDER = EXAMPLES / "increase-to-5-older-than-plus2.json"
SET_THEN_MODIFY = EXAMPLES / "set-then-modify.json"
FIORA = EXAMPLES / "fiora-set5-minus1.json"  # Mighty keywords judged again at the end, or not (R1)
COPY = EXAMPLES / "copy.json"
# The choice point as its data says it (encodings/riftbound/choice_points.toml).
R4 = next(p for p in ruleset("riftbound").choice_points if p.id == "R4")
R4_SENTENCE = R4.sentence
FIORA_KEYWORDS = {"Deflect": 1, "Ganking": 1, "Shield": 1}


def cli(*args: object):
    return runner.invoke(app, ["compare", *map(str, args)])


def by_board(data: dict) -> dict[str, dict]:
    return {Path(entry["board"]).name: entry for entry in data["boards"]}


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


# ---- given boards ----------------------------------------------------------------------------------


def test_without_the_dependency_rule_the_older_increase_to_5_applies_first():
    # R4: under riftbound, reach5 (increase to 5, timestamp 1) depends on plus2 (timestamp 2), so
    # plus2 comes first: 4 + 2 = 6, then "to 5" changes nothing. Under riftbound-timestamps
    # (dependency = none) timestamp order only: 4 to 5, then + 2 = 7.
    result = cli("riftbound", "riftbound-timestamps", EXAMPLES, "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    older = by_board(data)["increase-to-5-older-than-plus2.json"]
    assert older["agree"] is False
    assert older["differences"] == [{"object": "u1", "field": "might", "a": 6, "b": 7}]
    assert older["choice_points"] == ["R4"]
    parting = older["parting"]
    assert (parting["kind"], parting["object"], parting["step"]) == ("applied", "u1", 1)
    assert (parting["a"]["effect"], parting["a"]["before"], parting["a"]["after"]) == ("plus2", 4, 6)
    assert (parting["b"]["effect"], parting["b"]["before"], parting["b"]["after"]) == ("reach5", 4, 5)
    assert by_board(data)["set-then-modify.json"] == {
        "board": str(SET_THEN_MODIFY), "agree": True, "differences": [], "parting": None, "choice_points": ["R4"]}
    # Every board of the folder, none of its stored outputs.
    assert len(data["boards"]) == len([p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json")])
    assert data["summary"]["choice_points"] == ["R4"]


def test_the_text_report_gives_each_board_its_verdict():
    result = cli("riftbound", "riftbound-timestamps", OLDER, SET_THEN_MODIFY)
    assert result.exit_code == 1, result.stderr
    assert result.stdout.splitlines() == [
        f"{OLDER}: disagree (on R4)",
        "  u1.might: riftbound 6, riftbound-timestamps 7",
        "  traces part at step 1 (u1): riftbound applies plus2 to u1 (arithmetic.increase: might 4 -> 6); "
        "riftbound-timestamps applies reach5 to u1 (arithmetic.increase: might 4 -> 5)",
        f"{SET_THEN_MODIFY}: agree",
        "2 boards: 1 agree, 1 disagree (riftbound vs riftbound-timestamps; they differ on R4)",
    ]


def test_json_has_one_object_per_board_and_a_summary():
    result = cli("riftbound", "riftbound-immediate", FIORA, COPY, "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"boards", "summary"}
    fiora, copy = data["boards"]
    parting = fiora.pop("parting")
    assert fiora == {"board": str(FIORA), "agree": False, "choice_points": ["R1"],
                     "differences": [{"object": "fiora", "field": "keywords", "a": {}, "b": FIORA_KEYWORDS}]}
    # Both traces set Might to 5; then riftbound applies -1, the immediate reading grants the
    # keywords Fiora has while Mighty (judged once, when it applies).
    assert (parting["kind"], parting["object"], parting["step"]) == ("applied", "fiora", 2)
    assert (parting["a"]["effect"], parting["b"]["effect"]) == ("minus1", "fiora.mighty_keywords")
    assert copy == {"board": str(COPY), "agree": True, "differences": [], "parting": None, "choice_points": ["R1"]}
    assert data["summary"] == {"a": "riftbound", "b": "riftbound-immediate", "family": "riftbound",
                               "choice_points": ["R1"], "mode": "boards", "boards": 2, "agree": 1, "disagree": 1,
                               "skipped": []}  # fmt: skip


def test_every_board_agreeing_exits_0():
    result = cli("riftbound", "riftbound-immediate", COPY, SET_THEN_MODIFY)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "2 boards: 2 agree, 0 disagree (riftbound vs riftbound-immediate; they differ on R1)")


def test_a_changed_layer_order_is_named_as_the_layer_table():
    # sorcery-codex removes abilities before it changes types: the Silence animated into a
    # minion is not silenced by its own hush then (docs/semantics-sorcery.md).
    result = cli("sorcery", "sorcery-codex", ROOT / "examples" / "sorcery" / "animated-silence.json", "--json")
    assert result.exit_code == 1, result.stderr
    (board,) = json.loads(result.stdout)["boards"]
    assert board["choice_points"] == ["layer table"]
    assert board["differences"] == [{"object": "silence", "field": "silenced", "a": True, "b": False}]


def test_the_markdown_report_names_the_choice_point_and_its_sentence():
    result = cli("riftbound", "riftbound-timestamps", OLDER, SET_THEN_MODIFY, "--format", "md")
    assert result.exit_code == 1, result.stderr
    md = result.stdout
    assert md.startswith("# riftbound against riftbound-timestamps\n")
    assert f"| **R4** | {R4.decision} | {R4_SENTENCE} | result | none |" in md
    section = md[md.index(f"## 1. {OLDER}"):]
    assert f"- **R4**, {R4.decision}: {R4_SENTENCE}" in section
    assert "  - riftbound-timestamps reads `none`: timestamp order only" in section
    # The board as tables, both outcomes side by side.
    assert "| u1 | U1 | unit | alice | alice | battlefield | 1 | 4 |" in section
    assert "| reach5 | u1 (rules text) | increase_to value=5 | self (default) |  |  |  |" in section
    assert "| plus2 | ongoing | plus amount=2 | u1 |  | 2 | alice |" in section
    assert "| u1 | might | 6 | 7 | differs |" in section
    assert "| u1 | mighty | True | True |  |" in section
    assert f"## Boards on which they agree\n\n- {SET_THEN_MODIFY}" in md


# ---- bad input: one line, exit 2 ---------------------------------------------------------------------


def test_rulesets_of_two_families_are_refused_in_one_line():
    result = cli("riftbound", "sorcery", EXAMPLES)
    assert result.exit_code == 2
    assert one_line(result) == ("riftbound and sorcery are not of one family (riftbound is a base ruleset, sorcery is "
                                "a base ruleset): compare a ruleset with its variants, or two variants of one ruleset")
    assert result.stdout == ""


def test_an_unknown_ruleset_is_refused_with_the_known_ones():
    result = cli("riftbound", "riftbound-nope", EXAMPLES)
    assert result.exit_code == 2
    line = one_line(result)
    assert line.startswith("unknown ruleset 'riftbound-nope'; known rulesets: ")
    assert {"riftbound", "riftbound-timestamps", "riftbound-immediate", "sorcery", "sorcery-codex"} <= set(
        line.split("known rulesets: ")[1].split(" (")[0].split(", "))


def test_a_board_of_another_family_is_refused_in_one_line():
    board = ROOT / "examples" / "sorcery" / "animated-silence.json"
    result = cli("riftbound", "riftbound-immediate", board)
    assert result.exit_code == 2
    assert one_line(result) == (f"{board}: ruleset sorcery is not of the riftbound family of riftbound and "
                                "riftbound-immediate")


@pytest.mark.parametrize("args, message", [
    ((), "compare: give exactly one of BOARDS, --generate N or --search"),
    ((COPY, "--generate", "3"), "compare: give exactly one of BOARDS, --generate N or --search "
                                "(got BOARDS and --generate)"),
    ((COPY, "--max-effects", "2"), "--max-effects: only with --search"),
    ((COPY, "--json", "--format", "md"), "--json and --format md: choose one"),
    ((COPY, "--format", "pdf"), "--format: unknown format 'pdf': choose one of text, md, html"),
    ((COPY, "--engine", "clingo"), "--engine: unknown engine 'clingo': choose one of asp, reference"),
])
def test_bad_options_are_refused_in_one_line(args, message):
    result = cli("riftbound", "riftbound-immediate", *args)
    assert result.exit_code == 2
    assert one_line(result) == message


# ---- a variant's folder ------------------------------------------------------------------------------


def test_a_variant_is_given_by_its_folder(tmp_path):
    # Run in a process of its own: making a folder's rulesets known lasts for the process.
    variant = tmp_path / "my-immediate"
    variant.mkdir()
    (variant / "manifest.toml").write_text(
        'name = "my-immediate"\ndescription = "judged once"\nextends = "riftbound"\n\n'
        '[readings]\ncondition_timing = "immediate"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "compare", "riftbound", str(variant), str(FIORA),
                           "--json"], capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["summary"]["b"] == "my-immediate" and data["summary"]["choice_points"] == ["R1"]
    assert data["boards"][0]["differences"] == [
        {"object": "fiora", "field": "keywords", "a": {}, "b": FIORA_KEYWORDS}]


# ---- generated boards ----------------------------------------------------------------------------------


def _generated(seed: int, out: Path | None = None, engine: str = "asp") -> tuple[int, dict]:
    args = ["riftbound", "riftbound-immediate", "--generate", "20", "--seed", str(seed), "--json", "--engine", engine]
    result = cli(*args, *(["--out", out] if out else []))
    assert result.exit_code in (0, 1), result.stderr
    data = json.loads(result.stdout)
    data["summary"].pop("seconds")
    return result.exit_code, data


def test_generated_boards_are_the_same_for_the_same_seed():
    first, second = _generated(0, engine="reference"), _generated(0, engine="reference")
    assert first == second
    code, data = first
    assert data["summary"]["generated"] == 20 and data["summary"]["mode"] == "generate"
    assert code == (1 if data["boards"] else 0)


@thorough_only  # (8 s: a generated run with shrinking; the README's run keeps the seed test above)
def test_each_finding_written_to_out_reproduces_its_disagreement(tmp_path):
    # Seed 1 finds a disagreement among its first 20 boards (seed 0 finds none).
    code, data = _generated(1, tmp_path)
    assert code == 1 and data["boards"]
    written = sorted(tmp_path.iterdir())
    boards = [p for p in written if p.name != "findings.json"]
    assert [p.name for p in written] == sorted(
        [*(f"riftbound-vs-riftbound-immediate-seed1-{i:02d}.json" for i in range(1, len(data["boards"]) + 1)),
         "findings.json"])  # fmt: skip
    findings = json.loads((tmp_path / "findings.json").read_text())
    findings["summary"].pop("seconds")
    assert findings == data
    for finding, path in zip(data["boards"], boards):
        assert finding["board"] == str(path) and finding["agree"] is False and finding["choice_points"] == ["R1"]
        assert set(finding) >= {"seed", "count", "signature", "data", "differences", "parting"}
        again = cli("riftbound", "riftbound-immediate", path, "--json")
        assert again.exit_code == 1, again.stderr
        (board,) = json.loads(again.stdout)["boards"]
        assert board["differences"] == finding["differences"]
        # A generated board carries no setting that would fix, on both sides, the reading compared.
        assert "condition_timing" not in json.loads(path.read_text()).get("settings", {})


@thorough_only
def test_the_same_seed_finds_the_same_findings(tmp_path):
    (_, first), (_, second) = _generated(1, tmp_path / "one"), _generated(1, tmp_path / "two")
    assert first["boards"]
    assert second == json.loads(json.dumps(first).replace(str(tmp_path / "one"), str(tmp_path / "two")))


# ---- searched boards (riftasp/research/search.py, a stand-in here) -----------------------------------


class _NoKernel(Exception):
    def __init__(self, ids):
        super().__init__(ids)
        self.ids = ids


def _fake_search(monkeypatch, boards=(), raise_ids=None) -> list[dict]:
    calls: list[dict] = []

    def search(a, b, max_effects=3, max_objects=2, only_ops=None):
        calls.append({"a": a.name, "b": b.name, "max_effects": max_effects, "max_objects": max_objects,
                      "only_ops": only_ops})  # fmt: skip
        if raise_ids is not None:
            raise _NoKernel(raise_ids)
        found = "found a disagreement" if boards else f"no disagreement up to {max_effects} effects (kernel R1)"
        return types.SimpleNamespace(boards=list(boards), kernel="R1", bound=max_effects, message=found)

    module = types.ModuleType("riftasp.research.search")
    module.search = search  # type: ignore[attr-defined]
    module.NoKernel = _NoKernel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "riftasp.research.search", module)
    return calls


def test_search_compares_the_boards_the_kernel_finds(monkeypatch):
    calls = _fake_search(monkeypatch, boards=[load_board(FIORA)])
    result = cli("riftbound", "riftbound-immediate", "--search", "--max-effects", "2", "--max-objects", "1",
                 "--only-ops", "set_might, minus", "--json")  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert calls == [{"a": "riftbound", "b": "riftbound-immediate", "max_effects": 2, "max_objects": 1,
                      "only_ops": ["set_might", "minus"]}]  # fmt: skip
    data = json.loads(result.stdout)
    (board,) = data["boards"]
    assert board["differences"] == [{"object": "fiora", "field": "keywords", "a": {}, "b": FIORA_KEYWORDS}]
    assert board["data"]["objects"][0]["card"] == "Fiora, Victorious"  # a searched board carries itself
    assert {k: data["summary"][k] for k in ("mode", "kernel", "bound", "message")} == {
        "mode": "search", "kernel": "R1", "bound": 2, "message": "found a disagreement"}


def test_search_without_a_disagreement_says_so_and_exits_0(monkeypatch):
    calls = _fake_search(monkeypatch)
    result = cli("riftbound", "riftbound-immediate", "--search")
    assert result.exit_code == 0, result.stderr
    assert calls == [{"a": "riftbound", "b": "riftbound-immediate", "max_effects": 3, "max_objects": 2,
                      "only_ops": None}]  # fmt: skip
    assert result.stdout.splitlines() == [
        "no disagreement up to 3 effects (kernel R1) (riftbound vs riftbound-immediate; they differ on R1)"]


def test_search_without_a_kernel_names_the_choice_points_in_one_line(monkeypatch):
    _fake_search(monkeypatch, raise_ids=["R2", "R3"])
    result = cli("riftbound", "riftbound-immediate", "--search")
    assert result.exit_code == 2
    assert one_line(result) == ("--search: riftbound and riftbound-immediate differ on choice points no search "
                                "kernel covers: R2, R3")


# ---- the real kernels (riftasp/research/search.py, encodings/research/) ----------------------------------


@thorough_only  # (4 s; tests/test_search_kernels.py finds the boards in the README's run)
def test_search_prints_confirmed_two_effect_boards_on_which_the_dependency_rule_matters():
    result = cli("riftbound", "riftbound-timestamps", "--search", "--max-effects", "3")
    assert result.exit_code == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "search board 1: disagree (on R4)"
    boards = [line for line in lines if line.startswith("  board: effects ")]
    assert len(boards) == 3 and all(line.count(" at ") == 2 for line in boards)  # two effects each, shown
    assert lines[-1].endswith("on which riftbound and riftbound-timestamps disagree (kernel R4)")
    data = json.loads(cli("riftbound", "riftbound-timestamps", "--search", "--max-effects", "3", "--json").stdout)
    assert data["summary"]["disagree"] == len(data["boards"]) > 0
    assert {len(b["data"]["effects"]) for b in data["boards"]} == {2}


def test_search_among_fixed_amounts_finds_no_disagreement():
    result = cli("riftbound", "riftbound-timestamps", "--search", "--max-effects", "3", "--only-ops", "plus,minus,set_might")
    assert (result.exit_code, result.stdout) == (
        0, "no disagreement up to 3 effects (kernel R4) (riftbound vs riftbound-timestamps; they differ on R4)\n")


def test_search_for_a_choice_point_without_a_kernel_is_refused_in_one_line():
    result = cli("riftbound", "riftbound-immediate", "--search")
    assert result.exit_code == 2
    assert one_line(result) == ("--search: riftbound and riftbound-immediate differ on choice points no search "
                                "kernel covers: R1")


# ---- where traces part ------------------------------------------------------------------------------------


def _app(effect: str, step: int, before: int, after: int) -> dict:
    return {"effect": effect, "step": step, "layer": "arithmetic", "sublayer": "increase", "characteristic": "might",
            "before": before, "after": after, "why": "", "reasons": ["timestamp"], "depends_on": []}  # fmt: skip


def test_traces_part_at_the_first_differing_application_or_else_at_a_withdrawal():
    a = {"applied": {"u1": [_app("e1", 1, 2, 3), _app("e2", 2, 3, 5)]}, "withdrawals": []}
    b = {"applied": {"u1": [_app("e1", 1, 2, 3)]}, "withdrawals": []}
    parting = first_parting(a, b)
    assert parting is not None and (parting.kind, parting.object, parting.step) == ("applied", "u1", 2)
    assert parting.a == {"object": "u1", **_app("e2", 2, 3, 5)} and parting.b is None
    assert parting.text("A", "B") == ("traces part at step 2 (u1): A applies e2 to u1 (arithmetic.increase: might "
                                      "3 -> 5); B applies nothing more")  # fmt: skip
    withdrawal = {"object": "u1", "effect": "e2", "round": 1, "failed": ["condition"], "because": []}
    same = {"applied": a["applied"], "withdrawals": [withdrawal]}
    parting = first_parting(a, same)
    assert parting is not None and (parting.kind, parting.step, parting.a, parting.b) == (
        "withdrawn", None, None, withdrawal)
    assert first_parting(a, a) is None
