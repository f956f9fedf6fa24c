"""The reference engine on the examples of the issue and the seeds, with exact expected values.

Boards are built from the model dataclasses directly, so these tests need neither the board
reader nor clingo.
"""

from __future__ import annotations

import json

import pytest

from riftasp.model import (
    Board,
    Condition,
    Effect,
    Filter,
    GameObject,
    Keyword,
    Operation,
    Settings,
    Target,
)
from riftasp.reference import resolve

SELF = Target("self")
BEARER = Target("bearer")
FIORA_KEYWORDS = {"Deflect": 1, "Ganking": 1, "Shield": 1}


# -- builders -----------------------------------------------------------------------------------


def op(name: str, **fields) -> Operation:
    if "keywords" in fields:
        fields["keywords"] = tuple(_keyword(k) for k in fields["keywords"])
    return Operation(name, **fields)


def _keyword(text: str) -> Keyword:
    name, _, value = text.partition(" ")
    return Keyword(name, int(value) if value else None)


def ids(*object_ids: str) -> Target:
    return Target("ids", ids=object_ids)


def unit(oid: str, might: int | None, **fields) -> GameObject:
    fields.setdefault("owner", "alice")
    fields.setdefault("controller", fields["owner"])
    fields.setdefault("zone", "base")
    return GameObject(id=oid, name=oid.title(), card_type="unit", might=might, **fields)


def gear(oid: str, **fields) -> GameObject:
    fields.setdefault("owner", "alice")
    fields.setdefault("controller", fields["owner"])
    fields.setdefault("zone", "base")
    return GameObject(id=oid, name=oid.title(), card_type="gear", **fields)


def ability(
    eid: str,
    operation: Operation,
    target: Target = SELF,
    *conditions: Condition,
    timestamp: int | None = None,
) -> Effect:
    return Effect(eid, operation, target, tuple(conditions), timestamp=timestamp)


def ongoing(
    eid: str,
    operation: Operation,
    target: Target,
    timestamp: int,
    *conditions: Condition,
    controller: str = "alice",
    source: str | None = None,
) -> Effect:
    return Effect(
        eid,
        operation,
        target,
        tuple(conditions),
        timestamp=timestamp,
        controller=controller,
        source=source,
    )


def board(*objects: GameObject, effects: tuple[Effect, ...] = (), timing: str = "settled") -> Board:
    return Board(
        players=("alice", "bob"),
        active_player="alice",
        objects=tuple(objects),
        effects=tuple(effects),
        settings=Settings(condition_timing=timing),
    )


def mighty(of: str = "self") -> Condition:
    return Condition("mighty", of=of)


def fiora(**fields) -> GameObject:
    grant = ability(
        "fiora-passive",
        op("gain_keywords", keywords=["Deflect", "Ganking", "Shield"]),
        SELF,
        mighty(),
    )
    fields.setdefault("zone", "battlefield")
    return unit("fiora", 4, rules_text=(grant,), **fields)


def applied(resolution, oid: str, eid: str):
    found = [a for a in resolution.applied[oid] if a.effect == eid]
    assert len(found) == 1, (eid, [a.effect for a in resolution.applied[oid]])
    return found[0]


def might(resolution, oid: str) -> int | None:
    return resolution.objects[oid].might


# -- section 1: stages --------------------------------------------------------------------------


def test_set_then_modify():
    """[L] "The set value is the starting value, so the result is 6."""
    r = resolve(
        board(
            unit("u", 4),
            effects=(
                ongoing("plus2", op("plus", amount=2), ids("u"), 1),
                ongoing("set4", op("set_might", value=4), ids("u"), 2),
            ),
        )
    )
    assert might(r, "u") == 6
    assert [a.effect for a in r.applied["u"]] == ["set4", "plus2"]
    assert r.engine == "reference"


def test_set_might_then_minus():
    r = resolve(
        board(
            unit("u", 2),
            effects=(
                ongoing("set5", op("set_might", value=5), ids("u"), 1),
                ongoing("minus1", op("minus", amount=1), ids("u"), 2),
            ),
        )
    )
    assert might(r, "u") == 4
    assert r.objects["u"].mighty is False


def test_double_is_an_increase_of_at_least_zero():
    r = resolve(
        board(
            unit("u", 3),
            effects=(
                ongoing("dbl", op("double"), ids("u"), 1),
                ongoing("minus5", op("minus", amount=5), ids("u"), 2),
            ),
        )
    )
    # double first (increase before decrease): 3 -> 6 -> 1
    assert might(r, "u") == 1
    r = resolve(board(unit("u", -2), effects=(ongoing("dbl", op("double"), ids("u"), 1),)))
    assert might(r, "u") == -2


# -- Fiora, Victorious: recheck and settling ------------------------------------------------------


def test_fiora_buffed_gains_keywords_by_recheck():
    r = resolve(board(fiora(buffed=True)))
    c = r.objects["fiora"]
    assert c.might == 5 and c.mighty
    assert c.keywords == FIORA_KEYWORDS
    grant = applied(r, "fiora", "fiora-passive")
    assert "recheck" in grant.reasons
    assert grant.layer == "abilities" and grant.sublayer is None
    assert grant.characteristic == "keywords"
    assert grant.before == {} and grant.after == FIORA_KEYWORDS
    buff = applied(r, "fiora", "buff:fiora")
    assert (buff.layer, buff.sublayer, buff.before, buff.after) == ("arithmetic", "increase", 4, 5)
    assert buff.step < grant.step


def test_fiora_buffed_and_defending_gets_shield_bonus_once():
    r = resolve(board(fiora(buffed=True, status=("defending",))))
    c = r.objects["fiora"]
    assert c.might == 6
    assert c.keywords == FIORA_KEYWORDS
    assert [a.effect for a in r.applied["fiora"]] == [
        "buff:fiora",
        "fiora-passive",
        "keyword:Shield:fiora:fiora-passive",  # §2: brought by the passive
    ]
    shield = applied(r, "fiora", "keyword:Shield:fiora:fiora-passive")
    assert (shield.before, shield.after) == (5, 6)
    assert r.withdrawn == {}


def test_fiora_without_buff_returns_to_four_without_keywords():
    r = resolve(board(fiora(status=("defending",))))
    c = r.objects["fiora"]
    assert c.might == 4 and not c.mighty
    assert c.keywords == {}
    assert "fiora" not in r.applied  # objects with no application are left out


def test_condition_timing_settled_checks_after_the_decrease():
    effects = (
        ongoing("set5", op("set_might", value=5), ids("fiora"), 2),
        ongoing("minus1", op("minus", amount=1), ids("fiora"), 3),
    )
    r = resolve(board(fiora(), effects=effects))
    assert might(r, "fiora") == 4
    assert r.objects["fiora"].keywords == {}


def test_condition_timing_immediate_checks_when_the_layer_comes_up():
    effects = (
        ongoing("set5", op("set_might", value=5), ids("fiora"), 2),
        ongoing("minus1", op("minus", amount=1), ids("fiora"), 3),
    )
    r = resolve(board(fiora(), effects=effects, timing="immediate"))
    assert might(r, "fiora") == 4
    assert r.objects["fiora"].keywords == FIORA_KEYWORDS
    assert [a.effect for a in r.applied["fiora"]] == ["set5", "fiora-passive", "minus1"]


def test_settled_withdraws_an_application_whose_condition_fails_at_the_end():
    # After the buff (4 -> 5) the grant waits for `drop` (pending, it writes the Might the grant
    # reads) and nothing is settled, so the group is unblocked: the grant applies at 5, then drop
    # (now that fiora has Shield) takes her to 4. The final check finds the grant's condition
    # false; its culprit is drop, which the grant itself enables (it gave the Shield drop reads):
    # self-defeating, so withdrawn and, since it would hold in the final state, a paradox (§8).
    drop = ongoing(
        "drop",
        op("minus", amount=1),
        ids("fiora"),
        5,
        Condition("has_keyword", of="target", keyword="Shield"),
    )
    r = resolve(board(fiora(buffed=True), effects=(drop,)))
    assert r.withdrawn == {"fiora": ["fiora-passive"]}
    assert might(r, "fiora") == 5
    assert r.objects["fiora"].keywords == {}
    assert [a.effect for a in r.applied["fiora"]] == ["buff:fiora"]
    assert r.paradoxes == [["drop", "fiora-passive"]]
    (w,) = r.withdrawals
    assert (w.object, w.effect, w.round, w.failed, w.because) == (
        "fiora", "fiora-passive", 1, ("condition",), ("drop",)
    )


# -- dependencies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("passive_ts,plus_ts", [(1, 2), (2, 1)])
def test_increase_to_depends_on_plus(passive_ts, plus_ts):
    """[L] "Apply +2 first: 4 -> 6. The passive ability now adds 0. The result is 6"."""
    u = unit(
        "u", 4, rules_text=(ability("raise5", op("increase_to", value=5), timestamp=passive_ts),)
    )
    r = resolve(board(u, effects=(ongoing("plus2", op("plus", amount=2), ids("u"), plus_ts),)))
    assert might(r, "u") == 6
    assert [a.effect for a in r.applied["u"]] == ["plus2", "raise5"]
    raise5 = applied(r, "u", "raise5")
    assert raise5.depends_on == ("plus2",)
    assert "immediately_after" in raise5.reasons and "dependency" in raise5.reasons
    assert (raise5.before, raise5.after) == (6, 6)
    assert r.dependency_cycles == []


def test_two_limited_increases_form_a_cycle_older_first():
    """[L] "The older passive effect adds 1 first; the limited increase then adds 0."""
    u = unit("u", 4, since=1, rules_text=(ability("raise5", op("increase_to", value=5)),))
    limited = ongoing("limited", op("plus_max", amount=2, max=5), ids("u"), 2)
    r = resolve(board(u, effects=(limited,)))
    assert might(r, "u") == 5
    first, second = r.applied["u"]
    assert (first.effect, first.before, first.after) == ("raise5", 4, 5)
    assert (second.effect, second.before, second.after) == ("limited", 5, 5)
    assert "cycle" in first.reasons
    assert r.dependency_cycles == [["limited", "raise5"]]


def test_two_limited_increases_swapped_timestamps():
    u = unit("u", 4, since=3, rules_text=(ability("raise5", op("increase_to", value=5)),))
    limited = ongoing("limited", op("plus_max", amount=2, max=5), ids("u"), 2)
    r = resolve(board(u, effects=(limited,)))
    assert might(r, "u") == 5
    first, second = r.applied["u"]
    assert (first.effect, first.before, first.after) == ("limited", 4, 5)
    assert (second.effect, second.before, second.after) == ("raise5", 5, 5)
    assert r.dependency_cycles == [["limited", "raise5"]]


@pytest.mark.parametrize("lose_ts,gain_ts,expected", [(1, 2, {"Ganking": 1}), (2, 1, {})])
def test_lose_and_gain_keyword_use_timestamp_order(lose_ts, gain_ts, expected):
    """Decision (question 3): keyword changes are fixed instructions, not dependencies."""
    r = resolve(
        board(
            unit("u", 3),
            effects=(
                ongoing("lose", op("lose_keywords", keywords=["Ganking"]), ids("u"), lose_ts),
                ongoing("gain", op("gain_keywords", keywords=["Ganking"]), ids("u"), gain_ts),
            ),
        )
    )
    assert r.objects["u"].keywords == expected
    assert all(a.depends_on == () for a in r.applied["u"])
    assert r.dependency_cycles == []


def test_lose_all_abilities_removes_a_held_ability_it_applies_before():
    # The held gain depends on lose_all (it stops existing), so lose_all goes first even though
    # it is newer, and the gain never applies.
    u = unit(
        "u", 3, since=1, rules_text=(ability("gain", op("gain_keywords", keywords=["Ganking"])),)
    )
    r = resolve(board(u, effects=(ongoing("silence", op("lose_all_abilities"), ids("u"), 9),)))
    assert r.objects["u"].keywords == {}
    assert [a.effect for a in r.applied["u"]] == ["silence"]
    assert "gain depend on it, so it goes first" in r.applied["u"][0].why


def test_a_condition_on_the_holders_controller_depends_on_a_controller_change():
    # e2 is o0's ability with "while o3 is controlled by you" (you = o0's controller). Applying
    # `steal` alone to o0 would make that condition false, so e2 depends on steal: steal goes
    # first and e2 is then no longer eligible, although e2 is older.
    e2 = ability(
        "e2",
        op("remove_tag", tag="Yordle"),
        SELF,
        Condition("controlled_by", of="o3", player="you"),
        timestamp=1,
    )
    o0 = unit("o0", 5, tags=("Yordle",), rules_text=(e2,))
    r = resolve(
        board(
            o0,
            unit("o3", 2),
            effects=(
                ongoing(
                    "steal", op("set_controller", player="bob"), ids("o0"), 7, controller="bob"
                ),
            ),
            timing="immediate",
        )
    )
    assert [a.effect for a in r.applied["o0"]] == ["steal"]
    assert r.objects["o0"].tags == ("Yordle",)
    assert "e2 depend on it, so it goes first" in r.applied["o0"][0].why


def test_timestamp_tie_uses_listing_order_and_is_reported():
    r = resolve(
        board(
            unit("u", 3),
            effects=(
                ongoing("lose", op("lose_keywords", keywords=["Ganking"]), ids("u"), 1),
                ongoing("gain", op("gain_keywords", keywords=["Ganking"]), ids("u"), 1),
            ),
        )
    )
    assert r.objects["u"].keywords == {"Ganking": 1}
    assert r.timestamp_ties == [["gain", "lose"]]
    assert "tie" in applied(r, "u", "lose").reasons


def test_keyword_values_add_up_when_numbered_and_hold_once_otherwise():
    u = unit("u", 3, keywords=(Keyword("Shield", 2), Keyword("Ganking")))
    r = resolve(
        board(
            u,
            effects=(
                ongoing("g1", op("gain_keywords", keywords=["Shield 1", "Ganking"]), ids("u"), 1),
                ongoing("g2", op("gain_keywords", keywords=["Ganking", "Deflect"]), ids("u"), 2),
            ),
        )
    )
    assert r.objects["u"].keywords == {"Deflect": 1, "Ganking": 1, "Shield": 3}


# -- objects: order and loops ---------------------------------------------------------------------


def plus_while_mighty(eid: str, of: str, amount: int = 1) -> Effect:
    return ability(eid, op("plus", amount=amount), SELF, mighty(of))


def test_object_order_reads_the_other_objects_final_state():
    a = unit("a", 4, buffed=True)
    b = unit("b", 3, rules_text=(plus_while_mighty("b-aura", "a"),))
    r = resolve(board(b, a))  # b listed first: the needs graph, not board order, decides
    assert might(r, "a") == 5
    assert might(r, "b") == 4
    assert r.object_loops == []


def test_object_chain_of_three():
    a = unit("a", 4, buffed=True)
    b = unit("b", 4, rules_text=(plus_while_mighty("b-aura", "a"),))
    c = unit("c", 4, rules_text=(plus_while_mighty("c-aura", "b"),))
    r = resolve(board(c, b, a))
    assert [might(r, x) for x in "abc"] == [5, 5, 5]
    assert r.needs == {"b": ["a"], "c": ["b"]}
    r = resolve(board(c, b, unit("a", 4)))
    assert [might(r, x) for x in "abc"] == [4, 4, 4]


def test_object_loop_neither_buffed():
    a = unit("a", 4, rules_text=(plus_while_mighty("a-aura", "b"),))
    b = unit("b", 4, rules_text=(plus_while_mighty("b-aura", "a"),))
    r = resolve(board(a, b))
    assert (might(r, "a"), might(r, "b")) == (4, 4)
    assert r.object_loops == [["a", "b"]]


def test_object_loop_one_buffed():
    a = unit("a", 4, buffed=True, rules_text=(plus_while_mighty("a-aura", "b"),))
    b = unit("b", 4, rules_text=(plus_while_mighty("b-aura", "a"),))
    r = resolve(board(a, b))
    assert (might(r, "a"), might(r, "b")) == (6, 5)
    assert r.object_loops == [["a", "b"]]
    assert r.withdrawn == {}
    # b's aura is checked when nothing is settled: a's aura waits on b and b's on a.
    assert "unblocked" in applied(r, "b", "b-aura").reasons


def test_filter_aura_could_target_makes_an_edge_before_it_matches():
    # h's aura gives +1 to friendly units; u is bob's, so it is not targeted, but it needs h.
    aura = ability(
        "h-aura",
        op("plus", amount=1),
        Target("filter", filter=Filter(card_type="unit", relation="friendly", other=True)),
    )
    h = unit("h", 3, rules_text=(aura,))
    friend = unit("f", 2)
    foe = unit("e", 2, owner="bob")
    r = resolve(board(h, friend, foe))
    assert (might(r, "h"), might(r, "f"), might(r, "e")) == (3, 3, 2)
    # A set_controller on the foe makes it friendly: the filter reads the current state.
    r = resolve(
        board(
            h,
            friend,
            foe,
            effects=(ongoing("steal", op("set_controller", player="alice"), ids("e"), 1),),
        )
    )
    assert might(r, "e") == 3
    assert r.objects["e"].controller == "alice"


# -- equipment ------------------------------------------------------------------------------------


def boots(attached_to: str | None, **fields) -> GameObject:
    return gear(
        "boots",
        zone="battlefield",
        attached_to=attached_to,
        effect_text=(ability("boots-ganking", op("gain_keywords", keywords=["Ganking"]), BEARER),),
        might_bonus=2,
        **fields,
    )


def test_boots_of_swiftness_attached():
    r = resolve(board(unit("u1", 3, zone="battlefield"), boots("u1", since=2, attached_since=6)))
    assert might(r, "u1") == 5
    assert r.objects["u1"].keywords == {"Ganking": 1}
    assert applied(r, "u1", "bonus:boots").timestamp == 6
    assert applied(r, "u1", "boots-ganking").timestamp == 6
    g = r.objects["boots"]
    assert g.might is None and g.mighty is False


def test_boots_of_swiftness_unattached():
    r = resolve(board(unit("u1", 3, zone="battlefield"), boots(None)))
    assert might(r, "u1") == 3
    assert r.objects["u1"].keywords == {}


def test_gear_rules_text_is_active_only_while_unattached():
    shine = ability("shine", op("add_tag", tag="Shiny"), ids("u2"))
    u1, u2 = unit("u1", 3), unit("u2", 2)
    attached = gear("g", rules_text=(shine,), attached_to="u1")
    loose = gear("g", rules_text=(shine,))
    assert resolve(board(u1, u2, attached)).objects["u2"].tags == ()
    assert resolve(board(u1, u2, loose)).objects["u2"].tags == ("Shiny",)


def test_gear_might_operations_leave_it_without_might():
    g = gear("g")
    r = resolve(
        board(
            g,
            effects=(
                ongoing("p", op("plus", amount=3), ids("g"), 1),
                ongoing("s", op("set_might", value=7), ids("g"), 2),
            ),
        )
    )
    assert r.objects["g"].might is None
    assert r.objects["g"].mighty is False


# -- copy -----------------------------------------------------------------------------------------


def test_copy_takes_printed_values_not_later_changes():
    x_text = ability("x-deflect", op("gain_keywords", keywords=["Deflect"]))
    x = unit("x", 2, tags=("Robot",), rules_text=(x_text,))
    y = unit("y", 1, tags=("Yordle",))
    r = resolve(
        board(
            x,
            y,
            effects=(
                ongoing("mech", op("add_tag", tag="Mech"), ids("x"), 1),
                ongoing("pump", op("plus", amount=3), ids("x"), 2),
                ongoing("mirror", op("copy", of="x"), ids("y"), 3),
            ),
        )
    )
    assert might(r, "x") == 5
    assert r.objects["x"].tags == ("Mech", "Robot")
    cy = r.objects["y"]
    assert cy.might == 2
    assert cy.tags == ("Robot",)
    assert cy.name == "X"
    assert cy.keywords == {"Deflect": 1}
    held = applied(r, "y", "x-deflect@y")
    assert held.timestamp == 3  # the copy's timestamp
    copy_app = applied(r, "y", "mirror")
    assert copy_app.layer == "copy" and copy_app.characteristic == "copy"
    assert (copy_app.before, copy_app.after) == ("y", "x")  # copiable roots (§11)
    assert r.objects["y"].controller == "alice"


def test_copy_of_a_copy_takes_what_the_copied_object_copies():
    z = unit("z", 7, tags=("Dragon",))
    x = unit("x", 2)
    y = unit("y", 1)
    r = resolve(
        board(
            x,
            y,
            z,
            effects=(
                ongoing("x-copies-z", op("copy", of="z"), ids("x"), 1),
                ongoing("y-copies-x", op("copy", of="x"), ids("y"), 2),
            ),
        )
    )
    assert might(r, "y") == 7
    assert r.objects["y"].tags == ("Dragon",)


def test_an_object_copying_itself_keeps_its_own_abilities():
    # "a copied ability held by *another* object is <id>@<holder>": text printed on the holder
    # stays its own ability, with its own id and timestamp. A copy of it takes printed values.
    grow = ability("grow", op("plus", amount=1), timestamp=8)
    x = unit("x", 4, rules_text=(grow,))
    y = unit("y", 1)
    r = resolve(
        board(
            x,
            y,
            effects=(
                ongoing("self-copy", op("copy", of="x"), ids("x"), 20),
                ongoing("y-copy", op("copy", of="x"), ids("y"), 21),
            ),
        )
    )
    assert applied(r, "x", "grow").timestamp == 8
    assert might(r, "x") == 5
    assert applied(r, "y", "grow@y").timestamp == 21
    assert (might(r, "y"), r.objects["y"].types, r.objects["y"].name) == (5, ("unit",), "X")


def test_a_copy_keeps_the_effect_text_of_attached_gear():
    # §3 (class E): Effect Text is appended in the abilities layer, after copy; a copy replaces
    # the copier's own rules text, not the Effect Text it holds, nor the gear's Might Bonus.
    u1 = unit("u1", 3, zone="battlefield")
    r = resolve(
        board(
            u1,
            boots("u1"),
            unit("x", 2),
            effects=(ongoing("mirror", op("copy", of="x"), ids("u1"), 9),),
        )
    )
    assert r.objects["u1"].keywords == {"Ganking": 1}
    assert r.objects["u1"].abilities == ("boots-ganking",)
    assert might(r, "u1") == 4  # x's printed 2 + the Might Bonus


def test_a_copied_aura_that_cannot_target_the_copier_makes_no_edge_to_what_it_reads():
    aura = ability("x-aura", op("plus", amount=1), ids("p"), mighty("q"))
    x = unit("x", 2, rules_text=(aura,))
    r = resolve(
        board(
            x,
            unit("y", 1),
            unit("p", 1),
            unit("q", 5),
            effects=(ongoing("mirror", op("copy", of="x"), ids("y"), 3),),
        )
    )
    # §5: only reads of what something could write make edges. Nothing writes q's Might or
    # copies onto x, so p needs neither q nor x, and y does not need x; p needs y because the
    # mirror writes y's abilities (x-aura@y exists only once it applied).
    assert r.needs == {"p": ["y"]}
    assert might(r, "p") == 3  # x-aura from x and x-aura@y from y


# -- edges of the output --------------------------------------------------------------------------


def test_might_below_zero_is_not_clamped():
    r = resolve(board(unit("u", 3), effects=(ongoing("m", op("minus", amount=5), ids("u"), 1),)))
    assert might(r, "u") == -2


def test_off_board_objects_report_printed_values():
    hand = unit("h", 5, zone="hand", keywords=(Keyword("Shield", 2),), tags=("Mech",))
    r = resolve(board(hand, effects=(ongoing("m", op("minus", amount=3), ids("h"), 1),)))
    c = r.objects["h"]
    assert (c.might, c.mighty, c.keywords, c.tags, c.zone) == (
        5,
        True,
        {"Shield": 2},
        ("Mech",),
        "hand",
    )
    assert "h" not in r.applied


def test_minus_min_and_plus_max_amounts():
    r = resolve(
        board(unit("u", 6), effects=(ongoing("mm", op("minus_min", amount=3, min=4), ids("u"), 1),))
    )
    assert might(r, "u") == 4
    r = resolve(
        board(unit("u", 1), effects=(ongoing("pm", op("plus_max", amount=3, max=10), ids("u"), 1),))
    )
    assert might(r, "u") == 4


def test_resolution_to_json_is_serialisable():
    r = resolve(board(fiora(buffed=True, status=("defending",))))
    data = json.loads(json.dumps(r.to_json()))
    assert data["engine"] == "reference"
    assert data["objects"]["fiora"]["might"] == 6
    assert data["applied"]["fiora"][1]["reasons"] == ["timestamp", "recheck"]


# -- python -m riftasp.reference ----------------------------------------------------------------

BOARD_JSON = json.dumps(
    {
        "players": ["alice"],
        "objects": [
            {
                "id": "u",
                "name": "U",
                "type": "unit",
                "owner": "alice",
                "zone": "base",
                "might": 4,
                "buff": True,
            }
        ],
    }
)


def _run_main(args: list[str], stdin: str):
    pytest.importorskip("riftasp.board_io")
    import subprocess
    import sys
    from pathlib import Path

    return subprocess.run(
        [sys.executable, "-m", "riftasp.reference", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
    )


def test_main_reads_one_board_and_writes_its_resolution():
    proc = _run_main([], BOARD_JSON)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["engine"] == "reference" and out["objects"]["u"]["might"] == 5


def test_main_reports_a_board_error_on_one_line_and_exits_2():
    proc = _run_main([], "{not json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1


def test_main_persistent_answers_each_line_and_survives_errors():
    proc = _run_main(["--persistent"], BOARD_JSON + "\n{not json\n" + BOARD_JSON + "\n")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["objects"]["u"]["might"] == 5
    assert set(lines[1]) == {"error"}
    assert lines[2] == lines[0]
