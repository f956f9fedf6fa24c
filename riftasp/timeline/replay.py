"""What each event does to the game's state: which object is where, attached to what, with which
keys, and which ongoing effects exist. Timestamps are not set here: the engines' bookkeeping
(stamps.py for the ASP engine, riftasp/reference/timeline.py for the reference engine) assigns
them from what changed.

The state is the board format's data (dicts), so the board after any event is a board file.
Each event checks that it makes sense at its moment, in one `BoardError` line naming the event's
index and field.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..board_io import BoardError, board_from_dict
from ..model import Board
from ..rulesets import Ruleset
from .log import Event, Timeline

PLACES = ("location", "row", "column")  # where on the board an object stands, besides its zone


@dataclass(frozen=True)
class State:
    """The game between two events: the board's data without the timestamps the bookkeeping
    assigns (objects by id, in the order they came into the game)."""

    top: dict[str, Any]  # ruleset, settings, players, active_player, realm
    ruleset: Ruleset  # the starting board's, as its reader found it
    objects: dict[str, dict[str, Any]]
    effects: dict[str, dict[str, Any]]
    time: int
    # Objects that entered together at this moment, in the order their player chose (or None
    # when the order was left open): the rulesets' bookkeeping orders their text with it.
    together: tuple[tuple[str, ...], tuple[str, ...] | None] | None = None
    # What the last event touched (object ids): the transitions it may cause are about these,
    # and whatever they read.
    touched: frozenset[str] = frozenset()

    def board_data(self) -> dict[str, Any]:
        data = dict(self.top)
        data["objects"] = list(self.objects.values())
        if self.effects:
            data["effects"] = list(self.effects.values())
        return data


def start_state(timeline: Timeline) -> State:
    """The starting board as a state; it must be a valid board itself."""
    board = board_from_dict(timeline.start, timeline.source)  # its errors name the starting board's keys
    data = timeline.start
    top = {k: v for k, v in data.items() if k not in ("objects", "effects")}
    objects = {obj["id"]: dict(obj) for obj in data.get("objects", [])}
    effects = {e["id"]: dict(e) for e in data.get("effects", []) or []}
    return State(top, board.ruleset, objects, effects, time=0)


def board_zones(state: State) -> frozenset[str]:
    return frozenset(state.ruleset.vocabulary.board_zones)


def apply(state: State, event: Event, timeline: Timeline) -> State:
    """The state after `event` (its changes only: no timestamps yet)."""
    objects = dict(state.objects)
    effects = dict(state.effects)
    data = event.data

    def error(key: str, message: str) -> BoardError:
        return timeline.error(event, key, message)

    def existing(key: str = "object") -> dict[str, Any]:
        oid = data[key]
        if oid not in objects:
            raise error(key, f"no object {oid!r} at this moment (event {event.index}, time {event.time})")
        return dict(objects[oid])

    touched: set[str] = set()
    together = None
    if event.kind in ("enter", "enter_together"):
        entering = [data["object"]] if event.kind == "enter" else list(data["objects"])
        key = "object" if event.kind == "enter" else "objects"
        ids = []
        for i, obj in enumerate(entering):
            oid = obj.get("id")
            where = key if event.kind == "enter" else f"{key}[{i}]"
            if not isinstance(oid, str):
                raise error(f"{where}.id", "missing: an entering object has an id")
            if oid in objects or oid in ids:
                raise error(f"{where}.id", f"object {oid!r} already exists: an object enters once (move it instead)")
            ids.append(oid)
            objects[oid] = dict(obj)
        order = data.get("order")
        if order is not None and sorted(order) != sorted(ids):
            raise error("order", f"must list exactly the entering objects ({', '.join(ids)}), got {order}")
        together = (tuple(ids), tuple(order) if order is not None else None)
        if order is not None:
            _chosen_order(objects, list(order), state)
        touched.update(ids)
    elif event.kind == "move":
        obj = existing()
        if "from" in data and obj.get("zone") != data["from"]:
            raise error("from", f"{data['object']!r} is in {obj.get('zone')}, not {data['from']}: it cannot leave "
                                f"{data['from']}")
        obj["zone"] = data["to"]
        for key in PLACES:
            obj.pop(key, None)
            if key in data:
                obj[key] = data[key]
        if data["to"] not in board_zones(state):
            _left_board(obj, state)
        objects[data["object"]] = obj
        touched.add(data["object"])
        # Whatever was attached to an object that left the board falls off (and stays where it is).
        if data["to"] not in board_zones(state):
            for other_id, other in objects.items():
                if other.get("attached_to") == data["object"]:
                    objects[other_id] = _detached(dict(other))
                    touched.add(other_id)
    elif event.kind == "attach":
        obj = existing()
        existing("to")
        if obj.get("attached_to") == data["to"]:
            raise error("to", f"{data['object']!r} is already attached to {data['to']!r}")
        obj["attached_to"] = data["to"]
        objects[data["object"]] = obj
        touched.update((data["object"], data["to"]))
    elif event.kind == "detach":
        obj = existing()
        if obj.get("attached_to") is None:
            raise error("object", f"{data['object']!r} is not attached to anything: it cannot be detached")
        touched.update((data["object"], obj["attached_to"]))
        objects[data["object"]] = _detached(obj)
    elif event.kind == "set":
        obj = existing()
        value = data["value"]
        if value is None or value is False or value == []:
            obj.pop(data["field"], None)  # a flag or list the board format leaves out when it does not hold
            for f in state.ruleset.object_fields:
                if f.key == data["field"] and f.stamp:
                    obj.pop(f.stamp, None)  # a flag that stops holding has no timestamp
        else:
            obj[data["field"]] = value
        objects[data["object"]] = obj
        touched.add(data["object"])
    elif event.kind == "control":
        obj = existing()
        obj["controller"] = data["player"]
        objects[data["object"]] = obj
        touched.add(data["object"])
    elif event.kind in ("start", "activate", "trigger"):
        key = "effect" if "effect" in data else "effects"
        started = [data["effect"]] if key == "effect" else list(data["effects"])
        for i, raw in enumerate(started):
            where = key if key == "effect" else f"{key}[{i}]"
            effect = dict(raw)
            eid = effect.get("id")
            if not isinstance(eid, str):
                raise error(f"{where}.id", "missing: an ongoing effect has an id")
            if eid in effects:
                raise error(f"{where}.id", f"effect {eid!r} already exists: it began at an earlier event")
            if event.kind != "start" and "source" not in effect:
                raise error(f"{where}.source", f"missing: an {event.kind}d ability's effect names the object it "
                                               f"came from")
            source = effect.get("source")
            if source is not None and source not in objects:
                raise error(f"{where}.source", f"no object {source!r} at this moment")
            # A placeholder until the bookkeeping gives it its timestamp (a board needs one).
            effect["timestamp"] = event.time
            effects[eid] = effect
            touched.update(_effect_objects(effect, objects))
    elif event.kind == "end":
        if data["effect"] not in effects:
            raise error("effect", f"no ongoing effect {data['effect']!r} at this moment")
        touched.update(_effect_objects(effects.pop(data["effect"]), objects))
    return replace(state, objects=objects, effects=effects, time=event.time, together=together,
                   touched=frozenset(touched))


def _left_board(obj: dict[str, Any], state: State) -> None:
    """What an object loses as it leaves the board: its attachment, its statuses and the
    ruleset's keys of its state there (a buff, at rest, its entry order, ...; docs/board-format.md,
    Timelines). Its printed values and its links stay."""
    _detached(obj)
    obj.pop("status", None)
    for f in state.ruleset.object_fields:
        if not f.printed and f.kind.name != "object_id":
            obj.pop(f.key, None)
            if f.stamp:
                obj.pop(f.stamp, None)


def _detached(obj: dict[str, Any]) -> dict[str, Any]:
    obj.pop("attached_to", None)
    obj.pop("attached_since", None)  # an attachment's timestamp goes with it
    return obj


def _chosen_order(objects: dict[str, dict[str, Any]], order: list[str], state: State) -> None:
    """The active player's chosen order among cards entering together: the ruleset's
    `entry_order` key where it has one (Sorcery), else their listing order, which breaks ties of
    timestamps (docs/semantics.md §7)."""
    keys = {f.key for f in state.ruleset.object_fields}
    if "entry_order" in keys:
        for position, oid in enumerate(order):
            objects[oid] = dict(objects[oid], entry_order=position)
        return
    entering = {oid: objects.pop(oid) for oid in order}
    objects.update(entering)


def _effect_objects(effect: dict[str, Any], objects: dict[str, Any]) -> set[str]:
    target = effect.get("target")
    named = set(target.get("ids", [])) if isinstance(target, dict) else set()
    if effect.get("source") is not None:
        named.add(effect["source"])
    return {oid for oid in named if oid in objects}


def checked_board(data: dict[str, Any], timeline: Timeline, event: Event | None) -> Board:
    """The board after `event`, validated as a board file is; an error names the event."""
    try:
        return board_from_dict(data, timeline.source)
    except BoardError as problem:
        if event is None:
            raise
        raise timeline.error(event, "", f"the board after this event is not valid: {problem.where}: "
                                        f"{problem.message}") from None
