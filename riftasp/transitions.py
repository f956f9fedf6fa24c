"""Real transitions between two calculations (docs/semantics.md §9).

Only final characteristics are compared: values inside one calculation are not game events.
What is compared, in what order and in what words comes from the ruleset's output fields
(riftasp/specs.py `OutputField`, `OutputOrder.diff`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .result import Characteristics, Resolution
from .specs import OutputField


@dataclass(frozen=True)
class Transition:
    object: str
    kind: str  # becomes_mighty, no_longer_mighty, might, controller, gains_keyword, name, zone, ...
    before: Any  # a characteristic's value, as the output gives it (None: none)
    after: Any
    text: str

    def to_json(self) -> dict:
        return {"object": self.object, "kind": self.kind, "before": self.before,
                "after": self.after, "text": self.text}


def transitions(before: Resolution, after: Resolution) -> list[Transition]:
    fields = {f.key: f for f in before.ruleset.output_fields}
    order = before.ruleset.output_order.diff
    out: list[Transition] = []
    for oid in sorted(set(before.objects) | set(after.objects)):
        b, a = before.objects.get(oid), after.objects.get(oid)
        if b is None:
            assert a is not None  # (the object is in one of them)
            out.append(Transition(oid, "appears", None, _name(a), f"{oid} appears"))
            continue
        if a is None:
            out.append(Transition(oid, "disappears", _name(b), None, f"{oid} disappears"))
            continue
        for key in order:
            if key == "zone":
                if b.zone != a.zone:
                    out.append(Transition(oid, "zone", b.zone, a.zone, f"{oid} moves {b.zone} -> {a.zone}"))
            elif key == "keywords":
                out += _keywords(oid, b, a)
            else:
                field = fields[key]
                out += _field(oid, field, b.values.get(key, field.empty), a.values.get(key, field.empty))
    return out


def _name(c: Characteristics) -> object:
    # What an appearing or disappearing object is called: its name, when its ruleset has one.
    return c.values.get("name")


def _field(oid: str, field: OutputField, b: Any, a: Any) -> list[Transition]:
    if field.kind == "flag":
        adjective = field.adjective or field.title
        if not b and a:
            return [Transition(oid, f"becomes_{field.key}", False, True, f"{oid} becomes {adjective}")]
        if b and not a:
            return [Transition(oid, f"no_longer_{field.key}", True, False, f"{oid} is no longer {adjective}")]
        return []
    if field.kind == "set":
        member = field.member or field.title
        gained = [Transition(oid, f"gains_{member}", None, t, f"{oid} gains {member} {t}")
                  for t in sorted(set(a) - set(b))]  # fmt: skip
        lost = [Transition(oid, f"loses_{member}", t, None, f"{oid} loses {member} {t}")
                for t in sorted(set(b) - set(a))]  # fmt: skip
        return gained + lost
    if b != a:
        return [Transition(oid, field.key, b, a, f"{oid} " + field.change.format(label=field.title, before=b, after=a))]
    return []


def _keywords(oid: str, b: Characteristics, a: Characteristics) -> list[Transition]:
    out: list[Transition] = []
    for k in sorted(set(a.keywords) - set(b.keywords)):
        out.append(Transition(oid, "gains_keyword", None, k, f"{oid} gains {k}"))
    for k in sorted(set(b.keywords) - set(a.keywords)):
        out.append(Transition(oid, "loses_keyword", k, None, f"{oid} loses {k}"))
    for k in sorted(set(a.keywords) & set(b.keywords)):
        if a.keywords[k] != b.keywords[k]:
            out.append(Transition(oid, "keyword_value", b.keywords[k], a.keywords[k],
                                  f"{oid} {k} {b.keywords[k]} -> {a.keywords[k]}"))
    return out
