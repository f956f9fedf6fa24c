"""Comparing two engines' results (the resolve JSON contract) characteristic by characteristic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rulesets import Ruleset, field_groups

# The field named by a disagreement about an object one side does not report at all.
OBJECT_FIELD = "object"


@dataclass(frozen=True)
class Disagreement:
    """One characteristic of one object on which riftasp and the other engine differ.

    For an object only one side reports, `field` is "object" and the missing side's value is
    None (the other side's value is its compared characteristics).
    """

    board: str
    object: str
    field: str
    riftasp_value: Any
    engine_value: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "object": self.object,
            "field": self.field,
            "riftasp": self.riftasp_value,
            "engine": self.engine_value,
        }


# Fields that say the same thing, from the plugins' output fields (`OutputField.group`):
# Mighty follows from Might, so one Might defect shows in both.
FIELD_GROUPS = field_groups()


def field_group(field: str) -> str:
    """The kind of characteristic a finding is about (`mighty` counts as `might`)."""
    return FIELD_GROUPS.get(field, field)


def compared_fields(ruleset: Ruleset) -> tuple[str, ...]:
    """The characteristics engines are compared on: the ruleset's compared fields, then
    keywords."""
    return tuple(f.key for f in ruleset.output_fields if f.compared) + ("keywords",)


@dataclass(frozen=True)
class Violation:
    """An invariant a rules checker (`fuzz(checker=...)`) found broken in one engine's answer.

    Reported like a disagreement: `field` is `check:<invariant>`, and the value found sits on
    the side (`riftasp` or `engine`) whose answer breaks it. `basis` says what the broken check
    rests on: "rule", or "decision" with the riftasp Decisions' ids in `decisions` (the checker's
    violation's, riftasp/check/report.py; "" when the checker does not say): an engine that
    reads a Decision otherwise breaks it without breaking a rule (`described` marks it for text
    reports).
    """

    board: str
    object: str
    invariant: str
    side: str  # "riftasp" | "engine"
    expected: Any
    found: Any
    basis: str = ""  # "" when the checker says nothing of it
    decisions: tuple[str, ...] = ()

    @property
    def field(self) -> str:
        return f"check:{self.invariant}"

    @property
    def described(self) -> str:
        """The invariant as a text report names it: `final-consistency (riftasp Decision R9)`."""
        from .check.report import decision_note

        return self.invariant + decision_note(self.basis, self.decisions)

    @property
    def riftasp_value(self) -> Any:
        return self.found if self.side == "riftasp" else None

    @property
    def engine_value(self) -> Any:
        return self.found if self.side == "engine" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "object": self.object,
            "field": self.field,
            "invariant": self.invariant,
            "side": self.side,
            "expected": self.expected,
            "found": self.found,
        } | ({"basis": self.basis, "decisions": list(self.decisions)} if self.basis else {})


def normalize(kind: str, value: Any) -> Any:
    """The value as compared, by the kind of field (specs.OUTPUT_KINDS, or "keywords"): a set
    is a set, whatever order an engine lists it in."""
    if kind == "set" and isinstance(value, list):
        return sorted(value, key=str)
    if kind == "keywords" and isinstance(value, dict):
        return dict(sorted(value.items()))
    return value


def _compared(characteristics: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    kinds = {f.key: f.kind for f in ruleset.output_fields} | {"keywords": "keywords"}
    return {key: normalize(kinds[key], characteristics.get(key)) for key in compared_fields(ruleset)}


def compare(board: str, riftasp: dict[str, Any], engine: dict[str, Any], ruleset: Ruleset) -> list[Disagreement]:
    """Every disagreement between two results of one board of `ruleset`, in object id then field
    order (the fields the ruleset compares)."""
    ours: dict[str, Any] = riftasp.get("objects", {})
    theirs: dict[str, Any] = engine.get("objects", {})
    found: list[Disagreement] = []
    for oid in sorted(set(ours) | set(theirs)):
        if oid not in theirs or oid not in ours:
            found.append(Disagreement(
                board, oid, OBJECT_FIELD,
                _compared(ours[oid], ruleset) if oid in ours else None,
                _compared(theirs[oid], ruleset) if oid in theirs else None,
            ))  # fmt: skip
            continue
        a, b = _compared(ours[oid], ruleset), _compared(theirs[oid], ruleset)
        # Booleans are not integers here: `mighty: 1` is not `mighty: true`.
        found.extend(
            Disagreement(board, oid, f, a[f], b[f])
            for f in compared_fields(ruleset)
            if a[f] != b[f] or type(a[f]) is not type(b[f])
        )
    return found
