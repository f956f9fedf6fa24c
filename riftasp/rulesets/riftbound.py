"""Riftbound's plugin: its own operation (setting Might; the encoding is
encodings/riftbound/operations/set_might.lp) and its own conditions, on Might
(encodings/riftbound/conditions/)."""

from __future__ import annotations

from ..kinds import INTEGER
from ..specs import ConditionSpec, Does, OperationSpec, Param

OPERATIONS: tuple[OperationSpec, ...] = (
    OperationSpec("set_might", (Param("value", INTEGER, draw=(2, 7)),), Does("set", "might", "value", reach="starts"),
                  "{has} base Might {value}"),
)  # fmt: skip

# A unit with 5 or more Might is Mighty (encodings/riftbound/conditions/mighty.lp).
CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec("mighty", None, None, "{who} Mighty", weight=2),
    ConditionSpec("might_at_least", INTEGER, "value", "{has} at least {parameter} Might", draw=(2, 7)),
)
