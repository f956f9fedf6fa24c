"""Each sentence of the Riftbound rules seeds (000 "Layers, Dependencies and Timestamps",
003 "Gameplay Basics"), checked on a bundled example board with exact values, on both engines."""

from __future__ import annotations

from conftest import run


def apps(res, obj):
    return [(a.effect, a.before, a.after) for a in res.applied[obj]]


def test_set_then_modify_the_set_value_is_the_starting_value(resolve_example):
    # "An effect sets a unit's Might to 4 this turn. A separate effect gives it +2 Might ...
    #  the result is 6. The +2 does not disappear merely because the set effect started later."
    res = resolve_example("set-then-modify")
    assert res.objects["u1"].might == 6
    assert apps(res, "u1") == [("set4", 2, 4), ("plus2", 4, 6)]
    assert [a.layer for a in res.applied["u1"]] == ["traits", "arithmetic"]


def test_fiora_buff_rechecks_the_ability_layer(resolve_example):
    # "A buff raises her to 5 in the numerical calculation layer. Recheck her ability layer:
    #  she now gains Deflect, Ganking and Shield."
    res = resolve_example("fiora-buffed")
    fiora = res.objects["fiora"]
    assert (fiora.might, fiora.mighty) == (5, True)
    assert fiora.keywords == {"Deflect": 1, "Ganking": 1, "Shield": 1}
    grant = res.applied["fiora"][1]
    assert grant.effect == "fiora.mighty_keywords"
    assert grant.layer == "abilities" and "recheck" in grant.reasons


def test_fiora_defending_shield_adds_one_and_the_buff_counts_once(resolve_example):
    # "While defending, Shield adds 1, so she reaches 6. The buff is still only +1."
    res = resolve_example("fiora-buffed-defending")
    assert res.objects["fiora"].might == 6
    assert apps(res, "fiora") == [
        ("buff:fiora", 4, 5),
        ("fiora.mighty_keywords", {}, {"Deflect": 1, "Ganking": 1, "Shield": 1}),
        ("keyword:Shield:fiora:fiora.mighty_keywords", 5, 6),
    ]
    assert [a.effect for a in res.applied["fiora"]].count("buff:fiora") == 1


def test_fiora_buff_removed_returns_directly_to_4_without_keywords(resolve_example):
    # "Spend or remove that buff: she returns directly to 4 without those keywords. Shield
    #  cannot keep itself switched on after the condition granting Shield fails."
    res = resolve_example("fiora-defending-buff-removed")
    fiora = res.objects["fiora"]
    assert (fiora.might, fiora.mighty, fiora.keywords) == (4, False, {})
    assert res.applied.get("fiora", []) == []


def test_increase_to_5_depends_on_plus2_in_both_timestamp_orders(resolve_example):
    # "The amount supplied by the passive ability depends on +2. Apply +2 first: 4 -> 6. The
    #  passive ability now adds 0. The result is 6, rather than 7."
    for name in ("increase-to-5-older-than-plus2", "increase-to-5-newer-than-plus2"):
        res = resolve_example(name)
        assert res.objects["u1"].might == 6, name
        assert apps(res, "u1") == [("plus2", 4, 6), ("reach5", 6, 6)], name
        reach = res.applied["u1"][1]
        assert reach.depends_on == ("plus2",) and "dependency" in reach.reasons
        assert res.dependency_cycles == []


def test_two_limited_increases_follow_timestamp_order(resolve_example):
    # "Applying either first changes the amount the other would add, so neither gets dependency
    #  priority. The older passive effect adds 1 first; the limited increase then adds 0."
    res = resolve_example("two-limited-increases")
    assert res.objects["u1"].might == 5
    assert apps(res, "u1") == [("reach5", 4, 5), ("plus2max5", 5, 5)]
    assert res.dependency_cycles == [["plus2max5", "reach5"]]
    assert "cycle" in res.applied["u1"][0].reasons
    swapped = resolve_example("two-limited-increases-swapped")
    assert swapped.objects["u1"].might == 5
    assert apps(swapped, "u1") == [("plus2max5", 4, 5), ("reach5", 5, 5)]


def test_reactivated_text_gets_a_new_timestamp_and_the_order_flips(resolve_example):
    # "One becomes inactive and later active again. On the next calculation, its new timestamp
    #  places it after the effect that kept applying."
    before = resolve_example("changing-condition-before")
    assert before.objects["u1"].keywords == {"Ganking": 1}
    assert [a.effect for a in before.applied["u1"]] == ["u1-loses-ganking", "u1-gains-ganking"]
    after = resolve_example("changing-condition-reactivated")
    assert after.objects["u1"].keywords == {}
    assert [a.effect for a in after.applied["u1"]] == ["u1-gains-ganking", "u1-loses-ganking"]


def test_intermediate_values_are_not_game_events(resolve_example):
    # "A change that finishes at 4 Might does not briefly make the unit Mighty merely because a
    #  layer that sets the starting value used 5 before a reduction of 1 was included."
    res = resolve_example("intermediate-set5-minus1")
    assert (res.objects["u1"].might, res.objects["u1"].mighty) == (4, False)
    assert apps(res, "u1") == [("set5", 4, 5), ("minus1", 5, 4)]


def test_object_that_reads_another_is_calculated_after_it_to_the_end_of_the_chain(resolve_example):
    # "If one needs another object's current characteristics, pause and calculate that other
    #  object first, then return. Follow longer dependencies to their end."
    res = resolve_example("object-chain")
    assert {o: res.objects[o].might for o in "abc"} == {"a": 5, "b": 5, "c": 5}
    assert res.needs == {"b": ["a"], "c": ["b"]}
    steps = {o: [a.step for a in res.applied[o]] for o in "abc"}
    assert max(steps["a"]) < min(steps["b"]) and max(steps["b"]) < min(steps["c"])
    assert res.object_loops == []


def test_objects_in_a_loop_are_calculated_together(resolve_example):
    # "If the objects form a loop, calculate the objects in that loop together, layer by layer"
    unbuffed = resolve_example("object-loop-unbuffed")
    assert (unbuffed.objects["a"].might, unbuffed.objects["b"].might) == (4, 4)
    assert unbuffed.object_loops == [["a", "b"]]
    buffed = resolve_example("object-loop-buffed")
    assert (buffed.objects["a"].might, buffed.objects["b"].might) == (6, 5)
    assert buffed.object_loops == [["a", "b"]]
    assert [a.effect for a in buffed.applied["a"]] == ["buff:a", "a-boost"]
    assert [a.effect for a in buffed.applied["b"]] == ["b-boost"]


def test_equipment_effect_text_and_might_bonus_apply_while_attached(resolve_example):
    # "Then apply changes to abilities, including text supplied by attached Equipment."
    # "Might increases, including Equipment bonuses, apply before Might decreases."
    attached = resolve_example("boots-attached")
    u1 = attached.objects["u1"]
    assert (u1.might, u1.keywords) == (5, {"Ganking": 1})
    assert [(a.effect, a.layer) for a in attached.applied["u1"]] == [
        ("boots.ganking", "abilities"), ("bonus:boots", "arithmetic")]
    assert attached.objects["boots"].might is None and not attached.objects["boots"].mighty
    detached = resolve_example("boots-detached")
    assert (detached.objects["u1"].might, detached.objects["u1"].keywords) == (3, {})


def test_gear_rules_text_is_inactive_while_attached(resolve_example):
    res = resolve_example("gear-text-inactive-while-attached")
    assert res.objects["u1"].tags == ()
    assert res.objects["u1"].might == 4


def test_copy_takes_copyable_traits_not_later_tags_or_bonuses(resolve_example):
    # "Only copyable traits belong in that first pass; an added Mech tag from a later layer is
    #  not copied." / "use the copied object's copyable traits, not later bonuses or added tags."
    res = resolve_example("copy")
    mimic = res.objects["mimic"]
    assert (mimic.name, mimic.might, mimic.tags) == ("Original", 2, ("Poro",))
    assert mimic.keywords == {"Assault": 2, "Shield": 1}
    assert mimic.controller == "alice"
    assert [a.effect for a in res.applied["mimic"]] == ["mimic-copies", "original-tough@mimic"]
    original = res.objects["original"]
    assert (original.might, original.tags) == (5, ("Mech", "Poro"))


def test_increases_apply_before_decreases_whatever_the_timestamps(engine):
    from riftasp.board_io import board_from_dict

    board = board_from_dict({
        "players": ["alice"], "objects": [{"id": "u1", "name": "U", "type": "unit",
                                           "owner": "alice", "zone": "base", "might": 3}],
        "effects": [
            {"id": "minus", "controller": "alice", "timestamp": 1, "target": {"ids": ["u1"]},
             "op": {"op": "minus_min", "amount": 3, "min": 1}},
            {"id": "double", "controller": "alice", "timestamp": 2, "target": {"ids": ["u1"]},
             "op": {"op": "double"}},
        ]}, "inline")
    res = run(board, engine)
    # double first (3 -> 6), then -3 to a minimum of 1 (6 -> 3); the other order would give 4.
    assert [(a.effect, a.before, a.after) for a in res.applied["u1"]] == [
        ("double", 3, 6), ("minus", 6, 3)]
