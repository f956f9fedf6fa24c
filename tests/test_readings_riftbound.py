"""Riftbound's reading `dependency` (docs/semantics.md §6, question 5; choice point R4): "If one
effect depends on another, apply the one it depends on first" is read as the rule asks it
(`result`, riftbound) or not at all (`none`, the shipped variant riftbound-timestamps): within a
stage, applications come in timestamp order only — nothing waits for what it depends on, nothing
comes "immediately after" it, no dependency cycle is reported — while layers, object needs and
loops, conditions, rechecks, the final check and ties by listing stay Riftbound's.

Both engines read it from the board (the ASP engine the fact reading(dependency,none), the
reference engine `board.reading("dependency")`), and so do both checkers: an order that only a
dependency would justify is a violation under `none`. The other shipped variant of readings,
riftbound-immediate (conditions judged only when their effect applies, choice point R1), is held
to the same: both engines agree on every example, and `riftasp check` accepts their answers."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from budget import thorough_only
from conftest import EXAMPLE_BOARDS, EXAMPLES, ENGINES, example, examples_together, run
from riftasp import solver
from riftasp.check import DECLARATIVE, TRACE, check, check_report
from riftasp.rulesets import ruleset

VARIANTS = ["riftbound-timestamps", "riftbound-immediate"]


def under(board, name: str):
    """The board under another ruleset of the same rules (a variant of readings)."""
    return dataclasses.replace(board, ruleset=ruleset(name))


def compared(resolution: dict) -> dict:
    """A resolution as the two engines must agree on it: all but the engine's name and the `why`
    prose (as tests/test_golden.py's stored outputs differ)."""
    out = {k: v for k, v in resolution.items() if k != "engine"}
    out["applied"] = {o: [{k: v for k, v in a.items() if k != "why"} for a in rows]
                      for o, rows in out["applied"].items()}
    return out


def order(resolution, oid: str) -> list[tuple]:
    return [(a.effect, a.before, a.after, a.reasons, a.depends_on) for a in resolution.applied[oid]]


# ---- the seed's example -----------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_an_increase_to_5_older_than_a_plus_2_waits_for_it_only_under_the_dependency_rule(engine):
    # u1 (Might 4) holds "increase to 5" (timestamp 1, its `since`); "+2" has timestamp 2. The
    # increase's amount depends on the +2 (4 -> +1, 6 -> +0).
    board = example("increase-to-5-older-than-plus2")
    # dependency = result: the +2 first (4 -> 6), then the increase immediately after it (+0): 6.
    res = run(board, engine)
    assert res.objects["u1"].might == 6
    assert order(res, "u1") == [
        ("plus2", 4, 6, ("timestamp",), ()),
        ("reach5", 6, 6, ("timestamp", "dependency", "immediately_after"), ("plus2",)),
    ]
    # dependency = none: timestamp order, the increase first (4 -> 5), then the +2 (5 -> 7): 7.
    for timestamps in (under(board, "riftbound-timestamps"), dataclasses.replace(board, readings=(("dependency", "none"),))):
        res = run(timestamps, engine)
        assert res.objects["u1"].might == 7
        assert order(res, "u1") == [("reach5", 4, 5, ("timestamp",), ()), ("plus2", 5, 7, ("timestamp",), ())]
        assert res.dependency_cycles == []


@pytest.mark.parametrize("engine", ENGINES)
def test_set_then_modify_is_the_same_under_both_readings(engine):
    # The set (traits, timestamp 2) comes before the +2 (arithmetic, timestamp 1) by layer, not
    # by dependency: 2 -> 4 -> 6 either way.
    board = example("set-then-modify")
    for name in ("riftbound", "riftbound-timestamps"):
        res = run(under(board, name), engine)
        assert res.objects["u1"].might == 6
        assert [(a.effect, a.before, a.after) for a in res.applied["u1"]] == [("set4", 2, 4), ("plus2", 4, 6)]


def test_no_step_asks_a_dependency_question_under_none(monkeypatch):
    # The ASP engine grounds a step's dependency questions only when asks_questions(p) holds (the
    # procedure's `asked_only_if`): under `none` it never does.
    asked: list[bool] = []
    absent = solver._absent

    def recorded(*args):
        answer = absent(*args)
        asked.append(not answer)
        return answer

    monkeypatch.setattr(solver, "_absent", recorded)
    board = example("increase-to-5-older-than-plus2")
    run(board)
    assert any(asked)
    asked.clear()
    run(under(board, "riftbound-timestamps"))
    assert asked and not any(asked)


@pytest.mark.parametrize("name", ["increase-to-5-older-than-plus2", "enabling-dependency", "loop-tag-before-set", "showcase"])
def test_the_questions_grounded_anyway_derive_nothing_under_none(name, monkeypatch):
    # With the guard off (RIFTASP_ASK_ALWAYS=1) every step grounds its question call: under `none`
    # it derives nothing, and the answer is the same.
    board = under(example(name), "riftbound-timestamps")
    guarded = run(board).to_json()
    monkeypatch.setattr(solver, "ASK_ONLY_IF", False)
    assert run(board).to_json() == guarded


# ---- every example under the shipped variants of readings ---------------------------------------


def resolutions(path, name: str) -> tuple:
    # The ASP answers of every example under the variant come from one batch (conftest's
    # examples_together: the answer each board alone gets, in a tenth of the time).
    board = under(example(path.stem), name)
    asp, ref = examples_together(name)[path.stem].to_json(), run(board, "reference").to_json()
    return board, asp, ref


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("path", EXAMPLE_BOARDS, ids=lambda p: p.stem)
def test_both_engines_agree_and_their_traces_check_under_the_variant(path, name):
    board, asp, ref = resolutions(path, name)
    assert compared(asp) == compared(ref)
    assert check(board, asp, declarative=False) == []
    assert check(board, ref, declarative=False) == []


def what_the_rules_allow(path, name: str) -> None:
    """`riftasp check` (its default: with what the rules allow) accepts both engines' answers."""
    board, asp, ref = resolutions(path, name)
    for res in (asp, ref):
        report = check_report(board, res, declarative=True)
        assert report.violations == []
        assert report.checked > 0


QUICK = EXAMPLE_BOARDS[::6]


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("path", QUICK, ids=lambda p: p.stem)
def test_riftasp_check_accepts_both_engines_answers_under_the_variant(path, name):
    what_the_rules_allow(path, name)


@thorough_only  # (the other examples, both variants: some 40 s; the quick run asks every sixth)
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("path", [p for p in EXAMPLE_BOARDS if p not in QUICK], ids=lambda p: p.stem)
def test_riftasp_check_accepts_both_engines_answers_on_every_example_under_the_variant(path, name):
    what_the_rules_allow(path, name)


# ---- an order only a dependency justifies --------------------------------------------------------


def _riftbound_answer_under_none():
    """The riftbound answer of the seed's example (the +2, then the increase because it depends
    on it: 6), judged as an answer for the same board under `none`."""
    board = EXAMPLES / "increase-to-5-older-than-plus2.json"
    res = run(example(board.stem)).to_json()
    return under(example(board.stem), "riftbound-timestamps"), res


def _found(violations) -> set[tuple]:
    return {(v.invariant, v.object, v.check, v.effect) for v in violations}


def test_an_order_only_a_dependency_justifies_is_flagged_under_none():
    board, res = _riftbound_answer_under_none()
    assert check(under(board, "riftbound"), res, declarative=True) == []  # the rules' answer there
    found = _found(check(board, res, declarative=True))
    # The trace: reach5 (timestamp 1) after plus2 (timestamp 2), justified by a dependency only,
    # with labels the reading does not give.
    assert (TRACE, "u1", "newer-first", "reach5") in found
    assert (TRACE, "u1", "no-dependency", "reach5") in found
    # What the rules allow: no calculation in timestamp order gives 6; 7 is the consistent state.
    assert (DECLARATIVE, "u1", "timestamp", "plus2") in found
    assert (DECLARATIVE, "u1", "consistent-might", None) in found


def test_the_order_is_flagged_without_its_dependency_labels_and_without_its_trace():
    board, res = _riftbound_answer_under_none()
    unlabelled = copy.deepcopy(res)
    for row in unlabelled["applied"]["u1"]:
        row.update(reasons=["timestamp"], depends_on=[])
    assert (TRACE, "u1", "newer-first", "reach5") in _found(check(board, unlabelled, declarative=False))
    untraced = copy.deepcopy(res)
    untraced.pop("applied")
    violations = check(board, untraced, declarative=True)
    assert {(v.check, v.expected, v.found) for v in violations if v.check == "consistent-might"} == {
        ("consistent-might", "7", "6")}


def test_a_dependency_cycle_reported_under_none_is_flagged():
    board = under(example("increase-to-5-older-than-plus2"), "riftbound-timestamps")
    res = run(board).to_json()
    assert check(board, res, declarative=False) == []
    res["dependency_cycles"] = [["plus2", "reach5"]]
    assert (TRACE, "-", "no-dependency", None) in _found(check(board, res, declarative=False))
