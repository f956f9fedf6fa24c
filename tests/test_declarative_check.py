"""The declarative checker (issue 35, riftasp/rulesets/riftbound/check/declarative.py, encodings/check/): it judges
what the rules allow — is a resolution's final state the final state of some calculation that
obeys the rules' invariants, and does the board have any such state — without the engines'
step machine, so it judges answers without an `applied` trace too."""

from __future__ import annotations

import copy
import dataclasses
import json
import time

import pytest
from budget import budget, spread
from conftest import EXAMPLE_BOARDS, EXAMPLES, ROOT
from typer.testing import CliRunner

from riftasp.board_io import board_from_dict, load_board
from riftasp.check import DECLARATIVE, check, check_report
from riftasp.rulesets.riftbound.check import declarative as D
from riftasp.check.declarative import consistent_states, examine, judge, unsupported
from riftasp.cli import app
from riftasp.model import Settings
from riftasp.resolve import resolve

runner = CliRunner()

# The odd ring: each unit takes 1 Might from the next while it is Mighty itself. No set of
# applications is consistent (each one applied exactly when the one before it is not).
ODD_RING = {"ruleset": "riftbound", "players": ["alice"], "objects": [
    {"id": "a", "name": "A", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 5,
     "rules_text": [{"id": "hit-b", "op": {"op": "minus", "amount": 1}, "target": {"ids": ["b"]},
                     "conditions": [{"mighty": "self"}]}]},
    {"id": "b", "name": "B", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 5,
     "rules_text": [{"id": "hit-c", "op": {"op": "minus", "amount": 1}, "target": {"ids": ["c"]},
                     "conditions": [{"mighty": "self"}]}]},
    {"id": "c", "name": "C", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 5,
     "rules_text": [{"id": "hit-a", "op": {"op": "minus", "amount": 1}, "target": {"ids": ["a"]},
                     "conditions": [{"mighty": "self"}]}]}],
    "effects": []}  # fmt: skip

# Issue 35's board whose only problem is the procedure's order: T tags U Mech (while T is
# Mighty); M sets every other Mech to 2 Might, which depends on the tag (it then targets U), so
# it applies right after it; then U's own set to 7; U is Mighty and gives T +1. U 7 with the
# tag, T 6, no paradox.
ORDER_ONLY = {"ruleset": "riftbound", "players": ["alice"], "objects": [
    {"id": "t", "name": "T", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 5, "since": 1,
     "rules_text": [{"id": "t-tags-u", "op": {"op": "add_tag", "tag": "Mech"}, "target": {"ids": ["u"]},
                     "conditions": [{"mighty": "self"}]}]},
    {"id": "u", "name": "U", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 3, "since": 4,
     "rules_text": [{"id": "u-pumps-t", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["t"]},
                     "conditions": [{"mighty": "self"}]}]},
    {"id": "m", "name": "M", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 1, "since": 3,
     "rules_text": [{"id": "m-sets-mech", "op": {"op": "set_might", "value": 2},
                     "target": {"filter": {"tag": "Mech", "other": True}}}]}],
    "effects": [{"id": "u-becomes-7", "controller": "alice", "timestamp": 2, "op": {"op": "set_might", "value": 7},
                 "target": {"ids": ["u"]}}]}  # fmt: skip


def _untraced(board):
    res = resolve(board).to_json()
    res.pop("applied", None)
    return res


def _kinds(violations):
    return sorted({v.check for v in violations if v.invariant == DECLARATIVE})


# ---- every engine answer on the examples is what the rules allow --------------------------------


@pytest.mark.thorough
@pytest.mark.parametrize("path", spread(EXAMPLE_BOARDS, 6), ids=lambda p: p.stem)
def test_every_example_resolved_by_the_engine_is_accepted_without_its_trace(path):
    board = load_board(path)
    res = _untraced(board)
    started = time.monotonic()
    verdict = examine(board, res)
    print(f"{path.stem}: {time.monotonic() - started:.3f} s, {verdict.applications} applications, "
          f"{verdict.atoms} ground atoms")
    if board.reading("rechecked_set") != "replaces":  # a reading it does not judge: said, never flagged
        assert verdict.skipped and verdict.violations == []
        return
    assert verdict.skipped is None
    assert verdict.violations == []
    # The answer is a consistent state, or the board has none and the answer says so.
    if res["paradoxes"]:
        assert verdict.consistent is False
    else:
        assert verdict.consistent is True and verdict.claim_consistent is True


def test_the_library_check_asks_it_when_told():
    board = load_board(EXAMPLES / "showcase.json")
    res = resolve(board).to_json()
    assert check(board, res, declarative=True) == []
    report = check_report(board, res, declarative=True)
    assert report.declarative.consistent is True and report.declarative.claim_consistent is True
    res.pop("applied")
    assert check(board, res, declarative=True) == []
    assert not hasattr(check_report(board, res), "declarative")  # off unless asked (DECLARATIVE_BY_DEFAULT)


def _mutations(board, res):
    """(description, copy) with one value changed: a Might ±1, a keyword dropped, a controller
    changed, a tag added."""
    on_board = {o.id for o in board.objects if o.on_board}
    for oid, obj in res["objects"].items():
        def variant(change):
            mutated = copy.deepcopy(res)
            change(mutated["objects"][oid])
            return mutated

        if obj["might"] is not None:
            for delta in (1, -1):
                def might(o, delta=delta):
                    o["might"] += delta
                    if oid in on_board:
                        o["mighty"] = o["might"] >= 5
                yield f"{oid} Might {delta:+d}", variant(might)
        for keyword in obj["keywords"]:
            yield f"{oid} without {keyword}", variant(lambda o, k=keyword: o["keywords"].pop(k))
        other = next((p for p in board.players if p != obj["controller"]), None)
        if other is not None:
            yield f"{oid} controlled by {other}", variant(lambda o, p=other: o.update(controller=p))
        yield f"{oid} tagged Zzz", variant(lambda o: o.update(tags=sorted({*o["tags"], "Zzz"})))


PARTS = 2


@pytest.mark.thorough
@pytest.mark.parametrize("part", range(PARTS))
def test_one_changed_value_is_flagged_almost_always(part):
    """≥ 90 % of one-value changes to the engine's answer (without its trace) are flagged, in
    each part of the examples (every example with RIFTASP_THOROUGH=1, every tenth otherwise; all
    279 of 279 over every example when this was written)."""
    tried, flagged, missed = 0, 0, []
    paths = spread(EXAMPLE_BOARDS, 10)[part::PARTS]
    for path in paths:
        board = load_board(path)
        if unsupported(board) is not None:  # a board it says it does not judge (a reading)
            continue
        res = _untraced(board)
        for what, mutated in _mutations(board, res):
            tried += 1
            if examine(board, mutated).violations:
                flagged += 1
            else:
                missed.append(f"{path.stem}: {what}")
    rate = flagged / tried
    print(f"mutations flagged: {flagged}/{tried} = {rate:.1%}; missed: {missed}")
    assert tried >= 10
    assert rate >= 0.9, missed


# ---- what a timestamp-only engine says ---------------------------------------------------------


def _timestamp_only_answer(with_trace: bool):
    board = load_board(EXAMPLES / "increase-to-5-older-than-plus2.json")
    res = resolve(board).to_json()
    assert res["objects"]["u1"]["might"] == 6  # the rules' answer: +2 first, then "up to 5" adds 0
    res["objects"]["u1"]["might"] = 7
    rows = sorted(res["applied"]["u1"], key=lambda r: r["timestamp"])  # reach5 (1), then plus2 (2)
    rows[0].update(step=1, before=4, after=5, reasons=["timestamp"], depends_on=[])
    rows[1].update(step=2, before=5, after=7, reasons=["timestamp"], depends_on=[])
    res["applied"]["u1"] = rows
    if not with_trace:
        res.pop("applied")
    return board, res


@pytest.mark.parametrize("with_trace", [True, False], ids=["trace", "no-trace"])
def test_a_timestamp_only_answer_is_flagged(with_trace):
    board, res = _timestamp_only_answer(with_trace)
    violations = check(board, res, declarative=True)
    declarative = [v for v in violations if v.invariant == DECLARATIVE]
    assert ("u1", "consistent-might", "6", "7") in {(v.object, v.check, v.expected, v.found) for v in declarative}
    # The invariant every calculation giving 7 breaks: reach5 applied while it depended on plus2.
    assert ("u1", "dependency", "reach5") in {(v.object, v.check, v.effect) for v in declarative}
    # Without the declarative part, the trace is self-consistent and nothing else notices.
    assert check(board, res, declarative=False) == []


# ---- whether a consistent state exists -----------------------------------------------------------


def test_the_odd_ring_has_no_consistent_state():
    board = board_from_dict(ODD_RING)
    assert consistent_states(board) == (False, None)
    res = resolve(board).to_json()
    assert res["paradoxes"]  # the engine says so: accepted
    assert _kinds(check(board, res, declarative=True)) == []
    # An answer that hides the paradox is flagged as such.
    hidden = copy.deepcopy(res)
    hidden["paradoxes"], hidden["withdrawn"] = [], {}
    assert "paradox-missed" in _kinds(check(board, hidden, declarative=True))


@pytest.mark.parametrize("name", ["paradox-shield-and-minus", "paradox-shield-and-minus-swapped"])
def test_the_paradox_examples_have_no_consistent_state(name):
    assert consistent_states(load_board(EXAMPLES / f"{name}.json")) == (False, None)


def test_a_board_whose_only_problem_is_the_order_has_a_consistent_state():
    board = board_from_dict(ORDER_ONLY)
    exists, state = consistent_states(board)
    assert exists is True
    assert (state["u"].might, state["u"].tags, state["t"].might) == (7, {"Mech"}, 6)
    right = _untraced(board)
    assert (right["objects"]["u"]["might"], right["objects"]["t"]["might"], right["paradoxes"]) == (7, 6, [])
    assert _kinds(check(board, right, declarative=True)) == []
    # A paradox reported on it is a false one.
    false_paradox = copy.deepcopy(right)
    false_paradox["paradoxes"] = [["m-sets-mech", "t-tags-u"]]
    assert _kinds(check(board, false_paradox, declarative=True)) == ["paradox-false"]
    # Timestamp order alone (tag, set to 7, set to 2: U 2, T 5) is not what the rules allow.
    by_timestamp = copy.deepcopy(right)
    by_timestamp["objects"]["u"].update(might=2, mighty=False)
    by_timestamp["objects"]["t"]["might"] = 5
    found = {(v.object, v.check, v.expected, v.found) for v in check(board, by_timestamp, declarative=True)}
    assert {("u", "consistent-might", "7", "2"), ("t", "consistent-might", "6", "5")} <= found


def test_judge_is_a_report_and_consistent_states_gives_a_state():
    board = load_board(EXAMPLES / "fiora-buffed-defending.json")
    report = judge(board, _untraced(board))
    assert report.violations == [] and report.checked == 2
    exists, state = consistent_states(board)
    assert exists and state["fiora"].might == 6
    assert state["fiora"].keywords == {"Deflect": 1, "Ganking": 1, "Shield": 1}


# ---- other readings of conditions: only what is certain ------------------------------------------


@pytest.mark.thorough
@pytest.mark.parametrize("timing", ["settled", "immediate"])
def test_other_condition_timings_give_no_false_alarm(timing):
    paths = EXAMPLE_BOARDS if budget(0, 1) else EXAMPLE_BOARDS[::12]
    alarms = []
    for path in paths:
        board = dataclasses.replace(load_board(path), settings=Settings(condition_timing=timing))
        violations = examine(board, _untraced(board)).violations
        alarms += [f"{path.stem}: {v}" for v in violations]
    assert alarms == []


# ---- guards ---------------------------------------------------------------------------------------


def test_a_board_over_the_size_bound_is_skipped_and_says_so():
    effects = [{"id": f"p{i}", "controller": "alice", "timestamp": i, "op": {"op": "plus", "amount": 1},
                "target": {"ids": ["u"]}} for i in range(D.MAX_APPLICATIONS + 1)]
    board = board_from_dict({"ruleset": "riftbound", "players": ["alice"], "effects": effects, "objects": [
        {"id": "u", "name": "U", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 1}]})
    res = _untraced(board)
    res["objects"]["u"]["might"] += 1  # wrong, but not judged: never a false alarm, never a hang
    report = check_report(board, res, declarative=True)
    assert [v for v in report.violations if v.invariant == DECLARATIVE] == []
    assert any(f"{D.MAX_APPLICATIONS + 1} applications could exist, more than the bound" in s for s in report.skipped)


def test_a_sorcery_board_goes_to_sorcery_s_own_declarative_program():
    # (riftasp/rulesets/sorcery/check/declarative.py, tests/test_declarative_check_sorcery.py)
    path = next(p for p in sorted((ROOT / "examples" / "sorcery").glob("*.json")) if p.name.count(".") == 1)
    verdict = examine(load_board(path), None)
    assert verdict.skipped is None and verdict.consistent is True


# ---- the command ----------------------------------------------------------------------------------


def test_check_command_reports_the_declarative_verdict(tmp_path):
    board, res = _timestamp_only_answer(with_trace=False)
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(res))
    path = str(EXAMPLES / "increase-to-5-older-than-plus2.json")
    result = runner.invoke(app, ["check", path, "--resolution", str(answer), "--json", "--declarative"])
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["declarative"]["consistent_state_exists"] is True
    assert out["declarative"]["claim_consistent"] is False
    assert out["declarative"]["consistent_state"]["u1"]["might"] == 6
    assert any(v["invariant"] == DECLARATIVE and v["check"] == "consistent-might" for v in out["violations"])
    text = runner.invoke(app, ["check", path, "--resolution", str(answer), "--declarative"])
    assert text.exit_code == 1 and "rules allow: the board has a consistent state" in text.stdout
    # The replay alone (no trace to replay) passes it; by default the command asks the rules too.
    assert runner.invoke(app, ["check", path, "--resolution", str(answer), "--no-declarative"]).exit_code == 0
    assert runner.invoke(app, ["check", path, "--resolution", str(answer)]).exit_code == 1
    ok = runner.invoke(app, ["check", path, "--declarative"])
    assert ok.exit_code == 0 and "the resolution's state is one" in ok.stdout


# ---- the encoding's headers -----------------------------------------------------------------------


def test_each_check_encoding_header_names_what_it_expects_and_provides():
    from test_encoding_interface import Interface, header_problems

    folder = ROOT / "encodings" / "check"
    files = [Interface(folder / name) for name in D.FILES]
    assert sorted(p.name for p in folder.glob("*.lp")) == sorted(D.FILES)
    inputs = {(n, a) for f in files for n, a in f.optional}  # `#defined`: board and claim facts
    assert header_problems(files, inputs) == {}


# ---- generated boards (thorough) -----------------------------------------------------------------


@pytest.mark.thorough
def test_engine_answers_on_generated_boards_are_what_the_rules_allow():
    """On the fuzzing corpus the engine's answers (without traces) are consistent states, or the
    board has none and the answer reports a paradox; a paradox is never reported on a board that
    has a consistent state (generated[968] and [969] of this corpus were such false paradoxes:
    docs/semantics.md §8, "a culprit that stood on its victim")."""
    from corpus import generated

    boards = generated(budget(5, 1000), 1)  # (with Sorcery's 1,000: 2,000 boards judged in the thorough run)
    alarms, judged = [], 0
    for board in boards:
        verdict = examine(board, _untraced(board))
        judged += verdict.skipped is None
        alarms += [f"{board.source}: {v}" for v in verdict.violations]
    print(f"judged {judged}/{len(boards)}")
    assert judged >= len(boards) // 2
    assert alarms == []
