"""Where the encodings, the rulesets' manifests and the card libraries live.

The data folders are the checkout's top-level `encodings/` and `facts/`; a built wheel carries
them inside the package as `riftasp/encodings` and `riftasp/library`. Both shapes are found by
path, so the checkout's `riftasp/` works whether or not a wheel is installed beside it (a
regular `pip install .` then `python -m pytest` from the checkout imports the checkout's code).
Further ruleset folders (a folder holding `<name>/manifest.toml`) can be added with the
RIFTASP_RULESETS environment variable (paths separated by the OS path separator) or
add_ruleset_folder(). A ruleset's folder may hold `plugin.py`, its Python side
(riftasp/rulesets/); plugins are loaded once, from the folders RIFTASP_RULESETS names.

A manifest may extend another ruleset's (`extends = "<name>"`): a variant. It takes every entry
of the base's manifest it does not give itself (the [encoding] entries one by one, `own` files
added after the base's), finds its operations' and conditions' files in its own folder, then the
base's, then the shared ones, and uses the base's card library when it has none.
"""

from __future__ import annotations

import atexit
import os
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clingo import ast

_PACKAGE = Path(__file__).resolve().parent


class UnsupportedRuleset(ValueError):
    """An engine without the board's ruleset (or its procedure, or its encoding files)."""


MANIFEST = "manifest.toml"
PROCEDURE = "procedure.toml"
_extra_folders: list[Path] = []


def _data_folder(installed: str, checkout: str) -> Path:
    for folder in (_PACKAGE / installed, _PACKAGE.parent / checkout):
        if folder.is_dir():
            return folder
    raise FileNotFoundError(f"riftasp's {checkout}/ folder is missing (looked beside {_PACKAGE})")


def encodings_folder() -> Path:
    return _data_folder("encodings", "encodings")


def library_folder() -> Path:
    return _data_folder("library", "facts")


def add_ruleset_folder(folder: Path) -> None:
    """Make the rulesets under `folder` (each `<name>/manifest.toml`) available."""
    _extra_folders.append(Path(folder).resolve())
    _ruleset_folders.cache_clear()
    manifest.cache_clear()
    _declared.cache_clear()
    procedure.cache_clear()
    _encoding_files.cache_clear()
    _missing_encodings.cache_clear()
    for clear in _CLEARED_WITH_FOLDERS:
        clear()


# What other modules keep about the rulesets and must forget when a folder adds some (they
# register here, so that this module imports none of them).
_CLEARED_WITH_FOLDERS: list[Callable[[], None]] = []


def forgotten_with_new_folders(cached: Any) -> Any:
    """Register a `functools.cache`d function whose answers depend on the rulesets known."""
    _CLEARED_WITH_FOLDERS.append(cached.cache_clear)
    return cached


@cache
def _ruleset_folders() -> dict[str, Path]:
    """Each ruleset's folder (the one holding its manifest), by name."""
    roots = [encodings_folder(), *_extra_folders]
    roots += [Path(p) for p in os.environ.get("RIFTASP_RULESETS", "").split(os.pathsep) if p]
    found: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.glob(f"*/{MANIFEST}")):
            found.setdefault(path.parent.name, path.parent)
    return found


def rulesets() -> list[str]:
    return sorted(_ruleset_folders())


def ruleset_folder(ruleset: str) -> Path:
    return _ruleset_folders()[ruleset]


DEFAULTS = "defaults.toml"  # in the encodings folder's core/: what every manifest starts from


@cache
def manifest(ruleset: str) -> dict[str, Any]:
    """A ruleset's manifest (its folder's manifest.toml), over the defaults every ruleset starts
    from (encodings/core/defaults.toml) and with what it takes from the ruleset it extends. Its
    `[encoding] own` files are paths from its folder's parent (`_own_files`).

    The defaults come first, then the base, then each extension over it (`_merged`): a top-level
    entry replaces the one under it whole, the [encoding] and [readings] entries one by one (a
    variant that changes one reading keeps the others), and `[encoding] input_own` adds
    predicates to the `input` under it (the merged manifest has `input` only)."""
    merged = _defaults()
    for name in reversed(lineage(ruleset)):  # the base first, each extension over it
        merged = _merged(merged, _declared(name))
    return merged


def _merged(under: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """The manifest `over` states, over `under` (the defaults or the base's merged manifest)."""
    encoding = {**under.get("encoding", {}), **over.get("encoding", {})}
    added = encoding.pop("input_own", None)
    if added is not None:
        encoding["input"] = list(dict.fromkeys([*encoding.get("input", []), *added]))
    readings = {**under.get("readings", {}), **over.get("readings", {})}
    return {**under, **over, "encoding": encoding, **({"readings": readings} if readings else {})}


@cache
def _defaults() -> dict[str, Any]:
    """encodings/core/defaults.toml (none: no defaults)."""
    path = encodings_folder() / "core" / DEFAULTS
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def lineage(ruleset: str) -> list[str]:
    """The ruleset, then the one it extends, and so on (an unknown name: itself)."""
    if ruleset not in _ruleset_folders():
        return [ruleset]
    chain = [ruleset]
    while (base := _declared(chain[-1]).get("extends")) is not None:
        if base not in _ruleset_folders() or base in chain:
            raise ValueError(f"ruleset {chain[-1]} extends {base!r}, which is not a ruleset it can extend")
        chain.append(base)
    return chain


@cache
def _declared(ruleset: str) -> dict[str, Any]:
    """The manifest as its file says it, without what it extends."""
    return tomllib.loads((_ruleset_folders()[ruleset] / MANIFEST).read_text(encoding="utf-8"))


def _own_files(ruleset: str) -> list[Path]:
    """The `[encoding] own` files of the ruleset and those it extends, the base's first, each
    relative to the folder holding its own ruleset's folder."""
    files: list[Path] = []
    for name in reversed(lineage(ruleset)):
        root = _ruleset_folders()[name].parent
        files += [root / f for f in _declared(name).get("encoding", {}).get("own", [])]
    return files


def encoding_files(ruleset: str) -> list[Path]:
    """Exactly the files the ruleset's manifest names, in its order: the core files it uses
    (relative to the encodings folder), one file per operation its layer table names and one
    per kind of condition and of filter it lists (its own `operations/NAME.lp`,
    `conditions/NAME.lp` or `filters/NAME.lp`, else the shared one in `encodings/`), its
    procedure's files, then its own (relative to its folder's parent).

    A ruleset whose encoding is not written yet (its procedure or a module has no file:
    `missing_encodings`) cannot be resolved by the ASP engine: UnsupportedRuleset, one line."""
    missing = _missing_encodings(ruleset)
    if missing:
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise UnsupportedRuleset(f"the asp engine cannot resolve {ruleset} boards yet: missing {shown}")
    return list(_encoding_files(ruleset))


@cache
def _missing_encodings(ruleset: str) -> tuple[str, ...]:
    # (Cached like _encoding_files: it looks at every module's file.)
    return tuple(missing_encodings(ruleset))


@cache
def _encoding_files(ruleset: str) -> tuple[Path, ...]:
    # Once per ruleset: finding every module's file costs about a millisecond, paid by every
    # Control otherwise. add_ruleset_folder clears it, as it clears the manifests.
    return tuple(present_encoding_files(ruleset))


def present_encoding_files(ruleset: str) -> list[Path]:
    """The files of `encoding_files` that exist (all of them, for a ruleset the ASP engine can
    resolve)."""
    files = manifest(ruleset)["encoding"]
    modules = [("operations", name) for name in layer_operations(ruleset)]
    modules += [(family, name) for family in ("conditions", "filters") for name in files.get(family, [])]
    procedure_files = procedure(ruleset)["files"] if _procedure_file(ruleset).is_file() else []
    procedure_root = encodings_folder() / "procedures" / manifest(ruleset)["procedure"]
    return (
        [encodings_folder() / f for f in files.get("core", [])]
        + [path for family, name in modules if (path := _module_path(ruleset, family, name)) is not None]
        + [procedure_root / f for f in procedure_files]
        + [path for path in _own_files(ruleset) if path.is_file()]
    )


def missing_encodings(ruleset: str) -> list[str]:
    """What the ruleset's manifest names that has no file yet: its procedure's `procedure.toml`,
    its operations', conditions' and filters' encodings (as `operations/NAME.lp`) and its own
    files. Empty for a ruleset the ASP engine can resolve."""
    files = manifest(ruleset)["encoding"]
    missing = []
    procedure_file = _procedure_file(ruleset)
    if not procedure_file.is_file():
        missing.append(str(procedure_file.relative_to(encodings_folder().parent)))
    modules = [("operations", name) for name in layer_operations(ruleset)]
    modules += [(family, name) for family in ("conditions", "filters") for name in files.get(family, [])]
    missing += [f"{family}/{name}.lp" for family, name in modules if _module_path(ruleset, family, name) is None]
    root = encodings_folder()
    missing += [str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in _own_files(ruleset) if not p.is_file()]
    missing += [f for f in files.get("core", []) if not (encodings_folder() / f).is_file()]
    return missing


def _procedure_file(ruleset: str) -> Path:
    return encodings_folder() / "procedures" / manifest(ruleset)["procedure"] / PROCEDURE


def layer_operations(ruleset: str) -> list[str]:
    """The operations the ruleset's layer table names (as the encoding's terms name them), in
    its order."""
    return [name for layer in manifest(ruleset).get("layers", []) for name in layer["operations"]]


def module_file(ruleset: str, family: str, name: str) -> Path:
    """The encoding of an operation, a kind of condition or a kind of filter (`family`:
    "operations", "conditions", "filters"): the ruleset's own, else that of the ruleset it extends (and so on), else the
    shared one."""
    path = _module_path(ruleset, family, name)
    if path is None:
        looked = ", ".join(str(p) for p in _module_places(ruleset, family))
        raise FileNotFoundError(f"ruleset {ruleset}: {family} {name} has no encoding file (looked in {looked})")
    return path


def _module_places(ruleset: str, family: str) -> list[Path]:
    return [_ruleset_folders()[r] / family for r in lineage(ruleset)] + [encodings_folder() / family]


def _module_path(ruleset: str, family: str, name: str) -> Path | None:
    for place in _module_places(ruleset, family):
        if (place / f"{name}.lp").is_file():
            return place / f"{name}.lp"
    return None


@cache
def procedure(ruleset: str) -> dict[str, Any]:
    """The ruleset's scheduling procedure: its files and the ground calls the solver makes."""
    name = manifest(ruleset)["procedure"]
    return tomllib.loads((encodings_folder() / "procedures" / name / PROCEDURE).read_text(encoding="utf-8"))


def card_library(ruleset: str) -> Path:
    """The ruleset's card library, or that of the nearest ruleset it extends that has one."""
    for name in lineage(ruleset):
        path = library_folder() / "cards" / f"{name}.lp"
        if path.is_file():
            return path
    return library_folder() / "cards" / f"{ruleset}.lp"


Logger = Callable[[Any, str], None]  # clingo's logger: (message code, message)


def encoding_statements(ruleset: str, logger: Logger | None = None) -> list[ast.AST]:
    """The statements of the ruleset's encoding files (`encoding_files`) as clingo.ast parses
    them, each file once per version of it: added to a Control with a ProgramBuilder, they give
    the program that `Control.load` of each file gives, without parsing the files again (a
    Control loads in ~9 ms, builds from statements in ~4.5 ms). `logger` gets the messages of a
    file parsed now."""
    statements: list[ast.AST] = []
    for path in encoding_files(ruleset):
        stat = path.stat()
        statements += _parsed(str(path), (stat.st_mtime_ns, stat.st_size), logger)
    return statements


_parsed_files: dict[str, tuple[tuple[int, int], tuple[ast.AST, ...]]] = {}  # path -> (version, statements)


def _parsed(path: str, version: tuple[int, int], logger: Logger | None) -> tuple[ast.AST, ...]:
    """One file's statements, parsed again when it changed (files edited while a session runs
    are read anew, as Control.load would read them). One file per parse, as Control.load reads
    it: each starts in `#program base.`"""
    from clingo import ast  # here: most commands never build a program this way (start-up time)

    if not _parsed_files:
        # Released before the interpreter tears clingo down: an AST freed after that fails in
        # its __del__ and prints an "Exception ignored" per statement at exit.
        atexit.register(_parsed_files.clear)
    known = _parsed_files.get(path)
    if known is None or known[0] != version:
        statements: list[ast.AST] = []
        ast.parse_files([path], statements.append, logger=logger, message_limit=20)
        known = _parsed_files[path] = (version, tuple(statements))
    return known[1]
