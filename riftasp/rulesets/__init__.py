"""Each ruleset's plugin: what is truly its own on the Python side, by ruleset name.

A plugin is a module with any of: `OPERATIONS` and `CONDITIONS`, the operations and kinds of
condition only it has (riftasp/specs.py; the registries riftasp/operations/ and
riftasp/conditions/ gather them), and `reference_ruleset()`, its ruleset for the reference
engine (riftasp/reference/registry.py). Its encoding, layer table and data are its folder
(riftasp/resources.py). The built-in rulesets' plugins are modules here; a ruleset folder outside
the package brings its own as `plugin.py` beside its manifest, loaded from the folders
RIFTASP_RULESETS names when riftasp's registries are first imported (a ruleset is code the user
installs, unlike a board, which is only ever read as data).
"""

from __future__ import annotations

import importlib.util
from types import ModuleType

from ..resources import rulesets, ruleset_folder
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
