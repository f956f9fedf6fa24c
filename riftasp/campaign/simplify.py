"""Simplifications a shrink tries after deletions: the same defect, in the plainest shape.

Deleting what does not matter leaves a board on which every part is needed, but two failing
boards of one defect can still be different minimal boards: the effect an ongoing one on one, the
unit's own text on the other; a unit in base or on a battlefield; owned by alice or by bob. Each
edit here moves a board one step toward a fixed preferred shape, and is kept only if the board
still fails, so boards of one defect meet in one shape and get one identity
(riftasp/campaign/identity.py):

- an effect goes onto the text of the object it changes (an ongoing effect or another object's
  text that targets it by id or by filter; a gear's Effect Text onto its bearer's own text);
- a filter target becomes the id of one object it matches;
- an object's type and zone become an earlier value of the board format's list (the ruleset's
  JSON Schema), and a player field an earlier player of the board's `players`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache, partial
from typing import Any

Board = dict[str, Any]
Edit = Callable[[Board], Board]
_TEXT_KEYS = ("rules_text", "effect_text")
PLAYER_KEYS = ("owner", "controller")  # an object's or an ongoing effect's player fields
ENUM_KEYS = ("type", "zone")  # an object's fields whose values the schema lists


def simplify_edits(data: Board) -> list[Edit]:
    """The simplifications to try on a board, in a fixed order."""
    edits: list[Edit] = []
    objects = [o["id"] for o in data["objects"]]
    edits += [partial(_expanded, position=p) for p, obj in enumerate(data["objects"]) if "card" in obj]
    for index, effect in enumerate(data.get("effects", ())):
        if not effect.get("conditions"):
            holders = [effect["source"]] if effect.get("target") == "self" and effect.get("source") else \
                _targets(effect, objects)  # fmt: skip
            edits += [partial(_ongoing_to_text, index=index, holder=x) for x in holders]
    for position, obj in enumerate(data["objects"]):
        for key in _TEXT_KEYS:
            for index, effect in enumerate(obj.get(key, ())):
                if effect.get("conditions"):
                    continue
                holders = _targets(effect, objects) if "target" in effect else (
                    [obj["attached_to"]] if key == "effect_text" and obj.get("attached_to") else [])
                edits += [partial(_text_to_text, position=position, key=key, index=index, holder=x)
                          for x in holders if x != obj["id"] or key == "effect_text"]  # fmt: skip
    for path in _filter_targets(data):
        edits += [partial(_filter_to_id, path=path, oid=x) for x in objects]
    edits += _preferred_values(data)
    edits += _traded(data)
    return edits


def _expanded(data: Board, position: int) -> Board:
    """The board with one library card written out (name, type, printed values, text), so the
    parts of its text that do not matter can go like any other."""
    from ..board_io import board_from_dict, board_to_dict
    from ..engines import expand_cards

    board = board_from_dict(data)
    written = board_to_dict(expand_cards(board))["objects"][position]
    out = copy.deepcopy(data)
    out["objects"][position] = written
    return out


TRADE_OBJECTS = 3  # boards with at most this many objects try trades (their count is paths x numbers)


def _traded(data: Board) -> list[Edit]:
    """A part of the board deleted while one of its numbers goes up by one: a feature traded for
    a number (a buff, or a +1, for a point of Might), which a plain deletion cannot do."""
    from ..reduce import deletion_paths, integer_paths

    if len(data["objects"]) > TRADE_OBJECTS:
        return []
    numbers = [path for path, _ in integer_paths(data)]
    return [partial(_trade, deleted=d, raised=n) for d in deletion_paths(data) for n in numbers
            if n[: len(d)] != d]  # fmt: skip


def _trade(data: Board, deleted: tuple[Any, ...], raised: tuple[Any, ...]) -> Board:
    from ..reduce import delete_path

    out = copy.deepcopy(data)
    node: Any = out
    for key in raised[:-1]:
        node = node[key]
    node[raised[-1]] += 1
    return delete_path(out, deleted)


def _targets(effect: dict[str, Any], objects: list[str]) -> list[str]:
    target = effect.get("target")
    if not isinstance(target, dict):
        return []
    if "ids" in target:
        ids = target["ids"]
        return list(ids) if len(ids) == 1 else []
    return list(objects) if "filter" in target else []


def _bare(effect: dict[str, Any]) -> dict[str, Any]:
    """An effect as text on the object it changes: its id and operation, no target."""
    return {"id": effect["id"], "op": copy.deepcopy(effect["op"])}


def _ongoing_to_text(data: Board, index: int, holder: str) -> Board:
    out = copy.deepcopy(data)
    effect = out["effects"].pop(index)
    if not out["effects"]:
        del out["effects"]
    return _add_text(out, holder, _bare(effect))


def _text_to_text(data: Board, position: int, key: str, index: int, holder: str) -> Board:
    out = copy.deepcopy(data)
    obj = out["objects"][position]
    effect = obj[key].pop(index)
    if not obj[key]:
        del obj[key]
    return _add_text(out, holder, _bare(effect))


def _add_text(data: Board, holder: str, effect: dict[str, Any]) -> Board:
    for obj in data["objects"]:
        if obj["id"] == holder:
            obj.setdefault("rules_text", []).append(effect)
    return data


def _filter_targets(data: Board) -> list[tuple[Any, ...]]:
    paths: list[tuple[Any, ...]] = []
    for index, effect in enumerate(data.get("effects", ())):
        if isinstance(effect.get("target"), dict) and "filter" in effect["target"]:
            paths.append(("effects", index))
    for position, obj in enumerate(data["objects"]):
        for key in _TEXT_KEYS:
            for index, effect in enumerate(obj.get(key, ())):
                if isinstance(effect.get("target"), dict) and "filter" in effect["target"]:
                    paths.append(("objects", position, key, index))
    return paths


def _filter_to_id(data: Board, path: tuple[Any, ...], oid: str) -> Board:
    out = copy.deepcopy(data)
    node: Any = out
    for key in path:
        node = node[key]
    node["target"] = {"ids": [oid]}
    return out


def _preferred_values(data: Board) -> list[Edit]:
    edits: list[Edit] = []
    players = list(data.get("players", ()))
    listed = _listed_values(str(data.get("ruleset") or ""))
    for position, obj in enumerate(data["objects"]):
        for key in ENUM_KEYS:
            values = listed.get(key, ())
            if obj.get(key) in values:
                earlier = values[: values.index(obj[key])]
                edits += [partial(_set_field, path=("objects", position, key), value=v) for v in earlier]
        for key in PLAYER_KEYS:
            if obj.get(key) in players:
                edits += [partial(_set_field, path=("objects", position, key), value=p)
                          for p in players[: players.index(obj[key])]]  # fmt: skip
    for index, effect in enumerate(data.get("effects", ())):
        if effect.get("controller") in players:
            edits += [partial(_set_field, path=("effects", index, "controller"), value=p)
                      for p in players[: players.index(effect["controller"])]]  # fmt: skip
    return edits


def _set_field(data: Board, path: tuple[Any, ...], value: Any) -> Board:
    out = copy.deepcopy(data)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


@cache
def _listed_values(ruleset: str) -> dict[str, tuple[str, ...]]:
    """The values the board format lists for an object's ENUM_KEYS, in the schema's order."""
    from ..rulesets import UnsupportedRuleset, default_ruleset, ruleset as ruleset_named
    from ..schema import board_schema

    try:
        schema = board_schema(ruleset_named(ruleset or default_ruleset()))
    except UnsupportedRuleset:
        return {}
    properties = schema.get("$defs", {}).get("object", {}).get("properties", {})
    return {key: tuple(properties[key]["enum"]) for key in ENUM_KEYS if "enum" in properties.get(key, {})}
