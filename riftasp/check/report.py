"""Violations and the report `riftasp check` prints (docs/check.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

# The three invariants of docs/semantics.md §13.
FINAL = "final-consistency"
TRACE = "trace-replay"
NEEDS = "needs"

# What a check rests on (its `Basis`): a rules sentence, or a riftasp Decision where the rules are
# silent or leave a choice (docs/semantics.md R1-R17, docs/semantics-sorcery.md S1-S21; the
# choice points of encodings/<ruleset>/choice_points.toml). An engine that reads a Decision
# otherwise breaks the checks resting on it without breaking a rule.
RULE = "rule"
DECISION = "decision"


@dataclass(frozen=True)
class Basis:
    """What one check rests on: `kind` RULE (`cite` names the sentence or section) or DECISION
    (`decisions`: the ids of the Decisions whose reading it enforces)."""

    kind: str
    decisions: tuple[str, ...] = ()
    cite: str = ""

    def __post_init__(self) -> None:
        assert self.kind in (RULE, DECISION) and bool(self.decisions) == (self.kind == DECISION), self


def rule(cite: str) -> Basis:
    return Basis(RULE, (), cite)


def decision(*ids: str, cite: str = "") -> Basis:
    return Basis(DECISION, tuple(ids), cite)


def decision_note(basis: str, decisions: tuple[str, ...]) -> str:
    """How text marks a check that rests on riftasp Decisions: ` (riftasp Decision R9)`; "" for a rule."""
    if basis != DECISION:
        return ""
    return f" (riftasp Decision{'s' if len(decisions) > 1 else ''} {', '.join(decisions)})"


def basis_of(bases: Mapping[tuple[str, str], Basis], invariant: str, check: str) -> Basis | None:
    """The basis a ruleset's table (`check_bases()` of its plugin) gives a check: its entry, or
    that of a family of checks named with `*` (`final-*`)."""
    found = bases.get((invariant, check))
    if found is not None:
        return found
    for (inv, name), basis in bases.items():
        if inv == invariant and name.endswith("*") and check.startswith(name[:-1]):
            return basis
    return None


@dataclass(frozen=True)
class Violation:
    """One broken invariant: on which object, which invariant (and which check of it), for which
    application (if any), what the rules require and what the resolution says."""

    object: str
    invariant: str  # FINAL, TRACE or NEEDS
    check: str  # the particular check, e.g. "exists", "before", "strongly-connected"
    expected: str
    found: str
    effect: str | None = None  # the instance / application concerned, if any
    # RULE or DECISION (with the Decisions' ids): the check's (`with_bases`), or, where one
    # violation of a check rests on a Decision the check as a whole does not, the violation's own.
    basis: str = ""
    decisions: tuple[str, ...] = ()

    def on_decision(self, *ids: str) -> Violation:
        """The violation marked as resting on the Decisions `ids`."""
        return replace(self, basis=DECISION, decisions=ids)

    @property
    def note(self) -> str:
        return decision_note(self.basis, self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {
            "object": self.object,
            "invariant": self.invariant,
            "check": self.check,
            "effect": self.effect,
            "expected": self.expected,
            "found": self.found,
            "basis": self.basis or RULE,
            "decisions": list(self.decisions),
        }


def with_bases(violations: list[Violation], bases: Mapping[tuple[str, str], Basis]) -> list[Violation]:
    """`violations`, each without a basis of its own given its check's (RULE when the table has none)."""
    out = []
    for v in violations:
        if not v.basis:
            b = basis_of(bases, v.invariant, v.check)
            v = replace(v, basis=b.kind, decisions=b.decisions) if b is not None else replace(v, basis=RULE)
        out.append(v)
    return out


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # checks not made, and why
    checked: int = 0  # individual checks made

    @property
    def consistent(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {
            "violations": [v.to_json() for v in self.violations],
            "skipped": list(self.skipped),
            "checked": self.checked,
        }

    def text(self) -> str:
        from ..present import table

        out = []
        if self.violations:
            rows = [
                [v.object, v.invariant, v.check + v.note, v.effect or "-", v.expected, v.found]
                for v in self.violations
            ]
            # (The check's column holds its Decision; what the rules require, prose, may be long.)
            out.append(table(rows, ["object", "invariant", "check", "effect", "expected", "found"],
                             widths={2: 48, 4: 120}))
            if any(v.basis == DECISION for v in self.violations):
                out.append("riftasp Decision: a reading riftasp chose where the rules are silent or leave a choice "
                           "(docs/semantics.md, docs/semantics-sorcery.md); an engine that reads it otherwise "
                           "breaks it without breaking a rule")
        for reason in self.skipped:
            out.append(f"skipped: {reason}")
        verdict = (
            f"{len(self.violations)} violation{'s' if len(self.violations) != 1 else ''}"
            if self.violations else "not judged" if not self.checked and self.skipped else "consistent"
        )
        out.append(f"{self.checked} checks: {verdict}")
        return "\n".join(out)


def show(value: Any) -> str:
    """A value as it appears in the expected / found columns."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    if isinstance(value, (set, frozenset)):
        value = sorted(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
