"""Violations and the report `riftasp check` prints (docs/check.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# The three invariants of docs/semantics.md §13.
FINAL = "final-consistency"
TRACE = "trace-replay"
NEEDS = "needs"


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

    def to_json(self) -> dict[str, Any]:
        return {
            "object": self.object,
            "invariant": self.invariant,
            "check": self.check,
            "effect": self.effect,
            "expected": self.expected,
            "found": self.found,
        }


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
                [v.object, v.invariant, v.check, v.effect or "-", v.expected, v.found]
                for v in self.violations
            ]
            out.append(table(rows, ["object", "invariant", "check", "effect", "expected", "found"]))
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
