"""A finding's identity: which findings of a campaign are one defect.

A defect is known by the smallest board that shows it (the campaign shrinks every failing board,
riftasp/campaign/shrink.py) and by what differs on it. Two runs, or two failing boards of one
run, reach the same minimal board under different names, times and orders: objects `u3` and
`u7`, timestamps 2 and 4, an effect listed first or second. The *canonical form* takes those
away:

- objects and effects are listed in an order read off their content with every id masked, and
  renamed `o1, o2, ...` and `e1, e2, ...` in that order (wherever an id occurs: references,
  targets, generated names such as "Unit u5");
- the times (`since`, `buff_since`, `attached_since`, `timestamp`) become their ranks 1, 2, ...,
  ties kept as ties, since only their order means anything;
- defaults are written alike (the board is read and written back first).

The identity is a short hash of the canonical board and the differing fields (the object, by its
canonical name, and the kind of characteristic or the broken invariant and its side), so it is the
same in every run and on every machine, and a baseline file can list it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from ..board_io import board_from_dict, board_to_dict
from ..signature import finding_kind

TIME_KEYS = frozenset({"since", "buff_since", "attached_since", "timestamp"})
# Free names whose spelling means nothing but equality (a tag given and a tag read, an object's
# name, which a copy takes): renamed `tag1, tag2, ...` and `name1, ...` in order of appearance,
# so `Mech` and `Dragon` boards of one defect meet, and "Unit u3" and "Gear g1".
NAME_KEYS = {"tag": "tag", "tags": "tag", "name": "name"}
_TEXT_KEYS = ("rules_text", "effect_text")
_MASK = "#"


def canonical(data: dict[str, Any]) -> dict[str, Any]:
    """The board with ids, times and listing order normalised (see the module's docstring)."""
    return canonical_with_names(data)[0]


def canonical_with_names(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(the canonical board, each old object id -> its canonical name)."""
    data = board_to_dict(board_from_dict(data))
    ids = _ids(data)
    players = [p for p in data.get("players", ()) if isinstance(p, str)]
    masked = _Masked({i: _MASK for i in ids} | {p: _MASK for p in players})
    ranked = _ranked_times(data)
    objects = sorted(ranked["objects"], key=lambda o: _key(masked(_listed(o, masked))))
    names = {o["id"]: f"o{n}" for n, o in enumerate(objects, 1)}
    number = 0
    effect_names: dict[str, str] = {}
    # Effects are numbered in the order they will be listed: each object's text, then ongoing.
    for obj in objects:
        for key in _TEXT_KEYS:
            for effect in sorted(obj.get(key, ()), key=lambda e: _key(masked(e))):
                number += 1
                effect_names[effect["id"]] = f"e{number}"
    for effect in sorted(ranked.get("effects", ()), key=lambda e: _key(masked(e))):
        number += 1
        effect_names[effect["id"]] = f"e{number}"
    # Players are names too: numbered in order of first appearance on the listed objects.
    appearance = _Renamer({p: p for p in players})
    seen = [m for o in objects for m in re.findall(appearance.pattern, _key(o))] if appearance.pattern else []
    order = list(dict.fromkeys([*seen, *players]))
    player_names = {p: f"p{n}" for n, p in enumerate(order, 1)}
    rename = _Renamer({**names, **effect_names, **player_names})
    out = dict(ranked)
    if "players" in out:
        out["players"] = sorted(rename(out["players"]))
    out["objects"] = [rename(_listed(o, masked)) for o in objects]
    if "effects" in ranked:
        out["effects"] = sorted((rename(e) for e in ranked["effects"]), key=lambda e: e["id"])
    return _named(out), names


def identity(data: dict[str, Any], found: Iterable[Any]) -> str:
    """A finding's identity: 12 hex digits of the canonical board and what differs on it."""
    board, names = canonical_with_names(data)
    differs = sorted({(names.get(f.object, "?"), finding_kind(f)) for f in found})
    text = json.dumps({"board": board, "differs": differs}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _named(data: dict[str, Any]) -> dict[str, Any]:
    """The board with every tag and name renamed by order of first appearance."""
    names: dict[tuple[str, str], str] = {}

    def name(kind: str, value: Any) -> Any:
        if isinstance(value, str):
            return names.setdefault((kind, value), f"{kind}{sum(k == kind for k, _ in names) + 1}")
        if isinstance(value, list):
            return [name(kind, v) for v in value]
        return value

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: name(NAME_KEYS[k], v) if k in NAME_KEYS else walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    out: dict[str, Any] = walk(data)
    return out


def _ids(data: dict[str, Any]) -> list[str]:
    ids = [o["id"] for o in data["objects"]]
    ids += [e["id"] for o in data["objects"] for key in _TEXT_KEYS for e in o.get(key, ())]
    ids += [e["id"] for e in data.get("effects", ())]
    return ids


def _listed(obj: dict[str, Any], masked: _Masked) -> dict[str, Any]:
    """The object with its text in content order (its ids masked for the ordering only)."""
    out = dict(obj)
    for key in _TEXT_KEYS:
        if key in out:
            out[key] = sorted(out[key], key=lambda e: _key(masked(e)))
    return out


def _key(node: Any) -> str:
    return json.dumps(node, sort_keys=True, separators=(",", ":"))


def _ranked_times(data: dict[str, Any]) -> dict[str, Any]:
    """The board with every time replaced by its rank among all the board's times."""
    times: set[int] = set()

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in TIME_KEYS and isinstance(value, int) and not isinstance(value, bool):
                    times.add(value)
                else:
                    collect(value)
        elif isinstance(node, list):
            for item in node:
                collect(item)

    collect(data)
    rank = {t: n for n, t in enumerate(sorted(times), 1)}

    def ranked(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: rank[v] if k in TIME_KEYS and isinstance(v, int) and not isinstance(v, bool) and v in rank
                    else ranked(v) for k, v in node.items()}  # fmt: skip
        if isinstance(node, list):
            return [ranked(item) for item in node]
        return node

    out: dict[str, Any] = ranked(data)
    return out


class _Masked:
    """Ids and players masked, and the free names (NAME_KEYS) too: what orders the listing."""

    def __init__(self, names: dict[str, str]) -> None:
        self.ids = _Renamer(names)

    def __call__(self, node: Any) -> Any:
        if isinstance(node, dict):
            return {k: _MASK if k in NAME_KEYS else self(v) for k, v in node.items()}
        if isinstance(node, list):
            return [self(item) for item in node]
        return self.ids(node)


class _Renamer:
    """Replaces ids in a JSON value: a string that is an id, and an id as a word inside a string."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        words = sorted((re.escape(i) for i in names), key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w.])(" + "|".join(words) + r")(?![\w])") if words else None

    def __call__(self, node: Any) -> Any:
        if isinstance(node, str):
            if node in self.names:
                return self.names[node]
            if self.pattern is None:
                return node
            return self.pattern.sub(lambda m: self.names[m.group(1)], node)
        if isinstance(node, dict):
            return {k: self(v) for k, v in node.items()}
        if isinstance(node, list):
            return [self(item) for item in node]
        return node
