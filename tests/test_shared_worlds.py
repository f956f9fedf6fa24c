"""Shared hypothetical worlds (docs/semantics.md §6, step 6, "asked once per world"; issue 9):
B depends on A when applying A alone would change whether B exists, whom it targets, whether its
conditions hold or its result. An application that changes one number is asked about in the
world of the value it would give, so applications that give the same value share one world.
The answers must be the pair-by-pair answers: the reference engine asks pair by pair."""

from __future__ import annotations

from test_runs import assert_as_one_by_one, board, effect, plus, solved, unit


def plus_max(amount: int, cap: int) -> dict:
    return {"op": "plus_max", "amount": amount, "max": cap}


def rows(asp: dict, oid: str) -> list[tuple]:
    return [(r["effect"], r["before"], r["after"], tuple(sorted(r["reasons"]))) for r in asp["applied"][oid]]


def test_a_capped_stack_is_a_cycle_only_where_one_increase_would_change_the_others():
    # Might 1, ten "+1 up to 5": below 4 another +1 changes no one's amount (each still gives 1);
    # at 4, any one of them makes every other give 0: one world, every remaining one in it, a cycle.
    b = board([unit("u", 1)], [effect(f"e{i}", plus_max(1, 5), "u", i) for i in range(10)])
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert rows(asp, "u") == [
        ("e0", 1, 2, ("timestamp",)), ("e1", 2, 3, ("timestamp",)), ("e2", 3, 4, ("timestamp",)),
        ("e3", 4, 5, ("cycle", "timestamp")),
        *[(f"e{i}", 5, 5, ("timestamp",)) for i in range(4, 10)]]
    assert asp["objects"]["u"]["might"] == 5
    assert asp["dependency_cycles"] == [[f"e{i}" for i in range(3, 10)]]


def test_two_applications_that_give_the_same_value_both_come_before_their_reader():
    # Might 3: "+2" makes Might 5, where "+1 up to 5" would give 0 instead of 1 and "increase to
    # 5" 0 instead of 2: both depend on it; "increase to 5" makes Might 5 too, the same world, so
    # "+1 up to 5" depends on it as well. "+2" goes first, then the oldest dependent of it
    # immediately after.
    effects = [effect("cap", plus_max(1, 5), "u", 1), effect("two", plus(2), "u", 2),
               effect("to5", {"op": "increase_to", "value": 5}, "u", 3)]
    b = board([unit("u", 3)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    order = [(e, before, after) for e, before, after, _ in rows(asp, "u")]
    assert order == [("two", 3, 5), ("cap", 5, 5), ("to5", 5, 5)]
    assert [r["depends_on"] for r in asp["applied"]["u"]] == [[], ["two"], ["two"]]
    assert asp["objects"]["u"]["might"] == 5


def test_a_condition_on_another_object_reads_the_world_of_the_value():
    # b's bonus needs a at Might 3 or more; a's two +1s each make the world where a has 2: below
    # 3, no dependency; b waits for a (its group needs a) and the bonus holds on a's final Might.
    effects = [effect("a1", plus(), "a", 1), effect("a2", plus(), "a", 2),
               effect("bonus", plus(5), "b", 0, conditions=[{"might_at_least": 3, "of": "a"}])]
    b = board([unit("a", 1), unit("b", 1)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert (asp["objects"]["a"]["might"], asp["objects"]["b"]["might"]) == (3, 6)


def test_conditional_increases_depend_on_the_increase_that_makes_their_condition_true():
    # Four "+1 while Might is at least 3" (older) and two plain +1s: at Might 1 the world of
    # Might 2 changes no condition; at Might 2 the world of Might 3 makes every condition true:
    # the conditional ones depend on the plain one, which goes first.
    cond = [{"might_at_least": 3, "of": "u"}]
    effects = [effect("p0", plus(), "u", 5), effect("p1", plus(), "u", 6)]
    effects += [effect(f"c{i}", plus(), "u", i, conditions=cond) for i in range(4)]
    b = board([unit("u", 1)], effects)
    assert_as_one_by_one(b)
    asp, _ = solved(b)
    assert [(e, before, after) for e, before, after, _ in rows(asp, "u")] == [
        ("p0", 1, 2), ("p1", 2, 3), ("c0", 3, 4), ("c1", 4, 5), ("c2", 5, 6), ("c3", 6, 7)]
    assert [r["depends_on"] for r in asp["applied"]["u"]][2:] == [["p1"]] * 4
