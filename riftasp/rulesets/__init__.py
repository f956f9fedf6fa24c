"""Each ruleset's plugin: what is truly its own on the Python side, by ruleset name.

A plugin is a module with any of:

- `OPERATIONS`, `CONDITIONS`, `FILTERS`: the operations and kinds of condition and filter only
  it has (riftasp/specs.py; the registries riftasp/operations/, riftasp/conditions/ and
  riftasp/filters/ gather them);
- `OBJECT_FIELDS`: the keys its objects have besides every ruleset's (the board format,
  riftasp/board_io/fields.py);
- `BOARD`: its card types, zones, statuses and attachments (riftasp/ruleset_data.py,
  `BoardVocabulary`), when its manifest has no `[board]` (Riftbound's);
- `check_object(board, obj, path)`: its own checks of an object (riftasp/board_io/references.py);
- `OUTPUT`, `OUTPUT_ORDER`: the characteristics it reports and the order people read them in
  (`output_fields`, `output_order`);
- `board_strategy(profile, ruleset)`: its board generators (riftasp/fuzz.py);
- `checker()`: the function that checks a resolution against its invariants (riftasp/check/;
  its own only: a variant does not take its base's);
- `declarative()`: the module of its declarative checker, where it is not Riftbound's
  (riftasp/rulesets/riftbound/check/declarative.py; its own only);
- `reference_ruleset()`: its ruleset for the reference engine (riftasp/reference/registry.py).

A ruleset that extends another (riftasp/resources.py) takes what its plugin does not give from
the base's. Its encoding, layer table and data are its folder (riftasp/resources.py). The
built-in rulesets' plugins are modules here; a ruleset folder outside the package brings its own
as `plugin.py` beside its manifest, loaded from the folders RIFTASP_RULESETS names when
riftasp's registries are first imported (a ruleset is code the user installs, unlike a board,
which is only ever read as data).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any, TypeVar

from .. import model
from ..resources import UnsupportedRuleset, lineage, manifest, rulesets, ruleset_folder
from ..specs import CORE_CHANGES, CORE_SHOWN, ObjectField, OutputField, OutputOrder
from . import riftbound, sorcery

PLUGIN_FILE = "plugin.py"
T = TypeVar("T")


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


PLUGINS: dict[str, ModuleType] = {"riftbound": riftbound, "sorcery": sorcery, **_folder_plugins()}


def gathered(shared: tuple[T, ...], attribute: str, name_of: Callable[[T], str]) -> dict[str, T]:
    """A registry: the shared entries, then every plugin's `attribute`, by name; one name may not
    be given two meanings."""
    entries: dict[str, T] = {}
    for entry in (*shared, *(e for plugin in PLUGINS.values() for e in getattr(plugin, attribute, ()))):
        name = name_of(entry)
        if name in entries and entries[name] != entry:
            raise ValueError(f"two {attribute.lower()} are called {name!r}")
        entries[name] = entry
    return entries


def _giving(ruleset: str, attribute: str) -> ModuleType | None:
    """The plugin of the ruleset, or of the nearest ruleset it extends, that gives `attribute`."""
    for name in lineage(ruleset):
        if name in PLUGINS and hasattr(PLUGINS[name], attribute):
            return PLUGINS[name]
    return None


def plugin_value(ruleset: str, attribute: str, default: Any) -> Any:
    """A plugin attribute of the ruleset, or of the nearest ruleset it extends that gives it."""
    return getattr(_giving(ruleset, attribute), attribute, default)


def own_plugin_value(ruleset: str, attribute: str, default: Any) -> Any:
    """A plugin attribute of the ruleset itself, never taken from the ruleset it extends (what
    restates a layer table, as an invariant checker, does not hold for a variant of it)."""
    return getattr(PLUGINS.get(ruleset), attribute, default)


def rulesets_with(attribute: str) -> list[str]:
    """The rulesets whose own plugin gives `attribute`."""
    return [name for name in rulesets() if own_plugin_value(name, attribute, None) is not None]


def object_fields(ruleset: str) -> tuple[ObjectField, ...]:
    """The ruleset's own object keys (its plugin's OBJECT_FIELDS)."""
    return tuple(plugin_value(ruleset, "OBJECT_FIELDS", ()))


# The ruleset of a board (riftasp/model.py `Board.ruleset`) or a result without one.
DEFAULT_RULESET = model.DEFAULT_RULESET


@cache
def output_fields(ruleset: str) -> tuple[OutputField, ...]:
    """The characteristics the ruleset reports besides the core ones, in the JSON's order: its
    plugin's `OUTPUT`, or, without one, every characteristic of its manifest's families as it is
    (single-valued, numeric, then set-valued, each in the manifest's order)."""
    given = plugin_value(ruleset, "OUTPUT", None)
    if given is not None:
        return tuple(given)
    families = manifest(ruleset).get("characteristics", {}) if ruleset in rulesets() else {}
    kinds = (("single_valued", "value"), ("numeric", "number"), ("set_valued", "set"))
    return tuple(OutputField(name, kind) for family, kind in kinds for name in families.get(family, ()))


@cache
def output_order(ruleset: str) -> OutputOrder:
    """The order people read the ruleset's output in, every part filled in."""
    keys = tuple(f.key for f in output_fields(ruleset))
    # A variant's order goes with the fields it reports: from the plugin that gives them.
    given = getattr(_giving(ruleset, "OUTPUT"), "OUTPUT_ORDER", OutputOrder())
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
