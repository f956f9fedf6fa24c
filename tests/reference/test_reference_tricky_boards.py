"""The tricky-board classes of issue 7 (A–H) on the reference engine, with exact values.

Boards are the issue's JSON, read with the board reader (the card library gives Boots of
Swiftness), so these are the boards a judge tried. docs/semantics.md names each class where it
decides it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from riftasp.board_io import load_board, load_board_text
from riftasp.reference import resolve

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "disagreements"


def run(data: dict):
    return resolve(load_board_text(json.dumps(data), "<test>"))


def unit(oid: str, might: int | None, **fields) -> dict:
    data = {"id": oid, "name": fields.pop("name", oid.upper()), "type": "unit", "owner": "alice",
            "zone": "battlefield"}  # fmt: skip
    if might is not None:
        data["might"] = might
    return data | fields


def board(*objects: dict, effects: list[dict] | None = None, **settings) -> dict:
    data = {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": list(objects)}
    if effects:
        data["effects"] = effects
    if settings:
        data["settings"] = settings
    return data


def values(resolution, oid: str) -> tuple:
    c = resolution.objects[oid]
    return (c.name, c.might, c.mighty, c.tags, c.keywords)


def order(resolution, oid: str) -> list[str]:
    return [a.effect for a in resolution.applied.get(oid, [])]


# -- A. Support that disappears takes its effect with it ------------------------------------------

A = json.loads(
    '{"ruleset":"riftbound","players":["alice","bob"],"objects":[{"id":"u1","name":"U1","type":"unit","owner":"alice","zone":"battlefield","might":4,"buff":true,"keywords":["Shield"],"status":["defending"],"rules_text":[{"id":"tank-while-mighty","op":{"op":"gain_keywords","keywords":["Tank"]},"conditions":[{"mighty":"self"}]}]}],"effects":[{"id":"lose-shield-while-tank","controller":"alice","timestamp":3,"op":{"op":"lose_keywords","keywords":["Shield"]},"target":{"ids":["u1"]},"conditions":[{"has_keyword":"Tank","of":"target"}]}]}'
)


def test_a_a_keyword_bonus_whose_keyword_is_lost_is_withdrawn():
    r = run(A)
    assert values(r, "u1") == ("U1", 5, True, (), {"Tank": 1})
    # As soon as able (the default) the Shield bonus, listed after the buff, never applies.
    assert r.withdrawn == {} and r.paradoxes == []
    settled = run({**A, "settings": {"condition_timing": "settled"}})
    assert values(settled, "u1") == ("U1", 5, True, (), {"Tank": 1})
    (w,) = settled.withdrawals
    assert (w.object, w.effect, w.round, w.failed, w.because) == (
        "u1", "keyword:Shield:u1", 1, ("existence",), ("lose-shield-while-tank",)
    )
    assert order(r, "u1") == ["buff:u1", "tank-while-mighty", "lose-shield-while-tank"]


def test_a_an_ability_lost_to_lose_all_abilities_takes_its_application_with_it():
    # e1 (Might 2) applies in the traits stage; silence removes it in the abilities stage.
    u2 = unit("u2", 6, rules_text=[{"id": "e1", "op": {"op": "set_might", "value": 2}}])
    silence = {"id": "silence", "controller": "bob", "timestamp": 4,
               "op": {"op": "lose_all_abilities"}, "target": {"ids": ["u2"]}}  # fmt: skip
    r = run(board(u2, effects=[silence]))
    assert r.objects["u2"].might == 6
    assert r.withdrawn == {"u2": ["e1"]}
    (w,) = r.withdrawals
    assert (w.failed, w.because) == (("existence",), ("silence",))
    assert r.objects["u2"].abilities == ()


# -- B. Keywords that add up ----------------------------------------------------------------------


def test_b_summing_keywords_add_their_instances():
    u1 = unit("u1", 2, keywords=["Assault 2"], status=["attacking"])
    gain = {"id": "gain-assault", "controller": "alice", "timestamp": 1,
            "op": {"op": "gain_keywords", "keywords": ["Assault"]}, "target": {"ids": ["u1"]}}  # fmt: skip
    r = run(board(u1, effects=[gain]))
    assert values(r, "u1") == ("U1", 5, True, (), {"Assault": 3})
    # One keyword bonus per instance (§2), named after what brought it.
    bonuses = [a for a in r.applied["u1"] if a.effect.startswith("keyword:")]
    assert [(a.effect, a.before, a.after) for a in bonuses] == [
        ("keyword:Assault:u1", 2, 4),
        ("keyword:Assault:u1:gain-assault", 4, 5),
    ]


def test_b_a_keyword_that_does_not_sum_counts_once():
    gains = [
        {"id": f"g{i}", "controller": "alice", "timestamp": i,
         "op": {"op": "gain_keywords", "keywords": ["Ganking"]}, "target": {"ids": ["u1"]}}
        for i in (1, 2)
    ]  # fmt: skip
    r = run(board(unit("u1", 2), effects=gains))
    assert r.objects["u1"].keywords == {"Ganking": 1}


@pytest.mark.parametrize("first,second", [(1, 2), (2, 1)])
def test_b_the_result_does_not_depend_on_the_order_of_two_grants(first, second):
    gains = [
        {"id": "a", "controller": "alice", "timestamp": first,
         "op": {"op": "gain_keywords", "keywords": ["Shield 2", "Ganking"]}, "target": {"ids": ["u1"]}},
        {"id": "b", "controller": "alice", "timestamp": second,
         "op": {"op": "gain_keywords", "keywords": ["Shield", "Ganking"]}, "target": {"ids": ["u1"]}},
    ]  # fmt: skip
    r = run(board(unit("u1", 1, status=["defending"]), effects=gains))
    assert values(r, "u1") == ("U1", 4, False, (), {"Ganking": 1, "Shield": 3})


# -- C. An object needs another only through what can change --------------------------------------

C = json.loads(
    '{"ruleset":"riftbound","players":["alice","bob"],"objects":[{"id":"u1","name":"U1","type":"unit","owner":"alice","zone":"battlefield","might":1,"status":["defending"]},{"id":"u2","name":"U2","type":"unit","owner":"bob","zone":"battlefield","might":2},{"id":"u3","name":"U3","type":"unit","owner":"bob","zone":"battlefield","might":6,"tags":["Poro"],"rules_text":[{"id":"u3-ganking-while-u1-defends","op":{"op":"gain_keywords","keywords":["Ganking"]},"conditions":[{"status":"defending","of":"u1"}]}]}],"effects":[{"id":"c1","controller":"alice","timestamp":1,"op":{"op":"copy","of":"u2"},"target":{"ids":["u1"]}},{"id":"c2","controller":"bob","timestamp":2,"op":{"op":"copy","of":"u3"},"target":{"ids":["u2"]}}]}'
)


def test_c_reads_of_what_nothing_can_change_make_no_edge():
    r = run(C)
    assert values(r, "u1") == ("U3", 6, True, ("Poro",), {"Ganking": 1})
    assert r.objects["u1"].abilities == ("u3-ganking-while-u1-defends@u1",)
    assert r.object_loops == []
    assert r.needs == {"u1": ["u2"]}
    assert values(r, "u2") == ("U3", 6, True, ("Poro",), {"Ganking": 1})


def test_c_a_friendly_filter_reads_controllers_only_if_one_can_change():
    # u1's aura gives the other friendly units +1 while u3 defends (status is never written).
    aura = {"id": "aura", "op": {"op": "plus", "amount": 1},
            "target": {"filter": {"relation": "friendly", "other": True}},
            "conditions": [{"status": "defending", "of": "u3"}]}  # fmt: skip
    objects = (unit("u1", 1, rules_text=[aura]), unit("u2", 5), unit("u3", 1, status=["defending"]))
    r = run(board(*objects))
    assert r.needs == {}
    assert [r.objects[o].might for o in ("u1", "u2", "u3")] == [1, 6, 2]
    # A control change of the aura's holder can change what "friendly" means: now u2 and u3
    # need u1 (the holder's controller), and u1 becomes bob's.
    steal = {"id": "steal", "controller": "bob", "timestamp": 1,
             "op": {"op": "set_controller", "player": "bob"}, "target": {"ids": ["u1"]}}  # fmt: skip
    r = run(board(*objects, effects=[steal]))
    assert r.needs == {"u2": ["u1"], "u3": ["u1"]}
    assert [r.objects[o].might for o in ("u1", "u2", "u3")] == [1, 5, 1]


# -- D. A loop is calculated together ------------------------------------------------------------

D = json.loads(
    '{"ruleset":"riftbound","players":["alice","bob"],"objects":[{"id":"u1","name":"U1","type":"unit","owner":"alice","zone":"battlefield","might":2,"tags":["Mech"]},{"id":"u2","name":"U2","type":"unit","owner":"bob","zone":"battlefield","might":5,"tags":["Poro"]}],"effects":[{"id":"c-a","controller":"alice","timestamp":3,"op":{"op":"copy","of":"u2"},"target":{"ids":["u1"]}},{"id":"c-b","controller":"bob","timestamp":8,"op":{"op":"copy","of":"u1"},"target":{"ids":["u2"]}}]}'
)


def test_d_two_units_copying_each_other_both_end_as_the_older_copys_source():
    r = run(D)
    assert values(r, "u1") == ("U2", 5, True, ("Poro",), {})
    assert values(r, "u2") == ("U2", 5, True, ("Poro",), {})
    assert r.object_loops == [["u1", "u2"]]
    assert r.dependency_cycles == [["c-a", "c-b"]]
    # One application per step for the whole loop: c-a at step 1, c-b at step 2.
    assert [(a.effect, a.step) for a in r.applied["u1"] + r.applied["u2"]] == [
        ("c-a", 1), ("c-b", 2)
    ]
    assert "cycle" in r.applied["u1"][0].reasons


def test_d_swapped_timestamps_make_the_other_copy_win():
    data = json.loads(json.dumps(D))
    data["effects"][0]["timestamp"], data["effects"][1]["timestamp"] = 8, 3
    r = run(data)
    assert values(r, "u1") == ("U1", 2, False, ("Mech",), {})
    assert values(r, "u2") == ("U1", 2, False, ("Mech",), {})


# -- E. Copies keep Equipment text ----------------------------------------------------------------

E = json.loads(
    '{"ruleset":"riftbound","players":["alice","bob"],"objects":[{"id":"u1","name":"U1","type":"unit","owner":"alice","zone":"battlefield","might":3},{"id":"boots","card":"Boots of Swiftness","owner":"alice","zone":"battlefield","attached_to":"u1","attached_since":5},{"id":"model","name":"MODEL","type":"unit","owner":"alice","zone":"battlefield","might":2,"tags":["Poro"]}],"effects":[{"id":"mirror","controller":"alice","timestamp":7,"op":{"op":"copy","of":"model"},"target":{"ids":["u1"]}}]}'
)


def test_e_a_copy_keeps_the_effect_text_and_might_bonus_of_attached_gear():
    r = run(E)
    assert values(r, "u1") == ("MODEL", 4, False, ("Poro",), {"Ganking": 1})
    assert order(r, "u1") == ["mirror", "boots.ganking", "bonus:boots"]


def test_e_effect_text_is_not_copiable():
    data = json.loads(json.dumps(E))
    data["objects"].append({"id": "u4", "name": "U4", "type": "unit", "owner": "alice",
                            "zone": "battlefield", "might": 1})  # fmt: skip
    data["effects"].append({"id": "copy-u1", "controller": "alice", "timestamp": 8,
                            "op": {"op": "copy", "of": "u1"}, "target": {"ids": ["u4"]}})  # fmt: skip
    r = run(data)
    # u4 copies u1's root (model, through mirror): the boots' Ganking stays with u1.
    assert values(r, "u4") == ("MODEL", 2, False, ("Poro",), {})


# -- F. A dependency that switches an effect on ---------------------------------------------------

F = json.loads(
    '{"ruleset":"riftbound","players":["alice","bob"],"objects":[{"id":"u1","name":"U1","type":"unit","owner":"alice","zone":"battlefield","might":4}],"effects":[{"id":"a-steal","controller":"bob","timestamp":1,"op":{"op":"set_controller","player":"bob"},"target":{"ids":["u1"]}},{"id":"c-set7","controller":"alice","timestamp":2,"op":{"op":"set_might","value":7},"target":{"ids":["u1"]}},{"id":"b-set2-if-bob","controller":"alice","timestamp":3,"op":{"op":"set_might","value":2},"target":{"ids":["u1"]},"conditions":[{"controlled_by":"bob","of":"target"}]}]}'
)


def test_f_an_enabled_effect_applies_immediately_after_what_enables_it():
    r = run(F)
    assert r.objects["u1"].might == 7
    assert r.objects["u1"].controller == "bob"
    assert order(r, "u1") == ["a-steal", "b-set2-if-bob", "c-set7"]
    b = r.applied["u1"][1]
    assert b.depends_on == ("a-steal",)
    assert set(b.reasons) == {"timestamp", "dependency", "immediately_after"}
    assert r.withdrawn == {}


# -- G. Withdrawals and paradoxes -----------------------------------------------------------------


def g_board(ganking_ts: int, shield_ts: int) -> dict:
    text = [
        {"id": "g-ganking-while-mighty", "op": {"op": "gain_keywords", "keywords": ["Ganking"]},
         "conditions": [{"mighty": "self"}], "timestamp": ganking_ts},
        {"id": "s-shield-while-mighty", "op": {"op": "gain_keywords", "keywords": ["Shield"]},
         "conditions": [{"mighty": "self"}], "timestamp": shield_ts},
        {"id": "d-minus2-while-shield", "op": {"op": "minus", "amount": 2},
         "conditions": [{"has_keyword": "Shield", "of": "self"}], "timestamp": 3},
    ]  # fmt: skip
    return board(unit("u", 5, rules_text=text))


@pytest.mark.parametrize("ganking_ts,shield_ts", [(1, 2), (2, 1)])
def test_g_a_paradox_is_reported_and_what_it_does_not_involve_applies(ganking_ts, shield_ts):
    r = run(g_board(ganking_ts, shield_ts))
    assert values(r, "u") == ("U", 5, True, (), {"Ganking": 1})
    assert r.withdrawn == {"u": ["s-shield-while-mighty"]}
    assert r.paradoxes == [["d-minus2-while-shield", "s-shield-while-mighty"]]
    (w,) = r.withdrawals
    assert (w.effect, w.round, w.failed, w.because) == (
        "s-shield-while-mighty", 1, ("condition",), ("d-minus2-while-shield",)
    )
    assert order(r, "u") == ["g-ganking-while-mighty"]


def test_g_a_victim_whose_culprit_another_failing_effect_enables_is_not_withdrawn():
    # With timestamps (1, 2) the Ganking grant applies in round 1 and then fails with the Shield
    # grant (both read Might, which d lowers). Its culprit d is enabled by the Shield grant, so
    # it depends on that failing effect and waits: only the Shield grant is withdrawn.
    r = run(g_board(1, 2))
    assert [w.effect for w in r.withdrawals] == ["s-shield-while-mighty"]
    assert "g-ganking-while-mighty" in order(r, "u")


@pytest.mark.parametrize("stamp", [0, 2, 5])
def test_g_effects_that_do_not_interact_do_not_change_the_outcome(stamp):
    data = g_board(1, 2)
    data["effects"] = [{"id": "mech", "controller": "alice", "timestamp": stamp,
                        "op": {"op": "add_tag", "tag": "Mech"}, "target": {"ids": ["u"]}}]  # fmt: skip
    r = run(data)
    assert values(r, "u") == ("U", 5, True, ("Mech",), {"Ganking": 1})
    assert r.withdrawn == {"u": ["s-shield-while-mighty"]}
    assert r.paradoxes == [["d-minus2-while-shield", "s-shield-while-mighty"]]


# -- H. Copy chains --------------------------------------------------------------------------------


def test_h_copied_self_copy_ability():
    r = resolve(load_board(FIXTURES / "copied-self-copy-ability.json"))
    assert (r.objects["u1"].name, r.objects["u1"].might) == ("Unit u2", None)
    assert (r.objects["u2"].name, r.objects["u2"].might) == ("Unit u2", None)
    assert r.withdrawn == {}
    # e1 removed itself from u1 (u1 became a copy of u2): retained, so its application stands.
    assert "e1" in order(r, "u1")


def test_h_copy_of_an_object_whose_last_copy_is_itself():
    r = resolve(load_board(FIXTURES / "copy-of-an-object-whose-last-copy-is-itself.json"))
    for oid in ("u1", "u2"):
        c = r.objects[oid]
        assert (c.name, c.might, c.keywords) == ("Unit u1", None, {"Shield": 1})
    assert r.withdrawn == {}


def ring(order_: tuple[int, ...], stamps: tuple[int, int, int]) -> dict:
    objects = [
        unit(f"u{i + 1}", i + 2, name=f"U{i + 1}", tags=[f"T{i + 1}"], zone="base",
             rules_text=[{"id": f"e{i + 1}", "op": {"op": "copy", "of": f"u{(i + 1) % 3 + 1}"},
                          "timestamp": stamps[i]}])
        for i in range(3)
    ]  # fmt: skip
    return board(*(objects[k] for k in order_))


@pytest.mark.parametrize(
    "stamps,expected", [((1, 2, 3), ("U3", 4)), ((3, 2, 1), ("U2", 3)), ((2, 3, 1), ("U2", 3))]
)
def test_h_a_ring_of_three_copy_abilities_resolves_deterministically(stamps, expected):
    answers = set()
    for order_ in itertools.permutations(range(3)):
        r = run(ring(order_, stamps))
        answers.add(tuple((oid, c.name, c.might) for oid, c in sorted(r.objects.items())))
        assert [sorted(loop) for loop in r.object_loops] == [sorted(r.objects)]
        assert r.withdrawn == {}
    (answer,) = answers  # listing order does not matter: the timestamps are distinct
    assert answer == tuple((f"u{i}", *expected) for i in (1, 2, 3))
