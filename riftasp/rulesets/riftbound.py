"""Riftbound's plugin: its own operation (setting Might; the encoding is
encodings/riftbound/operations/set_might.lp)."""

from __future__ import annotations

from ..kinds import INTEGER
from ..operations.spec import Does, OperationSpec, Param

OPERATIONS: tuple[OperationSpec, ...] = (
    OperationSpec("set_might", (Param("value", INTEGER, draw=(2, 7)),), Does("set", "might", "value", reach="starts"),
                  "{has} base Might {value}"),
)  # fmt: skip
