"""The decisions docs/semantics.md makes where the seeds are silent (the questions in
shared/notes/semantics-questions.md), each pinned with exact values on both engines."""

from __future__ import annotations

from riftasp.board_io import board_from_dict

from conftest import example, run


def unit(oid, might, **extra):
    return {"id": oid, "name": oid, "type": "unit", "owner": "alice", "zone": "base",
            "might": might, **extra}


def ongoing(eid, ts, op, ids, **extra):
    return {"id": eid, "controller": "alice", "timestamp": ts, "op": op,
            "target": {"ids": ids}, **extra}


def board(objects, effects=(), **top):
    return board_from_dict({"players": ["alice", "bob"], "objects": objects,
                            "effects": list(effects), **top}, "inline")


def test_q1_settled_conditions_are_checked_after_what_they_read(engine):
    # Fiora with "Might becomes 5" and -1: checked at 4, so no keywords (default reading).
    res = run(example("fiora-set5-minus1"), engine)
    assert (res.objects["fiora"].might, res.objects["fiora"].keywords) == (4, {})


def test_q1_immediate_conditions_are_checked_when_their_layer_comes(engine):
    res = run(example("fiora-set5-minus1-immediate"), engine)
    assert res.objects["fiora"].might == 4
    assert res.objects["fiora"].keywords == {"Deflect": 1, "Ganking": 1, "Shield": 1}


def paradox_board(timing="settled"):
    # "While Mighty, I have Shield" and "-2 while I have Shield" on a printed 5.
    return board([unit("u1", 5, rules_text=[
        {"id": "shield-while-mighty", "op": {"op": "gain_keywords", "keywords": ["Shield"]},
         "conditions": [{"mighty": "self"}]},
        {"id": "minus-while-shield", "op": {"op": "minus", "amount": 2},
         "conditions": [{"has_keyword": "Shield", "of": "self"}]},
    ])], settings={"condition_timing": timing})


def test_q2_an_application_whose_condition_fails_at_the_end_is_withdrawn_for_good(engine):
    res = run(paradox_board(), engine)
    assert (res.objects["u1"].might, res.objects["u1"].keywords) == (5, {})
    assert res.withdrawn == {"u1": ["shield-while-mighty"]}
    assert res.applied.get("u1", []) == []


def test_q2_immediate_timing_never_withdraws(engine):
    res = run(paradox_board("immediate"), engine)
    assert (res.objects["u1"].might, res.objects["u1"].keywords) == (3, {"Shield": 1})
    assert res.withdrawn == {}


def test_q3_lose_all_abilities_removes_held_text_whatever_its_timestamp(engine):
    b = board([unit("u1", 3, since=7, rules_text=[
        {"id": "self-shield", "op": {"op": "gain_keywords", "keywords": ["Shield"]}}])],
        [ongoing("older-ganking", 2, {"op": "gain_keywords", "keywords": ["Ganking"]}, ["u1"]),
         ongoing("silence", 5, {"op": "lose_all_abilities"}, ["u1"]),
         ongoing("newer-deflect", 6, {"op": "gain_keywords", "keywords": ["Deflect"]}, ["u1"])])
    res = run(b, engine)
    assert res.objects["u1"].keywords == {"Deflect": 1}
    assert [a.effect for a in res.applied["u1"]] == ["older-ganking", "silence", "newer-deflect"]


def test_q4_dependencies_are_judged_again_after_each_application(engine):
    b = board([unit("u1", 4, since=1, rules_text=[
        {"id": "reach5", "op": {"op": "increase_to", "value": 5}}])],
        [ongoing("plus1", 2, {"op": "plus", "amount": 1}, ["u1"]),
         ongoing("plus2", 3, {"op": "plus", "amount": 2}, ["u1"])])
    res = run(b, engine)
    assert res.objects["u1"].might == 7
    assert [(a.effect, a.before, a.after) for a in res.applied["u1"]] == [
        ("plus1", 4, 5), ("reach5", 5, 5), ("plus2", 5, 7)]
    assert "immediately_after" in res.applied["u1"][1].reasons


def test_q5_a_cycle_of_three_falls_back_to_timestamp_order(engine):
    b = board([unit("u1", 4)],
              [ongoing("a-reach6", 1, {"op": "increase_to", "value": 6}, ["u1"]),
               ongoing("b-plus2max6", 2, {"op": "plus_max", "amount": 2, "max": 6}, ["u1"]),
               ongoing("c-plus1max6", 3, {"op": "plus_max", "amount": 1, "max": 6}, ["u1"])])
    res = run(b, engine)
    assert res.objects["u1"].might == 6
    assert [(a.effect, a.before, a.after) for a in res.applied["u1"]] == [
        ("a-reach6", 4, 6), ("b-plus2max6", 6, 6), ("c-plus1max6", 6, 6)]
    assert ["a-reach6", "b-plus2max6", "c-plus1max6"] in res.dependency_cycles


def test_q6_a_filter_reads_the_holders_controller_only_if_a_controller_can_change(engine):
    # Class C: an object needs another only through what something on the board could write.
    aura = {"id": "rally", "op": {"op": "plus", "amount": 1},
            "target": {"filter": {"type": "unit", "relation": "friendly", "other": True}}}
    quiet = board([unit("captain", 3, rules_text=[aura]), unit("enemy", 2, owner="bob")])
    res = run(quiet, engine)
    assert res.objects["enemy"].might == 2
    assert res.needs == {}
    # Once something could give the captain to bob, the enemy waits for the captain.
    stolen = board([unit("captain", 3, rules_text=[aura]), unit("enemy", 2, owner="bob")],
                   [ongoing("steal", 1, {"op": "set_controller", "player": "bob"}, ["captain"])])
    res = run(stolen, engine)
    assert res.needs == {"enemy": ["captain"]}
    assert (res.objects["captain"].controller, res.objects["enemy"].might) == ("bob", 3)


def test_q7_a_timestamp_tie_follows_board_order_and_is_reported(engine):
    b = board([unit("u1", 3)],
              [ongoing("gain", 4, {"op": "gain_keywords", "keywords": ["Ganking"]}, ["u1"]),
               ongoing("lose", 4, {"op": "lose_keywords", "keywords": ["Ganking"]}, ["u1"])])
    res = run(b, engine)
    assert res.objects["u1"].keywords == {}
    assert res.timestamp_ties == [["gain", "lose"]]


def test_q8_might_below_zero_no_might_and_off_board_values(engine):
    b = board([unit("u1", 3), unit("benched", 6, zone="hand", keywords=["Shield 2"]),
               {"id": "g", "name": "Gear", "type": "gear", "owner": "alice", "zone": "base"}],
              [ongoing("crush", 1, {"op": "minus", "amount": 5}, ["u1", "benched", "g"])])
    res = run(b, engine)
    assert (res.objects["u1"].might, res.objects["u1"].mighty) == (-2, False)
    benched = res.objects["benched"]
    assert (benched.might, benched.mighty, benched.keywords) == (6, True, {"Shield": 2})
    assert (res.objects["g"].might, res.objects["g"].mighty) == (None, False)


def test_numbered_keywords_add_up_and_plain_ones_are_held_once(engine):
    b = board([unit("u1", 2, keywords=["Shield 2", "Ganking"], status=["defending"])],
              [ongoing("more-shield", 1, {"op": "gain_keywords", "keywords": ["Shield 1", "Ganking"]},
                       ["u1"])])
    res = run(b, engine)
    assert res.objects["u1"].keywords == {"Ganking": 1, "Shield": 3}
    assert res.objects["u1"].might == 5


def test_assault_adds_its_value_while_attacking(engine):
    b = board([unit("u1", 2, keywords=["Assault 3"], status=["attacking"]),
               unit("u2", 2, keywords=["Assault 3"])])
    res = run(b, engine)
    assert (res.objects["u1"].might, res.objects["u2"].might) == (5, 2)


def test_a_keyword_named_twice_in_one_list_is_an_input_error():
    # "Shield 2" and "Shield 1" in one list would leave the total to the list's order.
    import pytest

    from riftasp.board_io import BoardError

    with pytest.raises(BoardError) as err:
        board([unit("u1", 2, keywords=["Shield 2", "Shield 1"])])
    assert str(err.value) == "inline: objects[0].keywords[1]: duplicate keyword 'Shield'"
    with pytest.raises(BoardError) as err:
        board([unit("u1", 2)], [ongoing("e", 1, {"op": "gain_keywords",
                                                  "keywords": ["Shield", "Shield 1"]}, ["u1"])])
    assert str(err.value) == "inline: effects[0].op.keywords[1]: duplicate keyword 'Shield'"


def test_two_units_that_copy_each_other_both_become_the_older_copys_source(engine):
    # Class D: a loop is one calculation. Each copy changes what the other copies (a cycle), so
    # timestamp order (a tie here: listing order) applies e1 first; e2 then copies what u1 has
    # become. The copied "copy u1" ability u1 now holds copies u1 itself and changes nothing.
    b = board([
        unit("u1", 2, rules_text=[{"id": "e1", "op": {"op": "copy", "of": "u2"}}]),
        unit("u2", 3, tags=["Mech"], rules_text=[{"id": "e2", "op": {"op": "copy", "of": "u1"}}]),
    ])
    res = run(b, engine)
    for oid in ("u1", "u2"):
        assert (res.objects[oid].name, res.objects[oid].might, res.objects[oid].tags) == ("u2", 3, ("Mech",))
    assert res.object_loops == [["u1", "u2"]]
    assert [a.effect for a in res.applied["u1"]] == ["e1", "e2@u1"]
    assert [a.effect for a in res.applied["u2"]] == ["e2"]
    assert res.dependency_cycles == [["e1", "e2"]]
