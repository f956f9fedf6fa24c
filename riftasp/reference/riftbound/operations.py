"""Riftbound's operations (the board model's names): each is one of the core's kinds of
operation on the characteristic families (riftasp/reference/core/operators.py), at the stage the
manifest's layer table gives it."""

from __future__ import annotations

from collections.abc import Callable

from ...model import Operation
from ..core.operators import (
    AddMember,
    Arithmetic,
    Copy,
    GainKeywords,
    LoseAllAbilities,
    LoseKeywords,
    Operator,
    RemoveMember,
    SetNumber,
    SetValue,
)
from ..core.ruleset import Ruleset
from ..core.state import CONTROLLER
from .characteristics import MIGHT, TAGS


def _stated(op: Operation, current: int) -> int:
    return op.amount or 0


def _increase_to(op: Operation, current: int) -> int:
    return max(0, (op.value or 0) - current)


def _plus_max(op: Operation, current: int) -> int:
    return max(0, min(op.amount or 0, (op.max or 0) - current))


def _double(op: Operation, current: int) -> int:
    # "Double Might" is an increase (docs/semantics.md §1, Decision): it never lowers Might.
    return max(0, current)


def _minus_min(op: Operation, current: int) -> int:
    return max(0, min(op.amount or 0, current - (op.min or 0)))


def operators(ruleset: Ruleset) -> dict[str, Operator]:
    stage = ruleset.stage_of
    number = ruleset.families.arithmetic

    def arithmetic(
        name: str, sign: int, amount: Callable[[Operation, int], int], dependent: bool
    ) -> Arithmetic:
        return Arithmetic(stage(name), number, sign, amount, dependent)

    return {
        "copy": Copy(stage("copy"), ruleset.families),
        "set_might": SetNumber(stage("set_might"), MIGHT, "value"),
        "set_controller": SetValue(stage("set_controller"), CONTROLLER, "player"),
        "add_tag": AddMember(stage("add_tag"), TAGS, "tag"),
        "remove_tag": RemoveMember(stage("remove_tag"), TAGS, "tag"),
        # The manifest names the keyword operations as the encoding's facts do: one per keyword.
        "gain_keywords": GainKeywords(stage("gain_keyword")),
        "lose_keywords": LoseKeywords(stage("lose_keyword")),
        "lose_all_abilities": LoseAllAbilities(stage("lose_all_abilities")),
        "plus": arithmetic("plus", 1, _stated, dependent=False),
        "increase_to": arithmetic("increase_to", 1, _increase_to, dependent=True),
        "plus_max": arithmetic("plus_max", 1, _plus_max, dependent=True),
        "double": arithmetic("double", 1, _double, dependent=True),
        "minus": arithmetic("minus", -1, _stated, dependent=False),
        "minus_min": arithmetic("minus_min", -1, _minus_min, dependent=True),
    }
