"""A timeline file: a starting board and the events of a game, in order (docs/board-format.md,
"Timelines"). This module reads the file and checks each event's shape; whether an event makes
sense at its moment (the object exists, is in the zone it leaves, is attached) is checked when
the game is replayed (replay.py), where that moment is known.

Every failure is one `BoardError` line naming the file, the event's index and its field:
`game.json: events[3].object: no object 'x' at this moment`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board_io import BoardError
from ..board_io.parsing import parse_json, parse_yaml
from ..board_io.reading import STDIN, STDIN_SOURCE, read_file, read_stdin
from ..limits import VALUE_MAX as MAX_INT

# Each kind of event, described once: its required and optional keys and what each key holds
# ("id": an object or effect id, "zone", "player", "object": an object as the board format
# writes it, "objects": a list of those, "effect": an ongoing effect, "ids": a list of ids,
# "field": a key of an object, "any": a value the board format checks). `time` is optional on
# every event. riftasp/schema.py writes the JSON Schema from this table.
EVENTS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "enter": ({"object": "object"}, {}),
    "enter_together": ({"objects": "objects"}, {"order": "ids"}),
    "move": ({"object": "id", "to": "zone"}, {"from": "zone", "location": "any", "row": "any", "column": "any"}),
    "attach": ({"object": "id", "to": "id"}, {}),
    "detach": ({"object": "id"}, {}),
    "set": ({"object": "id", "field": "field", "value": "any"}, {}),
    "control": ({"object": "id", "player": "player"}, {}),
    "start": ({}, {"effect": "effect", "effects": "effects"}),
    "activate": ({}, {"effect": "effect", "effects": "effects"}),
    "trigger": ({}, {"effect": "effect", "effects": "effects"}),
    "end": ({"effect": "id"}, {}),
}
# What each kind says, for the schema, `riftasp timeline --help` and docs.
EVENT_WORDS = {
    "enter": "a new object comes into the game (its zone as given); text on the board gains the event's time",
    "enter_together": "several objects enter at once (one time); `order`: the active player's chosen order",
    "move": "an object changes zone (or battlefield / square); leaving the board makes its text inactive",
    "attach": "gear or an artifact is attached to a unit or minion; Effect Text dates from now",
    "detach": "an attached object is detached",
    "set": "an object's own key changes (a buff, a status, at rest, ...): `field` and its new `value`",
    "control": "an event gives control of an object to `player`",
    "start": "an ongoing effect (a spell's) begins applying now (`effects`: several at once, in order)",
    "activate": "an activated ability's ongoing effect begins now (not when its source entered)",
    "trigger": "a triggered ability's ongoing effect begins now",
    "end": "an ongoing effect stops applying",
}
# Keys no event may change with `set`: each has its own event, or riftasp assigns it.
NOT_SET = {
    "id": "an object's id never changes",
    "card": "printed values never change by an event",
    "name": "printed values never change by an event",
    "type": "printed values never change by an event",
    "owner": "an object's owner never changes",
    "controller": "use a control event",
    "zone": "use a move event",
    "location": "use a move event",
    "row": "use a move event",
    "column": "use a move event",
    "attached_to": "use attach or detach",
    "since": "riftasp assigns timestamps from the order of events",
    "attached_since": "riftasp assigns timestamps from the order of events",
    "rules_text": "printed text never changes by an event: start an effect",
    "effect_text": "printed text never changes by an event: start an effect",
}
TIMELINE_KEYS = ("events",)


@dataclass(frozen=True)
class Event:
    index: int  # its place in the log, from 0
    kind: str
    time: int  # when it happened (given, or one after the event before)
    data: dict[str, Any] = field(repr=False)  # its keys as written, `event` and `time` left out

    @property
    def where(self) -> str:
        return f"events[{self.index}]"


@dataclass(frozen=True)
class Timeline:
    source: str  # the file, for error messages
    start: dict[str, Any]  # the starting board, as the board format writes it
    events: tuple[Event, ...]

    def error(self, event: Event | None, key: str, message: str) -> BoardError:
        where = "" if event is None else event.where + (f".{key}" if key else "")
        return BoardError(self.source, where, message)


def is_timeline(data: Any) -> bool:
    """Whether parsed data is a timeline (a board with `events`) rather than a board."""
    return isinstance(data, dict) and "events" in data


def load_timeline(path: str | Path) -> Timeline:
    """A timeline file: JSON (or YAML, by suffix); `-` reads JSON from standard input."""
    if str(path) == STDIN:
        return timeline_from_dict(parse_json(read_stdin(), STDIN_SOURCE), STDIN_SOURCE)
    source = str(path)
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        raise BoardError(source, "file", f"a timeline is a .json, .yaml or .yml file, not {suffix or '(no suffix)'!r}")
    text = read_file(Path(path), source)
    return timeline_from_dict(parse_json(text, source) if suffix == ".json" else parse_yaml(text, source), source)


def timeline_from_dict(data: Any, source: str = "<timeline>") -> Timeline:
    if not isinstance(data, dict):
        raise BoardError(source, "top level", "a timeline is a JSON object: a board with an `events` list")
    if "events" not in data:
        raise BoardError(source, "events", "missing: a timeline is a board with an `events` list (a board "
                                           "without one is a snapshot: use riftasp resolve)")
    raw = data["events"]
    if not isinstance(raw, list):
        raise BoardError(source, "events", f"must be a list of events, got {type(raw).__name__}")
    start = {key: value for key, value in data.items() if key != "events"}
    last = _latest_stamp(start)
    events = []
    for index, item in enumerate(raw):
        event = _event(item, index, last, source)
        last = event.time
        events.append(event)
    return Timeline(source, start, tuple(events))


def _event(item: Any, index: int, last: int, source: str) -> Event:
    where = f"events[{index}]"
    if not isinstance(item, dict):
        raise BoardError(source, where, f"an event is an object with an `event` key, got {type(item).__name__}")
    kind = item.get("event")
    if not isinstance(kind, str) or kind not in EVENTS:
        known = ", ".join(EVENTS)
        raise BoardError(source, f"{where}.event", f"unknown event {kind!r}: one of {known}")
    required, optional = EVENTS[kind]
    for key in required:
        if key not in item:
            raise BoardError(source, f"{where}.{key}", f"missing: a {kind} event names its {key}")
    for key in item:
        if key not in required and key not in optional and key not in ("event", "time"):
            allowed = ", ".join(["event", "time", *required, *optional])
            raise BoardError(source, f"{where}.{key}", f"unknown key for a {kind} event (keys: {allowed})")
    for key, kind_of in {**required, **optional}.items():
        if key in item:
            _check_value(item[key], kind_of, f"{where}.{key}", source)
    if kind in ("start", "activate", "trigger") and ("effect" in item) == ("effects" in item):
        raise BoardError(source, f"{where}.effect", f"a {kind} event names one `effect` or a list of `effects`")
    time = item.get("time", last + 1)
    if not isinstance(time, int) or isinstance(time, bool):
        raise BoardError(source, f"{where}.time", f"must be an integer, got {time!r}")
    if abs(time) > MAX_INT:
        raise BoardError(source, f"{where}.time", f"must be within ±{MAX_INT:,}, got {time:,}")
    if time <= last:
        before = f"event {index - 1}'s time {last}" if index else f"the starting board's latest timestamp {last}"
        raise BoardError(source, f"{where}.time", f"time goes backwards: {time} is not after {before}")
    data = {key: value for key, value in item.items() if key not in ("event", "time")}
    return Event(index, kind, time, data)


def _check_value(value: Any, kind: str, where: str, source: str) -> None:
    if kind in ("id", "zone", "player", "field"):
        if not isinstance(value, str) or not value:
            raise BoardError(source, where, f"must be a non-empty string, got {value!r}")
        if kind == "field" and value in NOT_SET:
            raise BoardError(source, where, f"{value!r} cannot be set by an event: {NOT_SET[value]}")
    elif kind == "ids":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BoardError(source, where, "must be a list of object ids")
    elif kind in ("object", "effect"):
        if not isinstance(value, dict):
            raise BoardError(source, where, f"must be an {kind} as the board format writes it")
        for stamp in ("since", "attached_since", "timestamp"):
            if stamp in value:
                raise BoardError(source, f"{where}.{stamp}", "riftasp assigns timestamps from the order of events: "
                                                              "leave it out (give the event a `time` instead)")
    elif kind in ("objects", "effects"):
        if not isinstance(value, list) or not value:
            raise BoardError(source, where, f"must be a non-empty list of {kind}")
        for i, item in enumerate(value):
            _check_value(item, kind[:-1], f"{where}[{i}]", source)


def _latest_stamp(start: dict[str, Any]) -> int:
    """The latest timestamp the starting board states: the events come after it."""
    stamps = [0]
    for obj in start.get("objects") or []:
        if isinstance(obj, dict):
            stamps += [v for k, v in obj.items() if (k == "since" or k.endswith("_since")) and _integer(v)]
            for key in ("rules_text", "effect_text"):
                for text in obj.get(key) or []:
                    if isinstance(text, dict) and _integer(text.get("timestamp")):
                        stamps.append(text["timestamp"])
    for effect in start.get("effects") or []:
        if isinstance(effect, dict) and _integer(effect.get("timestamp")):
            stamps.append(effect["timestamp"])
    return max(stamps)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT


def timeline_to_dict(timeline: Timeline) -> dict[str, Any]:
    """The timeline as a file writes it: the starting board, then every event with its `time`
    written out (an engine need not know the rule for a missing one)."""
    events = [{"event": e.kind, "time": e.time, **e.data} for e in timeline.events]
    return {**timeline.start, "events": events}
