"""Step-local predicates named per step (riftasp/step_names.py): a grounding device that must
change no answer. A predicate is renamed only where every occurrence says at which step it is
read; what Python, a #show or a variable step reads keeps its name."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from clingo import ast

from riftasp import resources, solver, step_names
from riftasp.rulesets import ruleset as ruleset_named
from riftasp.board_io import board_from_dict
from riftasp.facts import board_facts

from budget import THOROUGH

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = """\
#program base.
cursor(1,1).
#program step(p).
need(X,p) :- cursor(X,p).
done(X,p) :- need(X,p), not skip(X,p-1).
cursor(X+1,p+1) :- need(X,p).
ever(X) :- done(X,P), P < p.
#program final(n).
last(X) :- cursor(X,n).
#show last/1.
#show shown_step(X) : need(X,n).
"""


def _built(tmp_path: Path) -> step_names.Program:
    path = tmp_path / "toy.lp"
    path.write_text(PROGRAM)
    statements: list[ast.AST] = []
    ast.parse_files([str(path)], statements.append)
    return step_names.build(statements, {"step": {0}, "final": {0}}, kept=set())


def test_a_predicate_read_only_at_known_steps_is_named_by_its_step(tmp_path: Path) -> None:
    program = _built(tmp_path)
    # cursor is read at p and p+1 and written at 1; skip only at p-1: both known everywhere.
    assert program.renamed[("cursor", 2)] == 1
    assert program.renamed[("skip", 2)] == 1
    # Step 6 is copy 6 mod COPIES; p+1 and p-1 name the neighbouring copies.
    key = program.copy_key("step", [6])
    text = program.part_text("step", key)
    now, after, before = (f"__{v % step_names.COPIES}" for v in (6, 7, 5))
    assert text.splitlines() == [
        f"need(X,p) :- cursor{now}(X,p).",
        f"done(X,p) :- need(X,p), not skip{before}(X,p-1).",
        f"cursor{after}(X+1,p+1) :- need(X,p).",
    ]
    # A statement with no renamed atom is the same in every copy: kept once, as written.
    assert program.plain["step"] == (["p"], "ever(X) :- done(X,P); P < p.\n")
    assert f"cursor__{1 % step_names.COPIES}(1,1)" in program.base
    assert program.name_of("cursor", [3, 9]) == f"cursor__{9 % step_names.COPIES}"


RECURSIVE = """\
#program step(p).
reach(X,p) :- start(X,p).
reach(Y,p) :- reach(X,p), edge(X,Y).
start(X,p+1) :- reach(X,p), stop(X).
seen(X,p) :- reach(X,p).
#program later(p).
stop(X) :- seen(X,p).
"""


def test_only_what_one_call_defines_recursively_is_renamed_when_asked(tmp_path: Path) -> None:
    """`step_names = "recursive"`: a predicate defined through itself in one ground call
    (reach) is named per step; one whose cycle runs through the next step (start: p+1 from p)
    or through another call (seen, stop) is not: gringo grounds those without recursion."""
    path = tmp_path / "rec.lp"
    path.write_text(RECURSIVE)
    statements: list[ast.AST] = []
    ast.parse_files([str(path)], statements.append)
    numeric = {"step": {0}, "later": {0}}
    both = step_names.build(statements, numeric, kept=set(), recursive_in=[{"step"}, {"later"}])
    assert set(both.renamed) == {("reach", 2)}
    together = step_names.build(statements, numeric, kept=set(), recursive_in=[{"step", "later"}])
    assert ("reach", 2) in together.renamed and ("seen", 2) in together.renamed
    assert ("start", 2) in step_names.build(statements, numeric, kept=set()).renamed
    assert step_names.calls({"step": [[["step", ["p"]]], [["later", ["p"]]]]}) == [{"step"}, {"later"}]


def test_a_predicate_read_at_any_step_shown_or_kept_keeps_its_name(tmp_path: Path) -> None:
    program = _built(tmp_path)
    assert ("done", 2) not in program.renamed  # read with a variable step: done(X,P), P < p
    assert ("last", 1) not in program.renamed  # shown
    assert ("need", 2) not in program.renamed  # a shown term's condition reads it
    assert ("ever", 1) not in program.renamed  # no step argument
    path = tmp_path / "toy.lp"
    statements: list[ast.AST] = []
    ast.parse_files([str(path)], statements.append)
    kept = step_names.build(statements, {"step": {0}, "final": {0}}, kept={("cursor", 2)})
    assert ("cursor", 2) not in kept.renamed


def _resolve(facts: str, ruleset: str, named: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(step_names, "MODE", "1" if named else "0")
    symbols, stats = solver.run(facts, ruleset_named(ruleset))
    return sorted(map(str, symbols)) + [f"steps={stats.steps}"]


def _generated(size: int) -> str:
    sys.path.insert(0, str(ROOT / "bench"))
    from boards import GENERATORS  # noqa: PLC0415 - bench/ is not a package

    return board_facts(board_from_dict(GENERATORS["sorcery"](size), f"generated-{size}"))


@pytest.mark.parametrize("board", ["generated-30", "copy-of-a-copier", "bound-spirit-holding-coral"])
def test_naming_steps_changes_no_shown_atom(board: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole model (results, trace, order) is the same with and without step names, over
    more steps than there are copies of a part."""
    if board.startswith("generated-"):
        facts = _generated(int(board.split("-")[1]))
    else:
        path = ROOT / "examples" / "sorcery" / f"{board}.json"
        facts = board_facts(board_from_dict(json.loads(path.read_text()), path.name))
    named = _resolve(facts, "sorcery", True, monkeypatch)
    plain = _resolve(facts, "sorcery", False, monkeypatch)
    assert named == plain
    if board.startswith("generated-"):
        assert int(named[-1].split("=")[1]) > 2 * step_names.COPIES


def test_a_program_read_back_from_the_disk_cache_is_the_one_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from riftasp import disk_cache

    program = _built(tmp_path)
    assert step_names.Program.from_json(json.loads(json.dumps(program.to_json()))) == program
    monkeypatch.setenv("RIFTASP_CACHE", str(tmp_path / "cache"))
    made: list[int] = []

    def make() -> step_names.Program:
        made.append(1)
        return program

    def cached() -> step_names.Program:
        return disk_cache.cached("program", entry, make, step_names.Program.to_json, step_names.Program.from_json)

    entry = disk_cache.key("toy", PROGRAM)
    assert cached() == program
    assert cached() == program
    assert made == [1]  # the second read it back
    # A damaged entry, or one of another shape, is made again, never trusted; a folder that
    # cannot be written only costs time.
    for damaged in ("{not json", "[]", '{"base": 1}', '{"base": 1, "parts": {}, "renamed": [], "numeric": {}}'):
        (tmp_path / "cache" / f"program-{entry}.json").write_text(damaged)
        made.clear()
        assert cached() == program and made == [1]
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("RIFTASP_CACHE", str(tmp_path / "file" / "cache"))
    made.clear()
    assert cached() == program and made == [1]
    monkeypatch.setenv("RIFTASP_CACHE", "off")
    assert disk_cache.folder() is None


def test_no_predicate_python_writes_for_a_board_is_renamed() -> None:
    """Board facts (every example's), the ruleset's data and a later round's facts keep their
    names: Python writes them under the names the encoding's files use."""
    program = solver._program(ruleset_named("sorcery"))
    written: set[tuple[str, int]] = set()
    texts = [solver.ruleset_facts(ruleset_named("sorcery")), 'excluded(a,b). paradox_record((1,a),b,c,d).']
    for path in sorted((ROOT / "examples" / "sorcery").glob("*.json")):
        if not path.name.endswith("expected.json"):
            texts.append(board_facts(board_from_dict(json.loads(path.read_text()), path.name)))
    for text in texts:
        ast.parse_string(text, lambda s: written.update(
            (f.name, len(f.arguments)) for f in step_names._atoms(s)))
    assert len(written) > 40
    assert written.isdisjoint(program.renamed)
    # (Sorcery names only what a call defines recursively: the removals' positions, what is seen.)
    assert ("early", 3) in program.renamed and ("seen", 2) in program.renamed
    assert ("need", 2) not in program.renamed


def test_steps_are_named_from_the_size_the_procedure_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """The renamed program is four times as large for gringo to go over at every call: a
    procedure names steps only from `step_names_from` objects on; RIFTASP_STEP_NAMES=0 / 1
    never / always."""
    plan = {"step_names": True, "step_names_from": 1000}
    monkeypatch.setattr(step_names, "MODE", "auto")
    assert not step_names.wanted(plan, 999)
    assert step_names.wanted(plan, 1000)
    assert not step_names.wanted({"step_names_from": 10}, 10)  # a procedure that does not ask
    monkeypatch.setattr(step_names, "MODE", "1")
    assert step_names.wanted(plan, 1)
    monkeypatch.setattr(step_names, "MODE", "0")
    assert not step_names.wanted(plan, 10**6)


def test_a_small_realm_is_calculated_with_the_encoding_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(step_names, "MODE", "auto")

    def renamed(*_args: object) -> None:
        raise AssertionError("a small realm's steps were named")

    monkeypatch.setattr(solver, "_Named", renamed)
    assert resources.procedure("sorcery")["step_names_from"] > 30
    symbols, _ = solver.run(_generated(30), ruleset_named("sorcery"))
    assert symbols


# The boards profiled: generated ones of 40 objects in the thorough run; in the README's run,
# Riftbound's fiora-buffed (a few steps, ~1.5 s). Every part of the procedure grounds at each step, rule
# group by rule group: a Sorcery example of 4 steps took ~8 s and a generated realm (16 steps of
# ~490 groups) ~24 s, so Sorcery's profile is checked in the thorough run only.
PROFILED = [("riftbound", "generated"), ("sorcery", "generated")] if THOROUGH else [("riftbound", "fiora-buffed")]


@pytest.mark.thorough
@pytest.mark.parametrize(("ruleset", "name"), PROFILED)
def test_the_rule_profile_splits_the_program_without_changing_its_answer(ruleset: str, name: str) -> None:
    """bench/rule_profile.py grounds every part of the procedure's calls rule group by rule group;
    timings of another calculation would mislead, so its answer must be the whole program's
    (a part it once left whole grounded before the rules it reads, and the generated Riftbound
    board took 14 steps instead of 17)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from boards import GENERATORS  # noqa: PLC0415 - bench/ is not a package
    from rule_profile import profile  # noqa: PLC0415

    if name == "generated":
        board = GENERATORS[ruleset](40)
    else:
        board = json.loads((ROOT / "examples" / ruleset / f"{name}.json").read_text())
    facts = board_facts(board_from_dict(board, name))
    symbols, stats = solver.run(facts, ruleset_named(ruleset))
    profiled = profile(ruleset, len(board["objects"]), board, keep_answer=True)
    assert profiled["answer"] == sorted(map(str, symbols))
    assert profiled["steps"] == stats.steps
