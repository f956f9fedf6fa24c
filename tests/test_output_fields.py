"""The output is data: a ruleset's plugin declares the characteristics it reports
(riftasp/specs.py `OutputField`, its plugin's `OUTPUT` and `OUTPUT_ORDER`), and the JSON, the
table, explain's result line, diff, the comparison of engines and the check of an external
engine's output follow them. Riftbound's declaration gives exactly riftasp's output as it was;
a made-up ruleset's gives its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from conftest import ROOT, example, run
from riftasp.compare import compare, compared_fields, field_group
from riftasp.engines import EngineError, check_result
from riftasp.present import resolution_text, result_line
from riftasp.result import Characteristics, Resolution
from riftasp.rulesets import Ruleset, riftbound, ruleset
from riftasp.specs import OutputField, OutputOrder
from riftasp.transitions import transitions

CORE = ["keywords", "zone", "abilities"]


def test_riftbound_declares_the_json_s_key_order(engine):
    res = run(example("showcase"), engine)
    declared = [f.key for f in riftbound.OUTPUT]
    assert declared == ["name", "controller", "might", "mighty", "tags", "types"]
    assert ruleset("riftbound").output_fields == riftbound.OUTPUT
    for chars in res.to_json()["objects"].values():
        assert list(chars) == declared + CORE


def test_the_table_s_header_comes_from_the_fields():
    res = run(example("showcase"))
    header = resolution_text(res).splitlines()[0].split()
    assert header == ["id", *ruleset("riftbound").output_order.table]
    assert header == ["id", "name", "controller", "might", "mighty", "types", "tags", "keywords"]


def test_mighty_counts_as_might_because_its_field_says_so():
    assert {f.key: f.group for f in riftbound.OUTPUT if f.group} == {"mighty": "might"}
    assert field_group("mighty") == "might" and field_group("tags") == "tags"
    # The name is reported, not compared.
    assert compared_fields(ruleset("riftbound")) == ("controller", "might", "mighty", "tags", "types", "keywords")


def test_a_variant_inherits_riftbound_s_fields():
    # Plugins are read when riftasp is first imported: a process of its own names the fixture.
    folder = ROOT / "tests" / "fixtures" / "rulesets"
    code = ("import json; from riftasp.rulesets import plugins, ruleset; h, r = ruleset('halving'), ruleset('riftbound'); "
            "print(json.dumps(['halving' in plugins(), h.output_fields == r.output_fields, "
            "h.output_order == r.output_order]))")  # fmt: skip
    env = {**os.environ, "RIFTASP_RULESETS": str(folder)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [True, True, True]
    board = folder / "halving" / "boards" / "order.json"
    done = subprocess.run([sys.executable, "-m", "riftasp.cli", "resolve", str(board), "--json"], env=env,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ruleset"] == "halving"
    assert all(list(c) == [f.key for f in riftbound.OUTPUT] + CORE for c in out["objects"].values())


# ---- a made-up ruleset: power (a number) and affinity (a set), in that order --------------------

FAKE_FIELDS = (
    OutputField("power", "number"),
    OutputField("affinity", "set", member="affinity"),
    OutputField("airborne", "flag", adjective="Airborne", compared=False),
)


@pytest.fixture
def fake():
    """A ruleset "fake" that has no folder: a plugin with only its output fields."""
    return Ruleset("fake", ("fake",), (SimpleNamespace(OUTPUT=FAKE_FIELDS, OUTPUT_ORDER=OutputOrder()),))


def fake_object(power: int | None, affinity: list[str], airborne: bool = False, **core) -> Characteristics:
    return Characteristics(FAKE_FIELDS, {"power": power, "affinity": affinity, "airborne": airborne}, **core)


def test_a_made_up_ruleset_serialises_in_its_declared_order():
    c = fake_object(3, ["water", "fire"], keywords={"B": 1, "A": 2}, abilities=["z", "a"])
    assert c.power == 3 and c.affinity == ("fire", "water")
    assert list(c.to_json().items()) == [
        ("power", 3), ("affinity", ["fire", "water"]), ("airborne", False),
        ("keywords", {"A": 2, "B": 1}), ("zone", "base"), ("abilities", ["a", "z"]),
    ]  # fmt: skip
    assert not hasattr(c, "might")
    with pytest.raises(TypeError):
        Characteristics(FAKE_FIELDS, might=3)


def test_a_made_up_ruleset_is_shown_compared_and_checked_by_its_fields(fake):
    before = Resolution(fake, {"p1": fake_object(None, ["fire"])})
    after = Resolution(fake, {"p1": fake_object(2, ["water"], airborne=True, keywords={"Swift": 1})})
    lines = resolution_text(after).splitlines()
    assert lines[0].split() == ["id", "power", "affinity", "airborne", "keywords"]
    assert lines[2].split() == ["p1", "2", "water", "yes", "Swift"]
    assert result_line(after, "p1") == "result: power 2, affinity water, Airborne, keywords Swift"
    assert [t.text for t in transitions(before, after)] == [
        "p1 power None -> 2", "p1 gains affinity water", "p1 loses affinity fire", "p1 becomes Airborne",
        "p1 gains Swift",
    ]  # fmt: skip
    assert compared_fields(fake) == ("power", "affinity", "keywords")
    found = compare("b", before.to_json(), after.to_json(), fake)
    assert [d.field for d in found] == ["power", "affinity", "keywords"]
    # An external engine's output is checked against the same fields.
    board = SimpleNamespace(source="b", ruleset=fake, objects=[SimpleNamespace(id="p1")])
    check_result(after.to_json(), "e", board)
    with pytest.raises(EngineError, match="power: expected an integer or null"):
        check_result({"objects": {"p1": after.to_json()["objects"]["p1"] | {"power": "2"}}}, "e", board)


def test_riftbound_s_words_are_its_fields_words():
    # Today's phrases, each from a field's data (tests/test_cli.py checks diff end to end).
    unit = dict(name="U", controller="alice", might=4, mighty=False, tags=["A"], types=["unit"])
    b = Characteristics(riftbound.OUTPUT, unit, keywords={})
    a = Characteristics(riftbound.OUTPUT, unit | dict(name="V", controller="bob", might=5, mighty=True, tags=["B"],
                                                      types=["gear"]), keywords={"Shield": 1}, zone="trash")  # fmt: skip
    before, after = Resolution(ruleset("riftbound"), {"u1": b}), Resolution(ruleset("riftbound"), {"u1": a})
    assert [(t.kind, t.text) for t in transitions(before, after)] == [
        ("zone", "u1 moves base -> trash"), ("name", "u1 name 'U' -> 'V'"), ("gains_type", "u1 gains type gear"),
        ("loses_type", "u1 loses type unit"), ("becomes_mighty", "u1 becomes Mighty"), ("might", "u1 Might 4 -> 5"),
        ("controller", "u1 changes controller alice -> bob"), ("gains_keyword", "u1 gains Shield"),
        ("gains_tag", "u1 gains tag B"), ("loses_tag", "u1 loses tag A"),
    ]  # fmt: skip
    assert [t.text for t in transitions(after, before)][4] == "u1 is no longer Mighty"
    assert result_line(after, "u1") == "result: might 5, Mighty, controller bob, keywords Shield, tags B"
    assert result_line(before, "u1") == "result: might 4, not Mighty, controller alice, keywords -, tags A"
