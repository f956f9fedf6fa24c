"""The tricky boards of issue 7, class by class (docs/semantics.md), with exact values on both
engines. Each class has its issue example (a board in examples/riftbound/) and further boards of the same
class, so that a fix obeys the rule and not just the example."""

from __future__ import annotations

from dataclasses import replace

from riftasp.board_io import board_from_dict
from riftasp.model import Settings

from conftest import example, run


def unit(oid, might, **extra):
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield",
            "might": might, **extra}


def passive(eid, op, *conditions, **extra):
    return {"id": eid, "op": op, "conditions": list(conditions), **extra}


def ongoing(eid, ts, op, ids, *conditions, controller="alice", **extra):
    return {"id": eid, "controller": controller, "timestamp": ts, "op": op,
            "target": {"ids": ids}, "conditions": list(conditions), **extra}


def board(objects, effects=(), **top):
    return board_from_dict({"players": ["alice", "bob"], "objects": objects,
                            "effects": list(effects), **top}, "inline")


def gain(*keywords):
    return {"op": "gain_keywords", "keywords": list(keywords)}


def lose(*keywords):
    return {"op": "lose_keywords", "keywords": list(keywords)}


MIGHTY = {"mighty": "self"}


def state(res, oid):
    c = res.objects[oid]
    return c.name, c.might, c.tags, c.keywords


def effects(res, oid):
    return [a.effect for a in res.applied.get(oid, [])]


# ---- A. Support that disappears takes its effect with it ---------------------------------------


def test_a_a_keyword_bonus_goes_with_its_keyword(engine):
    # Tank while Mighty; "lose Shield while Tank" then takes the Shield the bonus stood on.
    res = run(example("lost-support-shield-lost-to-tank"), engine)
    assert state(res, "u1") == ("U1", 5, (), {"Tank": 1})
    assert res.objects["u1"].mighty
    # As soon as able (the default): the buff (listed before the Shield bonus, both at 0) makes u1
    # Mighty, Tank and the loss of Shield come back as rechecks, and the bonus never applies.
    assert res.withdrawn == {} and res.withdrawals == []
    assert effects(res, "u1") == ["buff:u1", "tank-while-mighty", "lose-shield-while-tank"]
    assert res.paradoxes == []
    # settled: the bonus applies first, loses its keyword and is withdrawn (the same values).
    settled = run(replace(example("lost-support-shield-lost-to-tank"), settings=Settings("settled")), engine)
    assert state(settled, "u1") == ("U1", 5, (), {"Tank": 1})
    [w] = settled.withdrawals
    assert (w.effect, w.failed, w.because) == ("keyword:Shield:u1", ("existence",), ("lose-shield-while-tank",))


def test_a_an_ability_lost_after_it_applied_is_withdrawn_with_what_it_supported(engine):
    # Tank while Mighty, +2 while Tank, and "lose all abilities while Might >= 7" reached only
    # through them: with both, they are lost; without them, they apply. A paradox of three.
    b = board([unit("u1", 4, buff=True, rules_text=[
        passive("x-tank", gain("Tank"), MIGHTY),
        passive("y-plus2", {"op": "plus", "amount": 2}, {"has_keyword": "Tank", "of": "self"})])],
        [ongoing("l-silence", 5, {"op": "lose_all_abilities"}, ["u1"],
                 {"might_at_least": 7, "of": "target"})])
    res = run(b, engine)
    assert state(res, "u1") == ("U1", 5, (), {})
    assert res.withdrawn == {"u1": ["x-tank", "y-plus2"]}
    assert res.paradoxes == [["l-silence", "x-tank", "y-plus2"]]


def test_a_a_gained_keyword_lost_to_a_later_loss_takes_its_own_bonus(engine):
    # Shield gained while Mighty gives its own bonus; a later "lose Shield while Might >= 6"
    # removes it: the bonus that raised Might to 6 is withdrawn, and then nothing removes Shield.
    b = board([unit("u1", 5, status=["defending"], rules_text=[passive("s", gain("Shield"), MIGHTY)])],
              [ongoing("l", 3, lose("Shield"), ["u1"], {"might_at_least": 6, "of": "target"})])
    res = run(b, engine)
    # With the bonus, Might is 6 and Shield is lost; without it, Might stays 5 and Shield stays,
    # so the bonus would apply again: no consistent state.
    assert res.withdrawn == {"u1": ["keyword:Shield:u1:s"]}
    assert state(res, "u1") == ("U1", 5, (), {"Shield": 1})
    assert res.paradoxes == [["keyword:Shield:u1:s", "l"]]


def test_a_a_filter_that_stops_matching_takes_the_effect_back(engine):
    # +3 to Poro units; a later "remove Poro while Might >= 7" takes it away after it applied.
    b = board_from_dict({
        "players": ["alice", "bob"], "objects": [unit("u1", 4, tags=["Poro"])],
        "effects": [
            {"id": "poro-plus3", "controller": "alice", "timestamp": 1, "op": {"op": "plus", "amount": 3},
             "target": {"filter": {"tag": "Poro"}}},
            ongoing("unporo", 2, {"op": "remove_tag", "tag": "Poro"}, ["u1"],
                    {"might_at_least": 7, "of": "target"})]}, "inline")
    res = run(b, engine)
    assert res.withdrawn == {"u1": ["poro-plus3"]}
    assert state(res, "u1") == ("U1", 4, ("Poro",), {})
    assert res.paradoxes == [["poro-plus3", "unporo"]]


# ---- B. Keywords that add up --------------------------------------------------------------------


def test_b_summing_keywords_add_up_and_others_are_held_once(engine):
    res = run(example("keywords-that-add-up"), engine)
    assert state(res, "u1") == ("U1", 5, (), {"Assault": 3})
    assert state(res, "u2") == ("U2", 2, (), {"Ganking": 1})
    assert sorted(effects(res, "u1")) == ["keyword:Assault:u1", "keyword:Assault:u1:more-assault",
                                          "more-assault"]


def test_b_the_order_of_two_grants_does_not_matter(engine):
    for first, second in ((1, 2), (2, 1)):
        b = board([unit("u1", 1, status=["defending"], keywords=["Shield"])],
                  [ongoing("two", first, gain("Shield 2"), ["u1"]),
                   ongoing("plain", second, gain("Shield", "Tank"), ["u1"]),
                   ongoing("tank-again", 3, gain("Tank"), ["u1"])])
        res = run(b, engine)
        assert state(res, "u1") == ("U1", 5, (), {"Shield": 4, "Tank": 1})


def test_b_a_gain_after_the_bonus_brings_its_own_bonus(engine):
    # Shield printed; "Shield 2 while Might >= 6" comes true only after the printed bonus.
    b = board([unit("u1", 5, status=["defending"], keywords=["Shield"],
                    rules_text=[passive("more", gain("Shield 2"), {"might_at_least": 6, "of": "self"})])])
    res = run(b, engine)
    assert state(res, "u1") == ("U1", 8, (), {"Shield": 3})
    assert effects(res, "u1") == ["keyword:Shield:u1", "more", "keyword:Shield:u1:more"]


# ---- C. An object needs another only through what can change ------------------------------------


def test_c_reads_of_what_nothing_changes_make_no_loop(engine):
    res = run(example("reads-nothing-can-change"), engine)
    assert state(res, "u1") == ("U3", 6, ("Poro",), {"Ganking": 1})
    assert res.object_loops == []
    assert res.needs == {"u1": ["u2"]}


def test_c_a_condition_on_might_nothing_can_change_is_read_as_printed(engine):
    # b reads a's Might, which nothing can change; a reads b's Might, which b-boost changes.
    b = board([unit("a", 4, rules_text=[passive("a-boost", {"op": "plus", "amount": 1},
                                                {"mighty": "b"})]),
               unit("b", 5, rules_text=[passive("b-boost", {"op": "plus", "amount": 1},
                                                {"might_at_least": 4, "of": "c"})]),
               unit("c", 4)])
    res = run(b, engine)
    assert res.needs == {"a": ["b"]}
    assert (res.objects["a"].might, res.objects["b"].might) == (5, 6)
    assert res.object_loops == []


def test_c_a_tag_filter_reads_only_its_targets_tags(engine):
    # A tag filter reads the tags of the object it may target, never another's: no edge, even
    # where a tag can change.
    aura = {"id": "poro-rally", "op": {"op": "plus", "amount": 2}, "target": {"filter": {"tag": "Poro"}}}
    b = board([unit("u1", 1, rules_text=[aura]), unit("u2", 2, tags=["Poro"]), unit("u3", 2)],
              [ongoing("make-poro", 1, {"op": "add_tag", "tag": "Poro"}, ["u3"])])
    res = run(b, engine)
    assert res.needs == {}
    assert [res.objects[o].might for o in ("u1", "u2", "u3")] == [1, 4, 4]


# ---- D. A loop is calculated together, layer by layer ---------------------------------------------


def test_d_two_copies_in_a_loop_apply_in_timestamp_order(engine):
    res = run(example("loop-copies-each-other"), engine)
    assert state(res, "u1") == ("U2", 5, ("Poro",), {})
    assert state(res, "u2") == ("U2", 5, ("Poro",), {})
    assert res.object_loops == [["u1", "u2"]]
    assert res.dependency_cycles == [["c-a", "c-b"]]
    assert (res.applied["u1"][0].step, res.applied["u2"][0].step) == (1, 2)


def test_d_the_newer_copy_first_when_timestamps_are_swapped(engine):
    b = board([unit("u1", 2, tags=["Mech"]), unit("u2", 5, tags=["Poro"])],
              [ongoing("c-a", 8, {"op": "copy", "of": "u2"}, ["u1"]),
               ongoing("c-b", 3, {"op": "copy", "of": "u1"}, ["u2"])])
    res = run(b, engine)
    assert state(res, "u1") == ("U1", 2, ("Mech",), {})
    assert state(res, "u2") == ("U1", 2, ("Mech",), {})


def test_d_a_control_change_in_a_loop_flips_an_aura(engine):
    # u1's aura: friendly units +2. u2 (bob's) steals u1 while u2 is Mighty; u1's aura then
    # makes u2... an enemy-side unit, so it does not count for u2 while u1 is alice's.
    b = board([
        unit("u1", 3, rules_text=[{"id": "rally", "op": {"op": "plus", "amount": 2},
                                   "target": {"filter": {"relation": "friendly", "other": True}}}]),
        unit("u2", 5, owner="bob", rules_text=[
            {"id": "steal-u1", "op": {"op": "set_controller", "player": "bob"},
             "target": {"ids": ["u1"]}, "conditions": [{"mighty": "self"}]}])])
    res = run(b, engine)
    assert res.object_loops == [["u1", "u2"]]
    assert (res.objects["u1"].controller, res.objects["u2"].might) == ("bob", 7)


# ---- E. Copies keep Equipment text -------------------------------------------------------------


def test_e_a_copy_keeps_the_effect_text_and_might_bonus_of_attached_gear(engine):
    res = run(example("copy-keeps-equipment-text"), engine)
    assert state(res, "u1") == ("MODEL", 4, ("Poro",), {"Ganking": 1})
    assert res.objects["u1"].abilities == ("boots.ganking",)
    assert effects(res, "u1") == ["mirror", "boots.ganking", "bonus:boots"]


def test_e_a_copy_of_the_bearer_does_not_get_the_effect_text(engine):
    b = board([unit("u1", 3), {"id": "boots", "card": "Boots of Swiftness", "owner": "alice",
                               "zone": "battlefield", "attached_to": "u1"}, unit("u2", 1)],
              [ongoing("mirror", 7, {"op": "copy", "of": "u1"}, ["u2"])])
    res = run(b, engine)
    assert state(res, "u2") == ("U1", 3, (), {})
    assert state(res, "u1") == ("U1", 5, (), {"Ganking": 1})


# ---- F. A dependency that switches an effect on ---------------------------------------------------


def test_f_an_effect_that_makes_another_apply_goes_right_before_it(engine):
    res = run(example("enabling-dependency"), engine)
    assert res.objects["u1"].might == 7
    assert effects(res, "u1") == ["a-steal", "b-set2-if-bob", "c-set7"]
    b_app = res.applied["u1"][1]
    assert b_app.depends_on == ("a-steal",) and "immediately_after" in b_app.reasons


def test_f_a_tag_that_makes_a_filter_match_is_a_dependency(engine):
    b = board_from_dict({"players": ["alice", "bob"], "objects": [unit("u1", 4)], "effects": [
        ongoing("a-poro", 1, {"op": "add_tag", "tag": "Poro"}, ["u1"]),
        ongoing("c-set7", 2, {"op": "set_might", "value": 7}, ["u1"]),
        {"id": "b-poros-are-2", "controller": "alice", "timestamp": 3, "op": {"op": "set_might", "value": 2},
         "target": {"filter": {"tag": "Poro"}}}]}, "inline")
    res = run(b, engine)
    assert effects(res, "u1") == ["a-poro", "b-poros-are-2", "c-set7"]
    assert res.objects["u1"].might == 7


# ---- G. Withdrawals and paradoxes ------------------------------------------------------------------


def test_g_a_paradox_is_reported_and_what_it_does_not_involve_applies(engine):
    for name in ("paradox-shield-and-minus", "paradox-shield-and-minus-swapped"):
        res = run(example(name), engine)
        assert state(res, "u1") == ("U1", 5, (), {"Ganking": 1}), name
        assert res.withdrawn == {"u1": ["s-shield-while-mighty"]}, name
        assert res.paradoxes == [["d-minus2-while-shield", "s-shield-while-mighty"]], name
        assert effects(res, "u1") == ["g-ganking-while-mighty"], name


def test_g_an_effect_that_switches_off_its_own_condition_is_a_paradox(engine):
    # "While it has Tank, it loses Tank": applied, its condition fails; withdrawn, it holds.
    b = board([unit("u1", 3, keywords=["Tank"])],
              [ongoing("drop-tank", 1, lose("Tank"), ["u1"], {"has_keyword": "Tank", "of": "target"}),
               ongoing("ganking", 2, gain("Ganking"), ["u1"])])
    res = run(b, engine)
    assert state(res, "u1") == ("U1", 3, (), {"Ganking": 1, "Tank": 1})
    assert res.withdrawn == {"u1": ["drop-tank"]}
    assert res.paradoxes == [["drop-tank"]]


def test_g_a_filter_its_own_effect_stops_matching_still_applies(engine):
    # "Shield units lose Shield" (a tag filter here): they lose it, and that is all.
    b = board_from_dict({"players": ["alice", "bob"], "objects": [
        unit("u1", 3, keywords=["Shield"], tags=["Shieldy"]), unit("u2", 2)], "effects": [
        {"id": "strip", "controller": "alice", "timestamp": 1, "op": {"op": "remove_tag", "tag": "Shieldy"},
         "target": {"filter": {"tag": "Shieldy"}}}]}, "inline")
    res = run(b, engine)
    assert state(res, "u1") == ("U1", 3, (), {"Shield": 1})
    assert effects(res, "u1") == ["strip"] and effects(res, "u2") == []
    assert (res.withdrawn, res.paradoxes) == ({}, [])


def test_g_an_increase_never_undoes_its_own_support(engine):
    # +3 while Mighty raises its own Might, so it is no culprit of its own failure; -9 switches
    # itself off. boost and pump fail because of crush, and crush because of itself, which boost
    # and pump enable: one ring, withdrawn whole; without it nothing applies, and boost would.
    b = board([unit("u1", 5, rules_text=[
        passive("boost", {"op": "plus", "amount": 3}, MIGHTY, timestamp=1),
        passive("pump", {"op": "plus", "amount": 1}, {"might_at_least": 8, "of": "self"}, timestamp=2),
        passive("crush", {"op": "minus", "amount": 9}, {"might_at_least": 9, "of": "self"}, timestamp=3)])])
    res = run(b, engine)
    assert res.paradoxes == [["boost", "crush", "pump"]]
    assert state(res, "u1")[1] == 5
    assert res.withdrawn == {"u1": ["boost", "crush", "pump"]}


def test_g_a_victim_of_a_paradox_is_not_withdrawn_first(engine):
    # The Ganking grant (oldest) fails only because of the paradox ring; it stays.
    b = board([unit("u1", 5, rules_text=[
        passive("g", gain("Ganking"), MIGHTY, timestamp=1),
        passive("t", gain("Tank"), MIGHTY, timestamp=2),
        passive("s", gain("Shield"), {"has_keyword": "Tank", "of": "self"}, timestamp=3),
        passive("d", {"op": "minus", "amount": 3}, {"has_keyword": "Shield", "of": "self"}, timestamp=4)])])
    res = run(b, engine)
    assert state(res, "u1") == ("U1", 5, (), {"Ganking": 1})
    assert res.withdrawn == {"u1": ["t"]}
    assert res.paradoxes == [["d", "s", "t"]]


# ---- H. Copy chains ---------------------------------------------------------------------------------


def test_h_a_copy_of_a_copy_copies_what_the_original_copies(engine):
    b = board([unit("u1", 1, tags=["One"]), unit("u2", 2), unit("u3", 3)],
              [ongoing("c2", 1, {"op": "copy", "of": "u1"}, ["u2"]),
               ongoing("c3", 2, {"op": "copy", "of": "u2"}, ["u3"]),
               ongoing("pump", 3, {"op": "plus", "amount": 4}, ["u2"])])
    res = run(b, engine)
    assert state(res, "u3") == ("U1", 1, ("One",), {})
    assert state(res, "u2") == ("U1", 5, ("One",), {})


def test_h_a_ring_of_three_copy_abilities_gives_one_answer(engine):
    res = run(example("copy-ring-of-three"), engine)
    for oid in ("u1", "u2", "u3"):
        assert state(res, oid) == ("U3", 3, ("Three",), {}), oid
    assert res.object_loops == [["u1", "u2", "u3"]]
