"""Riftbound's plugin: its own operation (setting Might; the encoding is
encodings/riftbound/operations/set_might.lp) and its own conditions, on Might
(encodings/riftbound/conditions/)."""

from __future__ import annotations

from ..kinds import INTEGER
from ..specs import ConditionSpec, Does, OperationSpec, OutputField, OutputOrder, Param

OPERATIONS: tuple[OperationSpec, ...] = (
    OperationSpec("set_might", (Param("value", INTEGER, draw=(2, 7)),), Does("set", "might", "value", reach="starts"),
                  "{has} base Might {value}"),
)  # fmt: skip

# A unit with 5 or more Might is Mighty (encodings/riftbound/conditions/mighty.lp).
CONDITIONS: tuple[ConditionSpec, ...] = (
    ConditionSpec("mighty", None, None, "{who} Mighty", weight=2),
    ConditionSpec("might_at_least", INTEGER, "value", "{has} at least {parameter} Might", draw=(2, 7)),
)

# What `riftasp resolve` reports of every object besides keywords, zone and abilities, in the
# JSON's order. Mighty is encodings/riftbound/output.lp's result_mighty/1.
OUTPUT: tuple[OutputField, ...] = (
    OutputField("name", "value", change="{label} {before!r} -> {after!r}", compared=False),
    OutputField("controller", "value", change="changes {label} {before} -> {after}"),
    OutputField("might", "number", change="Might {before} -> {after}"),
    OutputField("mighty", "flag", adjective="Mighty", group="might"),
    OutputField("tags", "set", member="tag"),
    OutputField("types", "set", member="type"),
)

# How people read them: the table puts types before tags; explain's result line is a summary;
# diff reports what the object is (zone, name, types) before what it has.
OUTPUT_ORDER = OutputOrder(
    table=("name", "controller", "might", "mighty", "types", "tags", "keywords"),
    result=("might", "mighty", "controller", "keywords", "tags"),
    diff=("zone", "name", "types", "mighty", "might", "controller", "keywords", "tags"),
)
