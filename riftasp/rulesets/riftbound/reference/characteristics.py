"""Riftbound's characteristics: their names, their printed values on a board object, when a
unit is Mighty, and an object's output from its final state."""

from __future__ import annotations

from typing import Any

from ....model import GameObject
from ....result import Characteristics
from ..output import OUTPUT
from ....ruleset_data import KeywordRules
from ....reference.core.state import CONTROLLER, ObjState, keyword_values

NAME = "name"
MIGHT = "might"
TAGS = "tags"
TYPES = "types"
MIGHTY_AT = 5  # a unit with 5 or more Might is Mighty


def printed(obj: GameObject) -> dict[str, Any]:
    return {
        CONTROLLER: obj.controller,
        NAME: obj.name,
        MIGHT: obj.might,
        TAGS: frozenset(obj.tags),
        TYPES: frozenset((obj.card_type,)),
    }


def is_mighty(state: ObjState) -> bool:
    m = state.numbers[MIGHT]
    return m is not None and m >= MIGHTY_AT


def characteristics(obj: GameObject, state: ObjState, rules: KeywordRules) -> Characteristics:
    abilities = tuple(sorted(state.held)) if obj.on_board else tuple(e.id for e in obj.rules_text)
    return Characteristics(
        OUTPUT,
        name=state.values[NAME],
        controller=state.controller,
        might=state.numbers[MIGHT],
        # Off the board the state is the printed one, so this is printed Might >= 5.
        mighty=is_mighty(state),
        tags=tuple(sorted(state.members[TAGS])),
        types=tuple(sorted(state.members[TYPES])),
        keywords=keyword_values(state.keywords, rules),
        zone=obj.zone,
        abilities=tuple(sorted(abilities)),
    )
