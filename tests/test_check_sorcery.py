"""`riftasp check` on Sorcery answers that break a rule (docs/check.md, Sorcery): each tampered
answer of an example is reported with the violation of the rule it breaks. (The examples' own
answers are consistent: tests/test_sorcery_generated.py.)"""

from __future__ import annotations

import json

import pytest

from conftest import ROOT
from riftasp.board_io import load_board
from riftasp.check import FINAL, TRACE, check

EXAMPLES = ROOT / "examples" / "sorcery"


def answer(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))


def found(name: str, res: dict) -> set[tuple]:
    """(object, invariant, check, effect) of every violation of `res` on example `name`'s board."""
    return {(v.object, v.invariant, v.check, v.effect) for v in check(load_board(EXAMPLES / f"{name}.json"), res)}


def without(res: dict, oid: str, effect: str) -> dict:
    res["applied"][oid] = [a for a in res["applied"][oid] if a["effect"] != effect]
    return res


@pytest.mark.parametrize("example, oid, effect", [
    ("two-smokestacks", "smoke_b", "smoke_a.smoke"),  # "other nearby sites": a filter with a relation
    ("king-then-mesmerism", "soldier_b", "king.mortals_power"),  # "other Mortals": one without
])
def test_an_effect_left_off_an_object_it_named_when_picked_is_reported(example, oid, effect):
    # An effect applies to every object its target names when it is picked, whose conditions hold
    # when its turn comes (§3): one of them left out is reported, at that object.
    assert (oid, FINAL, "targets", effect) in found(example, without(answer(example), oid, effect))


def test_an_effect_applied_although_its_condition_fails_is_reported():
    # Bound Spirit is disabled unless adjacent to an allied Spellcaster (§4). The answer where
    # the Troll carrying Eerie Coral is bob's (spirit disabled), checked against the board where
    # both are alice's: the disable applied although its condition did not hold.
    res = answer("bound-spirit-alone")
    assert ("spirit", FINAL, "conditions", "spirit.bound") in found("bound-spirit-next-to-troll-with-coral", res)


def test_an_older_effect_passed_over_at_its_position_is_reported():
    # At one position effects go in timestamp order (§2): the skeleton's +2 (timestamp 2) put
    # before its -3 (timestamp 1) in power's addition and subtraction.
    res = answer("power-layers")
    weakened, boosted = res["applied"]["skeleton"]
    res["applied"]["skeleton"] = [boosted | {"step": 3, "before": 1, "after": 3},
                                  weakened | {"step": 4, "before": 3, "after": 0}]  # fmt: skip
    assert ("skeleton", TRACE, "timestamp-order", "weakened") in found("power-layers", res)


def test_a_row_naming_nothing_on_the_board_is_reported():
    res = answer("power-layers")
    res["applied"]["troll"][0]["effect"] = "no_such_effect"
    assert ("troll", TRACE, "known", "no_such_effect") in found("power-layers", res)

