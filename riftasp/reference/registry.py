"""The reference engine's rulesets and scheduling procedures, by name: the one place to register
either. A board's ruleset is looked up by `board.ruleset`; its procedure by the name its manifest
gives (`procedure = "..."`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..model import Board
from ..result import Resolution
from ..rulesets import PLUGINS, UnsupportedRuleset
from .core.ruleset import Ruleset
from .procedures import layered, recheck
from ..rulesets.riftbound.reference import Riftbound

Procedure = Callable[[Board, Ruleset], Resolution]

# The built-in rulesets, and those a ruleset plugin brings (its `reference_ruleset`).
RULESETS: dict[str, Callable[[], Ruleset]] = {
    "riftbound": Riftbound,
    **{name: plugin.reference_ruleset for name, plugin in PLUGINS.items() if hasattr(plugin, "reference_ruleset")},
}
PROCEDURES: dict[str, Procedure] = {"recheck": recheck.resolve, "layered": layered.resolve}


@cache
def ruleset(name: str) -> Ruleset:
    if name not in RULESETS:
        raise UnsupportedRuleset(f"the reference engine has no ruleset {name!r}")
    return RULESETS[name]()


def procedure(rules: Ruleset) -> Procedure:
    if rules.procedure not in PROCEDURES:
        raise UnsupportedRuleset(f"the reference engine has no procedure {rules.procedure!r}")
    return PROCEDURES[rules.procedure]


def resolve(board: Board) -> Resolution:
    """Compute every object's characteristics by its ruleset's procedure."""
    rules = ruleset(board.ruleset)
    return procedure(rules)(board, rules)
