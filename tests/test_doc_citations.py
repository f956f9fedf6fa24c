"""The rule citations of the semantics documents (issue 37, "Seed sentence -> rule").

docs/semantics.md (Riftbound) and docs/semantics-sorcery.md (Sorcery) cite, beside each rule and
each **Decision**, the code that implements it, in one form: a backquoted path from the
repository root, a colon and a space, then what that file defines, separated by commas —
`name/arity` predicates for an encoding (`encodings/core/state.lp: new_retained/3, holds/3`),
names of top-level functions or classes for a Python file (`riftasp/x.py: resolve, Round`).

Every citation must hold: the file exists; each predicate is defined in it (the head of a rule or
fact, an `#external`, or named by `#show` or `#defined`: read with clingo's AST); each Python
name is a top-level `def` or `class` of it (read with Python's `ast`). Every section (`## ...`)
that states a **Decision** cites at least one. A span that looks like a citation but does not
parse (`path.lp:name` without an arity, say) is reported too, so that no citation is silently
skipped. (A pytest node id, `tests/x.py::test_y`, is not a citation.)
"""

from __future__ import annotations

import ast as python_ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from clingo import ast

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("docs/semantics.md", "docs/semantics-sorcery.md")

# `path.lp: ...` or `path.py: ...` within one pair of backquotes (not `path.py::node`).
CITATION = re.compile(r"`([A-Za-z0-9_./-]+\.(?:lp|py)):(?!:)([^`\n]*)`")
CITATION_ANYWHERE = re.compile(r"`([A-Za-z0-9_./-]+\.(?:lp|py)):(?!:)([^`]*)`")
LP_ITEM = re.compile(r"([a-z_][A-Za-z0-9_]*)/(\d+)")
PY_ITEM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SECTION = re.compile(r"## (?!#)")
DECISION = "**Decision"

Signature = tuple[str, int]


@dataclass(frozen=True)
class Citation:
    doc: str
    line: int
    path: str
    items: str  # as written after the colon

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: `{self.path}:{self.items}`"


def citations(doc: str, text: str) -> list[Citation]:
    """Every citation of `text` (the document `doc`), with its line number."""
    return [Citation(doc, number, m.group(1), m.group(2))
            for number, line in enumerate(text.splitlines(), 1)
            for m in CITATION.finditer(line)]


def broken_citations(doc: str, text: str) -> list[str]:
    """Citations broken across lines (which `citations` would not see)."""
    return [f"{doc}:{text.count(chr(10), 0, m.start()) + 1}: a citation is broken across lines: "
            f"{m.group(0)!r}"
            for m in CITATION_ANYWHERE.finditer(text) if "\n" in m.group(0)]


def sections(text: str) -> list[tuple[int, str, str]]:
    """(line, heading, body) of every `## ` section (its `###` subsections included)."""
    found: list[tuple[int, str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if SECTION.match(line):
            found.append((number, line, []))
        elif found:
            found[-1][2].append(line)
    return [(number, heading, "\n".join(body)) for number, heading, body in found]


def _head_atoms(node, into: set[Signature]) -> None:
    """The predicate signatures a rule's head defines (not the conditions of its elements)."""
    if isinstance(node, ast.AST):
        if node.ast_type == ast.ASTType.SymbolicAtom:
            term = node.symbol
            if term.ast_type == ast.ASTType.Function:
                into.add((term.name, len(term.arguments)))
            elif term.ast_type == ast.ASTType.SymbolicTerm:
                into.add((term.symbol.name, len(term.symbol.arguments)))
            return
        if node.ast_type == ast.ASTType.ConditionalLiteral:  # `head : condition`
            _head_atoms(node.literal, into)
            return
        for key in node.child_keys:
            _head_atoms(getattr(node, key), into)
    elif not isinstance(node, (str, int)) and hasattr(node, "__iter__"):
        for child in node:
            _head_atoms(child, into)


@cache
def lp_signatures(path: Path) -> frozenset[Signature]:
    """What an encoding file defines: rule and fact heads, `#external`s, `#show`, `#defined`."""
    defined: set[Signature] = set()

    def statement(stm) -> None:
        if stm.ast_type == ast.ASTType.Rule:
            _head_atoms(stm.head, defined)
        elif stm.ast_type == ast.ASTType.External:
            _head_atoms(stm.atom, defined)
        elif stm.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            defined.add((stm.name, stm.arity))

    ast.parse_files([str(path)], statement)
    return frozenset(defined)


@cache
def py_names(path: Path) -> frozenset[str]:
    """The top-level functions and classes of a Python file."""
    tree = python_ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    kinds = (python_ast.FunctionDef, python_ast.AsyncFunctionDef, python_ast.ClassDef)
    return frozenset(node.name for node in tree.body if isinstance(node, kinds))


def problems(citation: Citation, root: Path = ROOT) -> list[str]:
    """What is wrong with one citation (nothing: an empty list)."""
    where = str(citation)
    path = root / citation.path
    if not path.is_file():
        return [f"{where}: no file {citation.path}"]
    encoding = citation.path.endswith(".lp")
    pattern, form = (LP_ITEM, "name/arity") if encoding else (PY_ITEM, "a Python name")
    wrong = []
    for item in (item.strip() for item in citation.items.split(",")):
        if not citation.items.startswith(" ") or not pattern.fullmatch(item):
            wrong.append(f"{where}: {item!r} is not {form} (the form: a colon and a space, then "
                         f"items separated by commas)")
        elif encoding:
            name, arity = item.split("/")
            defined = lp_signatures(path)
            if (name, int(arity)) not in defined:
                arities = sorted(a for n, a in defined if n == name)
                hint = f" (it defines {name} with arity {', '.join(map(str, arities))})" if arities else ""
                wrong.append(f"{where}: {citation.path} defines no {item}{hint}")
        elif item not in py_names(path):
            wrong.append(f"{where}: {citation.path} has no top-level def or class {item}")
    return wrong


def undecided_sections(doc: str, text: str) -> list[str]:
    """The sections that state a **Decision** and cite nothing."""
    return [f"{doc}:{number}: {heading!r} states a Decision and cites no rule"
            for number, heading, body in sections(text)
            if DECISION in body and not citations(doc, body)]


def _read(doc: str) -> str:
    return (ROOT / doc).read_text(encoding="utf-8")


@pytest.mark.parametrize("doc", DOCS)
def test_every_citation_names_a_file_and_what_it_defines(doc):
    found = citations(doc, _read(doc))
    assert found, f"{doc} cites no rule"
    wrong = [problem for citation in found for problem in problems(citation)]
    wrong += broken_citations(doc, _read(doc))
    assert wrong == [], "\n" + "\n".join(wrong)


@pytest.mark.parametrize("doc", DOCS)
def test_every_section_with_a_decision_cites_its_rules(doc):
    missing = undecided_sections(doc, _read(doc))
    assert missing == [], "\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", DOCS)
def test_the_document_says_how_citations_are_written_and_kept(doc):
    preamble = _read(doc).split("\n## ", 1)[0]
    assert "tests/test_doc_citations.py" in preamble


def test_the_checks_catch_what_they_are_for():
    """The checks themselves, on a made-up document (every kind of mistake, and what is fine)."""
    this = "tests/test_doc_citations.py"
    text = "\n".join([
        "# A document",
        "",
        "## 1. Fine",
        "**Decision.** Rules: `encodings/core/objects.lp: needs/2, group_of/2`;",
        f"`{this}: lp_signatures, Citation`; a node id is none: `{this}::test_x`.",
        "## 2. A file that is not there",
        "**Decision.** Rules: `encodings/core/nothing.lp: needs/2`.",
        "## 3. A predicate that is not defined there, or not with that arity",
        "Rules: `encodings/core/objects.lp: needs/3, no_such/1`.",
        "## 4. Not in the form",
        "Rules: `encodings/core/objects.lp:needs`; `" + this + ": not a name`.",
        "## 5. A Python name that is not top-level",
        f"Rules: `{this}: statement, problems`.",
        "## 6. A Decision without a citation",
        "**Decision (none).** Nothing cited; `encodings/core/objects.lp` alone is no citation.",
        "### 6.1 A subsection belongs to its section",
        "## 7. A subsection's citation counts for its section",
        "**Decision.**",
        "### 7.1",
        "Rules: `encodings/core/objects.lp: needs/2`; `encodings/core/objects.lp: needs/2,",
        "group_of/2` is broken across lines.",
    ])
    found = citations("made-up.md", text)
    assert [(c.line, c.path) for c in found] == [
        (4, "encodings/core/objects.lp"), (5, this), (7, "encodings/core/nothing.lp"),
        (9, "encodings/core/objects.lp"), (11, "encodings/core/objects.lp"), (11, this),
        (13, this), (20, "encodings/core/objects.lp")]
    wrong: dict[int, list[str]] = {}
    for c in found:
        wrong.setdefault(c.line, []).extend(problems(c))
    assert wrong[4] == [] and wrong[5] == [] and wrong[20] == []
    assert "no file encodings/core/nothing.lp" in wrong[7][0]
    assert ["defines no needs/3 (it defines needs with arity 2)" in p for p in wrong[9]] == [True, False]
    assert "defines no no_such/1" in wrong[9][1]
    assert len(wrong[11]) == 2 and all("is not" in p for p in wrong[11])
    nested = f"made-up.md:13: `{this}: statement, problems`: {this} has no top-level def or class statement"
    assert wrong[13] == [nested]
    broken = "made-up.md:20: a citation is broken across lines: '`encodings/core/objects.lp: needs/2,\\ngroup_of/2`'"
    assert broken_citations("made-up.md", text) == [broken]
    undecided = "made-up.md:14: '## 6. A Decision without a citation' states a Decision and cites no rule"
    assert undecided_sections("made-up.md", text) == [undecided]
