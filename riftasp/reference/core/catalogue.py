"""The reference engine's operators, derived from the operations' registry (riftasp/operations/):
each operation the ruleset's layer table names becomes the core operator its `does` says
(operators.py), at its stage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...operations import OPERATIONS, OperationSpec
from .operators import (
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

if TYPE_CHECKING:
    from .ruleset import Ruleset


def operators(ruleset: Ruleset) -> dict[str, Operator]:
    """Board operation name -> operator, for the operations the layer table names."""
    named = {name for stage in ruleset.stages for name in stage.operations}
    return {spec.name: _operator(spec, ruleset) for spec in OPERATIONS.values() if spec.functor in named}


def _operator(spec: OperationSpec, ruleset: Ruleset) -> Operator:
    does, stage, families = spec.does, ruleset.stage_of(spec.functor), ruleset.families
    if does.kind == "copy":
        return Copy(stage, families)
    if does.kind == "set":
        assert does.characteristic is not None and does.key is not None
        numeric = does.characteristic in families.numeric
        return (SetNumber if numeric else SetValue)(stage, does.characteristic, does.key)
    if does.kind in ("add", "remove"):
        assert does.characteristic is not None and does.key is not None
        return (AddMember if does.kind == "add" else RemoveMember)(stage, does.characteristic, does.key)
    if does.kind == "gain_keywords":
        return GainKeywords(stage)
    if does.kind == "lose_keywords":
        return LoseKeywords(stage)
    if does.kind == "lose_all_abilities":
        return LoseAllAbilities(stage)
    assert does.kind == "arithmetic" and does.amount is not None
    return Arithmetic(stage, families.arithmetic, does.sign, does.amount, does.dependent)
