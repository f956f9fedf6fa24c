"""Runs (docs/semantics.md §6 "Runs", issue 9): a step may apply several applications of one group,
one after the other in the order of their keys, while each one before changes nothing another
application reads. The answer — values, steps, reasons, the trace's before and after — is the
one the calculation one application per step gives: the reference engine's, which never runs."""

from __future__ import annotations

from typing import Any

import pytest

from budget import budget
from corpus import generated
from riftasp.board_io import board_from_dict
from riftasp.facts import board_facts
from riftasp.reference import resolve as reference
from riftasp.resolve import resolve_facts


def unit(oid: str, might: int = 1, **more: Any) -> dict:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "base",
            "might": might} | more


def effect(eid: str, op: dict, target: str, timestamp: int, **more: Any) -> dict:
    return {"id": eid, "op": op, "target": {"ids": [target]}, "timestamp": timestamp,
            "controller": "alice"} | more


def plus(amount: int = 1) -> dict:
    return {"op": "plus", "amount": amount}


def board(objects: list[dict], effects: list[dict], timing: str | None = None) -> Any:
    """A board; `timing` a reading of conditions (docs/semantics.md §6, step 3) other than the
    default `as_able`: the chains below that wait on one another are `settled`'s."""
    data = {"ruleset": "riftbound", "players": ["alice"], "objects": objects, "effects": effects}
    if timing is not None:
        data["settings"] = {"condition_timing": timing}
    return board_from_dict(data)


def trace(resolution: dict) -> dict:
    """Everything both engines say about each application but its sentence of prose."""
    return {o: [{k: v for k, v in a.items() if k != "why"} for a in apps]
            for o, apps in resolution["applied"].items()}


def solved(b) -> tuple[dict, int]:
    """The ASP answer and the number of steps (ground calls of the procedure) it took."""
    resolution, stats = resolve_facts(board_facts(b), b.ruleset)
    return resolution.to_json(), stats.steps


def assert_as_one_by_one(b) -> int:
    asp, steps = solved(b)
    ref = reference(b).to_json()
    assert asp["objects"] == ref["objects"]
    assert trace(asp) == trace(ref)
    for key in ("dependency_cycles", "timestamp_ties", "withdrawn", "paradoxes"):
        assert asp.get(key) == ref.get(key), key
    return steps


def test_a_stack_nothing_reads_is_applied_in_one_run_with_every_step_numbered():
    b = board([unit("u", 1)], [effect(f"e{i}", plus(), "u", i + 1) for i in range(30)])
    steps = assert_as_one_by_one(b)
    asp, _ = solved(b)
    rows = asp["applied"]["u"]
    assert [r["step"] for r in rows] == list(range(1, 31))
    assert [(r["before"], r["after"]) for r in rows[:3]] == [(1, 2), (2, 3), (3, 4)]
    assert asp["objects"]["u"]["might"] == 31
    # One step for the run, one that finds the unit finished, one for the final check.
    assert steps <= 3


def test_a_run_keeps_set_and_arithmetic_in_their_stages():
    # set_might (traits) comes before every increase whatever its timestamp; a decrease after.
    effects = [effect("p1", plus(2), "u", 1), effect("set", {"op": "set_might", "value": 4}, "u", 5),
               effect("m1", {"op": "minus", "amount": 1}, "u", 2), effect("p2", plus(1), "u", 3)]
    b = board([unit("u", 1)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert [(r["effect"], r["before"], r["after"]) for r in asp["applied"]["u"]] == [
        ("set", 1, 4), ("p1", 4, 6), ("p2", 6, 7), ("m1", 7, 6)]


def test_an_application_something_reads_ends_the_run():
    # "at least 3 Might" reads what every increase writes: each is applied in a step of its own,
    # and the conditional one comes when its condition holds.
    effects = [effect(f"e{i}", plus(), "u", i + 1) for i in range(4)]
    effects.append(effect("big", plus(10), "u", 0, conditions=[{"might_at_least": 3, "of": "u"}]))
    b = board([unit("u", 1)], effects)
    steps = assert_as_one_by_one(b)
    assert steps >= 5


def test_a_keyword_gain_in_the_middle_is_applied_alone():
    effects = [effect("p1", plus(), "u", 1), effect("p2", plus(), "u", 2),
               effect("gain", {"op": "gain_keywords", "keywords": ["Ganking"]}, "u", 3),
               effect("p3", plus(), "u", 4)]
    b = board([unit("u", 1)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert asp["objects"]["u"]["keywords"] == {"Ganking": 1}


def test_runs_on_objects_that_read_each_other():
    # a reads b's Might (a condition), so a waits for b; each has a stack of its own.
    effects = [effect(f"b{i}", plus(), "b", i + 1) for i in range(5)]
    effects += [effect(f"a{i}", plus(), "a", 10 + i) for i in range(5)]
    effects.append(effect("cond", plus(3), "a", 20, conditions=[{"might_at_least": 6, "of": "b"}]))
    b = board([unit("a", 1), unit("b", 1)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert (asp["objects"]["a"]["might"], asp["objects"]["b"]["might"]) == (9, 6)
    # a's first step comes after the step that found b finished.
    assert asp["applied"]["a"][0]["step"] == asp["applied"]["b"][-1]["step"] + 2


# ---- number chains (docs/semantics.md §6, "Runs": chains) --------------------------------
# Applications whose number others read still go in one step while none of those readers would
# answer otherwise at any value the chain passes through: the steps, reasons and before/after
# values stay those of one application per step (the reference engine's).

def capped(amount: int, most: int) -> dict:
    return {"op": "plus_max", "amount": amount, "max": most}


def test_a_stack_whose_conditions_hold_all_the_way_goes_in_few_steps():
    # Each +1 reads the Might every other one writes (the conditions wait for one another:
    # unblocked); at 1 Might and more, "at least 1 Might" holds at every value the stack reaches.
    b = board([unit("u", 1)], [effect(f"e{i}", plus(), "u", i + 1, conditions=[{"might_at_least": 1, "of": "u"}])
                               for i in range(30)], timing="settled")
    steps = assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert asp["objects"]["u"]["might"] == 31
    assert [r["step"] for r in asp["applied"]["u"]] == list(range(1, 31))
    # Waiting on one another, all but the last (its condition settled: no other writer left).
    assert ["unblocked" in r["reasons"] for r in asp["applied"]["u"]] == [True] * 29 + [False]
    # 29 in one step, the last alone (its condition settled: no other writer left), which leaves
    # nothing open: the unit finishes with it and is checked in the next step.
    assert steps == 3


def test_a_capped_stack_goes_in_one_step_up_to_where_the_cap_changes_an_amount():
    # "+1, to at most 10" from 1: each amount reads the value; up to 9 none changes. At the cap
    # the amounts become 0 and the increases depend on one another (a cycle): one by one there.
    b = board([unit("u", 1)], [effect(f"e{i}", capped(1, 10), "u", i + 1) for i in range(20)])
    steps = assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert asp["objects"]["u"]["might"] == 10
    assert steps < 20


def test_a_condition_that_turns_true_on_the_way_stops_the_chain_before_it():
    # The keyword gain (abilities, an earlier stage) waits for 5 Might: eligible from 5 on, its
    # condition is settled once no increase is pending (docs/semantics.md §5, step 3), and it
    # comes back as a recheck after the last. Its eligibility changes at 5: the chain stops
    # before that value and goes on from there.
    effects = [effect(f"e{i}", plus(), "u", i + 1) for i in range(10)]
    effects.append(effect("gain", {"op": "gain_keywords", "keywords": ["Ganking"]}, "u", 0,
                          conditions=[{"might_at_least": 5, "of": "u"}]))
    b = board([unit("u", 1)], effects, timing="settled")
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert asp["objects"]["u"]["keywords"] == {"Ganking": 1}
    gain = next(r for r in asp["applied"]["u"] if r["effect"] == "gain")
    assert "recheck" in gain["reasons"] and gain["step"] == 11


def test_what_a_chain_member_depended_on_includes_the_one_before_it_in_the_run():
    # At 0 Might, "at least 1" (e9) depends on every +1 (found by the drawn stacks below); from
    # 1 on nothing changes and e4 and e9 go in one run. e9's depends_on names e4, applied one
    # step before it as users count steps, though in the same run.
    cond = lambda t: {"conditions": [{"might_at_least": t, "of": "u"}]}  # noqa: E731
    effects = [effect("e0", plus(), "u", 0), effect("e1", plus(), "u", 1, **cond(0))]
    effects += [effect(f"e{i}", plus(), "u", 0, **(cond(0) if i == 4 else {})) for i in range(2, 9)]
    effects.append(effect("e9", plus(), "u", 0, **cond(1)))
    b = board([unit("u", 0)], effects, timing="settled")
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    e9 = next(r for r in asp["applied"]["u"] if r["effect"] == "e9")
    assert e9["depends_on"] == ["e0", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]


def test_a_chain_too_short_to_be_asked_is_not_taken_as_steady():
    # Drawn: three writers left with conditions on the number (too few for a chain to go past
    # one: its values are not asked); the capped one would reach its cap after the other two.
    cond = {"conditions": [{"might_at_least": 0, "of": "u"}]}
    effects = [effect("e0", plus(), "u", 0), effect("e1", plus(), "u", 0, **cond), effect("e2", plus(), "u", 0),
               effect("e3", plus(), "u", 1, **cond), effect("e4", capped(1, 5), "u", 0, **cond),
               effect("e5", plus(), "u", 0)]
    b = board([unit("u", 0), unit("v", 1)], effects, timing="settled")
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert asp["objects"]["u"]["might"] == 5


def test_a_chain_of_two_amounts_or_with_another_writer_is_not_made():
    # +1s and +2s mixed; a set_might in the stack's stage order: one by one as before.
    effects = [effect(f"e{i}", plus(1 + i % 2), "u", i + 1, conditions=[{"might_at_least": 1, "of": "u"}])
               for i in range(8)]
    assert_as_one_by_one(board([unit("u", 1)], effects))
    effects = [effect(f"e{i}", capped(1, 50), "u", i + 1) for i in range(8)]
    effects.append(effect("set", {"op": "set_might", "value": 3}, "u", 4))
    assert_as_one_by_one(board([unit("u", 1)], effects))


def test_a_chain_of_plain_and_capped_increases_of_one_amount():
    effects = [effect(f"e{i}", plus() if i % 2 else capped(1, 7), "u", i + 1) for i in range(12)]
    steps = assert_as_one_by_one(board([unit("u", 1)], effects))
    assert steps < 12


def test_a_chain_longer_than_the_values_asked_a_step_goes_at_once_where_its_readers_say_where_they_turn():
    # 60 "+1 while at least 1 Might" from 1: every reader is a condition that turns at 1 only
    # (cond_changes_at/3), behind the chain: nothing turns on its way, so it is not held to the
    # 32 values a step that asking value by value allows (5 steps before, 4 then; 3 since a group
    # finishes with the step that applies the last application open to it).
    b = board([unit("u", 1)], [effect(f"e{i}", plus(), "u", i + 1, conditions=[{"might_at_least": 1, "of": "u"}])
                               for i in range(60)])
    steps = assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert asp["objects"]["u"]["might"] == 61
    assert [(r["step"], r["before"], r["after"]) for r in asp["applied"]["u"]] == [(i, i, i + 1) for i in range(1, 61)]
    assert steps == 3


def test_a_chain_stops_before_the_value_where_mighty_turns():
    # From 0, 60 "+1 while at least 0" and Tank "while Mighty" (5 Might, an earlier stage): the
    # chain stops before 5, Tank comes back as a recheck at 5, the rest go on.
    effects = [effect(f"e{i}", plus(), "u", i + 1, conditions=[{"might_at_least": 0, "of": "u"}]) for i in range(60)]
    effects.append(effect("t", {"op": "gain_keywords", "keywords": ["Tank"]}, "u", 0, conditions=[{"mighty": "u"}]))
    b = board([unit("u", 0)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    rows = [(r["effect"], r["step"], r["before"], r["after"]) for r in asp["applied"]["u"]]
    assert rows[4:7] == [("e4", 5, 4, 5), ("t", 6, {}, {"Tank": 1}), ("e5", 7, 5, 6)]
    assert asp["objects"]["u"]["might"] == 60 and asp["objects"]["u"]["keywords"] == {"Tank": 1}


@pytest.mark.parametrize("kind, might, most_steps", [("conditional", 1001, 4), ("capped", 500, 5)])
def test_a_stack_of_a_thousand_goes_in_a_few_steps(kind, might, most_steps):
    # Issue 9's stacks (bench/stacks.py): the conditions and caps say where they turn, so the
    # chain goes to the cap (or the end) at once, and at the cap the increases' dependency cycle
    # is closed through the one value they all make (k^2 pairs, not k^3 joins).
    extra = {"conditions": [{"might_at_least": 1, "of": "u"}]} if kind == "conditional" else {}
    op = plus() if kind == "conditional" else capped(1, 500)
    b = board([unit("u", 1)], [effect(f"e{i}", op, "u", i + 1, **extra) for i in range(1000)])
    asp, steps = solved(b)
    assert asp["objects"]["u"]["might"] == might
    assert len(asp["applied"]["u"]) == 1000 and steps <= most_steps
    assert [r["step"] for r in asp["applied"]["u"]] == list(range(1, 1001))


@pytest.mark.thorough
@pytest.mark.parametrize("seed", [11, 12])
def test_generated_boards_give_the_one_by_one_trace(seed):
    # The fuzzing corpus reaches loops, copies, control changes, withdrawals and paradoxes; the
    # reference engine applies one application per step, so steps and reasons must agree.
    for b in generated(budget(5, 150), seed):
        try:
            assert_as_one_by_one(b)
        except AssertionError as err:
            raise AssertionError(f"{b.source}: {err}") from None


# Stacks on one number, drawn: the class number chains act on (writers of one amount, caps,
# conditions on the number that hold, turn or never hold, readers of other stages, other writers).
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def stacks(draw: st.DrawFn) -> Any:
    # Up or down: increases (plain, capped) or decreases (plain, floored) of one amount, and
    # readers that say where their answers change (encodings/core/chains.lp): conditions on the
    # number, amounts that depend on it (up to, double, a cap or floor of another amount).
    down = draw(st.booleans())
    might = draw(st.integers(0, 3)) + (8 if down else 0)
    minus = {"op": "minus", "amount": 1}
    floored = lambda: {"op": "minus_min", "amount": 1, "min": draw(st.integers(0, 9))}  # noqa: E731
    effects = []
    for i in range(draw(st.integers(2, 12))):
        if down:
            op = draw(st.sampled_from([minus, minus, floored(), {"op": "minus", "amount": 2}]))
        else:
            op = draw(st.sampled_from([plus(1), plus(1), capped(1, draw(st.integers(1, 9))), plus(2)]))
        more = {}
        if draw(st.booleans()):
            more["conditions"] = [{"might_at_least": draw(st.integers(0, 8)), "of": "u"}]
        effects.append(effect(f"e{i}", op, "u", draw(st.integers(0, 6)), **more))
    for j in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from([{"op": "gain_keywords", "keywords": ["Ganking"]},
                                   {"op": "set_might", "value": draw(st.integers(0, 6))},
                                   {"op": "minus", "amount": 1}, {"op": "increase_to", "value": draw(st.integers(0, 12))},
                                   {"op": "double"}, capped(2, draw(st.integers(0, 12))),
                                   {"op": "minus_min", "amount": 2, "min": draw(st.integers(0, 9))}]))
        condition = draw(st.sampled_from([{"might_at_least": draw(st.integers(0, 12)), "of": "u"}, {"mighty": "u"}]))
        effects.append(effect(f"r{j}", op, draw(st.sampled_from(["u", "v"])), draw(st.integers(0, 6)),
                              conditions=[condition]))
    return board([unit("u", might), unit("v", 1)], effects)


@pytest.mark.thorough
@settings(max_examples=budget(4, 200), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(stacks())
def test_drawn_stacks_on_one_number_give_the_one_by_one_trace(b):
    assert_as_one_by_one(b)


@pytest.mark.parametrize("timing", ["as_able", "immediate"])
def test_the_chains_above_give_the_one_by_one_trace_with_the_other_readings(timing):
    # The same boards with conditions judged as soon as able (the default) or only when they
    # apply: the runs and chains save steps, never change an answer.
    cond = lambda t: {"conditions": [{"might_at_least": t, "of": "u"}]}  # noqa: E731
    stacks = [
        [effect(f"e{i}", plus(), "u", i + 1, **cond(1)) for i in range(30)],
        [effect(f"e{i}", plus(), "u", i + 1) for i in range(10)]
        + [effect("gain", {"op": "gain_keywords", "keywords": ["Ganking"]}, "u", 0, **cond(5))],
        [effect("e0", plus(), "u", 0), effect("e1", plus(), "u", 0, **cond(0)), effect("e2", plus(), "u", 0),
         effect("e3", plus(), "u", 1, **cond(0)), effect("e4", capped(1, 5), "u", 0, **cond(0)),
         effect("e5", plus(), "u", 0)],
    ]
    for effects in stacks:
        assert_as_one_by_one(board([unit("u", 1), unit("v", 1)], effects, timing=timing))
