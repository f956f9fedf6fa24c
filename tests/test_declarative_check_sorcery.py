"""The declarative checker for Sorcery (issue 35; riftasp/rulesets/sorcery/check/declarative.py,
encodings/check/sorcery/; docs/check.md, "What the rules allow, in Sorcery"): it judges a
resolution's final values — with its trace or without one — by whether some calculation the
rules allow reaches them, never by the engines' step machine. It never flags a right answer; it
flags nearly every answer with one value wrong."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, seed, settings

from budget import budget, spread
from conftest import ROOT
from riftasp.board_io import board_from_dict, load_board
from riftasp.check import DECLARATIVE, check_report
from riftasp.rulesets.sorcery.check import declarative as DS
from riftasp.check.declarative import examine, judge
from riftasp.crosscheck import is_stored_output
from riftasp.reference import resolve as reference_resolve
from riftasp.resolve import resolve as asp_resolve
from riftasp.rulesets.sorcery.strategies import sorcery_boards

EXAMPLES = ROOT / "examples" / "sorcery"
BOARDS = sorted(p for p in EXAMPLES.glob("*.json") if not is_stored_output(p))


def stored_outputs(path):
    """An example's golden outputs: the ASP resolver's and the reference engine's."""
    return [p for p in (path.with_name(path.stem + ".expected.json"), path.with_name(path.stem + ".reference.expected.json"))
            if p.exists()]  # fmt: skip


def untraced(resolution: dict) -> dict:
    out = copy.deepcopy(resolution)
    out["applied"] = None
    return out


def flags(board, resolution) -> list:
    return [v for v in judge(board, resolution).violations if v.invariant == DECLARATIVE]


def mutations(board, resolution):
    """The answer without its trace with ONE value changed: power ±1, a keyword or an ability
    dropped, the controller changed, a sub-type added, silenced or disabled flipped (objects in
    the realm)."""
    realm = {o.id for o in board.objects if o.zone == "realm"}
    for oid, final in sorted(resolution["objects"].items()):
        if oid not in realm:
            continue

        def changed(label, change):
            out = untraced(resolution)
            change(out["objects"][oid])
            return f"{oid}: {label}", out

        if final["power"] is not None:
            yield changed("power + 1", lambda x: x.update(power=x["power"] + 1))
            if final["power"] > 0:
                yield changed("power - 1", lambda x: x.update(power=x["power"] - 1))
        for k in final["keywords"]:
            yield changed(f"keyword {k} dropped", lambda x, k=k: x["keywords"].pop(k))
        for a in final.get("abilities", []):
            yield changed(f"ability {a} dropped", lambda x, a=a: x["abilities"].remove(a))
        for p in board.players:
            if p != final["controller"]:
                yield changed(f"controller {p}", lambda x, p=p: x.update(controller=p))
        sub = "Beast" if "Mortal" in final["subtypes"] else "Mortal"
        yield changed(f"sub-type {sub} added", lambda x: x["subtypes"].append(sub))
        yield changed("silenced flipped", lambda x: x.update(silenced=not x["silenced"]))
        yield changed("disabled flipped", lambda x: x.update(disabled=not x["disabled"]))


def drawn_boards(count: int, at: int) -> list[dict]:
    """`count` generated boards, the same ones every run (hypothesis' seed `at`)."""
    found: list[dict] = []

    @seed(at)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=sorcery_boards())
    def draw(data):
        found.append(data)

    draw()
    return found


# ---- right answers are accepted ------------------------------------------------------------------


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_every_example_s_stored_outputs_are_what_the_rules_allow_with_and_without_their_trace(path):
    board = load_board(path)
    for output in stored_outputs(path):
        resolution = json.loads(output.read_text(encoding="utf-8"))
        for answer in (resolution, untraced(resolution)):
            verdict = examine(board, answer)
            assert verdict.skipped is None, (output.name, verdict.skipped)
            assert verdict.violations == [] and verdict.claim_consistent is True, output.name


def test_an_order_only_difference_is_accepted_the_trace_is_not_judged():
    # Flood then Drought: the trace told backwards (Drought's row first) with the same final
    # values is the same answer to this checker: it judges final values, not the trace.
    path = EXAMPLES / "flood-then-drought.json"
    board = load_board(path)
    resolution = json.loads(path.with_name("flood-then-drought.expected.json").read_text())
    rows = [(o, row) for o, rs in resolution["applied"].items() for row in rs]
    steps = sorted(row["step"] for _, row in rows)
    for (_, row), step in zip(sorted(rows, key=lambda r: -r[1]["step"]), steps):
        row["step"] = step
    assert flags(board, resolution) == []


# ---- wrong answers are flagged -------------------------------------------------------------------


def test_a_power_changed_by_one_is_flagged():
    # Shrink, Overpower, Warp Spasm on one minion: 0, +2, x2 = 4 (docs/semantics-sorcery.md §1).
    board = load_board(EXAMPLES / "power-layers.json")
    resolution = untraced(json.loads((EXAMPLES / "power-layers.expected.json").read_text()))
    powered = next(o for o, f in resolution["objects"].items() if f["power"] == 4)
    resolution["objects"][powered]["power"] = 5
    found = flags(board, resolution)
    assert any(v.check == "consistent-power" and v.object == powered and v.expected == "4" and v.found == "5"
               for v in found)  # fmt: skip


def silence_board() -> dict:
    return {
        "ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
        "objects": [
            {"id": "king", "card": "King of the Realm", "owner": "bob", "zone": "realm", "row": 2, "column": 2, "since": 1},
            {"id": "soldier", "card": "Foot Soldier", "owner": "alice", "zone": "realm", "row": 2, "column": 3, "since": 2},
        ],
        "effects": [{"id": "hush", "timestamp": 5, "controller": "alice", "op": {"op": "silence"},
                     "target": {"ids": ["king"]}}],
    }  # fmt: skip


def test_a_silence_that_should_have_applied_missing_is_flagged():
    # The Silence spell on the King: the King is silenced before it could apply its abilities,
    # so the Foot Soldier stays alice's at power 1. An answer in which the silence never came
    # (the King's control and +1 applied, the King not silenced) is no calculation's.
    board = board_from_dict(silence_board())
    right = reference_resolve(board).to_json()
    assert right["objects"]["king"]["silenced"] is True and right["objects"]["soldier"]["controller"] == "alice"
    assert flags(board, untraced(right)) == []
    wrong = untraced(right)
    wrong["objects"]["king"].update(silenced=False, abilities=["king.mortals_control", "king.mortals_power"])
    wrong["objects"]["soldier"].update(controller="bob", power=2)
    found = flags(board, wrong)
    assert any(v.check == "not_applied" and v.effect == "hush" for v in found)
    assert any(v.check == "consistent-silenced" and v.object == "king" and v.expected == "true" for v in found)


@pytest.mark.thorough
def test_one_value_changed_is_flagged_nine_times_in_ten():
    # Every example and 35 drawn boards, at most 8 mutations an answer, in the thorough run; every
    # other example, 12 drawn boards and 4 mutations an answer by default.
    counted = flagged = 0
    missed = []
    answers = []
    for path in spread(BOARDS, 2):
        board = load_board(path)
        answers.append((path.stem, board, json.loads(stored_outputs(path)[0].read_text())))
    for n, data in enumerate(drawn_boards(6, budget(12, 35))):
        board = board_from_dict(data)
        answers.append((f"drawn {n}", board, reference_resolve(board).to_json()))
    for name, board, answer in answers:
        every = list(mutations(board, answer))
        most = budget(4, 8)
        for label, wrong in every[:: -(-len(every) // most)]:  # (at most `most` an answer, spread over the kinds)
            verdict = DS.examine(board, wrong, explain=False)
            if verdict.skipped:
                continue
            counted += 1
            if verdict.violations:
                flagged += 1
            else:
                missed.append(f"{name} {label}")
    assert counted >= budget(60, 250)
    assert flagged / counted >= 0.9, missed


# ---- the bound, the dispatch ---------------------------------------------------------------------


def test_a_board_over_the_bound_is_not_judged_never_flagged():
    data = silence_board()
    data["effects"] = [{"id": f"plus{i}", "timestamp": 10 + i, "controller": "alice", "op": {"op": "plus", "amount": 1},
                        "target": {"ids": ["soldier"]}} for i in range(DS.MAX_APPLICATIONS + 1)]  # fmt: skip
    board = board_from_dict(data)
    wrong = untraced(reference_resolve(board).to_json())
    wrong["objects"]["soldier"]["power"] += 1
    report = check_report(board, wrong, declarative=True)
    assert [v for v in report.violations if v.invariant == DECLARATIVE] == []
    assert any("more than the bound" in s for s in report.skipped)


def test_riftasp_check_asks_the_sorcery_checker_for_a_sorcery_board():
    board = board_from_dict(silence_board())
    right = reference_resolve(board).to_json()
    report = check_report(board, right, declarative=True)
    assert report.violations == [] and report.declarative.claim_consistent is True
    wrong = copy.deepcopy(right)
    wrong["objects"]["soldier"]["power"] = 3
    report = check_report(board, untraced(wrong), declarative=True)
    assert {v.check for v in report.violations if v.invariant == DECLARATIVE} >= {"consistent-power"}


# ---- generated boards ----------------------------------------------------------------------------


@pytest.mark.thorough
def test_both_engines_answers_on_generated_boards_are_what_the_rules_allow():
    judged = skipped = 0
    alarms = []

    @settings(max_examples=budget(4, 1000), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=sorcery_boards())
    def one(data):
        nonlocal judged, skipped
        board = board_from_dict(data)
        verdicts: dict[str, object] = {}  # the verdict depends only on the untraced answer: ask once when both agree
        for engine, answer in (("reference", reference_resolve(board).to_json()), ("asp", asp_resolve(board).to_json())):
            key = json.dumps({k: v for k, v in untraced(answer).items() if k != "engine"}, sort_keys=True)
            verdict = verdicts[key] = verdicts.get(key) or examine(board, untraced(answer))
            if verdict.skipped:
                skipped += 1
                continue
            judged += 1
            if verdict.violations:
                alarms.append((engine, data, [v.to_json() for v in verdict.violations]))

    one()
    assert alarms == []
    assert judged >= 2 * skipped  # most judged (the rest over the size bound)
