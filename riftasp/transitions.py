"""Real transitions between two calculations (docs/semantics.md §9).

Only final characteristics are compared: values inside one calculation are not game events.
"""

from __future__ import annotations

from dataclasses import dataclass

from .result import Characteristics, Resolution


@dataclass(frozen=True)
class Transition:
    object: str
    kind: str  # becomes_mighty, no_longer_mighty, might, controller, gains_keyword, name, zone, ...
    before: object
    after: object
    text: str

    def to_json(self) -> dict:
        return {"object": self.object, "kind": self.kind, "before": self.before,
                "after": self.after, "text": self.text}


def transitions(before: Resolution, after: Resolution) -> list[Transition]:
    out: list[Transition] = []
    for oid in sorted(set(before.objects) | set(after.objects)):
        b, a = before.objects.get(oid), after.objects.get(oid)
        if b is None:
            out.append(Transition(oid, "appears", None, a.name, f"{oid} appears"))
            continue
        if a is None:
            out.append(Transition(oid, "disappears", b.name, None, f"{oid} disappears"))
            continue
        out += _identity(oid, b, a)
        if not b.mighty and a.mighty:
            out.append(Transition(oid, "becomes_mighty", False, True, f"{oid} becomes Mighty"))
        if b.mighty and not a.mighty:
            out.append(Transition(oid, "no_longer_mighty", True, False, f"{oid} is no longer Mighty"))
        if b.might != a.might:
            out.append(Transition(oid, "might", b.might, a.might, f"{oid} Might {b.might} -> {a.might}"))
        if b.controller != a.controller:
            out.append(Transition(oid, "controller", b.controller, a.controller,
                                  f"{oid} changes controller {b.controller} -> {a.controller}"))
        for k in sorted(set(a.keywords) - set(b.keywords)):
            out.append(Transition(oid, "gains_keyword", None, k, f"{oid} gains {k}"))
        for k in sorted(set(b.keywords) - set(a.keywords)):
            out.append(Transition(oid, "loses_keyword", k, None, f"{oid} loses {k}"))
        for k in sorted(set(a.keywords) & set(b.keywords)):
            if a.keywords[k] != b.keywords[k]:
                out.append(Transition(oid, "keyword_value", b.keywords[k], a.keywords[k],
                                      f"{oid} {k} {b.keywords[k]} -> {a.keywords[k]}"))
        for t in sorted(set(a.tags) - set(b.tags)):
            out.append(Transition(oid, "gains_tag", None, t, f"{oid} gains tag {t}"))
        for t in sorted(set(b.tags) - set(a.tags)):
            out.append(Transition(oid, "loses_tag", t, None, f"{oid} loses tag {t}"))
    return out


def _identity(oid: str, b: Characteristics, a: Characteristics) -> list[Transition]:
    """What the object is and where: its zone, name and types (a copy changes the last two)."""
    out: list[Transition] = []
    if b.zone != a.zone:
        out.append(Transition(oid, "zone", b.zone, a.zone, f"{oid} moves {b.zone} -> {a.zone}"))
    if b.name != a.name:
        out.append(Transition(oid, "name", b.name, a.name, f"{oid} name {b.name!r} -> {a.name!r}"))
    for t in sorted(set(a.types) - set(b.types)):
        out.append(Transition(oid, "gains_type", None, t, f"{oid} gains type {t}"))
    for t in sorted(set(b.types) - set(a.types)):
        out.append(Transition(oid, "loses_type", t, None, f"{oid} loses type {t}"))
    return out
