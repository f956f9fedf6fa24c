"""The encoding files' interfaces (issue 8): every predicate a ruleset's files use is provided by
a file its manifest loads, is an input Python writes, or is a hook a file declares `#defined`
(which a ruleset may leave empty); and each file's header names what it expects from other
files and what it provides to them (read with clingo's AST)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clingo import ast

from riftasp.resources import encoding_files, manifest, missing_encodings
from riftasp.rulesets import known

Signature = tuple[str, int]
_HEADER_NAME = re.compile(r"\b([a-z_][A-Za-z0-9_]*)/(\d+)\b")


def _atoms(node, into: set[Signature]) -> None:
    """Every predicate signature of a symbolic atom under `node`."""
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


class Interface:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.defines: set[Signature] = set()
        self.uses: set[Signature] = set()
        self.shows: set[Signature] = set()
        self.optional: set[Signature] = set()  # `#defined`: a hook another file may fill
        ast.parse_files([str(path)], self._statement)
        self.uses -= self.defines
        self.expects, self.provides = _header(path)

    def _statement(self, stm) -> None:
        if stm.ast_type == ast.ASTType.Rule:
            _atoms(stm.head, self.defines)
            _atoms(stm.body, self.uses)
        elif stm.ast_type == ast.ASTType.ShowSignature:
            self.shows.add((stm.name, stm.arity))
        elif stm.ast_type == ast.ASTType.Defined:
            self.optional.add((stm.name, stm.arity))


def _header(path: Path) -> tuple[set[Signature], set[Signature]]:
    """The signatures named after `Expects:` and after `Provides:` in the leading comment."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("%"):
            break
        lines.append(line.lstrip("% "))
    text = " ".join(lines)
    expects = text.split("Expects:", 1)[1].split("Provides:", 1)[0] if "Expects:" in text else ""
    provides = text.split("Provides:", 1)[1] if "Provides:" in text else ""
    named = lambda part: {(n, int(a)) for n, a in _HEADER_NAME.findall(part)}  # noqa: E731
    return named(expects), named(provides)


# The rulesets whose encoding is written (Sorcery's is not yet: resources.missing_encodings).
WRITTEN = [r for r in known() if not missing_encodings(r)]  # installed ones too


def _interfaces(ruleset: str) -> list[Interface]:
    return [Interface(path) for path in encoding_files(ruleset)]


def _inputs(ruleset: str) -> set[Signature]:
    return {(n, int(a)) for n, a in (s.split("/") for s in manifest(ruleset)["encoding"]["input"])}


@pytest.mark.parametrize("ruleset", WRITTEN)
def test_every_predicate_used_is_provided_by_a_loaded_file_or_is_an_input(ruleset):
    files = _interfaces(ruleset)
    # A hook the core declares with `#defined` may be left empty: a ruleset without keyword
    # bonuses, fixed amounts or arithmetic fills none of them.
    provided = set().union(*(f.defines | f.optional for f in files)) | _inputs(ruleset)
    missing = {f"{f.path.parent.name}/{f.path.name}": sorted(f.uses - provided) for f in files}
    assert {k: v for k, v in missing.items() if v} == {}


def header_problems(files: list, inputs: set[Signature]) -> dict[str, list[str]]:
    """Each file's header against what it uses from and gives to the others (by folder/file)."""
    wrong = {}
    for f in files:
        others = [g for g in files if g is not f]
        from_others = {s for s in f.uses if any(s in g.defines for g in others)} - inputs
        to_others = {s for s in f.defines if any(s in g.uses for g in others)} | (f.shows & f.defines)
        problems = [f"expects, unnamed: {sorted(from_others - f.expects - f.provides)}",
                    f"provides, unnamed: {sorted(to_others - f.provides)}",
                    f"named, neither used nor defined: {sorted((f.expects - f.uses - inputs) | (f.provides - f.defines))}"]
        problems = [p for p in problems if not p.endswith("[]")]
        if problems:
            wrong[f"{f.path.parent.name}/{f.path.name}"] = problems
    return wrong


@pytest.mark.parametrize("ruleset", WRITTEN)
def test_each_header_names_what_the_file_expects_and_provides(ruleset):
    assert header_problems(_interfaces(ruleset), _inputs(ruleset)) == {}


def test_the_sorcery_declarative_checker_s_files_name_what_they_expect_and_provide():
    # encodings/check/sorcery/ (riftasp/rulesets/sorcery/check/declarative.py): a program of its own,
    # loaded by the checker, not by a ruleset's manifest; its inputs are the facts it writes.
    from riftasp.rulesets.sorcery.check.declarative import FILES, INPUTS
    from riftasp.resources import encodings_folder

    files = [Interface(encodings_folder() / "check" / "sorcery" / name) for name in FILES]
    inputs = {(n, int(a)) for n, a in (s.split("/") for s in INPUTS)}
    assert header_problems(files, inputs) == {}
    provided = set().union(*(f.defines | f.optional for f in files)) | inputs
    assert {f.path.name: sorted(f.uses - provided) for f in files if f.uses - provided} == {}
