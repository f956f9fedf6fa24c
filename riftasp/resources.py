"""Where the encodings and the card library live, installed or in a checkout."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path


def encoding_files(ruleset: str) -> list[Path]:
    """The shared encoding files, then the ruleset's own, in load order."""
    root = files("riftasp.encodings")
    shared = sorted(p for p in root.iterdir() if p.name.endswith(".lp"))
    own = sorted(p for p in root.joinpath(ruleset).iterdir() if p.name.endswith(".lp"))
    return [_path(p) for p in shared + own]


def ruleset_file(ruleset: str, name: str) -> Path:
    """A data file of a ruleset's encoding folder (e.g. its ruleset.toml)."""
    return _path(files("riftasp.encodings").joinpath(ruleset, name))


def card_library(ruleset: str) -> Path:
    return _path(files("riftasp.library").joinpath("cards", f"{ruleset}.lp"))


def rulesets() -> list[str]:
    root = files("riftasp.encodings")
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("_"))


def _path(traversable) -> Path:
    # Package data is a plain directory both in a checkout and in an installed wheel.
    with as_file(traversable) as path:
        return Path(path)
