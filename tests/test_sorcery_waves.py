"""Waves (docs/semantics-sorcery.md §9, "A wave"): past the end of a run, the ASP side applies in
the same step each effect that meets none of the effects before it in pick order not applied
yet. Picked one at a time (the rules' procedure, and the reference engine's), every effect is
picked as the least due one: the answer — values, the trace's rows, their step numbers, before and
after — must be that one. These boards put a clash (two affinity or sub-type changes of one
object: each row shows the set the one before left) in front of effects elsewhere, and one that
reads what a held-back effect writes."""

from __future__ import annotations

from typing import Any

from riftasp.board_io import board_from_dict
from riftasp.facts import board_facts
from riftasp.reference import resolve as reference
from riftasp.resolve import resolve_facts


def minion(oid: str, row: int, column: int, **more: Any) -> dict:
    return {"id": oid, "name": oid.title(), "type": "minion", "owner": "alice", "zone": "realm",
            "row": row, "column": column, "power": 1, "since": 0} | more


def spell(eid: str, op: dict, timestamp: int, *, ids: list[str] | None = None,
          filter: dict | None = None) -> dict:
    target = {"ids": ids} if ids is not None else {"filter": filter}
    return {"id": eid, "op": op, "target": target, "timestamp": timestamp, "controller": "alice"}


def realm(objects: list[dict], effects: list[dict]) -> Any:
    return board_from_dict({"ruleset": "sorcery", "players": ["alice", "bob"],
                            "active_player": "alice", "objects": objects, "effects": effects})


def rows(resolution: dict) -> list[tuple]:
    """Every application as (step, effect, object, before, after), in step order."""
    return sorted((a["step"], a["effect"], o, a["before"], a["after"])
                  for o, apps in resolution["applied"].items() for a in apps)


def trace(resolution: dict) -> dict:
    return {o: [{k: v for k, v in a.items() if k != "why"} for a in apps]
            for o, apps in resolution["applied"].items()}


def both(board) -> tuple[dict, int]:
    """The ASP answer (checked equal to the reference engine's, trace and all) and its steps."""
    resolution, stats = resolve_facts(board_facts(board), board.ruleset)
    asp = resolution.to_json()
    ref = reference(board).to_json()
    assert asp["objects"] == ref["objects"]
    assert trace(asp) == trace(ref)
    return asp, stats.steps


def gain(element: str) -> dict:
    return {"op": "gain_affinity", "element": element}


def test_an_effect_past_a_clash_is_applied_with_the_run_and_numbered_after_the_held_back_one():
    # water and fire both change a's affinity (each row shows the set the one before left): the
    # run ends at water. airborne on b meets neither; picked one at a time it comes third.
    b = realm([minion("a", 1, 1), minion("b", 4, 5)],
              [spell("water", gain("water"), 1, ids=["a"]), spell("fire", gain("fire"), 2, ids=["a"]),
               spell("wings", {"op": "gain_keywords", "keywords": ["Airborne"]}, 3, ids=["b"])])
    asp, _ = both(b)
    assert rows(asp) == [(1, "water", "a", [], ["water 1"]),
                         (2, "fire", "a", ["water 1"], ["fire 1", "water 1"]),
                         (3, "wings", "b", [], ["Airborne"])]
    assert asp["objects"]["b"]["keywords"] == {"Airborne": 1}


def test_two_clashes_in_distant_corners_take_the_steps_of_one():
    # a: water then fire; c: water then fire, their timestamps interleaved. A run ends at the
    # first clash; the other corner's first change goes in a wave with it, so the second corner
    # costs no step (without waves: water | c's water | both fires, one step more).
    one = realm([minion("a", 1, 1), minion("c", 4, 5)],
                [spell("water", gain("water"), 1, ids=["a"]), spell("fire", gain("fire"), 3, ids=["a"])])
    two = realm([minion("a", 1, 1), minion("c", 4, 5)],
                [spell("water", gain("water"), 1, ids=["a"]), spell("water_c", gain("water"), 2, ids=["c"]),
                 spell("fire", gain("fire"), 3, ids=["a"]), spell("fire_c", gain("fire"), 4, ids=["c"])])
    asp, steps = both(two)
    assert [(step, effect) for step, effect, *_ in rows(asp)] == [
        (1, "water"), (2, "water_c"), (3, "fire"), (4, "fire_c")]
    assert asp["objects"]["c"]["affinity"] == ["fire 1", "water 1"]
    assert steps == both(one)[1]


def test_a_wave_effect_is_numbered_before_a_later_step_s_newer_pick():
    # water, fire, earth all change a (three steps); wings (timestamp 3) goes with water's step,
    # and its row comes between fire's (2) and earth's (4), where picking one at a time puts it.
    b = realm([minion("a", 1, 1), minion("b", 4, 5)],
              [spell("water", gain("water"), 1, ids=["a"]), spell("fire", gain("fire"), 2, ids=["a"]),
               spell("wings", {"op": "gain_keywords", "keywords": ["Airborne"]}, 3, ids=["b"]),
               spell("earth", gain("earth"), 4, ids=["a"])])
    asp, _ = both(b)
    assert [(step, effect) for step, effect, *_ in rows(asp)] == [
        (1, "water"), (2, "fire"), (3, "wings"), (4, "earth")]
    assert asp["objects"]["a"]["affinity"] == ["earth 1", "fire 1", "water 1"]


def test_an_effect_that_reads_what_a_held_back_effect_writes_waits_for_it():
    # beast makes a a Beast (held back behind mortal: both change a's sub-types); spirit names
    # the Beasts, so it reads a's sub-types: it must see beast's change, and applies to a too.
    b = realm([minion("a", 1, 1), minion("b", 4, 5, tags=["Beast"])],
              [spell("mortal", {"op": "add_subtype", "subtype": "Mortal"}, 1, ids=["a"]),
               spell("beast", {"op": "add_subtype", "subtype": "Beast"}, 2, ids=["a"]),
               spell("spirit", {"op": "add_subtype", "subtype": "Spirit"}, 3,
                     filter={"subtype": "Beast"})])
    asp, _ = both(b)
    assert [(step, effect, o) for step, effect, o, *_ in rows(asp)] == [
        (1, "mortal", "a"), (2, "beast", "a"), (3, "spirit", "a"), (4, "spirit", "b")]
    assert asp["objects"]["a"]["subtypes"] == ["Beast", "Mortal", "Spirit"]
