"""The reference engine's scheduling procedures, by the name a manifest gives (`procedure =
"..."`): the one place to register one. A board's ruleset brings its own reference rules (its
plugin's `reference_ruleset`, riftasp/rulesets/), built once per ruleset."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from ..model import Board
from ..resources import UnsupportedRuleset
from ..result import Resolution
from .core.ruleset import Ruleset
from .procedures import layered, recheck

if TYPE_CHECKING:
    from ..rulesets import Ruleset as RulesetValue

Procedure = Callable[[Board, Ruleset], Resolution]

PROCEDURES: dict[str, Procedure] = {"recheck": recheck.resolve, "layered": layered.resolve}


@cache
def rules_of(value: RulesetValue) -> Ruleset:
    """The reference engine's rules of a ruleset (built once)."""
    return value.reference()


def procedure(rules: Ruleset) -> Procedure:
    if rules.procedure not in PROCEDURES:
        raise UnsupportedRuleset(f"the reference engine has no procedure {rules.procedure!r}")
    return PROCEDURES[rules.procedure]


def resolve(board: Board) -> Resolution:
    """Compute every object's characteristics by its ruleset's procedure."""
    rules = rules_of(board.ruleset)
    return procedure(rules)(board, rules)
