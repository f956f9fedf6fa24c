"""The engine contract (issue 37): the predicates an encoding shows and Python reads, written
once in encodings/core/contract.toml (what every ruleset shows, its flags, the atoms the solver
looks up) and in each procedure's procedure.toml (what its rulesets add). Each ruleset's loaded
files show exactly the contract's predicates for it (read with clingo's AST); every name the
decoder (riftasp/decode.py) and the solver's rounds (riftasp/solver.py) match on is in the
contract, and every predicate in the contract is read by one of them; a solved board shows
nothing else."""

from __future__ import annotations

import ast as pyast
import inspect
import re
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from clingo import ast

from conftest import ROOT
from riftasp import decode, solver
from riftasp.board_io import load_board
from riftasp.facts import board_facts
from riftasp.resources import encoding_files, encodings_folder, missing_encodings, procedure
from riftasp.rulesets import known
from riftasp.rulesets import ruleset as ruleset_named

Signature = tuple[str, int]
_SIGNATURE = re.compile(r"^(-?[a-z_][A-Za-z0-9_]*|result_<key>)/(\d+)$")
TABLES = ("shows", "flags", "looked_up")
# The rulesets whose encoding is written (resources.missing_encodings).
WRITTEN = [r for r in known() if not missing_encodings(r)]  # installed ones too


def _contract() -> dict:
    return tomllib.loads((encodings_folder() / "core" / "contract.toml").read_text(encoding="utf-8"))


def _procedures() -> dict[str, dict]:
    """Every procedure's procedure.toml, by name."""
    return {path.parent.name: tomllib.loads(path.read_text(encoding="utf-8"))
            for path in sorted((encodings_folder() / "procedures").glob("*/procedure.toml"))}  # fmt: skip


def _signature(text: str) -> Signature:
    name, arity = text.rsplit("/", 1)
    return name, int(arity)


def _table(table: str, plan: dict) -> set[Signature]:
    """The signatures of a table of the contract and of the procedure `plan`."""
    return {_signature(s) for part in (_contract(), plan) for s in part.get(table, {})}


def expected_shown(ruleset: str) -> set[Signature]:
    """What the ruleset's program shows by the contract: the shared [shows], its procedure's and
    one result_<key>/1 per flag of its output."""
    flags = {("result_" + f.key, 1) for f in ruleset_named(ruleset).output_fields if f.kind == "flag"}
    return _table("shows", procedure(ruleset)) | flags


def _atoms(node, into: set[Signature]) -> None:
    """Every predicate signature of a symbolic atom under `node` (a rule's head)."""
    if isinstance(node, ast.AST):
        if node.ast_type == ast.ASTType.SymbolicAtom:
            term = node.symbol
            if term.ast_type == ast.ASTType.Function:
                into.add((term.name, len(term.arguments)))
            elif term.ast_type == ast.ASTType.SymbolicTerm:
                into.add((term.symbol.name, len(term.symbol.arguments)))
            return
        for key in node.child_keys:
            _atoms(getattr(node, key), into)
    elif not isinstance(node, (str, int)) and hasattr(node, "__iter__"):
        for child in node:
            _atoms(child, into)


def program(ruleset: str) -> tuple[dict[Signature, list[str]], set[Signature]]:
    """What the ruleset's loaded files show (each signature with the files that show it) and
    the predicates their rules define."""
    shown: dict[Signature, list[str]] = {}
    defined: set[Signature] = set()
    for path in encoding_files(ruleset):
        where = f"{path.parent.name}/{path.name}"

        def statement(stm, where=where) -> None:
            if stm.ast_type == ast.ASTType.ShowSignature and stm.name:
                shown.setdefault((stm.name if stm.positive else f"-{stm.name}", stm.arity), []).append(where)
            elif stm.ast_type == ast.ASTType.ShowTerm:
                term = stm.term
                key = (term.name, len(term.arguments)) if term.ast_type == ast.ASTType.Function else (str(term), 0)
                shown.setdefault(key, []).append(where)
            elif stm.ast_type == ast.ASTType.Rule:
                _atoms(stm.head, defined)

        ast.parse_files([str(path)], statement)
    return shown, defined


# ---- The contract's own form ---------------------------------------------------------------


def test_the_contract_and_each_procedure_s_tables_name_predicates_each_with_its_meaning():
    parts = {"encodings/core/contract.toml": _contract()}
    parts |= {f"procedures/{name}/procedure.toml": plan for name, plan in _procedures().items()}
    wrong = {}
    for where, part in parts.items():
        for table in TABLES:
            for key, meaning in part.get(table, {}).items():
                if not _SIGNATURE.match(key) or not isinstance(meaning, str) or not meaning.strip():
                    wrong[f"{where} [{table}] {key}"] = meaning
    assert wrong == {}
    assert len(_contract()["shows"]) >= 10 and set(_contract()["flags"]) == {"result_<key>/1"}
    # A procedure adds to the shared tables: it does not state one of their entries again.
    for name, plan in _procedures().items():
        for table in TABLES:
            assert not set(plan.get(table, {})) & set(_contract().get(table, {})), (name, table)


# ---- (a) and (b): each ruleset's program shows exactly the contract ------------------------


@pytest.mark.parametrize("ruleset", WRITTEN)
def test_every_contract_predicate_is_shown_by_the_ruleset_s_files(ruleset):
    shown, _ = program(ruleset)
    assert sorted(expected_shown(ruleset) - set(shown)) == []


@pytest.mark.parametrize("ruleset", WRITTEN)
def test_everything_the_ruleset_s_files_show_is_in_the_contract(ruleset):
    shown, _ = program(ruleset)
    undocumented = {f"{n}/{a}": files for (n, a), files in shown.items() if (n, a) not in expected_shown(ruleset)}
    assert undocumented == {}, "shown but not in encodings/core/contract.toml nor the procedure's [shows]"


@pytest.mark.parametrize("ruleset", WRITTEN)
def test_every_atom_the_solver_looks_up_is_defined_by_the_ruleset_s_files(ruleset):
    _, defined = program(ruleset)
    plan = procedure(ruleset)
    assert sorted(_table("looked_up", plan) - defined) == []
    guard = plan.get("asked_only_if", {}).get("atom")
    assert guard is None or (guard, 1) in _table("looked_up", plan)


# ---- (c): the names Python matches on ------------------------------------------------------


def _placeholder(text: str) -> str:
    """A name with its placeholders (`<key>`, an f-string's `{...}`) written alike."""
    return re.sub(r"<[^>]*>", "<>", text)


def _joined(node: pyast.JoinedStr) -> str:
    return "".join(v.value if isinstance(v, pyast.Constant) else "<>" for v in node.values)


def _strings(node: pyast.AST) -> Iterator[str]:
    """The string literals `node` is (a constant, an f-string, a tuple, list or set of them)."""
    if isinstance(node, pyast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, pyast.JoinedStr):
        yield _joined(node)
    elif isinstance(node, (pyast.Tuple, pyast.List, pyast.Set)):
        for element in node.elts:
            yield from _strings(element)


def matched_names(module) -> tuple[set[str], set[str]]:
    """The predicate names a module matches the model's shown atoms on (`by["name"]`,
    `atom[0] == "name"`, `symbol.name == "name"` or `in (...)`), and those it looks up in the
    Control through `name_of("name", ...)` (the solver: names per step)."""
    tree = pyast.parse(Path(inspect.getsourcefile(module)).read_text(encoding="utf-8"))
    shown: set[str] = set()
    looked_up: set[str] = set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Subscript) and isinstance(node.value, pyast.Name) and node.value.id == "by":
            shown.update(_strings(node.slice))
        elif isinstance(node, pyast.Compare):
            left = node.left
            is_name = isinstance(left, pyast.Attribute) and left.attr == "name"
            is_first = (isinstance(left, pyast.Subscript) and isinstance(left.value, pyast.Name)
                        and left.value.id == "atom" and isinstance(left.slice, pyast.Constant) and left.slice.value == 0)  # fmt: skip
            if is_name or is_first:
                for comparator in node.comparators:
                    shown.update(_strings(comparator))
        elif (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) and node.func.attr == "name_of"
              and node.args):  # fmt: skip
            looked_up.update(_strings(node.args[0]))
    return shown, looked_up


def _contract_names(table: str) -> set[str]:
    """The names of a table of the contract and of every procedure, placeholders alike."""
    parts = [_contract(), *_procedures().values()]
    return {_placeholder(_signature(s)[0]) for part in parts for s in part.get(table, {})}


def _read() -> tuple[set[str], set[str]]:
    shown, looked_up = set(), set()
    for module in (decode, solver):
        s, q = matched_names(module)
        shown |= {_placeholder(n) for n in s}
        looked_up |= q
    # The atom a procedure's `asked_only_if` names (the solver reads it from procedure.toml).
    looked_up |= {guard for plan in _procedures().values() if (guard := plan.get("asked_only_if", {}).get("atom"))}
    return shown, looked_up


def test_the_scan_finds_what_the_decoder_and_the_solver_match_on():
    # (A check of the scan itself: names each module is known to read.)
    decoded, _ = matched_names(decode)
    rounds, looked_up = matched_names(solver)
    assert {"applied", "copied", "result_value", "result_<>", "trace_char", "stage"} <= decoded
    assert {"withdraw", "restore", "would_apply", "held_up"} <= rounds and "unfinished" in looked_up


def test_every_name_the_decoder_and_the_solver_match_on_is_in_the_contract():
    shown, looked_up = _read()
    documented = _contract_names("shows") | _contract_names("flags")
    assert sorted(shown - documented) == [], "matched on by riftasp but not in the contract"
    assert sorted(looked_up - _contract_names("looked_up")) == []


def test_every_predicate_in_the_contract_is_read_by_the_decoder_or_the_solver():
    shown, looked_up = _read()
    assert sorted((_contract_names("shows") | _contract_names("flags")) - shown) == [], "documented, read by no one"
    assert sorted(_contract_names("looked_up") - looked_up) == []


# Boards whose models hold, between them, every predicate the contract lists: the showcase, the
# rounds of withdrawals, restorations, probes and exchanges (Riftbound), the dependency rule's
# reports and the trace's shapes (Sorcery).
BOARDS = [
    "riftbound/showcase.json",
    "riftbound/copy.json",
    "riftbound/copy-ring-of-three.json",
    "riftbound/copy-and-a-plus-that-held-itself-up.json",
    "riftbound/copy-that-took-its-support.json",
    "riftbound/other-side-of-a-ring.json",
    "riftbound/lost-support-shield-lost-to-tank.json",
    "sorcery/king-then-mesmerism.json",
    "sorcery/two-kings-and-mesmerism.json",
    "sorcery/copy-of-a-copier.json",
    "sorcery/bound-spirit-alone.json",
    "sorcery/acid-rain-on-a-hushing-torc.json",
    "sorcery/entering-together-chosen-order.json",
    "sorcery/basilisk-gorgons-both-at-rest.json",
]


@cache
def shown_in_every_round(board: str) -> tuple[str, frozenset[Signature]]:
    """The board's ruleset and the signatures of every round's shown atoms (the solver reads
    each round's; the decoder the last one's)."""
    seen: set[Signature] = set()
    solve_round = solver.solve_round

    def recording(*args, **kwargs):
        symbols = solve_round(*args, **kwargs)
        seen.update((s.name if s.positive else f"-{s.name}", len(s.arguments)) for s in symbols)
        return symbols

    loaded = load_board(ROOT / "examples" / board)
    solver.solve_round = recording  # (run() calls it by its module's name)
    try:
        solver.run(board_facts(loaded), loaded.ruleset)
    finally:
        solver.solve_round = solve_round
    return loaded.ruleset.name, frozenset(seen)


@pytest.mark.parametrize("board", BOARDS)
def test_a_solved_board_shows_only_predicates_of_its_ruleset_s_contract(board):
    ruleset, seen = shown_in_every_round(board)
    assert seen, board
    assert sorted(seen - expected_shown(ruleset)) == []


def test_the_boards_show_every_predicate_of_their_rulesets_contracts():
    # The boards above exercise the whole contract: each predicate is seen on one of them.
    seen: dict[str, set[Signature]] = {}
    for board in BOARDS:
        ruleset, signatures = shown_in_every_round(board)
        seen.setdefault(ruleset, set()).update(signatures)
    assert set(seen) == {"riftbound", "sorcery"}
    assert {r: sorted(expected_shown(r) - s) for r, s in seen.items()} == {r: [] for r in seen}
