"""The order key (docs/semantics.md §2), the retained rule (§3/§4) and withdrawal selection (§8)."""

from __future__ import annotations

import json

from riftasp.board_io import load_board_text
from riftasp.reference import resolve
from riftasp.reference.core.analysis import analyse
from riftasp.reference.registry import rules_of as ruleset

PLUS = {"op": "plus", "amount": 1}


def load(data: dict):
    return load_board_text(json.dumps(data), "<test>")


def unit(oid: str, might: int | None = 3, **fields) -> dict:
    data = {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield"}
    if might is not None:
        data["might"] = might
    return data | fields


def ongoing(eid: str, op: dict, target, timestamp: int = 0, **fields) -> dict:
    return {"id": eid, "controller": "alice", "timestamp": timestamp, "op": op, "target": target} | fields


def board(*objects: dict, effects: list[dict] | None = None) -> dict:
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": list(objects),
            "effects": effects or []}  # fmt: skip


def order(resolution, oid: str) -> list[str]:
    return [a.effect for a in resolution.applied.get(oid, [])]


# -- §2: slots and keys ------------------------------------------------------------------------------


def test_slots_count_every_slot_in_board_order():
    # u: rules r1 r2 | buff | bonus | Assault | Shield  -> 0..5
    # g: rules gr | effect ge | buff | bonus | Assault | Shield -> 6..11
    # v: buff | bonus | Assault | Shield -> 12..15;  ongoing e1, e2 -> 16, 17
    u = unit("u", rules_text=[{"id": "r1", "op": PLUS}, {"id": "r2", "op": PLUS, "timestamp": 4}],
             since=2)  # fmt: skip
    g = {"id": "g", "name": "G", "type": "gear", "owner": "alice", "zone": "battlefield",
         "attached_to": "u", "attached_since": 6, "might_bonus": 1,
         "rules_text": [{"id": "gr", "op": PLUS}], "effect_text": [{"id": "ge", "op": PLUS}]}  # fmt: skip
    v = unit("v", buff=True, buff_since=3)
    effects = [ongoing("e1", PLUS, {"ids": ["v"]}, 9), ongoing("e2", PLUS, {"ids": ["u", "v"]}, 9)]
    a = analyse(load(board(u, g, v, effects=effects)), ruleset(load(board(u, g, v, effects=effects)).ruleset))
    held = a.initial["u"].held
    assert set(held) == {"r1", "r2", "ge"}  # the gear's own text is inactive while attached
    assert a.ability("u", held["r1"]).key == (2, 0, 0, 0, 0)  # the holder's since
    assert a.ability("u", held["r2"]).key == (4, 1, 0, 0, 0)  # an explicit timestamp
    assert a.ability("u", held["ge"]).key == (6, 7, 0, 0, 0)  # attached_since, held by u (index 0)
    keys = {(i.name, oid): i.key for oid in a.layout.on_board for i in a.sources[oid] if i.kind != "ability"}
    assert keys[("bonus:g", "u")] == (6, 9, 0, 0, 0)
    assert keys[("buff:v", "v")] == (3, 12, 0, 0, 0)
    assert keys[("e2", "u")] == keys[("e2", "v")] == (9, 17, 0, 0, 0)  # o tells them apart
    assert {k: pos for k, pos in a.layout.slot.items() if k[1] == "keyword"} == {
        ("u", "keyword", "Assault"): 4, ("u", "keyword", "Shield"): 5,
        ("g", "keyword", "Assault"): 10, ("g", "keyword", "Shield"): 11,
        ("v", "keyword", "Assault"): 14, ("v", "keyword", "Shield"): 15,
    }  # fmt: skip


def test_equal_timestamps_follow_the_slots():
    u = unit("u", rules_text=[{"id": "text", "op": PLUS}], buff=True)
    effects = [ongoing("late", PLUS, {"ids": ["u"]}), ongoing("early", PLUS, {"ids": ["u"]})]
    r = resolve(load(board(u, effects=effects)))
    # rules text (slot 0) < buff (1) < ongoing "late" (6) < ongoing "early" (7)
    assert order(r, "u") == ["text", "buff:u", "late", "early"]
    # §7: one pair per application left in the pool with the same timestamp, at each pick.
    assert r.timestamp_ties == [
        ["buff:u", "early"], ["buff:u", "late"], ["buff:u", "text"],
        ["early", "late"], ["early", "text"], ["late", "text"],
    ]  # fmt: skip
    assert [a.reasons for a in r.applied["u"]] == [("timestamp", "tie")] * 3 + [("timestamp",)]


def test_a_copied_ability_sorts_right_after_the_copy_that_brought_it():
    # x's printed +1 (slot 0) is brought to u by `mirror` (timestamp 5, ongoing slot 9): its key
    # is (5, a(mirror), 1 + pos(grow), ...), between `before` and `after` at timestamp 5.
    x = unit("x", 1, rules_text=[{"id": "grow", "op": PLUS, "timestamp": 0}])
    effects = [
        ongoing("before", PLUS, {"ids": ["u"]}, 5),
        ongoing("mirror", {"op": "copy", "of": "x"}, {"ids": ["u"]}, 5),
        ongoing("after", PLUS, {"ids": ["u"]}, 5),
    ]
    r = resolve(load(board(x, unit("u", 3), effects=effects)))
    assert order(r, "u") == ["mirror", "before", "grow@u", "after"]
    grow = r.applied["u"][2]
    assert (grow.timestamp, grow.before, grow.after) == (5, 2, 3)
    assert r.objects["u"].might == 4


def test_keyword_bonuses_sort_by_their_keyword_slot_then_what_brought_them():
    # Printed Shield first (b = 0); then by the key of the grant that brought each instance:
    # `second` is listed before `first`, so at equal timestamps its instance comes first.
    u = unit("u", 1, keywords=["Shield"], status=["defending"])
    effects = [
        ongoing("second", {"op": "gain_keywords", "keywords": ["Shield"]}, {"ids": ["u"]}),
        ongoing("first", {"op": "gain_keywords", "keywords": ["Shield 2"]}, {"ids": ["u"]}),
    ]
    r = resolve(load(board(u, effects=effects)))
    bonuses = [(a.effect, a.before, a.after) for a in r.applied["u"] if a.effect.startswith("keyword")]
    assert bonuses == [
        ("keyword:Shield:u", 1, 2),
        ("keyword:Shield:u:second", 2, 3),
        ("keyword:Shield:u:first", 3, 5),
    ]
    assert r.objects["u"].keywords == {"Shield": 4}


def test_keyword_bonus_timestamp_is_that_of_what_brought_the_keyword():
    u = unit("u", 1, status=["attacking"], since=4)
    effects = [ongoing("grant", {"op": "gain_keywords", "keywords": ["Assault 2"]}, {"ids": ["u"]}, 1)]
    r = resolve(load(board(u, effects=effects)))
    bonus = r.applied["u"][-1]
    assert (bonus.effect, bonus.timestamp, bonus.after) == ("keyword:Assault:u:grant", 1, 3)


def test_two_applications_of_one_instance_in_a_loop_differ_only_by_object():
    # u2 is listed first, so the ongoing +1 applies to u2 before u1 in the loop's calculation.
    u1 = unit("u1", 4, rules_text=[{"id": "a1", "op": PLUS, "conditions": [{"mighty": "u2"}]}])
    u2 = unit("u2", 4, rules_text=[{"id": "a2", "op": PLUS, "conditions": [{"mighty": "u1"}]}])
    effects = [ongoing("p", PLUS, {"ids": ["u1", "u2"]}, 0)]
    # (The auras waiting on each other below are condition_timing = settled's.)
    r = resolve(load({**board(u2, u1, effects=effects), "settings": {"condition_timing": "settled"}}))
    assert r.object_loops == [["u2", "u1"]]
    steps = sorted((a.step, oid, a.effect) for oid in ("u1", "u2") for a in r.applied[oid])
    assert steps[:2] == [(1, "u2", "p"), (2, "u1", "p")]
    assert (r.objects["u1"].might, r.objects["u2"].might) == (6, 6)
    assert r.timestamp_ties == []  # one instance on two objects is not a tie (§7)
    # Then the auras wait on each other (unblocked); a2 depends on p (on u1) applied just
    # before it, so it goes first; a1 was eligible but not settled when p applied to u1.
    a1, a2 = r.applied["u1"][1], r.applied["u2"][1]
    assert (a2.step, a1.step) == (3, 4)
    assert set(a2.reasons) == {
        "timestamp", "became_applicable", "dependency", "immediately_after", "unblocked"
    }
    assert set(a1.reasons) == {"timestamp", "dependency", "waited"}


# -- §3/§4: retained abilities ---------------------------------------------------------------------


def test_an_ability_that_makes_its_holder_a_copy_keeps_existing():
    become = {"id": "become-x", "op": {"op": "copy", "of": "x"}}
    r = resolve(load(board(unit("u", 2, rules_text=[become]), unit("x", 6, tags=["Poro"]))))
    c = r.objects["u"]
    assert (c.name, c.might, c.tags, c.abilities) == ("X", 6, ("Poro",), ())
    assert order(r, "u") == ["become-x"]
    assert r.withdrawn == {} and r.paradoxes == []


def test_a_lose_all_abilities_passive_still_applies_to_the_others_it_targets():
    silence = {"id": "silence", "op": {"op": "lose_all_abilities"},
               "target": {"filter": {"type": "unit"}}}  # fmt: skip
    grant = {"id": "grant", "op": {"op": "gain_keywords", "keywords": ["Ganking"]}}
    r = resolve(load(board(unit("u1", rules_text=[silence]), unit("u2", rules_text=[grant]))))
    assert order(r, "u1") == ["silence"]
    assert order(r, "u2") == ["silence"]  # grant is gone before it could apply
    assert r.objects["u2"].keywords == {} and r.objects["u2"].abilities == ()
    assert r.objects["u1"].abilities == ()
    assert r.withdrawn == {}
    assert r.needs == {"u2": ["u1"]}


def test_an_ability_removed_by_something_else_is_not_retained():
    # `grow` applies to u2 (u2 needs u1: something can remove grow from u1); on u1 the
    # ongoing silence removes grow first (grow depends on it), so grow does not exist for u2.
    grow = {"id": "grow", "op": PLUS, "target": {"ids": ["u1", "u2"]}}
    silence = ongoing("silence", {"op": "lose_all_abilities"}, {"ids": ["u1"]}, 9)
    r = resolve(load(board(unit("u1", 3, rules_text=[grow]), unit("u2", 3), effects=[silence])))
    assert order(r, "u1") == ["silence"]
    assert order(r, "u2") == []
    assert (r.objects["u1"].might, r.objects["u2"].might) == (3, 3)


# -- §8: which failures are withdrawn ----------------------------------------------------------------


def test_a_victim_of_a_failing_culprit_waits_for_it():
    # Class G with the -2 as an ongoing effect: g and s fail because d lowers Might; d is enabled
    # by s, so g depends on s (s reaches g's culprit) and waits; s is withdrawn alone.
    text = [
        {"id": "g", "op": {"op": "gain_keywords", "keywords": ["Ganking"]},
         "conditions": [{"might_at_least": 5, "of": "self"}], "timestamp": 1},
        {"id": "s", "op": {"op": "gain_keywords", "keywords": ["Shield"]},
         "conditions": [{"mighty": "self"}], "timestamp": 2},
    ]  # fmt: skip
    d = ongoing("d", {"op": "minus", "amount": 2}, {"ids": ["u"]}, 3,
                conditions=[{"has_keyword": "Shield", "of": "target"}])  # fmt: skip
    r = resolve(load(board(unit("u", 5, rules_text=text), effects=[d])))
    assert [(w.effect, w.round, w.because) for w in r.withdrawals] == [("s", 1, ("d",))]
    assert order(r, "u") == ["g"]
    assert r.objects["u"].keywords == {"Ganking": 1}
    assert r.paradoxes == [["d", "s"]]


def test_the_supporters_of_a_self_defeating_effect_are_withdrawn_with_it():
    # boost (+3 while Mighty) and pump (+1 while Might >= 8) enable crush (-9 while Might >= 9),
    # which makes all three fail. crush is its own culprit (a condition can switch itself off);
    # boost and pump reach it, so crush depends on them (§8: "g is a culprit of f or reaches
    # one") and they depend on crush: one component, withdrawn together as a paradox. An
    # increase never undoes anything, so crush is the only culprit of boost and pump.
    text = [
        {"id": "boost", "op": {"op": "plus", "amount": 3}, "conditions": [{"mighty": "self"}], "timestamp": 1},
        {"id": "pump", "op": PLUS, "conditions": [{"might_at_least": 8, "of": "self"}], "timestamp": 2},
        {"id": "crush", "op": {"op": "minus", "amount": 9},
         "conditions": [{"might_at_least": 9, "of": "self"}], "timestamp": 3},
    ]  # fmt: skip
    r = resolve(load(board(unit("u", 5, rules_text=text))))
    assert r.withdrawn == {"u": ["boost", "crush", "pump"]}
    assert r.objects["u"].might == 5
    assert r.paradoxes == [["boost", "crush", "pump"]]
    assert {(w.effect, w.because) for w in r.withdrawals} == {
        ("boost", ("crush",)), ("crush", ("crush",)), ("pump", ("crush",))
    }  # fmt: skip


def test_mutually_dependent_failures_are_withdrawn_together_as_a_paradox():
    # a (Shield while Mighty) and b (Tank while Mighty) both enable drop (-2 while Shield and
    # Tank), their common culprit: each reaches the other's culprit, so they depend on each
    # other and are withdrawn together in round 1.
    text = [
        {"id": "a", "op": {"op": "gain_keywords", "keywords": ["Shield"]}, "conditions": [{"mighty": "self"}]},
        {"id": "b", "op": {"op": "gain_keywords", "keywords": ["Tank"]}, "conditions": [{"mighty": "self"}]},
    ]  # fmt: skip
    drop = ongoing("drop", {"op": "minus", "amount": 2}, {"ids": ["u"]}, 9,
                   conditions=[{"has_keyword": "Shield", "of": "target"},
                               {"has_keyword": "Tank", "of": "target"}])  # fmt: skip
    r = resolve(load(board(unit("u", 5, rules_text=text), effects=[drop])))
    assert r.withdrawn == {"u": ["a", "b"]}
    assert {w.round for w in r.withdrawals} == {1}
    assert r.paradoxes == [["a", "b", "drop"]]
    assert r.objects["u"].might == 5 and r.objects["u"].keywords == {}
