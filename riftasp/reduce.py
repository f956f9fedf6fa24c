"""Greedy reduction of a board dict that still shows a failure, after hypothesis has shrunk it.

Hypothesis shrinks the *choices* that drew a board; some simplifications of the board itself
(deleting an object that other draws point past, or an effect in the middle of a list) are
hard to reach that way. This pass works on the board: it deletes whole objects (with every
effect and attachment that mentions them), then any single key or list element, keeping each
deletion that leaves a valid board that still fails, until none does.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from .board_io import BoardError, board_from_dict

Path = tuple[Any, ...]  # keys and list indices from the top of the board dict
# Keys whose deletion can never give a valid board, or says nothing simpler.
_KEEP = {"id", "op", "owner", "zone", "name", "type", "card", "players", "objects", "ruleset"}


def reduce_board(data: dict[str, Any], fails: Callable[[dict[str, Any]], bool], max_checks: int = 2000,
                 values: bool = False) -> dict[str, Any]:
    """The smallest board reached greedily from `data` on which `fails` stays true; with
    `values`, integers are then lowered too (`value_edits`)."""
    current = data
    checks = 0
    progress = True
    while progress and checks < max_checks:
        progress = False
        index = 0  # a linear pass: after a kept deletion the next edit has moved into `index`
        while checks < max_checks:
            edits = board_edits(current, values)
            if index >= len(edits):
                break
            candidate = edits[index](current)
            if valid(candidate):
                checks += 1
                if fails(candidate):
                    current, progress = candidate, True
                    continue
            index += 1
    # Last, the names: the same bug found twice then gives the same file.
    renamed = renumbered(current)
    if renamed != current and valid(renamed) and fails(renamed):
        current = renamed
    return current


def renumbered(data: dict[str, Any]) -> dict[str, Any]:
    """Objects numbered by position (keeping their letter: u1, g2, ...), effects e1, e2, ...

    Object ids are replaced wherever they occur as a word (references, and generated names such
    as "Unit u5"); only ids of the generated form (a letter and a number) are renamed.
    """
    ids = {o["id"]: f"{o['id'][0]}{i}" for i, o in enumerate(data["objects"], 1) if re.fullmatch(r"[a-z]\d+", o["id"])}
    text = re.sub(r"\b[a-z]\d+\b", lambda m: ids.get(m.group(0), m.group(0)), json.dumps(data))
    out = json.loads(text)
    number = 0
    for obj in out["objects"]:
        for key in ("rules_text", "effect_text"):
            for effect in obj.get(key, ()):
                number += 1
                effect["id"] = f"e{number}"
    for effect in out.get("effects", ()):
        number += 1
        effect["id"] = f"e{number}"
    return out


def valid(data: dict[str, Any]) -> bool:
    try:
        board_from_dict(data)
    except BoardError:
        return False
    return True


Edit = Callable[[dict[str, Any]], dict[str, Any]]


def board_edits(data: dict[str, Any], values: bool = False) -> list[Edit]:
    """The deletions to try, biggest first: an object and everything that names it, then any
    key or list element (outermost first); with `values`, then the integers lowered."""
    edits: list[Edit] = []
    if len(data["objects"]) > 1:
        edits += [partial(without_object, oid=obj["id"]) for obj in data["objects"]]
    edits += [partial(delete_path, path=path) for path in deletion_paths(data)]
    if values:
        edits += value_edits(data)
    return edits


def value_edits(data: dict[str, Any]) -> list[Edit]:
    """Each integer of the board lowered toward 0: to 0, 1, half of it, one less (those below it).

    Two failing boards of one defect that differ only in their numbers (Might 3 or 4, +2 or +1)
    then shrink to the same board, so the campaign reports them as one finding
    (riftasp/campaign/identity.py). Players and ids are strings and stay as they are.
    """
    edits: list[Edit] = []
    for path, value in integer_paths(data):
        lower = sorted({v for v in (0, 1, value // 2, value - 1) if 0 <= v < value})
        edits += [partial(_set, path=path, value=v) for v in lower]
    return edits


def integer_paths(node: Any, path: Path = ()) -> Iterator[tuple[Path, int]]:
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from integer_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from integer_paths(value, (*path, index))


def _set(data: dict[str, Any], path: Path, value: int) -> dict[str, Any]:
    out = copy.deepcopy(data)
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return out


def without_object(data: dict[str, Any], oid: str) -> dict[str, Any]:
    def mentions(effect: dict[str, Any]) -> bool:
        return f'"{oid}"' in json.dumps(effect)

    out = copy.deepcopy(data)
    out["objects"] = [o for o in out["objects"] if o["id"] != oid]
    for obj in out["objects"]:
        if obj.get("attached_to") == oid:
            obj.pop("attached_to")
            obj.pop("attached_since", None)
        for key in ("rules_text", "effect_text"):
            if key in obj:
                obj[key] = [e for e in obj[key] if not mentions(e)]
                if not obj[key]:
                    del obj[key]
    if "effects" in out:
        out["effects"] = [e for e in out["effects"] if not mentions(e)]
        if not out["effects"]:
            del out["effects"]
    return out


def deletion_paths(node: Any, path: Path = ()) -> Iterator[Path]:
    """Every deletable key and list element, outermost first (effects before their fields)."""
    if isinstance(node, dict):
        inside_op = bool(path) and path[-1] == "op"  # an operation's fields are all required
        children = list(node.items())
        for key, _ in children:
            if key not in _KEEP and not inside_op:
                yield (*path, key)
    elif isinstance(node, list):
        children = list(enumerate(node))
        if path[-1] not in ("objects", "players"):  # objects go with their references, above
            for index, _ in children:
                yield (*path, index)
    else:
        return
    for key, value in children:
        if isinstance(value, (dict, list)):
            yield from deletion_paths(value, (*path, key))


def delete_path(data: dict[str, Any], path: Path) -> dict[str, Any]:
    out = copy.deepcopy(data)
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    # An emptied list is written as no list at all (the board format rejects some empty lists).
    if isinstance(parent, list) and not parent and len(path) >= 2:
        grand = out
        for key in path[:-2]:
            grand = grand[key]
        del grand[path[-2]]
    return out
