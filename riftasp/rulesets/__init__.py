"""Each ruleset's plugin: what is truly its own on the Python side, by ruleset name. A plugin is
a module with (at least) `OPERATIONS`, the operations only it has (riftasp/operations/spec.py);
its encoding, layer table and data are its folder under encodings/ (riftasp/resources.py)."""

from __future__ import annotations

from types import ModuleType

from . import riftbound

PLUGINS: dict[str, ModuleType] = {"riftbound": riftbound}
