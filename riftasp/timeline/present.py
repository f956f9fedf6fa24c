"""A replayed game for people (one block per event: what happened, the timestamps it moved, the
real transitions it caused) and for machines (`--json`)."""

from __future__ import annotations

from typing import Any

from ..present import printable
from .log import Event
from .run import Moment


def event_words(event: Event) -> str:
    """One line for an event: `event 3 (time 4): set fiora buff true`."""
    d = event.data
    if event.kind == "enter":
        what = f"{d['object'].get('id')} enters {d['object'].get('zone')}"
    elif event.kind == "enter_together":
        what = "together: " + ", ".join(str(o.get("id")) for o in d["objects"])
        if "order" in d:
            what += f" (order {', '.join(d['order'])})"
    elif event.kind == "move":
        place = ", ".join(f"{k} {d[k]}" for k in ("location", "row", "column") if k in d)
        what = f"{d['object']} moves to {d['to']}" + (f" ({place})" if place else "")
    elif event.kind == "attach":
        what = f"{d['object']} attached to {d['to']}"
    elif event.kind == "detach":
        what = f"{d['object']} detached"
    elif event.kind == "set":
        what = f"{d['object']} {d['field']} = {_value(d['value'])}"
    elif event.kind == "control":
        what = f"{d['player']} takes control of {d['object']}"
    elif event.kind == "end":
        what = f"{d['effect']} ends"
    else:
        started = [d["effect"]] if "effect" in d else d["effects"]
        what = ", ".join(str(e.get("id")) for e in started)
        if event.kind != "start":
            what += f" ({event.kind}d by {started[0].get('source')})"
        else:
            what += " begins"
    return printable(f"event {event.index} (time {event.time}): {what}")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def moment_lines(moment: Moment) -> list[str]:
    head = "start" if moment.event is None else event_words(moment.event)
    lines = [head]
    lines += [f"  {printable(c.text)}" for c in moment.stamp_changes]
    lines += [f"  {printable(t.text)}" for t in moment.transitions]
    if moment.note:
        lines.append(f"  note: {printable(moment.note)}")
    if moment.event is not None and not moment.stamp_changes and not moment.transitions:
        lines.append("  no changes")
    return lines


def moment_json(moment: Moment) -> dict[str, Any]:
    out: dict[str, Any] = {"event": None if moment.event is None else moment.event.index,
                           "kind": "start" if moment.event is None else moment.event.kind,
                           "time": moment.time,
                           "timestamps": [c.to_json() for c in moment.stamp_changes],
                           "transitions": [t.to_json() for t in moment.transitions]}  # fmt: skip
    if moment.note:
        out["note"] = moment.note
    out["objects"] = {oid: c.to_json() for oid, c in sorted(moment.resolution.objects.items())}
    return out
