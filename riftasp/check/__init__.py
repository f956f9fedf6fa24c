"""`riftasp check`: a resolution checked against the rules' invariants (docs/check.md).

The invariants are the ruleset's: its plugin's `checker()` gives the function that checks them
(Riftbound's, docs/semantics.md §13: riftasp/rulesets/riftbound/check/__init__.py; Sorcery's,
docs/semantics-sorcery.md: riftasp/rulesets/sorcery/check/). A checker does not replay the procedure and
imports neither engine: it reads the board model, the ruleset data and a resolution in the
output contract. A ruleset whose plugin names no checker — a variant included, whose layer table
differs from the one its base's checker restates (but for the order of the table, where the base's
checkers read it from the ruleset: `CHECKERS_READ_THE_LAYER_TABLE`, Sorcery's) — is refused
(`ContractError`).

    from riftasp.check import check
    violations = check(board, resolution.to_json())   # [] when consistent
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model import Board
from ..rulesets import Ruleset, rulesets_with
from .contract import ContractError
from .report import DECISION, FINAL, NEEDS, RULE, TRACE, Basis, Report, Violation, with_bases

# The declarative checker's invariant name (riftasp/rulesets/riftbound/check/declarative.py), and whether
# `check` / `check_report` ask it when the caller does not say (off: each question grounds a
# program, and the replay checks' callers pin their exact violations).
DECLARATIVE = "rules-allow"
DECLARATIVE_BY_DEFAULT = False

__all__ = ["check", "check_report", "check_where_known", "CampaignChecker", "ContractError", "Report", "Violation", "FINAL", "TRACE", "NEEDS",
           "DECLARATIVE", "Basis", "RULE", "DECISION"]


def checker_of(ruleset: Ruleset) -> Callable[[Board, Any], Report] | None:
    """The ruleset's own checker (its plugin's `checker()`), or None."""
    return ruleset.checker()


def check_report(board: Board, resolution: Any, declarative: bool | None = None) -> Report:
    """Every invariant of the board's ruleset checked on `resolution` (the output contract as
    parsed JSON) of `board`. Raises ContractError when `resolution` is not the contract, or the
    board's ruleset has no checker. `declarative=True`: also ask what the rules allow
    (riftasp/rulesets/riftbound/check/declarative.py: is the final state a consistent state, are the paradoxes
    real; Riftbound, and Sorcery in riftasp/rulesets/sorcery/check/declarative.py); None:
    DECLARATIVE_BY_DEFAULT."""
    checker = checker_of(board.ruleset)
    if checker is None:
        known = ", ".join(rulesets_with("checker"))
        raise ContractError("ruleset", f"no invariant checker for the {board.ruleset} ruleset (rulesets with one: {known})")
    # (A checker's view of the resolution starts with `contract.check_contract`, what every
    # ruleset's output shares: Riftbound's and Sorcery's `read_view`.)
    report = checker(board, resolution)
    if DECLARATIVE_BY_DEFAULT if declarative is None else declarative:
        from .declarative import add_to_report

        add_to_report(board, resolution, report)
    # Each violation marked with what its check rests on: a rule, or a riftasp Decision.
    if report.violations:
        bases = board.ruleset.same_rules("check_bases")
        report.violations = with_bases(report.violations, bases() if bases is not None else {})
    return report


def check_where_known(board: Board, resolution: Any, declarative: bool = True) -> list[Violation]:
    """`check`, for the boards of a ruleset with a checker; no violations for the others
    (crosscheck and fuzz then compare the two engines alone on them). `declarative`: ask what the
    rules allow too (a board over its size bound is skipped there, never flagged)."""
    return check(board, resolution, declarative=declarative) if checker_of(board.ruleset) is not None else []


class CampaignChecker:
    """The checker `crosscheck` and `fuzz` use: the ruleset's invariants on both answers, and what
    the rules allow (the declarative checker) on the other engine's answer where its values differ
    from riftasp's — there it says which side the rules allow. Where they are the same, its verdict
    is the one on riftasp's own answer, which the tests hold to the declarative checker (its
    thorough run on generated boards); asking again would cost every agreeing board a grounding.
    riftasp's side is asked first (crosscheck, fuzz)."""

    takes_side = True

    def __init__(self) -> None:
        self._ours: tuple[int, Any] | None = None  # (id of the board, riftasp's final values)

    def __call__(self, board: Board, resolution: Any, side: str = "engine") -> list[Violation]:
        values = _final_values(resolution)
        if side == "riftasp":
            self._ours = (id(board), values)
            return check_where_known(board, resolution, declarative=False)
        same = self._ours is not None and self._ours == (id(board), values)
        return check_where_known(board, resolution, declarative=not same)


def _final_values(resolution: Any) -> Any:
    """What the declarative checker judges of an answer: its final values and paradoxes."""
    if not isinstance(resolution, dict):
        return None
    return resolution.get("objects"), resolution.get("paradoxes")


def check(board: Board, resolution: Any, declarative: bool | None = None) -> list[Violation]:
    """The violations of the invariants in `resolution` of `board` ([] when consistent)."""
    return check_report(board, resolution, declarative).violations
