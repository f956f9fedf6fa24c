"""Step-local predicates get a name per step, so that a ground call's cost stays with its step.

gringo builds the index a rule body needs over the whole domain of the predicate it looks up,
every earlier step's atoms included, each time a program part is grounded again
(bench/gringo_domains.py: ~15-30 ns per atom already there, per body literal). A calculation of
many steps then pays, at every step, for all the atoms every step before it made: time grows
with steps x atoms, not with atoms.

Most step-numbered predicates are only ever read at a step known when the part is grounded:
`need(O,p)`, `still_due(I,p+1)`, `cursor(S,1)`. Such a predicate is split by that argument's
value modulo COPIES (`need__5(O,21)` for step 21), in COPIES copies of each part grounded with
numbers (copy k grounds the steps k, k + COPIES, ...). That changes no answer -- every occurrence
is renamed alike and keeps its arguments -- but a step's indices span one step in COPIES of
the atoms before it. (Not a name per step: every program part added stays, and gringo pays for
the parts added so far at each ground call: bench/gringo_domains.py --copies.) A predicate read at
a step not known then (a variable: `picked_in(I,P), P < p`), shown, or read or written by
Python keeps its name.

Nothing here knows a rule: the program is the encoding's, statement for statement; this module
only names atoms, from where their arguments are known.

It pays only on a big board: the renamed program is COPIES times as large in the statements it
renames, and gringo goes over every statement loaded at every ground call (a Sorcery call with
nothing to ground: ~3 ms for the encoding as written, ~18 ms with copies of every step
statement), so a short calculation of small steps loses more than it saves. A statement with no
renamed atom is kept once, as written. A procedure says from how many objects its steps are
named (`step_names_from`), and which predicates: every one it can (`step_names = true`), or only
those a ground call defines recursively (`"recursive"`): gringo grounds a recursive group of
rules at a cost that grows with every atom its predicates hold, even in a step that derives none
of them (at 10,000 Sorcery objects, the removals' positions: ~60 ms a step as written, ~15 ms
renamed), while a rule that only reads a predicate pays ~15 ns an atom for its index.
RIFTASP_STEP_NAMES=0 never names them, =1 names them on every board of such a procedure (to
measure what it buys, or to rule it out).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from collections.abc import Iterable
from typing import Any

from clingo import SymbolType, ast

# "0": never; "1": every board of a procedure that names its steps; else ("auto", unset): boards
# of at least the procedure's `step_names_from` objects.
MODE = os.environ.get("RIFTASP_STEP_NAMES", "auto")
# Copies of each part grounded with numbers: a step's indices then span ~1/COPIES of the steps
# before it; each copy is added when a step first needs it (a short calculation adds few).
COPIES = 4


def wanted(plan: dict[str, Any], objects: int) -> bool:
    """Whether a calculation of `objects` objects under the procedure `plan` names its steps."""
    if not plan.get("step_names", False) or MODE == "0":
        return False
    return MODE == "1" or objects >= int(plan.get("step_names_from", 0))

# Where a renamed atom's step argument is a part parameter plus a constant, its name holds a
# placeholder until the part is grounded: __S<parameter index><p|m><constant>.
_PLACEHOLDER = re.compile(r"__S(\d+)([pm])(\d+)\b")

Signature = tuple[str, int]


@dataclass(frozen=True)
class Known:
    """An argument whose value is known when its part is grounded: a number, or a numeric
    parameter (by index) plus a constant."""

    parameter: int | None
    constant: int


@dataclass
class Program:
    """A ruleset's encoding with its step-local predicates named per step: the text of the parts
    grounded once (`base`), and per part grounded with numbers a template to fill in."""

    base: str
    parts: dict[str, tuple[list[str], str]]  # part -> (parameters, template)
    renamed: dict[Signature, int]  # predicate -> the argument its names come from
    numeric: dict[str, list[int]]  # part -> the indices of its numeric parameters, in order
    # part -> (parameters, text): its statements with no renamed atom, the same in every copy,
    # added once under the part's own name and grounded with it
    plain: dict[str, tuple[list[str], str]] = field(default_factory=dict)

    def copy_key(self, part: str, values: list[int | str]) -> tuple[int, ...]:
        """Which copy of the part grounds with these parameter values: their numbers modulo
        COPIES (the part's other parameters are constants, the same in every copy)."""
        return tuple(int(values[i]) % COPIES for i in self.numeric.get(part, ()))

    def part_text(self, part: str, key: tuple[int, ...]) -> str:
        """The text of the part's copy `key` (`copy_key`)."""
        numbers = iter(key)
        by_index = {i: next(numbers) for i in self.numeric.get(part, ())}

        def fill(match: re.Match) -> str:
            value = by_index[int(match.group(1))]
            value += int(match.group(3)) if match.group(2) == "p" else -int(match.group(3))
            return _suffix(value)

        return _PLACEHOLDER.sub(fill, self.parts[part][1])

    def name_of(self, name: str, arguments: list[int]) -> str:
        """The name an atom of `name` with these (numeric) arguments has in the program."""
        position = self.renamed.get((name, len(arguments)))
        return name if position is None else name + _suffix(arguments[position])

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "parts": self.parts, "numeric": self.numeric, "plain": self.plain,
                "renamed": [[name, arity, position] for (name, arity), position in sorted(self.renamed.items())]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Program:
        """Read back `to_json`'s value; TypeError for anything else."""
        both = [*data["parts"].values(), *data["plain"].values()]
        texts = [data["base"], *(v[1] for v in both)]
        names = [p for v in both for p in v[0]] + [r[0] for r in data["renamed"]]
        numbers = [n for r in data["renamed"] for n in r[1:]] + [i for v in data["numeric"].values() for i in v]
        if not all(isinstance(t, str) for t in texts + names) or not all(type(n) is int for n in numbers):
            raise TypeError("not a program")
        return cls(data["base"], {k: (list(v[0]), v[1]) for k, v in data["parts"].items()},
                   {(name, arity): position for name, arity, position in data["renamed"]}, data["numeric"],
                   {k: (list(v[0]), v[1]) for k, v in data["plain"].items()})


def _suffix(value: int) -> str:
    return f"__{value % COPIES}"


def build(statements: Iterable[ast.AST], numeric: dict[str, set[int]], kept: set[Signature],
          recursive_in: list[set[str]] | None = None) -> Program:
    """The program of `statements` (as clingo.ast parses the encoding's files, each file's
    statements in order) with its step-local predicates renamed. `numeric`: per part name, the
    indices of the parameters the procedure grounds with numbers; `kept`: predicates that keep
    their names (Python reads or writes them); `recursive_in`: if given (the parts of each ground
    call), rename only the predicates the rules of one call define recursively (`_recursive`).
    A statement with no renamed atom is the same in every copy: it is kept once, as written
    (`Program.plain`)."""
    # Each statement with its part and the atoms in it (their function terms).
    listed: list[tuple[ast.AST, str, list[str], list[ast.AST]]] = []
    part, parameters = "base", []
    for statement in statements:
        if statement.ast_type == ast.ASTType.Program:
            part, parameters = statement.name, [p.name for p in statement.parameters]
            continue
        listed.append((statement, part, parameters, list(_atoms(statement))))
    renamed = _step_local(listed, numeric, kept)
    if recursive_in is not None:
        recursive = set().union(*(_recursive(listed, numeric, call) for call in recursive_in))
        renamed = {sig: position for sig, position in renamed.items() if sig in recursive}
    sources: dict[str, tuple[bytes, list[int]]] = {}
    base: list[str] = []
    parts: dict[str, tuple[list[str], list[str]]] = {}
    plain: dict[str, tuple[list[str], list[str]]] = {}
    for statement, part, parameters, atoms in listed:
        # A renamed predicate's #defined: its rules define it; one per name would be needed.
        if statement.ast_type == ast.ASTType.Defined and (statement.name, statement.arity) in renamed:
            continue
        edits = []
        for function in atoms:
            position = renamed.get((function.name, len(function.arguments)))
            if position is not None:
                known = _known(function.arguments[position], parameters, numeric.get(part, set()))
                assert known is not None, "a renamed predicate's argument is known in every occurrence"
                edits.append((function.location.begin, function.name, _name(function.name, known)))
        text = _source_text(statement, edits, sources) if edits else str(statement)
        if part == "base" and not parameters:
            base.append(text)
        elif edits:
            parts.setdefault(part, (parameters, []))[1].append(text)
        else:
            plain.setdefault(part, (parameters, []))[1].append(text)
    texts = {k: (v[0], "\n".join(v[1]) + "\n") for k, v in parts.items()}
    as_written = {k: (v[0], "\n".join(v[1]) + "\n") for k, v in plain.items()}
    return Program("\n".join(base) + "\n", texts, renamed, {k: sorted(v) for k, v in numeric.items()}, as_written)


def _recursive(listed: list, numeric: dict[str, set[int]], call: set[str]) -> set[Signature]:
    """The predicates that rules of the parts of one ground call (`call`) define through
    themselves (a cycle of "a rule's head reads its body"). gringo grounds such a group of rules at a cost
    that grows with every atom its predicates hold, all earlier steps' included, even in a step
    that derives none of them; a rule that only reads a predicate pays far less for its atoms."""
    reads: dict[Signature, set[Signature]] = {}
    for statement, part, parameters, _ in listed:
        if part not in call or part not in numeric or statement.ast_type != ast.ASTType.Rule:
            continue
        body = [f for item in statement.body for f in _atoms(item)]
        for head in _atoms(statement.head):
            at = _steps(head, parameters, numeric[part])
            # (A head at step p+1 and a body atom at step p never unify: no recursion in a call.)
            reads.setdefault((head.name, len(head.arguments)), set()).update(
                (f.name, len(f.arguments)) for f in body
                if not any(at.get(i, c) != c for i, c in _steps(f, parameters, numeric[part]).items()))
    from .graph import strongly_connected_components

    nodes = sorted(set(reads) | {sig for body in reads.values() for sig in body})
    return {sig for component in strongly_connected_components(nodes, reads)
            for sig in component if len(component) > 1 or sig in reads.get(sig, ())}


# Nodes below which no atom is written: terms, comparisons.
_NO_ATOMS = {
    ast.ASTType.Variable, ast.ASTType.SymbolicTerm, ast.ASTType.Function, ast.ASTType.BinaryOperation,
    ast.ASTType.UnaryOperation, ast.ASTType.Interval, ast.ASTType.Pool, ast.ASTType.Comparison,
}


def _atoms(node: ast.AST) -> Iterable[ast.AST]:
    """The function terms of the atoms in `node` (heads, bodies, conditions, aggregates)."""
    kind = node.ast_type
    if kind == ast.ASTType.SymbolicAtom:
        if node.symbol.ast_type == ast.ASTType.Function and not node.symbol.external:
            yield node.symbol
        return
    if kind in _NO_ATOMS:
        return
    for key in node.child_keys:
        child = getattr(node, key)
        if child is None:
            continue
        if isinstance(child, ast.AST):
            yield from _atoms(child)
        else:
            for item in child:
                yield from _atoms(item)


def _step_local(listed: list, numeric: dict[str, set[int]], kept: set[Signature]) -> dict[Signature, int]:
    """Per predicate to rename, the argument its names come from: one known in every occurrence
    and a numeric parameter (a step) in some. Shown predicates, and those a shown term's
    condition reads, keep their names, as `kept` do."""
    known: dict[Signature, set[int]] = {}
    stepped: dict[Signature, set[int]] = {}
    shown: set[Signature] = set()
    for statement, part, parameters, atoms in listed:
        if statement.ast_type == ast.ASTType.ShowSignature:
            shown.add((statement.name, statement.arity))
        for function in atoms:
            sig = (function.name, len(function.arguments))
            if statement.ast_type == ast.ASTType.ShowTerm:
                shown.add(sig)
            values = [_known(arg, parameters, numeric.get(part, set())) for arg in function.arguments]
            positions = {i for i, value in enumerate(values) if value is not None}
            known[sig] = positions if sig not in known else known[sig] & positions
            stepped.setdefault(sig, set()).update(i for i, v in enumerate(values) if v is not None and v.parameter is not None)
    renamed = {}
    for sig, positions in known.items():
        usable = sorted(positions & stepped.get(sig, set()))
        if usable and sig not in kept and sig not in shown:
            renamed[sig] = usable[0]
    return renamed


def _steps(function: ast.AST, parameters: list[str], numeric: set[int]) -> dict[int, tuple[int, int]]:
    """Per argument of an atom that is a numeric parameter plus a constant: (parameter, constant)."""
    known = {i: _known(arg, parameters, numeric) for i, arg in enumerate(function.arguments)}
    return {i: (k.parameter, k.constant) for i, k in known.items() if k is not None and k.parameter is not None}


def _name(name: str, known: Known) -> str:
    if known.parameter is None:
        return name + _suffix(known.constant)
    sign = "p" if known.constant >= 0 else "m"
    return f"{name}__S{known.parameter}{sign}{abs(known.constant)}"


def _source_text(statement: ast.AST, edits: list, sources: dict[str, tuple[bytes, list[int]]]) -> str:
    """The statement as its file writes it, with the atoms' names in `edits` replaced (clingo's
    locations count lines from 1 and bytes from 1 within a line)."""
    begin, end = statement.location.begin, statement.location.end
    if begin.filename not in sources:
        with open(begin.filename, "rb") as file:
            source = file.read()
        starts = [0]
        for line in source.split(b"\n"):
            starts.append(starts[-1] + len(line) + 1)
        sources[begin.filename] = (source, starts)
    source, starts = sources[begin.filename]

    def offset(position: Any) -> int:
        return starts[position.line - 1] + position.column - 1

    pieces, at = [], offset(begin)
    for position, old, new in sorted(edits, key=lambda e: offset(e[0])):
        where = offset(position)
        assert source[where:where + len(old)] == old.encode(), "an atom's location is its name"
        pieces += [source[at:where], new.encode()]
        at = where + len(old)
    pieces.append(source[at:offset(end)])
    return b"".join(pieces).decode("utf-8")


def _known(term: ast.AST, parameters: list[str], numeric: set[int]) -> Known | None:
    kind = term.ast_type
    if kind == ast.ASTType.SymbolicTerm:
        symbol = term.symbol
        if symbol.type == SymbolType.Number:
            return Known(None, symbol.number)
        # A part's parameter reads as a constant of its name.
        if symbol.type == SymbolType.Function and not symbol.arguments and symbol.name in parameters:
            index = parameters.index(symbol.name)
            return Known(index, 0) if index in numeric else None
        return None
    if kind == ast.ASTType.BinaryOperation and term.operator_type in (ast.BinaryOperator.Plus, ast.BinaryOperator.Minus):
        left, right = _known(term.left, parameters, numeric), _known(term.right, parameters, numeric)
        if left is None or right is None or right.parameter is not None:
            return None
        step = right.constant if term.operator_type == ast.BinaryOperator.Plus else -right.constant
        return Known(left.parameter, left.constant + step)
    return None




def calls(plan: dict[str, Any]) -> list[set[str]]:
    """The parts of each ground call the procedure makes."""
    return [{name for name, _ in call} for key in ("start", "step", "final") for call in plan.get(key, [])]


def numeric_parameters(plan: dict[str, Any]) -> dict[str, set[int]]:
    """Per part the procedure grounds, the indices of the parameters it always gives numbers
    ("p", "n" or an integer)."""
    seen: dict[str, list[set[int]]] = {}
    for key in ("start", "step", "final"):
        for call in plan.get(key, []):
            for name, args in call:
                indices = {i for i, a in enumerate(args) if isinstance(a, int) or a in ("p", "n")}
                seen.setdefault(name, []).append(indices)
    return {name: set.intersection(*sets) for name, sets in seen.items()}
