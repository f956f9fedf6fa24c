"""What an engine supports: the features `riftasp fuzz` leaves out of its generated boards.

An engine that cannot represent copies, control changes, ... answers `{"unsupported": ...}` on
such boards; fuzzing it on them spends the budget for nothing. A profile names what to leave
out — operation names (the board format's `op` values) and the feature names below — and the
generators (riftasp/rulesets/riftbound/strategies.py) then never draw it.

    riftasp fuzz --without copy,set_controller,double
    riftasp fuzz --profile my-engine.toml      # without = ["copy", "loops"], max_objects = 4

Needs nothing but the standard library, so the command line can check a profile before it
imports hypothesis.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .operations import OPERATIONS
from .rulesets import all_rulesets

# Feature name -> what leaving it out means for the generated boards.
FEATURES: dict[str, str] = {
    "gear": "no gear (no Equipment, Effect Text or Might Bonus; no Boots of Swiftness)",
    "cards": "no objects from the card library (every object's text is on the board)",
    "numbered_keywords": "keywords never carry a number (Shield, never Shield 2)",
    "conditions": "no effect has a condition",
    "loops": "a condition reads only the object its effect changes (no condition reads another "
             "object, so conditions make no object loops; copies still read what they copy)",
    "filters": "no filter targets (targets name objects, or the text's holder)",
    "status": "no attacking/defending status (so no Shield/Assault bonus and no status conditions)",
    "off_board": "every object is on the board (base or battlefield)",
    "immediate": "no board uses condition_timing immediate",
    "buffs": "no buffs",
}  # fmt: skip
# The operations of the rulesets that have board generators (their plugin's `board_strategy`):
# those a generated board can hold.
_FUZZED = {op for r in all_rulesets() if r.value("board_strategy") for op in r.operations}
OPERATION_NAMES = tuple(name for name, spec in OPERATIONS.items() if spec.functor in _FUZZED)
NAMES = (*OPERATION_NAMES, *FEATURES)
PROFILE_KEYS = ("without", "max_objects", "max_effects")
# (Riftbound's generated boards hold at most 6 objects whatever the profile, riftasp/rulesets/riftbound/strategies.py's
# SLOTS; Sorcery's removal chains take more.)
MAX_OBJECTS, MAX_EFFECTS = 15, 6


class ProfileError(Exception):
    """A bad --without name or profile file; str() is one line."""


@dataclass(frozen=True)
class Profile:
    """The generated boards' limits: what to leave out and how big boards get."""

    without: frozenset[str] = field(default_factory=frozenset)
    max_objects: int = MAX_OBJECTS
    max_effects: int = MAX_EFFECTS

    def __post_init__(self) -> None:
        unknown = sorted(set(self.without) - set(NAMES))
        if unknown:
            raise ProfileError(
                f"unknown name{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} to leave out; "
                f"operations: {', '.join(OPERATION_NAMES)}; features: {', '.join(FEATURES)}"
            )
        if not 1 <= self.max_objects <= MAX_OBJECTS:
            raise ProfileError(f"max_objects must be between 1 and {MAX_OBJECTS}, got {self.max_objects}")
        if not 0 <= self.max_effects <= MAX_EFFECTS:
            raise ProfileError(f"max_effects must be between 0 and {MAX_EFFECTS}, got {self.max_effects}")

    def allows(self, name: str) -> bool:
        """Whether an operation or feature may appear on a generated board."""
        return name not in self.without

    def ops(self, names: Iterable[str]) -> tuple[str, ...]:
        """The allowed ones among operation names, order (and repeats, i.e. weights) kept."""
        return tuple(n for n in names if n not in self.without)

    def merged(self, without: Iterable[str]) -> Profile:
        return Profile(self.without | frozenset(without), self.max_objects, self.max_effects)

    def to_json(self) -> dict[str, Any]:
        return {"without": sorted(self.without), "max_objects": self.max_objects, "max_effects": self.max_effects}


def parse_without(values: Iterable[str]) -> frozenset[str]:
    """`--without copy,double --without loops` -> {"copy", "double", "loops"} (checked)."""
    names = frozenset(n.strip() for value in values for n in value.split(",") if n.strip())
    Profile(names)  # checks the names
    return names


def load_profile(path: Path) -> Profile:
    """A profile file: TOML (`.toml`) or JSON, keys `without`, `max_objects`, `max_effects`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ProfileError(f"{path}: cannot read the profile: {err.strerror or err}") from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise ProfileError(f"{path}: not a valid {'TOML' if path.suffix.lower() == '.toml' else 'JSON'} "
                           f"profile: {' '.join(str(err).split())}") from None  # fmt: skip
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: a profile is an object with keys {', '.join(PROFILE_KEYS)}")
    unknown = sorted(set(data) - set(PROFILE_KEYS))
    if unknown:
        raise ProfileError(f"{path}: unknown key {unknown[0]!r}; a profile has {', '.join(PROFILE_KEYS)}")
    without = data.get("without", [])
    if isinstance(without, str):
        without = [without]
    if not isinstance(without, list) or not all(isinstance(n, str) for n in without):
        raise ProfileError(f"{path}: 'without' must be a list of names")
    sizes = {}
    for key in ("max_objects", "max_effects"):
        if key in data:
            if not isinstance(data[key], int) or isinstance(data[key], bool):
                raise ProfileError(f"{path}: {key!r} must be an integer")
            sizes[key] = data[key]
    try:
        return Profile(parse_without(without), **sizes)
    except ProfileError as err:
        raise ProfileError(f"{path}: {err}") from None
