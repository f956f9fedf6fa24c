"""The Riftbound ruleset for the reference engine: its manifest's data (through the core's
Ruleset) with its operations, conditions, characteristics and kinds of instance."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ....listing import Slot, all_slots
from ....model import Board, GameObject
from ....result import Characteristics
from ....reference.core.chars import Char
from ....reference.core.instances import Instance
from ....reference.core.layout import Layout
from ....reference.core.ruleset import Ruleset
from ....reference.core.state import KeywordInstance, ObjState
from . import instances
from .instances import OWN_PARTS
from .characteristics import TAGS, TYPES, characteristics, printed
from .conditions import CONDITIONS, FINAL_CONDITIONS

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset as RulesetValue


class Riftbound(Ruleset):
    conditions = CONDITIONS
    # A gear's own rules text is inactive while it is attached (RB 135.4).
    attached_text_inactive = True
    final_conditions = FINAL_CONDITIONS
    filter_members = (("card_type", TYPES), ("tag", TAGS))

    def __init__(self, ruleset: RulesetValue) -> None:
        # (A variant's manifest may extend Riftbound's: riftasp/resources.py.)
        super().__init__(ruleset)
        # Buffs, Might Bonuses and keyword bonuses are all increases by an amount they state.
        self.plus = self.operators["plus"]

    def listing(self, board: Board) -> Iterable[Slot]:
        return all_slots(board, OWN_PARTS, self.rules.bonus)

    def printed_values(self, obj: GameObject) -> dict[str, Any]:
        return printed(obj)

    def own_instances(self, layout: Layout) -> Iterable[tuple[str, Instance]]:
        return instances.own_instances(layout, self.plus)

    def borne_keywords(self, obj: GameObject) -> tuple[str, ...]:
        # The bonus keywords whose status the object has.
        return tuple([k for k, status in self.rules.bonus.items() if status in obj.status])

    def borne_instance(self, layout: Layout, oid: str, kw: KeywordInstance) -> Instance:
        return instances.keyword_bonus(layout, oid, kw, self.plus)

    def borne_writes(self, oid: str) -> tuple[Char, ...]:
        # A keyword bonus is arithmetic: it writes the number arithmetic changes.
        return ((oid, self.families.arithmetic, None),)

    def describe(self, inst: Instance, oid: str) -> str:
        return instances.describe(inst, oid)

    def characteristics(self, obj: GameObject, state: ObjState) -> Characteristics:
        return characteristics(obj, state, self.rules)
