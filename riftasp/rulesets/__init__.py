"""The rulesets riftasp knows, each built once into a `Ruleset` value that is passed on.

A ruleset is its encoding folder (`<name>/manifest.toml` beside its .lp files; riftasp/resources.py
reads it) and its Python side, a *plugin*: a package such as riftasp/rulesets/riftbound/, or a
folder ruleset's `plugin.py`. A plugin is found

- through the entry points of group `riftasp.rulesets` (name -> the plugin module; riftasp's own
  are declared in pyproject.toml; an installed distribution declares its own, and may give its
  encoding folder as the module's `ENCODINGS`, a folder holding `<name>/manifest.toml`), or
- as `plugin.py` beside the manifest of a folder that RIFTASP_RULESETS names (a ruleset is code
  the user installs, unlike a board, which is only ever read as data).

A plugin module may give:

- `OPERATIONS`, `CONDITIONS`, `FILTERS`: the operations and kinds of condition and filter only it
  has (riftasp/specs.py; the registries riftasp/operations/, conditions/ and filters/ gather them);
- `OBJECT_FIELDS`: the keys its objects have besides every ruleset's (the board format);
- `check_object(board, obj, path)`: its own checks of an object (riftasp/board_io/references.py);
- `OUTPUT`, `OUTPUT_ORDER`: the characteristics it reports and the order people read them in;
- `board_strategy(profile, ruleset)`: its board generators (riftasp/fuzz.py);
- `checker()`: the function that checks a resolution against its invariants (its own only: a
  variant does not take its base's);
- `declarative()`: the module of its declarative checker (its own only);
- `reference_ruleset(ruleset)`: its ruleset for the reference engine (riftasp/reference/).

A ruleset that extends another takes what its plugin does not give from the base's.

Nothing below the command line looks a ruleset up by name again: the board reader puts the value
on the board (`Board.ruleset`), commands that take `--ruleset` build it once (`ruleset(name)`),
and everything else reads what it needs from the value it is given. Only this module imports
plugins, and only by name (entry points, files), so imports run one way: a plugin imports the
shared modules, never the reverse (tests/test_layout.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from ..resources import (Logger, UnsupportedRuleset, add_ruleset_folder, card_library, encoding_files, encoding_statements,
                         forgotten_with_new_folders, lineage, manifest,
                         layer_operations, procedure, ruleset_folder, rulesets)
from ..ruleset_data import (BoardVocabulary, KeywordRules, Stage, board_vocabulary, characteristic_families,
                            keyword_rules, layer_table)
from ..specs import CORE_CHANGES, CORE_SHOWN, ObjectField, OutputField, OutputOrder

__all__ = ["Ruleset", "ruleset", "known", "plugins", "gathered", "field_groups", "default_ruleset", "rulesets_with",
           "UnsupportedRuleset", "ENTRY_POINT_GROUP"]

ENTRY_POINT_GROUP = "riftasp.rulesets"
PLUGIN_FILE = "plugin.py"
T = TypeVar("T")


_loading: list[bool] = []  # not empty while plugins() imports them


@forgotten_with_new_folders
@cache
def plugins() -> dict[str, ModuleType]:
    """Every ruleset's plugin module, by ruleset name: the entry points first, then the
    `plugin.py` of the folders RIFTASP_RULESETS names (loaded once)."""
    _loading.append(True)
    try:
        return _load_plugins()
    finally:
        _loading.pop()


def _load_plugins() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for name, target in sorted(entry_points(ENTRY_POINT_GROUP).items()):
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(module_name.strip())
        if attribute:
            module = getattr(module, attribute.strip())
        found.setdefault(name, module)
        folder = getattr(module, "ENCODINGS", None)
        if folder is not None and name not in rulesets():
            add_ruleset_folder(Path(folder))
    for name in rulesets():
        path = ruleset_folder(name) / PLUGIN_FILE
        if name in found or not path.is_file():
            continue
        spec = importlib.util.spec_from_file_location(f"riftasp_ruleset_{name}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"ruleset {name}: cannot load its plugin {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[name] = module
    return found


def entry_points(group: str) -> dict[str, str]:
    """The entry points of `group` the installed distributions declare (name -> module), the
    first distribution on sys.path winning, as importlib.metadata.entry_points finds them
    (tests/test_ruleset_value.py compares the two). Read here because importing
    importlib.metadata (email, zipfile, calendar, ...) costs 40-90 ms of riftasp's 0.25 s start;
    this reads ~1 ms. A target is `package.module` or `package.module:attribute`."""
    found: dict[str, str] = {}
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:  # not a folder (a zip), or gone
            continue
        for folder in names:
            if not folder.endswith((".dist-info", ".egg-info")):
                continue
            distribution = folder.rsplit("-", 1)[0] if folder.endswith(".dist-info") else folder[:-9]
            distribution = distribution.split("-")[0].lower().replace("_", "-").replace(".", "-")
            if distribution in seen:
                continue
            seen.add(distribution)
            try:
                text = Path(entry or ".", folder, "entry_points.txt").read_text(encoding="utf-8")
            except OSError:
                continue
            section = None
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == group and "=" in line and not line.startswith(("#", ";")):
                    name, _, target = line.partition("=")
                    found.setdefault(name.strip(), target.strip())
    return found


def known() -> list[str]:
    """The names of the rulesets riftasp can read boards of (their plugins found first, so that
    an installed ruleset's encoding folder is among them). While the plugins are being imported,
    those known so far (a plugin that reads every ruleset when it is imported sees only the
    folders found before it)."""
    if not _loading:
        plugins()
    return rulesets()


@forgotten_with_new_folders
@cache
def default_ruleset() -> str:
    """The ruleset of a board that names none: the one whose manifest says `default = true`."""
    defaults = [name for name in known() if manifest(name).get("default") is True and len(lineage(name)) == 1]
    if len(defaults) != 1:
        raise ValueError(f"exactly one ruleset's manifest must say `default = true`; found {defaults}")
    return defaults[0]


def ruleset(name: str) -> Ruleset:
    """The ruleset called `name`, built once. UnsupportedRuleset when riftasp knows none."""
    if name not in known():
        raise UnsupportedRuleset(f"unknown ruleset {name!r}; known rulesets: {', '.join(known())}")
    return _built(name)


@forgotten_with_new_folders
@cache
def _built(name: str) -> Ruleset:
    names = tuple(lineage(name))
    return Ruleset(name, names, tuple(plugins().get(n) for n in names))


def _by_name(name: str) -> Ruleset:
    """How a Ruleset is unpickled (a worker process builds its own)."""
    return ruleset(name)


@dataclass(frozen=True, eq=False)
class Ruleset:
    """One ruleset as every part of riftasp reads it: its name and lineage (itself, then the
    ruleset it extends, ...), its manifest's data and its plugin's Python side. Two values of
    one name are equal; pickled, a value travels as its name."""

    name: str
    lineage: tuple[str, ...]
    plugins: tuple[ModuleType | None, ...] = field(repr=False)  # one per member of the lineage

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and other.name == self.name

    def __hash__(self) -> int:
        return hash((Ruleset, self.name))

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[Callable[[str], Ruleset], tuple[str]]:
        return _by_name, (self.name,)

    # --- its manifest's data (riftasp/resources.py, riftasp/ruleset_data.py) ---------------------

    @cached_property
    def manifest(self) -> dict[str, Any]:
        return manifest(self.name)

    @cached_property
    def folder(self) -> Path:
        return ruleset_folder(self.name)

    @property
    def procedure(self) -> str:
        return self.manifest["procedure"]

    @cached_property
    def readings(self) -> dict[str, Any]:
        """The choices its rules leave open, as this ruleset makes them: its procedure's
        `[readings]` (what the procedure reads, where a manifest says nothing), then its
        manifest's."""
        try:
            plan = self.plan
        except (OSError, UnsupportedRuleset):  # a procedure not written yet reads none
            plan = {}
        return {**plan.get("readings", {}), **self.manifest.get("readings", {})}

    @cached_property
    def choice_points(self) -> tuple[Any, ...]:
        """Its choice points (riftasp/choice_points.py): the Decisions of its semantics doc."""
        from ..choice_points import choice_points

        return choice_points(self.name)

    @cached_property
    def switch_values(self) -> dict[str, tuple[Any, ...]]:
        """Each of its [readings] keys -> the values the key may take."""
        from ..choice_points import switch_values

        return switch_values(self.name)

    @property
    def library_file(self) -> Path:
        """Its card library (facts/cards/<name>.lp, or the nearest base's it extends)."""
        return card_library(self.name)

    @property
    def encoding_files(self) -> list[Path]:
        """Exactly the files its manifest names (riftasp/resources.py, `encoding_files`);
        UnsupportedRuleset when some are not written yet."""
        return encoding_files(self.name)

    def encoding_statements(self, logger: Logger | None = None) -> list[Any]:
        """Its encoding files' statements as clingo.ast parses them (riftasp/resources.py)."""
        return encoding_statements(self.name, logger)

    @property
    def plan(self) -> dict[str, Any]:
        """Its procedure's plan: its files and the ground calls the solver makes."""
        return procedure(self.name)

    @property
    def inputs(self) -> list[str]:
        """The predicates Python writes for it (its manifest's `[encoding] input`)."""
        return list(self.manifest.get("encoding", {}).get("input", self.manifest.get("input", [])))

    @cached_property
    def operations(self) -> tuple[str, ...]:
        """The operations its layer table names (as the encoding's terms name them), in order."""
        return tuple(layer_operations(self.name))

    @cached_property
    def condition_kinds(self) -> tuple[str, ...]:
        """The kinds of condition its boards may name (its manifest's `[encoding] conditions`)."""
        return tuple(self.manifest["encoding"].get("conditions", ()))

    @cached_property
    def filter_kinds(self) -> tuple[str, ...]:
        """The kinds of filter its boards may name (its manifest's `[encoding] filters`)."""
        return tuple(self.manifest["encoding"].get("filters", ()))

    @property
    def has_realm(self) -> bool:
        """Whether its boards stand on a grid (its manifest's `[realm]`)."""
        return "realm" in self.manifest

    @cached_property
    def layers(self) -> tuple[Stage, ...]:
        return layer_table(self.name)

    @cached_property
    def families(self) -> dict[str, tuple[str, ...]]:
        return characteristic_families(self.name)

    @cached_property
    def keywords(self) -> KeywordRules:
        return keyword_rules(self.name)

    @cached_property
    def vocabulary(self) -> BoardVocabulary:
        return board_vocabulary(self.name)

    # --- its plugin's ----------------------------------------------------------------------------

    def value(self, attribute: str, default: Any = None) -> Any:
        """A plugin attribute of the ruleset, or of the nearest ruleset it extends that gives it."""
        for plugin in self.plugins:
            if plugin is not None and hasattr(plugin, attribute):
                return getattr(plugin, attribute)
        return default

    def own(self, attribute: str, default: Any = None) -> Any:
        """A plugin attribute of the ruleset itself, never taken from the ruleset it extends (what
        restates a layer table, as an invariant checker does, does not hold for a variant)."""
        return getattr(self.plugins[0], attribute, default)

    def _giving(self, attribute: str) -> ModuleType | None:
        return next((p for p in self.plugins if p is not None and hasattr(p, attribute)), None)

    @cached_property
    def object_fields(self) -> tuple[ObjectField, ...]:
        """Its own object keys (its plugin's OBJECT_FIELDS)."""
        return tuple(self.value("OBJECT_FIELDS", ()))

    @cached_property
    def output_fields(self) -> tuple[OutputField, ...]:
        """The characteristics it reports besides the core ones, in the JSON's order: its plugin's
        `OUTPUT`, or, without one, every characteristic of its manifest's families as it is
        (single-valued, numeric, then set-valued, each in the manifest's order)."""
        given = self.value("OUTPUT")
        if given is not None:
            return tuple(given)
        table = self.manifest.get("characteristics", {})
        kinds = (("single_valued", "value"), ("numeric", "number"), ("set_valued", "set"))
        return tuple(OutputField(name, kind) for family, kind in kinds for name in table.get(family, ()))

    @cached_property
    def output_order(self) -> OutputOrder:
        """The order people read its output in, every part filled in."""
        keys = tuple(f.key for f in self.output_fields)
        # A variant's order goes with the fields it reports: from the plugin that gives them.
        given = getattr(self._giving("OUTPUT"), "OUTPUT_ORDER", OutputOrder())
        order = OutputOrder(
            table=given.table or keys + CORE_SHOWN,
            result=given.result or keys + CORE_SHOWN,
            diff=given.diff or CORE_CHANGES[:1] + keys + CORE_CHANGES[1:],
        )
        for part, core in ((order.table, CORE_SHOWN), (order.result, CORE_SHOWN), (order.diff, CORE_CHANGES)):
            unknown = set(part) - set(keys) - set(core)
            if unknown:
                raise ValueError(f"ruleset {self.name}: OUTPUT_ORDER names no output field {sorted(unknown)}")
        return order

    def checker(self) -> Callable[..., Any] | None:
        """Its invariant checker (its plugin's `checker()`, or that of the ruleset it extends
        when both have one layer table: `same_rules`), or None."""
        make = self.same_rules("checker")
        return make() if make is not None else None

    def declarative(self) -> ModuleType | None:
        """The module of its declarative checker (as `checker`), or None."""
        make = self.same_rules("declarative")
        return make() if make is not None else None

    def same_rules(self, attribute: str) -> Any:
        """A plugin attribute of the ruleset, or of a ruleset it extends through variants that
        change none of the layer table, the operations' files or the characteristic families
        (a variant of readings only, such as riftbound-timestamps: the checkers read the
        readings from the board). A variant that changes those takes none: what restates a layer
        table does not hold for another one. Where the plugin that gives it says its checkers
        read the layer order from the ruleset value (`CHECKERS_READ_THE_LAYER_TABLE`, Sorcery's),
        a variant that only reorders the layer table takes it too (sorcery-codex)."""
        giving = self._giving(attribute)
        order_free = bool(getattr(giving, "CHECKERS_READ_THE_LAYER_TABLE", False))
        for name, plugin in zip(self.lineage, self.plugins):
            if plugin is not None and hasattr(plugin, attribute):
                return getattr(plugin, attribute)
            if not _same_rules(self.name, name, self.lineage[self.lineage.index(name) + 1:], order_free):
                return None
        return None

    def reference(self) -> Any:
        """Its ruleset for the reference engine (its plugin's, or its base's, `reference_ruleset`)."""
        make = self.value("reference_ruleset")
        if make is None:
            raise UnsupportedRuleset(f"the reference engine has no ruleset {self.name!r}")
        return make(self)

    def board_strategy(self, profile: Any) -> Any:
        """Its board generators (a hypothesis strategy), or None."""
        make = self.value("board_strategy")
        return make(profile, self) if make is not None else None


def _same_rules(variant: str, name: str, bases: tuple[str, ...], order_free: bool = False) -> bool:
    """Whether the next ruleset `name` extends (bases[0]) has the same rules to check as `name`.
    `order_free`: the checkers read the layer order from the ruleset value, so the two may order
    their layer tables differently (the same stages, each with the same operations, and the same
    files, in any order)."""
    if not bases:
        return False
    one, other = ruleset(name), ruleset(bases[0])
    if order_free:
        return (_stages(one), one.families, sorted(one.encoding_files), one.keywords) == (
            _stages(other), other.families, sorted(other.encoding_files), other.keywords)
    return (one.layers, one.families, one.encoding_files, one.keywords) == (
        other.layers, other.families, other.encoding_files, other.keywords)


def _stages(one: Ruleset) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Its layer table without the order: each stage's name, layer, sublayer and operations."""
    return sorted((s.name, s.layer, s.sublayer or "", s.operations) for s in one.layers)


def gathered(shared: tuple[T, ...], attribute: str, name_of: Callable[[T], str]) -> dict[str, T]:
    """A registry: the shared entries, then every plugin's `attribute`, by name; one name may not
    be given two meanings."""
    entries: dict[str, T] = {}
    for entry in (*shared, *(e for plugin in plugins().values() for e in getattr(plugin, attribute, ()))):
        name = name_of(entry)
        if name in entries and entries[name] != entry:
            raise ValueError(f"two {attribute.lower()} are called {name!r}")
        entries[name] = entry
    return entries


def field_groups() -> dict[str, str]:
    """Every ruleset's grouped fields (key -> group): findings are grouped without knowing the
    board's ruleset (riftasp/signature.py)."""
    return {f.key: f.group for plugin in plugins().values() for f in getattr(plugin, "OUTPUT", ()) if f.group}


def all_rulesets() -> list[Ruleset]:
    """Every ruleset riftasp knows, as values."""
    return [ruleset(name) for name in known()]


# ---- what ranges over every ruleset --------------------------------------------------------------


@forgotten_with_new_folders
@cache
def board_zones_everywhere() -> frozenset[str]:
    """The zones that are on the board in some ruleset riftasp knows (GameObject.on_board). A
    zone may not be on the board in one ruleset and off it in another."""
    on: set[str] = set()
    off: dict[str, str] = {}  # zone -> a ruleset that has it off the board
    for name in known():
        words = board_vocabulary(name)
        on.update(words.board_zones)
        for zone in set(words.zones) - set(words.board_zones):
            off.setdefault(zone, name)
    clash = sorted(on & set(off))
    if clash:
        raise ValueError(f"zone {clash[0]!r} is on the board in one ruleset and off it in {off[clash[0]]}")
    return frozenset(on)


def words_of_rulesets_listing(kind: str, listed: str, words: str) -> tuple[str, ...]:
    """The union, in order of first appearance, of `words` (a BoardVocabulary field) of every
    ruleset whose manifest lists `listed` among its `[encoding]` `kind` ("conditions",
    "filters"): the values a shared condition or filter may take."""
    found: dict[str, None] = {}
    for name in known():
        if listed in manifest(name).get("encoding", {}).get(kind, ()):
            found.update(dict.fromkeys(getattr(board_vocabulary(name), words)))
    return tuple(found)


def rulesets_with(attribute: str) -> list[str]:
    """The rulesets whose own plugin gives `attribute`."""
    return [name for name in known() if ruleset(name).own(attribute) is not None]
