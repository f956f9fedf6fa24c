"""What Riftbound reports of every object (its plugin's `OUTPUT`) and in which order people read
it (`OUTPUT_ORDER`); its own module, so that its reference rules read it without importing the
plugin that loads them."""

from __future__ import annotations

from ...specs import OutputField, OutputOrder

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
