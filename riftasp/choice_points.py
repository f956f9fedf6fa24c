"""The choice points of a ruleset: every place its semantics doc decides what the rules leave
open (a **Decision**), with the sentence it rests on, the reading in force, the alternatives and
its switch (a `[readings]` key of the manifest, or why it has none).

They are ruleset data: `choice_points.toml` in the ruleset's encoding folder (a variant takes
its base's, nearest first), read here. docs/semantics.md and docs/semantics-sorcery.md hold the
same table (tests/test_choice_points.py keeps the two equal and every Decision listed);
`riftasp rulesets --readings` prints it; `riftasp outcomes --open ID` and `riftasp compare` read
the switches.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from .resources import forgotten_with_new_folders, lineage, ruleset_folder

FILE = "choice_points.toml"


@dataclass(frozen=True)
class ChoicePoint:
    id: str  # R1, R2, ... (Riftbound), S1, ... (Sorcery)
    ruleset: str  # the ruleset whose doc decides it (a variant's points are its base's)
    decision: str  # the Decision's name as the doc writes it
    sentence: str  # the rule sentence it rests on, or "silent"
    reading: str  # the reading in force, in words
    alternatives: tuple[str, ...]  # the other readings, in words
    switch: str | None  # the manifest [readings] key that switches it
    values: tuple[Any, ...]  # the switch's values (the first: the base's)
    why_not: str | None  # why it cannot be switched (no switch)

    def to_json(self, in_force: dict[str, Any] | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "ruleset": self.ruleset, "decision": self.decision, "sentence": self.sentence,
            "reading": self.reading, "alternatives": list(self.alternatives),
            "switch": self.switch if self.switch is not None else f"not switchable: {self.why_not}",
        }
        if self.switch is not None:
            data["values"] = list(self.values)
            if in_force is not None and self.switch in in_force:
                data["in_force"] = in_force[self.switch]
        return data


@forgotten_with_new_folders
@cache
def choice_points(ruleset: str) -> tuple[ChoicePoint, ...]:
    """The choice points of the ruleset, or of the nearest ruleset it extends that lists them."""
    for name in lineage(ruleset):
        path = ruleset_folder(name) / FILE
        if path.is_file():
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            return tuple(_point(entry, name, path.name) for entry in data.get("choice_point", ()))
    return ()


def _point(entry: dict[str, Any], ruleset: str, file: str) -> ChoicePoint:
    switch = entry.get("switch")
    if (switch is None) == (entry.get("not_switchable") is None):
        raise ValueError(f"{ruleset}/{file}: choice point {entry.get('id')} needs a switch or a not_switchable reason")
    return ChoicePoint(
        id=entry["id"], ruleset=ruleset, decision=entry["decision"], sentence=entry["sentence"],
        reading=entry["reading"], alternatives=tuple(entry.get("alternatives", ())), switch=switch,
        values=tuple(entry.get("values", ())), why_not=entry.get("not_switchable"),
    )


def switch_values(ruleset: str) -> dict[str, tuple[Any, ...]]:
    """Each [readings] key of the ruleset -> the values it may take."""
    return {p.switch: p.values for p in choice_points(ruleset) if p.switch is not None}
