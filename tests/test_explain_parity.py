"""`explain` says the same on both engines (issue 40): every example board's every object, for
both rulesets, in the same words (riftasp/wording.py) for where each application came, why then
and what it changed; and the words Sorcery's §9 promises are there."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from conftest import asp_together

from riftasp.api import load_board, resolve
from riftasp.present import explain_text
from riftasp.result import Application, Resolution
from riftasp.rulesets import ruleset
from riftasp.wording import change_cells, position_words, reason_words

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BOARDS = sorted(p for folder in ("sorcery", "riftbound") for p in (EXAMPLES / folder).glob("*.json")
                if ".expected" not in p.name)  # fmt: skip


@functools.cache
def riftbound_answers() -> dict[Path, Resolution]:
    """Every riftbound example's ASP answer, from one batch a process (conftest's asp_together:
    a seventh of the time of each alone; Sorcery's boards gain little in a batch, and go alone)."""
    paths = [p for p in BOARDS if p.parent.name == "riftbound"]
    return dict(zip(paths, asp_together([load_board(p) for p in paths])))


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_explain_is_the_same_on_both_engines(path: Path) -> None:
    board = load_board(path)
    asp = riftbound_answers()[path] if path.parent.name == "riftbound" else resolve(board, "asp")
    reference = resolve(board, "reference")
    for obj in board.objects:
        assert explain_text(asp, obj.id) == explain_text(reference, obj.id), obj.id


def _explain(name: str, oid: str) -> str:
    return explain_text(resolve(load_board(EXAMPLES / "sorcery" / f"{name}.json"), "asp"), oid)


def test_asp_names_the_position_in_words() -> None:
    """A silence moved before layer 2 is "just before layer 2 (type)", not "type layer"."""
    text = _explain("root-spider", "phyxis")
    assert "just before layer 2 (type): it removes an ability that applies in layer 2 (type)" in text
    assert "just after layer 5 (ability adding): its condition reads" in _explain("bound-spirit-alone", "spirit")


def test_asp_says_why_at_rest() -> None:
    assert "its holder is not at rest" in _explain("basilisk-gorgons-one-at-rest", "gorgons")


def test_a_row_that_changed_nothing_says_so() -> None:
    text = _explain("animated-silence", "troll")
    assert "no change: abilities none; keywords none" in text
    assert "[] -> []" not in text


def _row(**changes) -> Application:
    base = dict(effect="e", step=1, layer="ability_removing", sublayer=None, timestamp=2, why="",
                reasons=("timestamp",), depends_on=(), characteristic="abilities",
                before={"abilities": ["x"], "keywords": []}, after={"abilities": [], "keywords": []})
    return Application(**(base | changes))


def test_the_change_names_only_the_parts_that_changed() -> None:
    assert change_cells(_row()) == ("abilities", "x -> none")
    same = {"abilities": [], "keywords": ["Airborne"]}
    assert change_cells(_row(before=same, after=same)) == ("abilities", "no change: abilities none; keywords Airborne")
    assert change_cells(_row(characteristic="power", before=3, after=3)) == ("power", "no change: 3")


def test_position_and_reasons_from_the_row_alone() -> None:
    from riftasp.result import Resolution

    res = Resolution(ruleset=ruleset("sorcery"), objects={})
    assert position_words(res, _row(sublayer="before", layer="type")) == "just before layer 2 (type)"
    assert position_words(res, _row(layer="power", sublayer="add")) == "in layer 6 (power, add sublayer)"
    assert reason_words(res, _row(reasons=("timestamp",))) == [
        "it has the earliest timestamp among the effects due here (timestamp 2)"]
    assert reason_words(res, _row(reasons=("timestamp", "dependency"), depends_on=("m",))) == [
        "it depends on m, which applied first"]
