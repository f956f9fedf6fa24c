"""Each ruleset's plugin: what is truly its own on the Python side, by ruleset name.

A plugin is a module with any of: `OPERATIONS` and `CONDITIONS`, the operations and kinds of
condition only it has (riftasp/specs.py; the registries riftasp/operations/ and
riftasp/conditions/ gather them), `OUTPUT` and `OUTPUT_ORDER`, the characteristics it reports
and the order people read them in (`output_fields`, `output_order`), and `reference_ruleset()`,
its ruleset for the reference engine (riftasp/reference/registry.py). Its encoding, layer table and data are its folder
(riftasp/resources.py). The built-in rulesets' plugins are modules here; a ruleset folder outside
the package brings its own as `plugin.py` beside its manifest, loaded from the folders
RIFTASP_RULESETS names when riftasp's registries are first imported (a ruleset is code the user
installs, unlike a board, which is only ever read as data).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from types import ModuleType

from ..resources import manifest, rulesets, ruleset_folder
from ..specs import CORE_CHANGES, CORE_SHOWN, OutputField, OutputOrder
from . import riftbound

PLUGIN_FILE = "plugin.py"


def _folder_plugins() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for name in rulesets():
        path = ruleset_folder(name) / PLUGIN_FILE
        if not path.is_file():
            continue
        spec = importlib.util.spec_from_file_location(f"riftasp_ruleset_{name}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"ruleset {name}: cannot load its plugin {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[name] = module
    return found


PLUGINS: dict[str, ModuleType] = {"riftbound": riftbound, **_folder_plugins()}

# The ruleset of a board (riftasp/model.py `Board.ruleset`) or a result without one.
DEFAULT_RULESET = "riftbound"


def _output_plugin(ruleset: str) -> ModuleType | None:
    """The plugin giving the ruleset's `OUTPUT`: its own or, failing that, that of the ruleset
    it extends (and so on). A variant reports what its base reports unless its plugin says
    otherwise; its `OUTPUT_ORDER` goes with its `OUTPUT`."""
    seen: list[str] = []
    current: str | None = ruleset
    while current is not None and current not in seen:
        plugin = PLUGINS.get(current)
        if plugin is not None and hasattr(plugin, "OUTPUT"):
            return plugin
        seen.append(current)
        # A plugin without a ruleset folder (a test's) extends nothing.
        current = manifest(current).get("extends") if current in rulesets() else None
    return None


@cache
def output_fields(ruleset: str) -> tuple[OutputField, ...]:
    """The characteristics the ruleset reports besides the core ones, in the JSON's order."""
    return tuple(getattr(_output_plugin(ruleset), "OUTPUT", ()))


@cache
def output_order(ruleset: str) -> OutputOrder:
    """The order people read the ruleset's output in, every part filled in."""
    keys = tuple(f.key for f in output_fields(ruleset))
    given = getattr(_output_plugin(ruleset), "OUTPUT_ORDER", OutputOrder())
    order = OutputOrder(
        table=given.table or keys + CORE_SHOWN,
        result=given.result or keys + CORE_SHOWN,
        diff=given.diff or CORE_CHANGES[:1] + keys + CORE_CHANGES[1:],
    )
    for part, core in ((order.table, CORE_SHOWN), (order.result, CORE_SHOWN), (order.diff, CORE_CHANGES)):
        unknown = set(part) - set(keys) - set(core)
        if unknown:
            raise ValueError(f"ruleset {ruleset}: OUTPUT_ORDER names no output field {sorted(unknown)}")
    return order


def field_groups() -> dict[str, str]:
    """Every ruleset's grouped fields (key -> group): findings are grouped without knowing the
    board's ruleset (riftasp/signature.py)."""
    return {f.key: f.group for plugin in PLUGINS.values() for f in getattr(plugin, "OUTPUT", ()) if f.group}
