"""`riftasp properties` (riftasp/research/properties.py): each property holds on small exact
boards, and fails on a deliberately broken engine (the failure shrunk to a minimal board written
to --out); the report lines, bad input, the JSON shape; a small generated run of each ruleset."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from riftasp.board_io import board_from_dict, load_board
from riftasp.cli import app
from riftasp.research import properties as P
from riftasp.result import Characteristics
from riftasp.rulesets import ruleset

from conftest import EXAMPLES, ROOT

runner = CliRunner()
SORCERY = ROOT / "examples" / "sorcery"


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def unit(oid: str, might: int, owner: str = "alice", **more) -> dict:
    return {"id": oid, "name": f"Unit {oid}", "type": "unit", "owner": owner, "zone": "battlefield", "might": might, **more}


def effect(eid: str, op: dict, target: str, timestamp: int, **more) -> dict:
    return {"id": eid, "controller": "alice", "timestamp": timestamp, "op": op, "target": {"ids": [target]}, **more}


def board(objects: list[dict], effects: list[dict] = (), ruleset_name: str = "riftbound") -> dict:
    data = {"ruleset": ruleset_name, "players": ["alice", "bob"], "active_player": "alice", "objects": objects}
    if effects:
        data["effects"] = list(effects)
    return data


# Two units and three board effects with distinct timestamps: a set, a plus, a copy.
SMALL = board([unit("u1", 3), unit("u2", 5, owner="bob", tags=["Mech"])],
              [effect("e1", {"op": "set_might", "value": 4}, "u1", 1),
               effect("e2", {"op": "plus", "amount": 2}, "u2", 2),
               effect("e3", {"op": "add_tag", "tag": "Dragon"}, "u1", 3)])


# ---- engines broken on purpose ------------------------------------------------------------------


def _with_might(res, changes: dict[str, int]):
    """The resolution with some objects' Might moved by the given amounts."""
    objects = {}
    for oid, c in res.objects.items():
        if oid in changes and c.values.get("might") is not None:
            c = Characteristics(c.fields, {**c.values, "might": c.values["might"] + changes[oid]},
                                keywords=c.keywords, zone=c.zone, abilities=c.abilities)
        objects[oid] = c
    return replace(res, objects=objects)


def broken(change):
    """An engine: the reference engine's answer, then `change(board, resolution)`."""
    from riftasp.reference import resolve

    return lambda boards: [change(b, resolve(b)) for b in boards]


def first_listed_gains_one(b, res):  # depends on listing order
    return _with_might(res, {b.objects[0].id: 1})


def smallest_id_gains_one(b, res):  # depends on the ids' order
    return _with_might(res, {min(o.id for o in b.objects): 1})


def odd_entries_gain_one(b, res):  # depends on the timestamps' values
    return _with_might(res, {o.id: 1 for o in b.objects if o.since % 2})


def one_per_board_effect(b, res):  # counts the board effects, applied or not
    return _with_might(res, {o.id: len(b.effects) for o in b.objects})


def plus_lowers(b, res):  # each board +1 on an object takes 2 away
    lowered: dict[str, int] = {}
    for e in b.effects:
        if e.op.name == "plus" and e.op.amount == 1 and e.target.kind == "ids":
            for oid in e.target.ids:
                lowered[oid] = lowered.get(oid, 0) - 3
    return _with_might(res, lowered)


@pytest.fixture
def engine_as(monkeypatch):
    """Put a broken engine in place of both engines."""
    def put(resolver):
        monkeypatch.setitem(P.RESOLVERS, "reference", resolver)
        monkeypatch.setitem(P.RESOLVERS, "asp", resolver)
    return put


# ---- each property holds on small exact boards ----------------------------------------------


@pytest.mark.parametrize("name", ["order-independent", "rename", "renumber", "inert", "monotone-increase",
                                  "no-self-support"])
@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_each_property_holds_on_a_small_board(name, engine):
    assert P.judged(name, SMALL, engine) is None


@pytest.mark.parametrize("example", ["copy", "fiora-buffed-defending", "increase-to-5-newer-than-plus2",
                                     "boots-attached", "plus-that-held-itself-up", "shield-cannot-hold-itself-up"])
def test_the_properties_hold_on_examples(example):
    b = load_board(EXAMPLES / f"{example}.json")
    for name in ("order-independent", "rename", "renumber", "inert", "monotone-increase", "no-self-support"):
        verdict = P.judged(name, b, "reference")
        assert not isinstance(verdict, P.Failure), (name, str(verdict))


@pytest.mark.parametrize("example", ["two-kings-entering-together", "pallid-bust", "animated-silence",
                                     "two-sisters-remove-each-other", "power-layers"])
def test_the_properties_hold_on_sorcery_examples(example):
    b = load_board(SORCERY / f"{example}.json")
    for name in ("order-independent", "rename", "renumber", "inert", "monotone-increase", "no-self-support"):
        verdict = P.judged(name, b, "reference")
        assert not isinstance(verdict, P.Failure), (name, str(verdict))


def test_a_property_function_takes_a_board_and_says_none_or_why():
    assert P.order_independent(SMALL, "reference") is None
    assert P.rename(board_from_dict(SMALL), "reference") is None


# ---- what the properties do to a board ------------------------------------------------------


def test_renaming_reverses_the_order_of_ids_and_keeps_references():
    from riftasp.batch import renamed

    b = load_board(EXAMPLES / "boots-attached.json")
    objects, effects = P._renaming(b)
    assert sorted(objects, key=objects.get) == sorted(objects, reverse=True)
    variant = renamed(b, objects.__getitem__, effects.__getitem__)
    gear = next(o for o in variant.objects if o.card == "Boots of Swiftness")
    assert gear.attached_to == objects["u1"] and effects["boots.ganking"] == objects["boots"] + ".ganking"
    assert [e.id for e in gear.effect_text] == [effects["boots.ganking"]]
    back = {v: k for k, v in objects.items()}, {v: k for k, v in effects.items()}
    assert P._name_back(f"keyword:Ganking:{objects['u1']}:{effects['boots.ganking']}", *back) \
        == "keyword:Ganking:u1:boots.ganking"
    assert P._name_back(f"{effects['boots.ganking']}@{objects['u1']}", *back) == "boots.ganking@u1"
    assert P._name_back(f"buff:{objects['u1']}", *back) == "buff:u1"


def test_renumbering_maps_every_timestamp():
    b = board_from_dict(board([unit("u1", 3, since=2, buff=True, buff_since=4)],
                              [effect("e1", {"op": "plus", "amount": 1}, "u1", 5)]))
    r = P.renumbered(b)
    assert r.objects[0].since == 13 and dict(r.objects[0].params)["buff_since"] == 19 and r.effects[0].timestamp == 22


def test_a_permutation_keeps_effects_of_one_timestamp_in_their_order():
    items = ["a", "b", "c", "d"]
    assert P._keeping_ties(items, [1, 2, 1, 3], [3, 2, 1, 0]) == ("d", "a", "b", "c")


def test_an_inert_effect_names_a_tag_nothing_has_and_a_keyword_nothing_gets():
    b = board_from_dict(SMALL)
    plan = P._plan_inert(b, SMALL)
    labels = [label for label, _ in plan.variants]
    assert len(labels) == 6
    added = [v.effects[-1] for _, v in plan.variants]
    assert {e.target.filter.tag for e in added if e.target.kind == "filter"} == {"Inert"}
    assert {c.keyword for e in added for c in e.conditions} == {"Assault"}  # the first keyword no object has


def test_monotone_increase_is_judged_only_where_nothing_reads_the_number():
    reads = board([unit("u1", 3)], [effect("e1", {"op": "plus", "amount": 1}, "u1", 1, conditions=[{"mighty": "target"}])])
    assert isinstance(P.judged("monotone-increase", reads, "reference"), P.Skip)
    doubles = board([unit("u1", 3)], [effect("e1", {"op": "double"}, "u1", 1)])
    assert "amount (double)" in P.judged("monotone-increase", doubles, "reference").reason


def test_cards_entering_together_are_no_board_for_order_independence():
    b = board([{"id": "o1", "card": "Sisters of Silence", "owner": "bob", "zone": "realm", "row": 2, "column": 2, "since": 3},
               {"id": "o2", "card": "Sisters of Silence", "owner": "bob", "zone": "realm", "row": 3, "column": 2, "since": 3}],
              ruleset_name="sorcery")
    assert P.simultaneous_entries(board_from_dict(b))
    assert P.judged("order-independent", b, "reference") == P.Skip("cards entering together (a choice)")
    ordered = json.loads(json.dumps(b))
    ordered["objects"][0]["entry_order"], ordered["objects"][1]["entry_order"] = 0, 1
    assert not P.simultaneous_entries(board_from_dict(ordered))


# ---- each property fails on a broken engine ----------------------------------------------------


def test_order_independent_fails_on_an_engine_reading_listing_order_minimal_board_written(engine_as, tmp_path):
    engine_as(broken(first_listed_gains_one))
    # (--jobs 1: the broken engine is this process's; a worker process would have the real one)
    result = cli("properties", "riftbound", "--generate", 20, "--seed", 0, "--property", "order-independent",
                 "--engine", "reference", "--out", tmp_path, "--jobs", 1)
    assert result.exit_code == 1, result.output
    line = result.stdout.splitlines()[0]
    minimal = tmp_path / "riftbound-order-independent.json"
    assert line.startswith(f"riftbound order-independent: fails (minimal: {minimal}) on ")
    data = json.loads(minimal.read_text())
    assert len(data["objects"]) == 2 and "effects" not in data  # two objects are needed, and nothing else
    variant = json.loads((tmp_path / "riftbound-order-independent.variant.json").read_text())
    assert [o["id"] for o in variant["objects"]] == [o["id"] for o in reversed(data["objects"])]
    assert P.order_independent(data, "reference") is not None


def test_rename_fails_on_an_engine_reading_the_ids_order(engine_as):
    engine_as(broken(smallest_id_gains_one))
    failure = P.rename(SMALL, "reference")
    assert failure is not None and failure.property == "rename"
    assert {(d["object"], d["field"]) for d in failure.differences} == {("u1", "might"), ("u2", "might")}


def test_renumber_fails_on_an_engine_reading_timestamp_values(engine_as):
    engine_as(broken(odd_entries_gain_one))
    failure = P.renumber(SMALL, "reference")
    assert failure is not None and "renumbered" in str(failure)


def test_inert_fails_on_an_engine_that_counts_effects_it_never_applies(engine_as):
    engine_as(broken(one_per_board_effect))
    failure = P.inert(SMALL, "reference")
    assert failure is not None and failure.variant is not None and failure.variant.effects[-1].id == "inert"


def test_monotone_increase_fails_on_an_engine_where_plus_lowers(engine_as, tmp_path):
    engine_as(broken(plus_lowers))
    boards = [board([unit("u1", 3)]), SMALL]
    (result,) = P.run(ruleset("riftbound"), boards, ["monotone-increase"], "reference", tmp_path)
    assert result.verdict == "fails" and result.failing == 2
    assert "drops from" in result.failure.explanation
    assert json.loads(result.path.read_text())["objects"][0]["might"] is not None


def test_no_self_support_fails_where_an_engine_keeps_what_held_itself_up(engine_as):
    from riftasp.reference import resolve

    engine_as(lambda boards: [resolve(replace(b, readings=(("self_support", "kept"),))) for b in boards])
    for example in ("plus-that-held-itself-up", "shield-cannot-hold-itself-up"):
        failure = P.no_self_support(load_board(EXAMPLES / f"{example}.json"), "reference")
        assert failure is not None and "holds itself up" in str(failure), example
        assert failure.other_outcome is not None  # calculated again without it


def test_no_self_support_fails_where_an_application_came_before_its_condition_held(engine_as):
    def early(b, res):  # the trace says +2 applied at 4, though it waits for Mighty (5)
        apps = [replace(a, before=4, after=6) if a.effect == "plus-2-while-5" else a for a in res.applied.get("u", [])]
        return replace(res, applied={**res.applied, "u": apps}, withdrawn={}, withdrawals=[])

    b = load_board(EXAMPLES / "plus-that-held-itself-up.json")
    from riftasp.reference import resolve

    engine_as(lambda boards: [early(x, resolve(replace(x, readings=(("self_support", "kept"),)))) for x in boards])
    failure = P.no_self_support(b, "reference")
    assert failure is not None and "did not hold before it" in str(failure)


def test_no_self_support_fails_where_a_withdrawal_is_still_applied(engine_as):
    from riftasp.result import Withdrawal

    def reported(b, res):
        return replace(res, withdrawals=[Withdrawal("u2", "e2", 1, ("self_support",), ("e2",))])

    engine_as(broken(reported))
    assert "yet it is applied" in str(P.no_self_support(SMALL, "reference"))


# ---- unique: outcomes() from riftasp.research.outcomes (a stand-in until it is written) ------------


class _Outcomes:
    def __init__(self, found):
        self.outcomes = [types.SimpleNamespace(objects=o) for o in found]

    @property
    def unique(self):
        return len(self.outcomes) == 1


def _stand_in(monkeypatch, outcomes):
    module = types.ModuleType("riftasp.research.outcomes")
    module.outcomes = outcomes
    monkeypatch.setitem(sys.modules, "riftasp.research.outcomes", module)
    import riftasp.research

    monkeypatch.setattr(riftasp.research, "outcomes", module, raising=False)


def test_unique_holds_where_every_order_gives_one_outcome(monkeypatch):
    from riftasp.reference import resolve

    def outcomes(b, open_points=(), max_branches=64, engine="asp"):
        # Every listing order of the objects, each resolved: its distinct outcomes.
        found = []
        for objects in (b.objects, tuple(reversed(b.objects))):
            o = P._outcome(resolve(replace(b, objects=objects)))
            if o not in found:
                found.append(o)
        return _Outcomes(found)

    _stand_in(monkeypatch, outcomes)
    assert P.unique(SMALL, "reference") is None
    (result,) = P.run(ruleset("riftbound"), [SMALL, board([unit("u1", 3)])], ["unique"], "reference")
    assert result.verdict == "holds" and result.judged == 2


def test_unique_fails_where_outcomes_differ_and_no_choice_is_reported(monkeypatch):
    def outcomes(b, open_points=(), max_branches=64, engine="asp"):
        one = {o.id: {"might": 1} for o in b.objects}
        return _Outcomes([one, {oid: {"might": 2} for oid in one}])

    _stand_in(monkeypatch, outcomes)
    failure = P.unique(SMALL, "reference")
    assert failure is not None and str(failure).startswith("2 distinct outcomes with no choice open")
    assert failure.other_outcome == {"u1": {"might": 2}, "u2": {"might": 2}}


def test_unique_is_not_checked_without_the_outcomes_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "riftasp.research.outcomes", None)  # an import of it fails
    (result,) = P.run(ruleset("riftbound"), [SMALL], ["unique"], "reference")
    assert result.verdict == "not checked" and "outcomes" in result.unavailable
    assert P.result_line(result).startswith("riftbound unique: not checked (")


# ---- the report ---------------------------------------------------------------------------------


def test_report_lines_say_holds_on_n_boards_and_up_to_k_effects():
    rules = ruleset("riftbound")
    (generated,) = P.run(rules, [SMALL, board([unit("u1", 3)])], ["rename"], "reference")
    assert P.result_line(generated) == "riftbound rename: holds on 2 boards"
    (bounded,) = P.run(rules, list(P.bounded_boards(rules, 1)), ["renumber"], "reference", bound=1)
    assert P.result_line(bounded) == "riftbound renumber: holds up to 1 effect (41 boards)"
    (skips,) = P.run(rules, [SMALL, board([unit("u1", 3)], [effect("e1", {"op": "double"}, "u1", 1)])],
                     ["monotone-increase"], "reference")
    assert P.result_line(skips) == ("riftbound monotone-increase: holds on 2 boards (judged on 1; not judged: "
                                    "1 an amount (double) reads might)")


def test_the_bounded_spaces_hold_the_boards_the_docstring_counts():
    for name, count in (("riftbound", 1641), ("sorcery", 1057)):
        rules = ruleset(name)
        boards = list(P.bounded_boards(rules, 2))
        assert len(boards) == count == P.space_of(rules).size(2)
        for data in boards[:: max(1, count // 50)]:
            board_from_dict(data)  # valid
    assert [len(b.get("effects", [])) for b in P.bounded_boards(ruleset("riftbound-timestamps"), 1)][:2] == [0, 1]


def test_generated_boards_are_the_same_for_a_seed():
    rules = ruleset("riftbound")
    assert P.generated_boards(rules, 5, 3) == P.generated_boards(rules, 5, 3)
    assert P.generated_boards(rules, 5, 3) != P.generated_boards(rules, 5, 4)


@pytest.mark.parametrize("args, message", [
    (["nope", "--generate", 5], "RULESET: unknown ruleset 'nope'; known rulesets: riftbound"),
    (["riftbound", "--generate", 5, "--property", "rename,shiny"],
     "--property: unknown property 'shiny'; known properties: order-independent, rename, renumber, inert, "
     "monotone-increase, unique, no-self-support"),
    (["riftbound", "--generate", 0], "--generate: N must be from 1 to 100,000, got 0"),
    (["riftbound", "--generate", 100001], "--generate: N must be from 1 to 100,000, got 100001"),
    (["riftbound", "--bound", 4], "--bound: K must be from 0 to 3, got 4"),
    (["riftbound", "--bound", -1], "--bound: K must be from 0 to 3, got -1"),
    (["riftbound"], "give one of --generate N (with --seed S) or --bound K"),
    (["riftbound", "--generate", 5, "--bound", 1], "give one of --generate N (with --seed S) or --bound K"),
    (["riftbound", "--bound", 1, "--engine", "fast"], "--engine: unknown engine 'fast': choose one of auto, asp, reference"),
    (["riftbound", "--bound", 1, "--format", "pdf"], "--format: unknown format 'pdf': choose one of text, md, html"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    result = cli("properties", *args)
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(message), result.stderr


def test_json_report_shape(tmp_path):
    result = cli("properties", "riftbound", "--bound", 0, "--json", "--out", tmp_path,
                 "--property", "rename,monotone-increase")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"rulesets", "properties", "engine", "bound", "seconds", "holds", "results"}
    assert data["holds"] is True and data["rulesets"] == ["riftbound"] and data["bound"] == 0
    assert [r["property"] for r in data["results"]] == ["rename", "monotone-increase"]
    assert set(data["results"][0]) == {
        "ruleset", "property", "verdict", "boards", "judged", "not_judged", "failing_boards", "confirmed_on_asp",
        "asked_on_asp", "bound", "engine", "unavailable", "file", "variant_file", "failure", "board", "seconds"}
    assert data["results"][1]["verdict"] == "holds" and data["results"][1]["boards"] == 1


def test_json_and_markdown_report_a_failure_with_both_outcomes(engine_as, tmp_path):
    engine_as(broken(first_listed_gains_one))
    result = cli("properties", "riftbound", "--bound", 0, "--json", "--out", tmp_path, "--property",
                 "order-independent", "--engine", "reference", "--jobs", 1)
    assert result.exit_code == 1
    (r,) = json.loads(result.stdout)["results"]
    assert r["verdict"] == "fails" and r["file"] == str(tmp_path / "riftbound-order-independent.json")
    assert r["failure"]["variant"] == "listed in reverse"
    assert set(r["failure"]["outcomes"]) == {"board", "variant"}
    assert r["failure"]["differences"][0]["field"] == "might"
    md = cli("properties", "riftbound", "--bound", 0, "--format", "md", "--out", tmp_path, "--property",
             "order-independent", "--engine", "reference", "--jobs", 1)
    assert md.exit_code == 1
    text = md.stdout
    assert "| riftbound | order-independent | fails |" in text
    assert "## riftbound: order-independent fails" in text
    assert "| id | card | name | type | owner | controller | zone |" in text
    assert "| object | on the board | variant |" in text and "**might 5**" in text


def test_json_and_md_together_are_bad_input():
    result = cli("properties", "riftbound", "--bound", 0, "--json", "--format", "md")
    assert result.exit_code == 2 and "--json and --format md: choose one" in result.stderr


# ---- small generated runs ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["riftbound", "sorcery"])
def test_a_small_generated_run_holds(name, tmp_path):
    result = cli("properties", name, "--generate", 20, "--seed", 0, "--out", tmp_path)
    lines = result.stdout.splitlines()
    assert result.exit_code == 0, result.output
    for prop in P.PROPERTIES:
        line = next(line for line in lines if line.startswith(f"{name} {prop}: "))
        assert line.startswith((f"{name} {prop}: holds on 20 boards", f"{name} {prop}: not checked")), line
    assert lines[-1].startswith("7 property checks: 0 failing")
    assert not any(tmp_path.iterdir())  # nothing failed, nothing written


def test_auto_confirms_on_asp_and_says_when_only_the_reference_engine_fails(monkeypatch, tmp_path):
    monkeypatch.setitem(P.RESOLVERS, "reference", broken(first_listed_gains_one))
    (result,) = P.run(ruleset("riftbound"), [SMALL], ["order-independent"], "auto", tmp_path)
    assert result.verdict == "fails" and result.reference_only and result.asked == 1
    assert P.result_line(result).startswith(
        f"riftbound order-independent: fails (minimal: {tmp_path / 'riftbound-order-independent.json'}) on 1 of 1 board, "
        "on the reference engine only (1 asked again on the asp engine)")
