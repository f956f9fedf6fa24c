"""A calculation carried into a fresh Control part-way (issue 36: a long calculation's steps each
paid for every atom the steps before them made).

gringo builds the index a rule body looks up over the whole domain of its predicate, every
earlier step's atoms included, at every ground call: after 94 steps of a loop of 24 objects
(1.8 M atoms) a `choose` call with nothing to do took 61 ms, against 6 ms on a fresh Control,
and the memory held every step's atoms to the end. The program is stratified, so every atom is
a fact; a later ground call can only read atoms that one of its statements can match. This
module works out, from the encoding's statements alone, which atoms a ground call of a later step
(or the final part) could read, so that the solver can start a fresh Control holding just those
as facts and go on grounding there: the same atoms come out, since every rule grounded later sees
every atom it could match, and nothing else ever changes what it derives.

Which atoms a later call can match, per predicate, from each of its occurrences (in a head or a
body, positive or negative, in an aggregate or a condition: all are counted) in the parts the
procedure grounds again (its `step` and `final` calls; `start` and the base part are never
grounded again):
- an argument that is a numeric parameter plus a constant c (`p`, `p-1`, `n`): a later call has
  p >= the next step, so the atom's argument must be >= next + c;
- an argument that is a number: the atom's argument must be that number;
- every other argument matches anything.
An atom is carried when some occurrence matches it. Predicates shown (the model is read from the
last Control) and those Python reads by name are carried whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any

import clingo
from clingo import ast

from .step_names import _atoms, _known, numeric_parameters

Signature = tuple[str, int]
# One occurrence's constraints: (argument, "from" c | "is" value); empty: matches every atom.
Occurrence = tuple[tuple[int, str, int], ...]


@dataclass
class CarryPlan:
    """Per predicate a later call can read: None (every atom), or its occurrences' constraints."""

    reads: dict[Signature, list[Occurrence] | None]
    whole: set[str]  # names Python reads at steps before the next: every atom carried

    def facts(self, ctl: clingo.Control, next_step: int) -> list[clingo.Symbol]:
        """The atoms of `ctl` a call of step `next_step` or later can read. (Picked out by the
        grounder: a rule per occurrence, `carried__(A) :- A, constraints.`, in a part added to
        `ctl` for it; going over every atom in Python costs ~15 us an atom.)"""
        rules: list[str] = []
        for name, arity, positive in ctl.symbolic_atoms.signatures:
            if not positive:
                continue
            occurrences = None if name in self.whole else self.reads.get((name, arity), [])
            args = [f"X{i}" for i in range(arity)]
            atom = f"{name}({','.join(args)})" if arity else name
            if occurrences is None:
                rules.append(f"carried__({atom}) :- {atom}.")
                continue
            for occurrence in occurrences:
                tests = [f"X{i} = {c}" if kind == "is" else f"X{i} >= next__ + {c}" for i, kind, c in occurrence]
                rules.append(f"carried__({atom}) :- {', '.join([atom, *tests])}.")
        ctl.add("carry__", ["next__"], "\n".join(rules) + "\n")
        ctl.ground([("carry__", [clingo.Number(next_step)])])
        return [a.symbol.arguments[0] for a in ctl.symbolic_atoms.by_signature("carried__", 1)]


def plan_of(statements: Iterable[ast.AST], plan: dict[str, Any], read_by_python: set[str]) -> CarryPlan:
    """What later calls of the procedure `plan` can read, from the encoding's `statements`."""
    numeric = numeric_parameters(plan)
    later = {name for key in ("step", "final") for call in plan.get(key, []) for name, _ in call}
    reads: dict[Signature, list[Occurrence] | None] = {}
    shown: set[Signature] = set()
    part, parameters = "base", []
    for statement in statements:
        if statement.ast_type == ast.ASTType.Program:
            part, parameters = statement.name, [p.name for p in statement.parameters]
            continue
        if statement.ast_type == ast.ASTType.ShowSignature:
            shown.add((statement.name, statement.arity))
            continue
        if part not in later:
            continue
        for function in _atoms(statement):
            sig = (function.name, len(function.arguments))
            if reads.get(sig, []) is None:
                continue
            constraints = []
            for i, arg in enumerate(function.arguments):
                known = _known(arg, parameters, numeric.get(part, set()))
                if known is None:
                    continue
                constraints.append((i, "is", known.constant) if known.parameter is None else (i, "from", known.constant))
            if not constraints:
                reads[sig] = None
            else:
                reads.setdefault(sig, []).append(tuple(constraints))  # type: ignore[union-attr]
    for sig in shown:
        reads[sig] = None
    return CarryPlan(reads, set(read_by_python))
