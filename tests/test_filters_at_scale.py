"""A filter asks only the objects it could ever match (issue 36, the blocks family of
bench/tricky.py): a filter that asks for a tag or type no effect can bring looks at the objects
printed with it, and a status condition on the target is asked of the objects the effect could
target at all. Both engines once asked every filtered effect about every object — quadratic in the
board (50 s and 1.6 GB at 3,000 objects, blocks of eight reading nothing outside themselves).

The answers must not change: where an effect can bring the member (add_tag, a copy), every object
is still a candidate. Measured here by what the engines build, not by time (time is bench/'s)."""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import clingo
import pytest

from riftasp.board_io import board_from_dict
from riftasp.facts import board_facts

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from tricky import board as tricky_board  # noqa: E402 - bench/ is not a package

from conftest import run  # noqa: E402


SOLVE = clingo.Control.solve


def asp_atoms(board: dict, monkeypatch) -> collections.Counter:
    """How many atoms of each name the ASP resolver's last program holds."""
    from riftasp import solver

    counted: collections.Counter = collections.Counter()

    def counting(self, *args, **kwargs):
        counted.clear()
        counted.update(a.symbol.name for a in self.symbolic_atoms)
        return SOLVE(self, *args, **kwargs)

    monkeypatch.setattr(clingo.Control, "solve", counting)
    monkeypatch.setattr("riftasp.step_names.MODE", "0")  # every step's atoms under one name
    b = board_from_dict(board, "blocks")
    solver.run(board_facts(b), b.ruleset)
    return counted


def test_a_block_s_tag_filter_and_status_conditions_grow_with_the_board_not_its_square(monkeypatch):
    # Blocks of eight: each lord buffs its block's tag, each lord has a "while attacking" increase.
    small = asp_atoms(tricky_board("blocks", 80), monkeypatch)
    large = asp_atoms(tricky_board("blocks", 320), monkeypatch)
    for name in ("filter_candidate", "filter_pair", "never_holds_on"):
        assert large[name] <= 4 * small[name], (name, small[name], large[name])
    # Ten blocks: each lord's filter has its block's seven units as candidates (the lord among
    # them: `other` leaves it out after), not all 80 objects.
    assert small["filter_candidate"] == 10 * 7


def test_the_reference_engine_s_filter_looks_at_the_block_only():
    from riftasp.reference.core.analysis import _Analyser
    from riftasp.reference.core.layout import lay_out
    from riftasp.reference.registry import rules_of as ruleset

    board = board_from_dict(tricky_board("blocks", 80), "blocks")
    analyser = _Analyser(lay_out(board, ruleset(board.ruleset)))
    analyser.potential_holdings(analyser.initial_held())
    buff = next(e for o in board.objects for e in o.rules_text if e.id == "b3-lord-buff")
    assert analyser._filter_candidates(buff) == [f"b3-{x}" for x in ("lord", "f0", "f1", "f2", "f3", "f4", "f5")]


def unit(oid: str, might: int, **extra) -> dict:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield",
            "might": might, **extra}  # fmt: skip


POROS_PLUS_ONE = {"id": "poros", "controller": "alice", "timestamp": 3, "op": {"op": "plus", "amount": 1},
                  "target": {"filter": {"tag": "Poro"}}}  # fmt: skip


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_a_tag_an_effect_adds_still_lets_the_filter_reach_the_object(engine):
    board = {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": [unit("a", 2, tags=["Poro"]), unit("b", 3)],
             "effects": [{"id": "make-poro", "controller": "alice", "timestamp": 1,
                          "op": {"op": "add_tag", "tag": "Poro"}, "target": {"ids": ["b"]}}, POROS_PLUS_ONE]}  # fmt: skip
    out = run(board_from_dict(board, "add-tag"), engine).to_json()["objects"]
    assert (out["a"]["might"], out["b"]["might"]) == (3, 4)


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_a_tag_a_copy_brings_still_lets_the_filter_reach_the_object(engine):
    board = {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": [unit("a", 2, tags=["Poro"]), unit("b", 3)],
             "effects": [{"id": "b-copies-a", "controller": "alice", "timestamp": 1, "op": {"op": "copy", "of": "a"},
                          "target": {"ids": ["b"]}}, POROS_PLUS_ONE]}  # fmt: skip
    out = run(board_from_dict(board, "copy"), engine).to_json()["objects"]
    assert (out["a"]["might"], out["b"]["might"]) == (3, 3)


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_a_status_condition_on_a_filtered_target_holds_where_the_status_is(engine):
    board = {"ruleset": "riftbound", "players": ["alice", "bob"],
             "objects": [unit("a", 2, tags=["Poro"], status=["attacking"]), unit("b", 3, tags=["Poro"]), unit("c", 1)],
             "effects": [POROS_PLUS_ONE | {"conditions": [{"status": "attacking", "of": "target"}]}]}  # fmt: skip
    out = run(board_from_dict(board, "status"), engine).to_json()["objects"]
    assert [out[o]["might"] for o in "abc"] == [3, 3, 1]
