"""Sorcery's readings (docs/semantics-sorcery.md §5, §8, §11) and the variants that ship them:
sorcery-all-dependencies (dependency_layers = all), sorcery-clamp (power_floor = each_change) and
sorcery-codex (the official Codex's layer order). Each board is resolved by both engines, the
reference engine and the ASP resolver, with the values the rules give written out; and `riftasp
check` (its invariants and what the rules allow) judges each answer under its own ruleset."""

from __future__ import annotations

from dataclasses import replace

import pytest

from budget import thorough_only
from conftest import ROOT
from riftasp.board_io import board_from_dict, load_board
from riftasp.check import check_report
from riftasp.crosscheck import is_stored_output
from riftasp.model import Board
from riftasp.reference import resolve as resolve_reference
from riftasp.resolve import resolve as resolve_asp
from riftasp.result import Resolution
from riftasp.rulesets import ruleset

EXAMPLES = sorted(p for p in (ROOT / "examples" / "sorcery").glob("*.json") if not is_stored_output(p))
VARIANTS = ("sorcery-clamp", "sorcery-all-dependencies", "sorcery-codex")


@pytest.fixture(params=["reference", "asp"])
def engine(request) -> str:
    return request.param


def resolved(board: Board, engine: str) -> Resolution:
    return (resolve_asp if engine == "asp" else resolve_reference)(board)


def under(board: Board, name: str | None = None, **readings: str) -> Board:
    """The board under another ruleset, or with research readings over its own."""
    if name is not None:
        board = replace(board, ruleset=ruleset(name))
    return replace(board, readings=tuple(readings.items()))


def judged_consistent(board: Board, res: Resolution) -> bool:
    """`riftasp check` finds no violation, and the declarative checker judged the claim."""
    report = check_report(board, res.to_json(), declarative=True)
    return report.violations == [] and report.skipped == [] and report.declarative.claim_consistent is True


def rows(res: Resolution, oid: str) -> list[tuple]:
    return [(a.step, a.effect, a.layer, a.before, a.after, "dependency" in a.reasons, a.depends_on)
            for a in res.applied.get(oid, [])]  # fmt: skip


def compared(out: dict) -> dict:
    """A resolution as the two engines must agree on it: all but the engine's name and the prose."""
    out = {k: v for k, v in out.items() if k != "engine"}
    out["applied"] = {o: [{k: v for k, v in a.items() if k != "why"} for a in apps] for o, apps in out["applied"].items()}
    return out


def realm_board(objects: list[dict], effects: list[dict]) -> Board:
    placed = [{"owner": "alice", "zone": "realm", "row": 1, "column": 1, "since": 0} | o for o in objects]
    return board_from_dict({"ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
                            "objects": placed, "effects": effects}, "readings")  # fmt: skip


# -- §5: dependency_layers = all ------------------------------------------------------------------

# An older effect gives the Spirit sub-type to Mortals; a newer one makes the Wisp a Mortal. Both
# apply in layer 2 (type), where [S]'s dependency rule, read for control effects only, does not
# look: timestamps decide, and the Wisp is not yet a Mortal when the older one applies.
MORTAL_COIL = realm_board(
    [{"id": "wisp", "name": "Wisp", "type": "minion", "power": 1}],
    [{"id": "spirits_rise", "op": {"op": "add_subtype", "subtype": "Spirit"}, "target": {"filter": {"subtype": "Mortal"}},
      "timestamp": 1, "controller": "alice"},
     {"id": "mortal_coil", "op": {"op": "add_subtype", "subtype": "Mortal"}, "target": {"ids": ["wisp"]},
      "timestamp": 2, "controller": "bob"}])  # fmt: skip


def test_in_the_type_layer_timestamps_decide_when_the_dependency_rule_is_for_control_effects(engine):
    res = resolved(MORTAL_COIL, engine)
    assert res.objects["wisp"].subtypes == ("Mortal",)
    assert rows(res, "wisp") == [(1, "mortal_coil", "type", [], ["Mortal"], False, ())]
    assert judged_consistent(MORTAL_COIL, res)


@pytest.mark.parametrize("how", ["reading", "variant"])
def test_with_the_dependency_rule_in_every_layer_the_newer_sub_type_change_applies_first(engine, how):
    # "apply the independent effect first …, then apply any dependent effects … ignoring normal
    # timestamp order": the older effect depends on the newer one (applying it changes what the
    # older one's filter names), so the Wisp becomes a Mortal first, then a Spirit.
    board = under(MORTAL_COIL, dependency_layers="all") if how == "reading" else under(MORTAL_COIL, "sorcery-all-dependencies")
    res = resolved(board, engine)
    assert res.objects["wisp"].subtypes == ("Mortal", "Spirit")
    assert rows(res, "wisp") == [(1, "mortal_coil", "type", [], ["Mortal"], True, ()),
                                 (2, "spirits_rise", "type", ["Mortal"], ["Mortal", "Spirit"], True, ("mortal_coil",))]
    assert res.dependency_cycles == []
    assert judged_consistent(board, res)


def test_an_answer_with_a_dependency_in_the_type_layer_breaks_the_control_only_reading():
    # The checkers read the reading: judged under Sorcery's own (control effects only), the
    # all-layers answer has a dependency the rule does not give, and the final state no calculation
    # obeying timestamp order in layer 2 reaches.
    res = resolved(under(MORTAL_COIL, dependency_layers="all"), "reference")
    report = check_report(MORTAL_COIL, res.to_json(), declarative=True)
    assert {(v.invariant, v.check, v.effect) for v in report.violations} == {
        ("trace-replay", "dependency-layers", "spirits_rise"), ("rules-allow", "timestamp", "spirits_rise"),
        ("rules-allow", "consistent-subtypes", None)}


# alice's board effect takes control of her enemies' minions (a board effect's controller is its
# own: under [S]'s rule nothing it depends on); bob's newer one takes alice's Grunt.
ENEMY_LINES = realm_board(
    [{"id": "grunt", "name": "Grunt", "type": "minion", "power": 2}],
    [{"id": "take_enemies", "op": {"op": "gain_control"}, "target": {"filter": {"relation": "enemy", "of_type": "minion"}},
      "timestamp": 1, "controller": "alice"},
     {"id": "turncoat", "op": {"op": "gain_control"}, "target": {"ids": ["grunt"]}, "timestamp": 2, "controller": "bob"}])  # fmt: skip


def test_a_control_effect_whose_filter_a_newer_one_changes_waits_for_it_only_with_the_rule_in_every_layer(engine):
    # Control effects only: alice's goes first and finds no enemy minion; bob's takes the Grunt.
    res = resolved(ENEMY_LINES, engine)
    assert res.objects["grunt"].controller == "bob"
    assert rows(res, "grunt") == [(1, "turncoat", "control", "alice", "bob", False, ())]
    assert judged_consistent(ENEMY_LINES, res)
    # Every layer (and so every way one effect changes what another applies to): bob's takes the
    # Grunt first, which makes it an enemy minion alice's then takes back.
    board = under(ENEMY_LINES, "sorcery-all-dependencies")
    res = resolved(board, engine)
    assert res.objects["grunt"].controller == "alice"
    assert rows(res, "grunt") == [(1, "turncoat", "control", "alice", "bob", True, ()),
                                  (2, "take_enemies", "control", "bob", "alice", True, ("turncoat",))]
    assert judged_consistent(board, res)


def test_flood_then_drought_still_go_by_timestamp_with_the_rule_in_every_layer(engine):
    # [S] "these cases are handled nicely already by the timestamp rule": neither changes what the
    # other applies to, so neither depends on the other.
    for name, affinity in (("flood-then-drought", ("earth 1",)), ("drought-then-flood", ("earth 1", "water 1"))):
        board = under(load_board(ROOT / "examples" / "sorcery" / f"{name}.json"), "sorcery-all-dependencies")
        res = resolved(board, engine)
        assert res.objects["plain"].affinity == affinity
        assert all("dependency" not in a.reasons for apps in res.applied.values() for a in apps)


# -- §1: the Codex's layer order --------------------------------------------------------------------

# alice's older effect makes her Soldier a Mortal (type changing); bob's newer one silences every
# Mortal (ability removing). The seed orders type before ability removing; the Codex the other way.
ENLISTED = realm_board(
    [{"id": "soldier", "name": "Soldier", "type": "minion", "power": 2, "keywords": ["Airborne"]}],
    [{"id": "enlist", "op": {"op": "add_subtype", "subtype": "Mortal"}, "target": {"ids": ["soldier"]},
      "timestamp": 1, "controller": "alice"},
     {"id": "hush", "op": {"op": "silence"}, "target": {"filter": {"subtype": "Mortal"}}, "timestamp": 2,
      "controller": "bob"}])  # fmt: skip


def test_in_the_seed_s_order_the_soldier_is_a_mortal_when_the_silence_applies(engine):
    res = resolved(ENLISTED, engine)
    soldier = res.objects["soldier"]
    assert (soldier.subtypes, soldier.silenced, soldier.keywords) == (("Mortal",), True, {})
    assert rows(res, "soldier") == [
        (1, "enlist", "type", [], ["Mortal"], False, ()),
        (2, "hush", "ability_removing", {"abilities": [], "keywords": ["Airborne"]}, {"abilities": [], "keywords": []},
         False, ())]  # fmt: skip
    assert judged_consistent(ENLISTED, res)


def test_in_the_codex_s_order_the_silence_applies_before_the_soldier_is_a_mortal(engine):
    # The Codex: "copy; disabling/silencing; control; type; …": layer 2 is ability removing, and
    # the silence names no Mortal yet.
    board = under(ENLISTED, "sorcery-codex")
    res = resolved(board, engine)
    soldier = res.objects["soldier"]
    assert (soldier.subtypes, soldier.silenced, soldier.keywords) == (("Mortal",), False, {"Airborne": 1})
    assert rows(res, "soldier") == [(1, "enlist", "type", [], ["Mortal"], False, ())]
    assert judged_consistent(board, res)


def test_the_codex_variant_is_judged_by_sorcery_s_checkers_which_read_the_layer_order():
    # Sorcery's checkers read the layer table from the ruleset value (the plugin says so), so a
    # variant that only reorders it takes them; the seed's answer breaks the Codex's order.
    codex = ruleset("sorcery-codex")
    assert codex.checker() is ruleset("sorcery").checker() and codex.declarative() is not None
    seed_answer = resolved(ENLISTED, "reference")
    report = check_report(under(ENLISTED, "sorcery-codex"), seed_answer.to_json(), declarative=True)
    assert ("trace-replay", "one-pass", "hush") in {(v.invariant, v.check, v.effect) for v in report.violations}


# -- §8: power_floor --------------------------------------------------------------------------------

# A Beast of power 3 loses 5, then gains 4.
DRAINED = realm_board(
    [{"id": "beast", "name": "Beast", "type": "minion", "power": 3}],
    [{"id": "drain", "op": {"op": "minus", "amount": 5}, "target": {"ids": ["beast"]}, "timestamp": 1, "controller": "bob"},
     {"id": "feed", "op": {"op": "plus", "amount": 4}, "target": {"ids": ["beast"]}, "timestamp": 2, "controller": "alice"}])  # fmt: skip


def test_power_read_as_at_least_zero_keeps_the_running_value(engine):
    res = resolved(DRAINED, engine)
    assert res.objects["beast"].power == 2  # 3 - 5 + 4
    assert rows(res, "beast") == [(1, "drain", "power", 3, -2, False, ()), (2, "feed", "power", -2, 2, False, ())]
    assert judged_consistent(DRAINED, res)


def test_power_clamped_at_every_change_never_runs_below_zero(engine):
    board = under(DRAINED, "sorcery-clamp")
    res = resolved(board, engine)
    assert res.objects["beast"].power == 4  # 3 - 5 = 0, then + 4
    assert rows(res, "beast") == [(1, "drain", "power", 3, 0, False, ()), (2, "feed", "power", 0, 4, False, ())]
    assert judged_consistent(board, res)


# -- §2: entry_order --------------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["listing", "choice"])
def test_cards_entering_together_resolve_in_listing_order_under_either_entry_order_reading(engine, order):
    # "choice" is for `riftasp outcomes`, which tries every order; resolve takes the listing order
    # under both and records the choice (Flood, then Drought: the Drought wins).
    board = under(load_board(ROOT / "examples" / "sorcery" / "entering-together-chosen-order.json"), entry_order=order)
    res = resolved(board, engine)
    assert res.objects["plain"].affinity == ("earth 1",)
    assert [(a.effect, "choice" in a.reasons) for a in res.applied["plain"]] == [("flood.flood", True),
                                                                                 ("drought.drought", False)]
    assert res.timestamp_ties == [["drought.drought", "flood.flood"]]
    assert judged_consistent(board, res)


# -- every example under every shipped variant ------------------------------------------------------

PAIRS = [(v, p) for v in VARIANTS for p in EXAMPLES]
QUICK = PAIRS[::11]  # (a few of each variant's, a different few each: the thorough run has all of them)


def agree_and_keep_the_rules(variant: str, path) -> None:
    board = under(load_board(path), variant)
    reference, asp = resolve_reference(board), resolve_asp(board)
    assert compared(asp.to_json()) == compared(reference.to_json())
    assert judged_consistent(board, reference) and judged_consistent(board, asp)


@pytest.mark.parametrize(("variant", "path"), QUICK, ids=lambda x: getattr(x, "stem", x))
def test_examples_under_a_variant_agree_on_both_engines_and_keep_its_rules(variant, path):
    agree_and_keep_the_rules(variant, path)


@thorough_only
@pytest.mark.parametrize(("variant", "path"), [p for p in PAIRS if p not in QUICK], ids=lambda x: getattr(x, "stem", x))
def test_every_example_under_every_variant_agrees_on_both_engines_and_keeps_its_rules(variant, path):
    agree_and_keep_the_rules(variant, path)
