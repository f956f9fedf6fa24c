"""The words and the grid Sorcery's parts share (its plugin, its generators, its reference rules):
its elements, the relations a filter `near` names, and the size of the realm's grid."""

from __future__ import annotations

from typing import Any

from ...resources import manifest

NAME = "sorcery"
ELEMENTS = ("air", "earth", "fire", "water")
# The relations a filter `near` names, from the effect's holder (docs/semantics-sorcery.md §7).
RELATIONS = ("here", "adjacent", "nearby", "one_step_in_front", "in_front", "above", "area")


def realm_size(board: Any = None) -> tuple[int, int]:
    """(rows, columns) of the realm's grid: the board's own (its `realm`), else the manifest's
    [realm]."""
    if board is not None and board.realm is not None:
        return board.realm
    realm = (manifest(NAME) if board is None else board.ruleset.manifest).get("realm", {})
    return realm.get("rows", 4), realm.get("columns", 5)
