"""The choice points (issue 38, "Choice points"): every **Decision** of the semantics docs has an id
(R1, ... Riftbound; S1, ... Sorcery), listed in the doc's table "Choice points" and in the
ruleset's choice_points.toml (riftasp/choice_points.py) alike; every switch is a `[readings]` key
of the manifest, and every reading key a switch; `riftasp rulesets --readings` prints them."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from riftasp.choice_points import FILE
from riftasp.choice_points_view import HEADER, doc_table
from riftasp.cli import app
from riftasp.rulesets import known, ruleset

# ruleset -> (its semantics doc, the letter of its ids)
DOCS = {"riftbound": ("docs/semantics.md", "R"), "sorcery": ("docs/semantics-sorcery.md", "S")}
# The word, and the ids right after it: `**Decision (R6, double).**`, `**Decision** (S5): ...`,
# `**Decisions** (S19, S20, S21) for ...`, `(Decision (R2), class C5 ...`.
WORD = re.compile(r"\bDecisions?\b")
TAGGED = re.compile(r"Decisions?(?:\*\*)? \(([RS]\d+(?:, [RS]\d+)*)[,)]")
SECTION = "## Choice points\n"


def _doc(name: str) -> str:
    return (ROOT / DOCS[name][0]).read_text(encoding="utf-8")


def _entries(name: str) -> list[dict]:
    """The ruleset's choice_points.toml as written (not through the loader)."""
    path = ROOT / "encodings" / name / FILE
    return tomllib.loads(path.read_text(encoding="utf-8"))["choice_point"]


def _parts(text: str) -> tuple[str, str, str]:
    """(the introduction, the section "Choice points", the rules from §1 on)."""
    intro, _, rest = text.partition("\n" + SECTION)
    section, _, body = rest.partition("\n## 1. ")
    return intro, section, body


def tagged_ids(text: str) -> tuple[list[str], list[str]]:
    """The ids the Decisions of the rules (§1 on) carry, in order, and the Decisions without one
    (as `line: text`)."""
    start = text.find("\n## 1. ")
    assert start >= 0, "no section 1"
    ids: list[str] = []
    untagged: list[str] = []
    for m in WORD.finditer(text, start):
        tag = TAGGED.match(text, m.start())
        if tag is None:
            untagged.append(f"{text.count(chr(10), 0, m.start()) + 1}: {text[m.start():m.start() + 60]!r}")
        else:
            ids += tag.group(1).split(", ")
    return ids, untagged


def table_rows(text: str) -> list[list[str]]:
    """The cells of the table of the section "Choice points" (header and rule line included)."""
    section = _parts(text)[1]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]


def _value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ---- (a) every Decision carries an id, the same in the text, the table and the data ---------------

@pytest.mark.parametrize("name", DOCS)
def test_every_decision_carries_an_id_and_the_text_the_table_and_the_data_name_the_same(name):
    text = _doc(name)
    ids, untagged = tagged_ids(text)
    assert untagged == [], f"{DOCS[name][0]}: Decisions without an id (in §1 on):\n" + "\n".join(untagged)
    assert ids, "no Decision found"
    assert len(ids) == len(set(ids)), f"an id tagged twice: {sorted(i for i in ids if ids.count(i) > 1)}"
    letter = DOCS[name][1]
    assert all(re.fullmatch(letter + r"[1-9]\d*", i) for i in ids), ids
    data = [e["id"] for e in _entries(name)]
    table = [row[0] for row in table_rows(text)[2:]]
    assert len(data) == len(set(data))
    assert set(ids) == set(table) == set(data)
    # Numbered 1, 2, ... without a gap.
    assert sorted(int(i[1:]) for i in data) == list(range(1, len(data) + 1))


@pytest.mark.parametrize("name", DOCS)
def test_the_section_comes_after_the_introduction_and_before_section_1(name):
    text = _doc(name)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[:2] == [SECTION.strip(), next(h for h in headings if h.startswith("## 1. "))]
    assert WORD.search(_parts(text)[1].replace("marked Decision", "")) is None  # the section decides nothing


def test_a_decision_without_an_id_is_found():
    text = "intro\n\n## Choice points\n\n| id |\n\n## 1. Stages\n\n**Decision (R6, double).** x\n" \
           "**Decision** (S5): y. **Decisions** (S19, S20) z. (Decision (R2), w)\n**Decision (double).** v\n" \
           "**Decision**: u\n"
    ids, untagged = tagged_ids(text)
    assert ids == ["R6", "S5", "S19", "S20", "R2"]
    assert [u.split(":")[0] for u in untagged] == ["11", "12"]


# ---- (b) the table is the data -------------------------------------------------------------------

@pytest.mark.parametrize("name", DOCS)
def test_the_table_rows_are_the_data(name):
    rows = table_rows(_doc(name))
    assert rows[0] == list(HEADER)
    assert all(set(cell) <= {"-"} for cell in rows[1])
    expected = []
    for e in _entries(name):
        if "switch" in e:
            switch = f"`{e['switch']}`: {', '.join(_value(v) for v in e['values'])}"
        else:
            switch = f"not switchable: {e['not_switchable']}"
        expected.append([e["id"], e["decision"], e["sentence"], e["reading"], "; ".join(e["alternatives"]), switch])
    assert rows[2:] == expected


@pytest.mark.parametrize("name", DOCS)
def test_the_table_is_written_as_riftasp_writes_it(name):
    section = _parts(_doc(name))[1]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    assert table == doc_table(ruleset(name).choice_points), "regenerate it with choice_points_view.doc_table"


@pytest.mark.parametrize("name", DOCS)
def test_every_entry_has_a_switch_or_a_reason_and_its_fields(name):
    for e in _entries(name):
        assert ("switch" in e) != ("not_switchable" in e), e["id"]
        assert all(isinstance(e.get(k), str) and e[k] for k in ("id", "decision", "sentence", "reading")), e["id"]
        assert e["alternatives"] and all(isinstance(a, str) and a for a in e["alternatives"]), e["id"]
        if "switch" in e:
            assert len(e["values"]) >= 2 and len(e["alternatives"]) == len(e["values"]) - 1, e["id"]


# ---- (c) switches are readings, readings are switches -------------------------------------------

def _with_points() -> list[str]:
    return [name for name in known() if ruleset(name).choice_points]


def test_every_switch_is_a_reading_of_its_ruleset_and_its_value_in_force_is_one_of_its_values():
    for name in _with_points():
        rules = ruleset(name)
        for point in rules.choice_points:
            if point.switch is None:
                continue
            assert point.switch in rules.readings, (name, point.id, point.switch)
            assert rules.readings[point.switch] in point.values, (name, point.id, rules.readings[point.switch])


@pytest.mark.parametrize("name", DOCS)
def test_every_reading_has_a_choice_point_and_the_first_value_is_the_base_s(name):
    rules = ruleset(name)
    switches = {p.switch: p for p in rules.choice_points if p.switch is not None}
    assert set(rules.readings) == set(switches)
    assert all(rules.readings[key] == point.values[0] for key, point in switches.items())
    assert rules.switch_values == {key: point.values for key, point in switches.items()}


def test_the_nine_switchable_points_keep_their_ids_and_switches():
    switches = {p.id: p.switch for name in DOCS for p in ruleset(name).choice_points if p.switch is not None}
    assert switches == {"R1": "condition_timing", "R2": "rechecked_set", "R3": "self_support", "R4": "dependency",
                        "R5": "ties", "S1": "entry_order", "S2": "dependency_layers", "S3": "power_floor",
                        "S4": "regain_after_loss"}


# ---- (d) riftasp rulesets --readings ---------------------------------------------------------------

def test_rulesets_readings_json_lists_every_choice_point_with_the_values_in_force():
    result = CliRunner().invoke(app, ["rulesets", "--readings", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert isinstance(found, list) and all(isinstance(p, dict) for p in found)
    for p in found:
        assert {"id", "ruleset", "decision", "sentence", "reading", "alternatives", "switch"} <= set(p), p
    ids = [p["id"] for p in found]
    for name, (_, letter) in DOCS.items():
        count = len(_entries(name))
        assert [i for i in ids if i.startswith(letter)] == [e["id"] for e in _entries(name)]
        assert {f"{letter}{n}" for n in range(1, count + 1)} <= set(ids)
    for p in found:
        if p["switch"].startswith("not switchable: "):
            assert "values" not in p and "in_force" not in p
            continue
        family = [n for n in known() if p["ruleset"] in ruleset(n).lineage]
        assert p["in_force"] == {n: ruleset(n).readings[p["switch"]] for n in family}, p["id"]
        assert all(v in p["values"] for v in p["in_force"].values())
    variants = next(p for p in found if p["id"] == "R4")["in_force"]
    assert variants["riftbound"] == "result" and variants["riftbound-timestamps"] == "none"


@pytest.mark.parametrize("columns", [100, 72])
def test_rulesets_readings_text_fits_the_terminal(columns):
    result = CliRunner().invoke(app, ["rulesets", "--readings"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= columns, [line for line in lines if len(line) > columns]
    assert any(line.startswith("riftbound: ") for line in lines) and any(line.startswith("sorcery: ") for line in lines)
    starts = {line.split()[0] for line in lines if line.strip()}
    assert {e["id"] for name in DOCS for e in _entries(name)} <= starts


def test_rulesets_without_readings_lists_the_rulesets_as_before():
    result = CliRunner().invoke(app, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    assert all("id" not in r and "name" in r for r in json.loads(result.output))
