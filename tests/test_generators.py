"""The board generators (riftasp/rulesets/riftbound/strategies.py): the hard classes of issue 7 all occur, a profile's
exclusions are never drawn, and keywords follow the ruleset's keyword rules."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from riftasp.board_io import board_from_dict
from riftasp.rulesets.riftbound.classes import CLASSES, board_classes
from riftasp.fuzz import fixed_constants
from riftasp.rulesets.riftbound.keywords import BONUS, NON_SUMMING, SUMMING, keyword_rules
from riftasp.model import Board
from riftasp.operations import OPERATIONS
from riftasp.profile import FEATURES, NAMES, Profile
from riftasp.resources import layer_operations
from riftasp.rulesets.riftbound.strategies import MOTIFS, boards, class_boards

from budget import budget, spread
from conftest import EXAMPLES

# The names these generators (Riftbound's) can draw: its operations and the features (Sorcery's
# operations are drawn by riftasp/rulesets/sorcery/strategies.py: tests/test_sorcery_generated.py).
RIFTBOUND_NAMES = tuple(n for n in NAMES if n in FEATURES or OPERATIONS[n].functor in layer_operations("riftbound"))


def draw(strategy, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """`count` boards from a strategy, the same ones every time."""
    drawn: list[dict[str, Any]] = []

    @hypothesis_seed(seed)
    @settings(database=None, max_examples=count, phases=(Phase.generate,), deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def collect(data):
        drawn.append(data)

    with fixed_constants():
        collect()
    return drawn


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    return draw(boards(), 300)


def test_every_hard_class_occurs_in_300_boards(corpus):
    seen = Counter(c for data in corpus for c in board_classes(data))
    assert {c: seen[c] for c in CLASSES if seen[c] < 5} == {}, seen
    # Small boards: shrinking and the solver stay fast.
    sizes = Counter(len(data["objects"]) for data in corpus)
    assert sum(n for objects, n in sizes.items() if objects <= 4) >= 0.9 * len(corpus), sizes


@pytest.mark.thorough
@pytest.mark.parametrize("name", [m for m in MOTIFS if m in CLASSES])
def test_each_class_generator_builds_its_class(name):
    built = draw(class_boards(name), budget(30, 200), seed=1)
    hits = sum(name in board_classes(data) for data in built)
    assert hits >= 0.75 * len(built), f"{hits} of {len(built)} boards of class {name}"


def test_classes_of_issue_7_examples():
    # The shapes issue 7 gives for each class, recognised structurally.
    def unit(oid, might, **fields):
        return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield",
                "might": might} | fields  # fmt: skip

    a = {"players": ["alice", "bob"], "objects": [unit("u1", 4, buff=True, keywords=["Shield"], status=["defending"],
         rules_text=[{"id": "t", "op": {"op": "gain_keywords", "keywords": ["Tank"]}, "conditions": [{"mighty": "self"}]}])],
         "effects": [{"id": "l", "controller": "alice", "timestamp": 3, "op": {"op": "lose_keywords", "keywords": ["Shield"]},
                      "target": {"ids": ["u1"]}, "conditions": [{"has_keyword": "Tank", "of": "target"}]}]}  # fmt: skip
    assert "A" in board_classes(a)
    f = {"players": ["alice", "bob"], "objects": [unit("u1", 4)], "effects": [
        {"id": "a", "controller": "bob", "timestamp": 1, "op": {"op": "set_controller", "player": "bob"},
         "target": {"ids": ["u1"]}},
        {"id": "c", "controller": "alice", "timestamp": 2, "op": {"op": "set_might", "value": 7}, "target": {"ids": ["u1"]}},
        {"id": "b", "controller": "alice", "timestamp": 3, "op": {"op": "set_might", "value": 2}, "target": {"ids": ["u1"]},
         "conditions": [{"controlled_by": "bob", "of": "target"}]}]}  # fmt: skip
    assert "F" in board_classes(f)
    g = {"players": ["alice", "bob"], "objects": [unit("u1", 5, rules_text=[
        {"id": "g", "op": {"op": "gain_keywords", "keywords": ["Ganking"]}, "conditions": [{"mighty": "self"}], "timestamp": 1},
        {"id": "s", "op": {"op": "gain_keywords", "keywords": ["Shield"]}, "conditions": [{"mighty": "self"}], "timestamp": 2},
        {"id": "d", "op": {"op": "minus", "amount": 2}, "conditions": [{"has_keyword": "Shield"}], "timestamp": 3}])]}  # fmt: skip
    assert "G" in board_classes(g)
    loop = board_from_dict({"players": ["alice", "bob"], "objects": [unit("u1", 2), unit("u2", 5)], "effects": [
        {"id": "c-a", "controller": "alice", "timestamp": 3, "op": {"op": "copy", "of": "u2"}, "target": {"ids": ["u1"]}},
        {"id": "c-b", "controller": "bob", "timestamp": 8, "op": {"op": "copy", "of": "u1"}, "target": {"ids": ["u2"]}}]})  # fmt: skip
    assert "D" in board_classes(loop)
    # A plain example is none of them.
    assert board_classes(board_from_dict({"players": ["a"], "objects": [unit("u1", 3) | {"owner": "a"}]})) == set()
    assert "E" in board_classes(_example("boots-attached") | {"effects": [
        {"id": "m", "controller": "alice", "timestamp": 7, "op": {"op": "copy", "of": "m1"}, "target": {"ids": ["u1"]}}],
        "objects": [*_example("boots-attached")["objects"], unit("m1", 2, tags=["Poro"])]})  # fmt: skip


def _example(name: str) -> dict[str, Any]:
    import json

    return json.loads((EXAMPLES / f"{name}.json").read_text())


# ---- profiles ---------------------------------------------------------------------------------


def _effects(board: Board):
    for obj in board.objects:
        for part, texts in (("rules", obj.rules_text), ("effect", obj.effect_text)):
            for e in texts:
                yield obj, part, e
    for e in board.effects:
        yield None, "ongoing", e


def shows(data: dict[str, Any], name: str) -> bool:
    """Whether a board uses an operation or feature that a profile can leave out."""
    board = board_from_dict(data)
    effects = list(_effects(board))
    if name not in FEATURES:
        return any(e.op.name == name for _, _, e in effects)
    keywords = [k for o in board.objects for k in o.keywords] + [k for _, _, e in effects for k in e.op.keywords]
    return {
        "gear": lambda: any(o.card_type == "gear" for o in board.objects),
        "cards": lambda: any(o.card for o in board.objects),
        "numbered_keywords": lambda: any(k.value is not None for k in keywords),
        "conditions": lambda: any(e.conditions for _, _, e in effects),
        # a condition reading another object than the one its effect changes
        "loops": lambda: any(c.of not in ("target", e.target.kind) for _, _, e in effects for c in e.conditions),
        "filters": lambda: any(e.target.kind == "filter" for _, _, e in effects),
        "status": lambda: any(o.status for o in board.objects)
        or any(c.kind == "status" for _, _, e in effects for c in e.conditions),
        "off_board": lambda: any(not o.on_board for o in board.objects),
        "immediate": lambda: board.reading("condition_timing") == "immediate",
        "buffs": lambda: any(o.buffed for o in board.objects),
    }[name]()


def test_the_default_profile_draws_every_name(corpus):
    missing = [name for name in RIFTBOUND_NAMES if not any(shows(data, name) for data in corpus)]
    assert missing == []


@pytest.mark.thorough
@pytest.mark.parametrize("name", spread(RIFTBOUND_NAMES, 2))
def test_a_profile_leaves_out_what_it_names(name):
    profile = Profile(frozenset({name}))
    drawn = draw(boards(profile=profile), budget(25, 300), seed=2)
    assert [data for data in drawn if shows(data, name)] == []


def test_a_profile_of_many_exclusions_still_draws_boards():
    profile = Profile(frozenset({"copy", "set_controller", "double", "lose_all_abilities", "add_tag", "remove_tag",
                                 "gear", "cards", "loops", "filters"}), max_objects=3, max_effects=3)  # fmt: skip
    drawn = draw(boards(profile=profile), 60, seed=3)
    assert all(len(d["objects"]) <= 3 for d in drawn)
    assert any(d.get("effects") or any("rules_text" in o for o in d["objects"]) for d in drawn)
    for name in profile.without:
        assert not any(shows(d, name) for d in drawn), name


# ---- keyword rules ----------------------------------------------------------------------------


def test_keyword_table():
    rules = keyword_rules("riftbound")
    assert SUMMING == {"Assault", "Deflect", "Shield", "Hunt"} == rules.summing
    assert NON_SUMMING == {"Ganking", "Tank", "Temporary", "Backline"} == rules.non_summing
    assert not rules.may_carry_number("Ganking") and rules.may_carry_number("Shield")
    assert BONUS == {"Shield": "defending", "Assault": "attacking"}


def test_generated_keywords_follow_the_keyword_rules(corpus):
    numbered = Counter()
    for data in corpus:
        board = board_from_dict(data)
        keywords = [k for o in board.objects for k in o.keywords]
        keywords += [k for _, _, e in _effects(board) for k in e.op.keywords]
        for k in keywords:
            if k.value is not None:
                numbered[k.name] += 1
    assert numbered and set(numbered) <= SUMMING, numbered
