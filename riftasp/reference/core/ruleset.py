"""What a ruleset gives the core: its manifest's data (procedure, layer table, characteristic
families, keyword rules) and its own operations, conditions, printed values, kinds of instance
and output.

A ruleset is a subclass (riftasp/rulesets/riftbound/reference/), given by its ruleset's plugin
(`reference_ruleset`, riftasp/rulesets/).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ...listing import Slot
from ...model import Board, Effect, GameObject, Operation
from ...result import Characteristics
from ...ruleset_data import KeywordRules, Stage
from . import catalogue
from .chars import Char
from .conditions import Check, ConditionKind
from .families import Families
from .instances import Instance
from .operators import Operator
from .state import KeywordInstance

if TYPE_CHECKING:
    from ...rulesets import Ruleset as RulesetValue
    from .layout import Layout


class Ruleset:
    """A ruleset as the reference engine sees it. Subclasses set the tables and implement the
    methods below that raise NotImplementedError."""

    conditions: Mapping[str, ConditionKind]  # condition kind -> how it reads and holds
    # A timeline's bookkeeping (riftasp/reference/timeline.py): whether an attached object's own
    # rules text is inactive (Riftbound, RB 135.4), and the ruleset's own kinds of condition
    # judged on a calculated state.
    attached_text_inactive: bool = False
    final_conditions: Mapping[str, Any] = {}
    # What a filter asks about the target's sets: (Filter field, set-valued characteristic).
    filter_members: tuple[tuple[str, str], ...]

    def __init__(self, ruleset: RulesetValue) -> None:
        self.name = ruleset.name
        self.procedure: str = ruleset.procedure
        self.rules: KeywordRules = ruleset.keywords
        self.families = Families.of(ruleset.families)
        self.stages: tuple[Stage, ...] = ruleset.layers
        self.operators = catalogue.operators(self)

    def stage_of(self, operation: str) -> int:
        """The stage rank of an operation, as the manifest's layer table names it."""
        for stage in self.stages:
            if operation in stage.operations:
                return stage.rank
        raise ValueError(f"{self.name}: no stage applies {operation!r}")

    def layer(self, rank: int) -> tuple[str, str | None]:
        stage = self.stages[rank - 1]
        return stage.layer, stage.sublayer

    def operator(self, op: Operation) -> Operator:
        try:
            return self.operators[op.name]
        except KeyError:
            raise ValueError(f"{self.name}: unknown operation {op.name!r}") from None

    def bind(self, effect: Effect) -> dict:
        """An effect's fields as an Instance holds them: its operator and stage, its conditions
        bound to their kinds, and what its filter asks of the target's sets."""
        checks = []
        for cond in effect.conditions:
            if cond.kind not in self.conditions:
                raise ValueError(f"{self.name}: unknown condition kind {cond.kind!r}")
            checks.append(Check(cond, self.conditions[cond.kind]))
        f = effect.target.filter if effect.target.kind == "filter" else None
        asks = () if f is None else tuple(
            (characteristic, getattr(f, name))
            for name, characteristic in self.filter_members
            if getattr(f, name) is not None
        )
        operator = self.operator(effect.op)
        return {
            "op": effect.op,
            "operator": operator,
            "stage": operator.stage,
            "conditions": tuple(checks),
            "target": effect.target,
            "asks": asks,
        }

    def listing(self, board: Board) -> Iterable[Slot]:
        """Every slot of the board, used or not, in listing order (riftasp/listing.py): its
        text and ongoing effects, and the slots of its own kinds of instance (§2, order key)."""
        raise NotImplementedError

    def printed_values(self, obj: GameObject) -> dict[str, Any]:
        """Each characteristic of the families as printed on an object (a set as a frozenset)."""
        raise NotImplementedError

    # -- its own kinds of instance (a ruleset without any keeps these defaults) -------------------

    def own_instances(self, layout: Layout) -> Iterable[tuple[str, Instance]]:
        """Its instances besides effects and abilities, with the object each applies to."""
        return ()

    def borne_keywords(self, obj: GameObject) -> tuple[str, ...]:
        """The keywords each instance of which bears an instance on `obj` (on the board): none
        unless the ruleset has keyword-borne instances (Riftbound's keyword bonuses)."""
        return ()

    def borne_instance(self, layout: Layout, oid: str, kw: KeywordInstance) -> Instance:
        """The instance keyword instance `kw` of `oid` bears (asked only for `borne_keywords`)."""
        raise NotImplementedError(f"{self.name}: no keyword bears an instance")

    def borne_writes(self, oid: str) -> tuple[Char, ...]:
        """What a keyword-borne instance on `oid` writes (known before any exists)."""
        return ()

    # -- output -----------------------------------------------------------------------------------

    def describe(self, inst: Instance, oid: str) -> str:
        """How the trace names an instance of one of its own kinds, or a keyword-borne one."""
        raise NotImplementedError

    def characteristics(self, obj: GameObject, state: Any) -> Characteristics:
        """An object's output from its final state: the core's ObjState for the procedures on
        the core's instances (recheck), a ruleset's own for its own procedure (Sorcery's
        layered one, whose state is None for an object outside the realm)."""
        raise NotImplementedError
