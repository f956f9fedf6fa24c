"""The graph of one resolution: objects and effects as nodes, and the edges a judge wants to
see, every one running from what comes first to what comes after.

- `needs`: object -> the object that reads it (`needs` in the resolution: the reader is
  calculated after the object it reads);
- `dependency`: effect -> the effect whose application depends on it (`depends_on`);
- `applies`: effect -> an object one of its applications changed (or applied to).

Groups are the resolution's object loops (`loop`, objects), dependency cycles (`cycle`,
effects) and paradoxes (`paradox`, effects); their members carry the group's kind as a class.
The steps are the timeline: layer by layer, each layer's applications in step order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model import Board

# What `riftasp graph --show` draws: "all" is needs and dependencies together.
SHOWS = ("all", "needs", "dependencies", "loops", "steps")
SUMMARY_SKIPPED = ("name", "abilities", "zone", "controller")  # the box says the rest


@dataclass(frozen=True)
class Node:
    kind: str  # "object" | "effect"
    id: str
    label: str  # an object's name, an effect's operation
    summary: str  # an object's final values; an effect's characteristic(s)
    classes: tuple[str, ...] = ()  # among "loop", "cycle", "paradox", "withdrawn"

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"

    def to_json(self) -> dict[str, Any]:
        name = "name" if self.kind == "object" else "operation"
        return {"kind": self.kind, "id": self.id, name: self.label, "summary": self.summary,
                "classes": list(self.classes)}


@dataclass(frozen=True)
class Edge:
    kind: str  # "needs" | "dependency" | "applies"
    source: str  # node keys ("object:ID", "effect:ID")
    target: str
    classes: tuple[str, ...] = ()  # the group both ends belong to

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "from": _id(self.source), "to": _id(self.target),
                "classes": list(self.classes)}


@dataclass(frozen=True)
class Group:
    kind: str  # "loop" | "cycle" | "paradox"
    members: tuple[str, ...]  # ids (objects for a loop, effects otherwise)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "members": list(self.members)}


@dataclass(frozen=True)
class Step:
    step: int
    layer: str
    sublayer: str | None
    effect: str
    object: str
    characteristic: str
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "layer": self.layer, "sublayer": self.sublayer, "effect": self.effect,
                "object": self.object, "characteristic": self.characteristic,
                "before": self.before, "after": self.after}


@dataclass(frozen=True)
class Graph:
    ruleset: str
    engine: str
    board: str  # the board file's name
    show: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    groups: tuple[Group, ...]
    steps: tuple[tuple[str, tuple[Step, ...]], ...] = field(default=())  # (layer, its applications)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "engine": self.engine,
            "board": self.board,
            "show": self.show,
            "nodes": [n.to_json() for n in self.nodes],
            "edges": [e.to_json() for e in self.edges],
            "groups": [g.to_json() for g in self.groups],
            "steps": [{"layer": layer, "applications": [s.to_json() for s in run]} for layer, run in self.steps],
        }


def _id(key: str) -> str:
    return key.partition(":")[2]


def build_graph(resolution: Mapping[str, Any], board: Board | None = None, show: str = "all") -> Graph:
    """The graph of a resolution's JSON (`Resolution.to_json()`; fields beyond the contract are
    ignored); `board` names each effect's operation. `show` (SHOWS) picks what it holds."""
    if show not in SHOWS:
        raise ValueError(f"unknown view {show!r}: choose one of {', '.join(SHOWS)}")
    objects: Mapping[str, Mapping[str, Any]] = resolution.get("objects") or {}
    applied: Mapping[str, list[Mapping[str, Any]]] = resolution.get("applied") or {}
    groups = tuple(
        [Group("loop", tuple(sorted(m))) for m in resolution.get("object_loops") or []]
        + [Group("cycle", tuple(sorted(m))) for m in resolution.get("dependency_cycles") or []]
        + [Group("paradox", tuple(sorted(m))) for m in resolution.get("paradoxes") or []]
    )
    object_classes = _classes(g for g in groups if g.kind == "loop")
    effect_classes = _classes(g for g in groups if g.kind != "loop")
    withdrawn = {e for ids in (resolution.get("withdrawn") or {}).values() for e in ids}
    withdrawn |= {w["effect"] for w in resolution.get("withdrawals") or [] if "effect" in w}

    # Effects: every one the resolution names, in order of first appearance.
    effects: dict[str, set[str]] = {}  # id -> the characteristics it changed
    for oid in sorted(applied):
        for app in applied[oid]:
            effects.setdefault(app["effect"], set()).add(str(app.get("characteristic", "")))
            for dep in app.get("depends_on") or []:
                effects.setdefault(dep, set())
    for g in groups:
        if g.kind != "loop":
            for e in g.members:
                effects.setdefault(e, set())
    for e in sorted(withdrawn):
        effects.setdefault(e, set())
    operations = _operations(board)

    nodes = [Node("object", oid, str(values.get("name") or oid), summary(values),
                  tuple(sorted(object_classes.get(oid, ()))))
             for oid, values in sorted(objects.items())]
    nodes += [Node("effect", eid, _operation(eid, operations), ", ".join(sorted(c for c in chars if c)),
                   tuple(sorted(effect_classes.get(eid, set()) | ({"withdrawn"} if eid in withdrawn else set()))))
              for eid, chars in sorted(effects.items())]

    edges: dict[tuple[str, str, str], None] = {}
    for reader, read in sorted((resolution.get("needs") or {}).items()):
        for oid in sorted(read):
            edges[("needs", f"object:{oid}", f"object:{reader}")] = None
    for oid in sorted(applied):
        for app in applied[oid]:
            edges[("applies", f"effect:{app['effect']}", f"object:{oid}")] = None
            for dep in app.get("depends_on") or []:
                edges[("dependency", f"effect:{dep}", f"effect:{app['effect']}")] = None
    classes = {n.key: set(n.classes) - {"withdrawn"} for n in nodes}
    edge_list = [Edge(kind, s, t, tuple(sorted(classes.get(s, set()) & classes.get(t, set()))))
                 for kind, s, t in sorted(edges)]

    nodes, edge_list = _view(show, nodes, edge_list)
    steps = _timeline(applied, _layer_order(board))
    source = Path(board.source).name if board is not None else str(resolution.get("board", ""))
    return Graph(str(resolution.get("ruleset", "")), str(resolution.get("engine", "")), source, show,
                 tuple(nodes), tuple(edge_list), groups, steps)


def _classes(groups: Iterable[Group]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for g in groups:
        for m in g.members:
            found.setdefault(m, set()).add(g.kind)
    return found


def _view(show: str, nodes: list[Node], edges: list[Edge]) -> tuple[list[Node], list[Edge]]:
    if show == "needs":
        return [n for n in nodes if n.kind == "object"], [e for e in edges if e.kind == "needs"]
    if show == "dependencies":
        return nodes, [e for e in edges if e.kind != "needs"]
    if show == "loops":  # the members of the groups and the edges among them
        kept = [n for n in nodes if set(n.classes) - {"withdrawn"}]
        keys = {n.key for n in kept}
        return kept, [e for e in edges if e.source in keys and e.target in keys]
    return nodes, edges  # "all", and "steps" (whose picture is the timeline)


def summary(values: Mapping[str, Any]) -> str:
    """An object's final values in a few words: `might 7, mighty, keywords Shield/Deflect 2`."""
    parts = []
    for key, value in values.items():
        if key in SUMMARY_SKIPPED or value is None or value is False or value in ((), [], {}, ""):
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, Mapping):
            parts.append(f"{key} " + "/".join(k if v in (None, 1) else f"{k} {v}" for k, v in value.items()))
        elif isinstance(value, (list, tuple)):
            parts.append(f"{key} " + "/".join(map(str, value)))
        else:
            parts.append(f"{key} {value}")
    return ", ".join(parts)


def _operations(board: Board | None) -> dict[str, str]:
    """Effect id -> its operation in words (`plus amount=1`), from the board's text and effects."""
    if board is None:
        return {}
    found: dict[str, str] = {}
    definitions = list(getattr(board, "effects", ()))
    for obj in getattr(board, "objects", ()):
        definitions += list(getattr(obj, "rules_text", ()) or ()) + list(getattr(obj, "effect_text", ()) or ())
    for effect in definitions:
        op = getattr(effect, "op", None)
        if op is None:
            continue
        params = " ".join(f"{k}={_short(v)}" for k, v in getattr(op, "params", ()))
        found.setdefault(effect.id, f"{op.name} {params}".strip())
    return found


def _short(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "/".join(map(_short, value))
    return str(value)


def _operation(eid: str, operations: Mapping[str, str]) -> str:
    """An effect's operation; a derived effect's (`EFFECT@OBJECT`, `keyword:K:OBJ:EFFECT`, `buff:OBJ`)
    from the effect it comes from, or its kind."""
    if eid in operations:
        return operations[eid]
    base = eid.partition("@")[0]
    if base in operations:
        return operations[base]
    head, sep, _ = eid.partition(":")
    return head if sep else ""


def _layer_order(board: Board | None) -> list[str]:
    ruleset = getattr(board, "ruleset", None)
    stages = getattr(ruleset, "layers", ()) if ruleset is not None else ()
    return list(dict.fromkeys(stage.layer for stage in stages))


def _timeline(applied: Mapping[str, list[Mapping[str, Any]]],
              layers: list[str]) -> tuple[tuple[str, tuple[Step, ...]], ...]:
    """The applications layer by layer (the ruleset's order; a layer it does not name after, in
    order of appearance), each layer's in step order (an object's steps count its applications)."""
    by_layer: dict[str, list[Step]] = {layer: [] for layer in layers}
    for oid in sorted(applied):
        for a in applied[oid]:
            s = Step(int(a.get("step", 0)), str(a.get("layer", "")), a.get("sublayer"), str(a["effect"]), oid,
                     str(a.get("characteristic", "")), a.get("before"), a.get("after"))
            by_layer.setdefault(s.layer, []).append(s)
    return tuple((layer, tuple(sorted(run, key=lambda s: (s.step, s.object, s.effect))))
                 for layer, run in by_layer.items() if run)
