"""Readings the reference engine takes where docs/semantics.md leaves room (each is a question in
the report to the lead). Each test pins the most literal reading, so a change of the document
shows up here.
"""

from __future__ import annotations

import json

from riftasp.board_io import load_board_text
from riftasp.reference import resolve

PLUS = {"op": "plus", "amount": 1}


def run(*objects: dict, effects: list[dict] | None = None):
    data = {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": list(objects),
            "effects": effects or []}  # fmt: skip
    return resolve(load_board_text(json.dumps(data), "<test>"))


def unit(oid: str, might: int | None = 3, **fields) -> dict:
    data = {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield"}
    if might is not None:
        data["might"] = might
    return data | fields


def ongoing(eid: str, op: dict, target, timestamp: int = 0, **fields) -> dict:
    return {"id": eid, "controller": "alice", "timestamp": timestamp, "op": op, "target": target} | fields


def test_a_keyword_bonus_can_write_might_only_if_its_keyword_can_be_held():
    # §5: u1 reads u2's Might. u2 defends, so a Shield would add to it; but nothing can give u2
    # Shield, so nothing can write its Might and u1 does not need u2.
    aura = {"id": "aura", "op": PLUS, "conditions": [{"mighty": "u2"}]}
    r = run(unit("u1", rules_text=[aura]), unit("u2", 5, status=["defending"]))
    assert r.needs == {}
    grant = ongoing("grant", {"op": "gain_keywords", "keywords": ["Shield"]}, {"ids": ["u2"]})
    r = run(unit("u1", rules_text=[aura]), unit("u2", 4, status=["defending"]), effects=[grant])
    assert r.needs == {"u1": ["u2"]}
    assert (r.objects["u1"].might, r.objects["u2"].might) == (4, 5)


def test_a_copied_ability_takes_the_copys_timestamp_even_with_an_explicit_one():
    # §2: "A copied ability's timestamp is the timestamp of the copy application that brought it".
    x = unit("x", 1, rules_text=[{"id": "grow", "op": PLUS, "timestamp": 8}])
    r = run(x, unit("y", 1), effects=[ongoing("mirror", {"op": "copy", "of": "x"}, {"ids": ["y"]}, 21)])
    (grow,) = [a for a in r.applied["y"] if a.effect == "grow@y"]
    assert grow.timestamp == 21
    (own,) = r.applied["x"]
    assert own.timestamp == 8


def test_an_attached_gear_that_copies_itself_holds_its_own_rules_text():
    # §3: a copy sets held abilities := R's printed rules text, "as O's own if R is O" -- also for
    # an attached gear, whose own text is otherwise inactive (§2).
    shine = {"id": "shine", "op": {"op": "add_tag", "tag": "Shiny"}, "target": {"ids": ["u2"]}}
    gear = {"id": "g", "name": "G", "type": "gear", "owner": "alice", "zone": "battlefield",
            "attached_to": "u1", "rules_text": [shine]}  # fmt: skip
    r = run(unit("u1"), unit("u2"), gear)
    assert r.objects["u2"].tags == ()
    reset = ongoing("reset", {"op": "copy", "of": "g"}, {"ids": ["g"]}, 1)
    r = run(unit("u1"), unit("u2"), gear, effects=[reset])
    assert r.objects["g"].abilities == ("shine",)
    assert r.objects["u2"].tags == ("Shiny",)


def test_off_board_objects_report_their_printed_abilities():
    benched = unit("b", 2, zone="hand", rules_text=[{"id": "b-grow", "op": PLUS}])
    r = run(benched)
    assert r.objects["b"].abilities == ("b-grow",)


def test_a_reported_cycle_names_only_applications_that_exist():
    # §6.6: the universe holds every application that could target a group object, "whether or
    # not it exists"; §6.7 reports the pending members of the pick's component. In this loop,
    # e2@u1 (which u1 only holds after e1 applies) is in the component but not reported.
    e1 = {"id": "e1", "op": {"op": "copy", "of": "u2"}}
    e2 = {"id": "e2", "op": {"op": "copy", "of": "u1"}, "target": {"filter": {"type": "unit"}}}
    r = run(unit("u1", 4, zone="base", rules_text=[e1]), unit("u2", None, rules_text=[e2]))
    assert r.dependency_cycles == [["e1", "e2"]]


def test_a_withdrawal_names_the_failing_application_among_its_own_culprits():
    # §8: for a condition, f itself is among its culprits ("-3 while Mighty" switches itself off).
    minus = {"id": "m", "op": {"op": "minus", "amount": 3}, "conditions": [{"mighty": "self"}]}
    r = run(unit("u", 5, rules_text=[minus]))
    (w,) = r.withdrawals
    assert (w.effect, w.because) == ("m", ("m",))
    assert r.paradoxes == [["m"]]
    assert r.objects["u"].might == 5


def test_copy_trace_reports_the_root_before_and_after():
    # The `copy` characteristic (§11): before is the copiable root before (the object itself
    # before any copy), after the root this copy set.
    effects = [
        ongoing("first", {"op": "copy", "of": "x"}, {"ids": ["u"]}, 1),
        ongoing("second", {"op": "copy", "of": "y"}, {"ids": ["u"]}, 2),
        ongoing("y-is-x", {"op": "copy", "of": "x"}, {"ids": ["y"]}, 0),
    ]
    r = run(unit("u"), unit("x", 6), unit("y", 1), effects=effects)
    assert [(a.effect, a.before, a.after) for a in r.applied["u"]] == [
        ("first", "u", "x"), ("second", "x", "x")
    ]  # fmt: skip
