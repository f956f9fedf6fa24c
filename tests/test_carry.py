"""A long calculation goes on in a fresh Control that holds only the atoms later ground calls can
read (riftasp/carry.py; issue 36: each step paid for every atom of the steps before it). It is
the same calculation: carried after every step, every board resolves exactly as in one Control."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import clingo
import pytest
from clingo import ast

from budget import THOROUGH, thorough_only
from conftest import ROOT
from riftasp import solver
from riftasp.board_io import board_from_dict, load_board
from riftasp.carry import plan_of
from riftasp.crosscheck import is_stored_output
from riftasp.resolve import resolve
from riftasp.rulesets import Ruleset

sys.path.insert(0, str(ROOT / "bench"))
import tricky  # noqa: E402 - bench/ is not a package

THOROUGH_MARKS = [pytest.mark.thorough,
                  pytest.mark.skipif(not THOROUGH, reason="runs in the thorough run (RIFTASP_THOROUGH=1), as CI does")]
EXAMPLES = sorted(p for p in (ROOT / "examples" / "riftbound").glob("*.json") if not is_stored_output(p))


def answer(board) -> str:
    return json.dumps({k: v for k, v in resolve(board).to_json().items() if k != "stats"}, sort_keys=True)


def counted_copies(monkeypatch) -> dict[str, int]:
    """How many times the solver carries a calculation into a fresh Control, from now on."""
    copies = {"n": 0}
    original = solver._carried

    def counted(*args, **kwargs):
        copies["n"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(solver, "_carried", counted)
    return copies


def carried_after_every_step(board, monkeypatch) -> tuple[str, int]:
    copies = counted_copies(monkeypatch)
    monkeypatch.setattr(solver, "CARRY_ALWAYS", True)
    out = answer(board)
    monkeypatch.setattr(solver, "CARRY_ALWAYS", False)
    return out, copies["n"]


@pytest.mark.parametrize("family,size", [("lords", 4), ("stack", 14),
                                         pytest.param("copy-chain", 8, marks=THOROUGH_MARKS),
                                         pytest.param("blocks", 24, marks=THOROUGH_MARKS)])  # fmt: skip
def test_a_calculation_carried_after_every_step_is_the_same_calculation(family, size, monkeypatch):
    board = board_from_dict(tricky.board(family, size), f"{family}-{size}")
    carried, copies = carried_after_every_step(board, monkeypatch)
    assert copies >= 3  # (it was carried: each of these takes several steps)
    monkeypatch.setattr(solver, "CARRY", False)
    assert carried == answer(board)


# Examples whose calculations carry much across steps and rounds: an exchange, a paradox, a loop
# of copies (every example: in the thorough run).
CARRIED_QUICKLY = ["other-side-of-a-ring", "paradox-shield-and-minus", "copy-ring-of-three"]


def same_carried_or_not(path: Path, monkeypatch) -> None:
    board = load_board(path)
    carried, _ = carried_after_every_step(board, monkeypatch)
    monkeypatch.setattr(solver, "CARRY", False)
    assert carried == answer(board)


@pytest.mark.parametrize("name", CARRIED_QUICKLY)
def test_the_examples_that_carry_most_resolve_carried_after_every_step_as_in_one_control(name, monkeypatch):
    same_carried_or_not(ROOT / "examples" / "riftbound" / f"{name}.json", monkeypatch)


@thorough_only
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_carried_after_every_step_resolves_as_in_one_control(path, monkeypatch):
    same_carried_or_not(path, monkeypatch)


def parsed(text: str) -> list:
    statements: list = []
    ast.parse_string(text, statements.append)
    return statements


def test_a_later_call_reads_atoms_from_its_step_on_or_at_a_number_it_names_else_every_atom():
    program = parsed("""
        #program base. seen(X) :- old(X,T).
        #program step(p). a(X,p) :- b(X,p-1), c(X,2), not d(X,T).
        #program final(n). out(X) :- a(X,n).
        #show out/1.
    """)
    plan = plan_of(program, {"step": [[["step", ["p"]]]], "final": [[["final", ["n"]]]]}, {"told"})
    assert plan.reads[("b", 2)] == [((1, "from", -1),)]
    assert plan.reads[("c", 2)] == [((1, "is", 2),)]
    assert plan.reads[("d", 2)] is None  # a variable step: any atom
    assert sorted(plan.reads[("a", 2)]) == [((1, "from", 0),), ((1, "from", 0),)]  # head and final
    assert plan.reads[("out", 1)] is None  # shown: the model is read from the last Control
    assert ("old", 2) not in plan.reads  # read only by the base part, never grounded again

    ctl = clingo.Control()
    ctl.add("base", [], "b(1..3,1..6). c(1..3,1..3). d(1,9). a(1,2). told(4). untold(5).")
    ctl.ground([("base", [])])
    carried = {str(s) for s in plan.facts(ctl, 5)}
    assert {s for s in carried if s.startswith("b(")} == {f"b({x},{t})" for x in (1, 2, 3) for t in (4, 5, 6)}
    assert {s for s in carried if s.startswith("c(")} == {"c(1,2)", "c(2,2)", "c(3,2)"}
    assert "d(1,9)" in carried and "told(4)" in carried
    assert "a(1,2)" not in carried and "untold(5)" not in carried


def test_a_long_stack_is_carried_and_its_answer_is_the_one_of_one_control(monkeypatch):
    board = board_from_dict(tricky.board("stack", 40), "stack-40")
    copies = counted_copies(monkeypatch)
    # (A threshold a tenth of the procedure's: the same rule, on a board quick enough for a test.)
    plan = Ruleset.plan
    monkeypatch.setattr(Ruleset, "plan", property(lambda r: {**plan.fget(r), "carry_after_atoms": 10_000}))
    carried = answer(board)
    assert copies["n"] >= 1  # (~30 steps of ~1,500 atoms: carried once its atoms pass 64 steps' worth of the last)
    monkeypatch.setattr(solver, "CARRY", False)
    assert carried == answer(board)
