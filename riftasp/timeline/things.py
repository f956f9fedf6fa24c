"""The things a timeline's bookkeeping gives timestamps to, how a board states each one's
timestamp, and how the bookkeeping's answer is written back into the board's data.

A thing is a tuple: ("since", O) an object's rules text (its `since`), ("attached", G) a gear's
Effect Text and Might Bonus (`attached_since`), ("flag", K, O) a ruleset key with its own stamp
(Riftbound's buff: `buff_since`), ("effect", E) an ongoing effect (`timestamp`), ("text", E) one
text (its own `timestamp` where it differs from what it would take from its object).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeAlias

from ..board_io.writing import board_to_dict
from ..model import Board, GameObject

Thing: TypeAlias = tuple[str, ...]
Stamps: TypeAlias = dict[Thing, int]


def board_stamps(board: Board) -> Stamps:
    """Every thing's timestamp as the board states it (active or not)."""
    out: Stamps = {}
    stamped = [f for f in board.ruleset.object_fields if f.stamp]
    for obj in board.objects:
        out[("since", obj.id)] = obj.since
        if obj.attached_to is not None:
            out[("attached", obj.id)] = _effect_text_stamp(obj)
        for f in stamped:
            if getattr(obj, f.name):
                value = getattr(obj, f.stamp)
                out[("flag", f.key, obj.id)] = obj.since if value is None else value
        for effect in obj.rules_text:
            out[("text", effect.id)] = obj.since if effect.timestamp is None else effect.timestamp
        for effect in obj.effect_text:
            out[("text", effect.id)] = _effect_text_stamp(obj) if effect.timestamp is None else effect.timestamp
    for effect in board.effects:
        if effect.timestamp is not None:
            out[("effect", effect.id)] = effect.timestamp
    return out


def _effect_text_stamp(obj: GameObject) -> int:
    return obj.since if obj.attached_since is None else obj.attached_since


def thing_words(thing: Thing) -> str:
    """How a transition names a thing: "u1", "boots' Effect Text", "fiora's buff", "e1"."""
    if thing[0] == "since":
        return f"{thing[1]}'s rules text"
    if thing[0] == "attached":
        return f"{thing[1]}'s Effect Text"
    if thing[0] == "flag":
        return f"{thing[2]}'s {thing[1]}"
    return thing[1]


def write_stamps(data: dict[str, Any], stamps: Stamps, board: Board) -> dict[str, Any]:
    """The board's data with `stamps` written in: an object's `since`, `attached_since`, a flag's
    stamp key, an ongoing effect's `timestamp`, and a text's own `timestamp` only where it differs
    from what the text takes from its object (a card's object is written out in full then, since
    a card's text has no place for one). Things not in `stamps` keep what `data` says."""
    fields = {f.key: f for f in board.ruleset.object_fields if f.stamp}
    by_id = {obj.id: obj for obj in board.objects}
    objects = []
    for raw in data["objects"]:
        obj = dict(raw)
        oid = obj["id"]
        if ("since", oid) in stamps:
            obj["since"] = stamps[("since", oid)]
        if ("attached", oid) in stamps and "attached_to" in obj:
            obj["attached_since"] = stamps[("attached", oid)]
        elif "attached_to" not in obj:
            obj.pop("attached_since", None)
        for key, f in fields.items():
            if ("flag", key, oid) in stamps and obj.get(key):
                obj[f.stamp] = stamps[("flag", key, oid)]
            elif not obj.get(key):
                obj.pop(f.stamp, None)
        model = by_id.get(oid)
        if model is not None:
            obj = _text_stamps(obj, model, stamps, board)
        objects.append(obj)
    out = dict(data, objects=objects)
    if data.get("effects"):
        out["effects"] = [dict(e, timestamp=stamps.get(("effect", e["id"]), e.get("timestamp", 0)))
                          for e in data["effects"]]  # fmt: skip
    return out


def _text_stamps(obj: dict[str, Any], model: GameObject, stamps: Stamps, board: Board) -> dict[str, Any]:
    own = obj.get("since", 0)
    effect_own = obj.get("attached_since", own)
    wanted: dict[str, int | None] = {}
    for key, inherited in (("rules_text", own), ("effect_text", effect_own)):
        for effect in getattr(model, key):
            stamp = stamps.get(("text", effect.id))
            if stamp is not None:
                wanted[effect.id] = None if stamp == inherited else stamp
    if not wanted:
        return obj
    if "card" in obj:
        if all(v is None for v in wanted.values()):
            return obj
        obj = _written_out(obj, model, board)
    for key in ("rules_text", "effect_text"):
        if key in obj:
            texts = []
            for text in obj[key]:
                text = dict(text)
                if text.get("id") in wanted:
                    stamp = wanted[text["id"]]
                    if stamp is None:
                        text.pop("timestamp", None)
                    else:
                        text["timestamp"] = stamp
                texts.append(text)
            obj[key] = texts
    return obj


def _written_out(obj: dict[str, Any], model: GameObject, board: Board) -> dict[str, Any]:
    """A card's object with its printed values and text written out (no `card` key)."""
    full = board_to_dict(replace(board, objects=(replace(model, card=None),), effects=()))["objects"][0]
    out = dict(full)  # the writer's order of keys (id first), the moment's values over it
    out.update((k, v) for k, v in obj.items() if k != "card")
    return out
