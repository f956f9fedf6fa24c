"""The Sorcery ruleset for the reference engine: what it reads from its manifest (procedure,
layer table, readings) and how it reports an object. Its rules are rules.py; the procedure that
runs them, riftasp/reference/procedures/layered.py.

It gives the registry (riftasp/reference/registry.py) what every ruleset gives: a name and a
procedure; it does not use the core's instances and analysis, which are Riftbound's recheck
procedure's (docs/semantics.md), so it does not call the core Ruleset's constructor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....model import Board, GameObject
from ....result import Characteristics
from ....reference.core.ruleset import Ruleset
from .timeline import FINAL_CONDITIONS
from .rules import ObjState, World, affinity_words, printed_affinity

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset as RulesetValue


class Sorcery(Ruleset):
    conditions = {}
    final_conditions = FINAL_CONDITIONS
    filter_members = ()

    def __init__(self, ruleset: RulesetValue) -> None:
        # A variant's manifest may extend Sorcery's. (Its readings are the board's in force:
        # `Board.reading`, docs/semantics-sorcery.md §11.)
        self.name = ruleset.name
        self.output_fields = ruleset.output_fields
        self.procedure: str = ruleset.procedure
        self.stages = ruleset.layers
        # Layers are numbered from 1 in the order the table first names them.
        self.layer_names: list[str] = []
        for stage in self.stages:
            if stage.layer not in self.layer_names:
                self.layer_names.append(stage.layer)
        self._op_layer = {}
        for stage in self.stages:
            number = self.layer_names.index(stage.layer) + 1
            for op in stage.operations:
                self._op_layer[op] = (number, stage.rank)

    def layer_of(self, op_name: str) -> tuple[int, int]:
        """(layer number, stage rank) of an operation (`gain_keywords` is the table's
        `gain_keyword`)."""
        name = "gain_keyword" if op_name == "gain_keywords" else op_name
        try:
            return self._op_layer[name]
        except KeyError:
            raise ValueError(f"{self.name}: no layer applies {op_name!r}") from None

    def layer_name(self, number: int) -> str:
        return self.layer_names[number - 1].replace("_", " ")

    def sublayer(self, rank: int) -> str | None:
        return self.stages[rank - 1].sublayer

    def world(self, board: Board) -> World:
        return World(board, self)

    def characteristics(self, obj: GameObject, state: ObjState | None) -> Characteristics:
        fields = self.output_fields
        if state is None:  # outside the realm: printed values
            return Characteristics(
                fields, name=obj.name, controller=obj.controller, power=obj.power, types=(obj.card_type,),
                subtypes=obj.tags, affinity=affinity_words(printed_affinity(obj)),
                keywords={k.name: 1 for k in obj.keywords}, zone=obj.zone,
                abilities=[e.id for e in (*obj.rules_text, *obj.effect_text)],
            )  # fmt: skip
        power = state.power
        if power is not None:
            power = max(0, power)
        return Characteristics(
            fields, name=state.name, controller=state.controller, power=power, types=state.types,
            subtypes=state.subtypes, affinity=affinity_words(state.affinity), disabled=state.disabled,
            silenced=state.silenced, keywords={k: 1 for k in state.keywords}, zone=obj.zone, abilities=state.held,
        )  # fmt: skip
