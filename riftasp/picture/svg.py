"""A graph (model.py) as SVG text: self-contained (no fonts, scripts, links or network), every
id and name escaped for XML. Each node is a `<g>` with `id="node-ID"` (objects) or
`id="effect-ID"` (effects), `data-id` holding the id, and classes: its kind (`object`,
`effect`) and the groups it belongs to (`loop`, `cycle`, `paradox`; `withdrawn`)."""

from __future__ import annotations

import json
import re
from typing import Any

from .layout import layered
from .model import Graph, Node, Step

CHAR = 7.0  # an average character's width at 12px, sans-serif (no font metrics here)
LINE = 15
BOX_HEIGHT = 3 * LINE + 12
MIN_WIDTH, MAX_WIDTH = 140, 260
LEGEND_HEIGHT = 54
LEGEND_WIDTH = 880  # its line of text and its six items

STYLE = """
text{font-family:sans-serif;font-size:12px;fill:#111827}
text.id{font-weight:bold}
text.small{font-size:11px;fill:#4b5563}
.node rect{fill:#ffffff;stroke:#374151;stroke-width:1.2}
.effect rect{fill:#f3f4f6;stroke:#6b7280}
.loop rect{fill:#fff7ed;stroke:#ea580c;stroke-width:2.5}
.cycle rect{fill:#f5f3ff;stroke:#7c3aed;stroke-width:2.5}
.paradox rect{fill:#fef2f2;stroke:#dc2626;stroke-width:2.5}
.withdrawn rect{stroke-dasharray:5 3}
.edge{fill:none;stroke-width:1.4}
.edge.needs{stroke:#2563eb}
.edge.dependency{stroke:#7c3aed;stroke-dasharray:6 3}
.edge.applies{stroke:#9ca3af}
.edge.back{stroke-dasharray:2 3}
.edge.loop{stroke:#ea580c;stroke-width:2.2}
.edge.cycle{stroke:#7c3aed;stroke-width:2.2}
.edge.paradox{stroke:#dc2626;stroke-width:2.2}
.run rect.head{fill:#e5e7eb;stroke:#374151}
.step rect{fill:#ffffff;stroke:#d1d5db}
"""
COLOURS = {"needs": "#2563eb", "dependency": "#7c3aed", "applies": "#9ca3af",
           "loop": "#ea580c", "cycle": "#7c3aed", "paradox": "#dc2626"}
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def esc(text: Any) -> str:
    """Text safe inside an XML attribute or element (characters XML cannot hold become U+FFFD)."""
    text = _NOT_XML.sub("\ufffd", str(text))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def fit(text: str, width: float) -> str:
    most = max(int((width - 14) / CHAR), 4)
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def graph_svg(graph: Graph) -> str:
    if graph.show == "steps":
        return steps_svg(graph)
    nodes = list(graph.nodes)
    longest = max((len(t) for n in nodes for t in (n.id, n.label)), default=10)
    width = min(max(longest * CHAR + 16, MIN_WIDTH), MAX_WIDTH)
    keys = [n.key for n in nodes]
    layout = layered(keys, [(e.source, e.target) for e in graph.edges], width, BOX_HEIGHT)
    out = _head(graph, max(layout.width, LEGEND_WIDTH), layout.height + LEGEND_HEIGHT)
    if not nodes:
        out.append(f'<text x="20" y="40">{esc(_empty(graph))}</text>')
    out.append('<g class="edges">')
    for e in graph.edges:
        back = (e.source, e.target) in layout.back_edges
        classes = " ".join(["edge", e.kind, *e.classes, *(["back"] if back else [])])
        marker = e.classes[0] if e.classes else e.kind
        d = _path(layout.position[e.source], layout.position[e.target], width, back)
        out.append(f'<path class="{esc(classes)}" d="{d}" marker-end="url(#arrow-{marker})">'
                   f'<title>{esc(f"{e.kind}: {_id(e.source)} -> {_id(e.target)}")}</title></path>')
    out.append("</g>")
    out.append('<g class="nodes">')
    for n in nodes:
        x, y = layout.position[n.key]
        out.extend(_node(n, x, y, width))
    out.append("</g>")
    out.extend(_legend(layout.height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _empty(graph: Graph) -> str:
    return "no loops, cycles or paradoxes" if graph.show == "loops" else "nothing to draw"


def _id(key: str) -> str:
    return key.partition(":")[2]


def _head(graph: Graph, width: float, height: float) -> list[str]:
    title = f"riftasp graph of {graph.board or 'a board'} ({graph.ruleset}, {graph.engine} engine, {graph.show})"
    markers = "".join(
        f'<marker id="arrow-{kind}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        for kind, colour in COLOURS.items())
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f"<title>{esc(title)}</title>",
        f"<defs>{markers}<style>{STYLE}</style></defs>",
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>',
    ]


def _path(source: tuple[float, float], target: tuple[float, float], width: float, back: bool) -> str:
    (sx, sy), (tx, ty) = source, target
    if source == target:  # an object that reads itself
        x, y = sx + width - 20, sy
        return f"M{x:g},{y:g} C{x:g},{y - 30:g} {x + 30:g},{y - 30:g} {x + 20:g},{y:g}"
    if back:  # against the flow: under the boxes, from the source's bottom to the target's
        x1, y1, x2, y2 = sx + width / 2, sy + BOX_HEIGHT, tx + width / 2, ty + BOX_HEIGHT
        dip = max(y1, y2) + 36
        return f"M{x1:g},{y1:g} C{x1:g},{dip:g} {x2:g},{dip:g} {x2:g},{y2:g}"
    x1, y1, x2, y2 = sx + width, sy + BOX_HEIGHT / 2, tx, ty + BOX_HEIGHT / 2
    bend = max((x2 - x1) / 2, 20)
    return f"M{x1:g},{y1:g} C{x1 + bend:g},{y1:g} {x2 - bend:g},{y2:g} {x2:g},{y2:g}"


def _node(n: Node, x: float, y: float, width: float) -> list[str]:
    prefix = "node" if n.kind == "object" else "effect"
    classes = " ".join(["node", n.kind, *n.classes])
    rx = 3 if n.kind == "object" else 12
    tip = "\n".join(t for t in (n.id, n.label, n.summary, ", ".join(n.classes)) if t)
    lines = [(n.id, "id"), (n.label, ""), (n.summary, "small")]
    out = [f'<g id="{prefix}-{esc(n.id)}" class="{esc(classes)}" data-id="{esc(n.id)}">',
           f"<title>{esc(tip)}</title>",
           f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{BOX_HEIGHT:g}" rx="{rx}"/>']
    for i, (text, cls) in enumerate(lines):
        if text:
            attr = f' class="{cls}"' if cls else ""
            out.append(f'<text x="{x + 7:g}" y="{y + 17 + i * LINE:g}"{attr}>{esc(fit(text, width))}</text>')
    out.append("</g>")
    return out


def _legend(top: float) -> list[str]:
    items = [("line", "needs", "reads (needs)"), ("line", "dependency", "depends on"),
             ("line", "applies", "applies to"), ("box", "loop", "object loop"),
             ("box", "cycle", "dependency cycle"), ("box", "paradox", "paradox")]
    out = [f'<g class="legend" transform="translate(20,{top + 8:g})">',
           '<text x="0" y="12" class="small">dotted: a back edge, drawn against the flow to close a cycle; '
           'dashed box: a withdrawn effect. Left to right: what is calculated first.</text>']
    x = 0.0
    for shape, kind, text in items:
        if shape == "line":
            out.append(f'<path class="edge {kind}" d="M{x:g},32 L{x + 34:g},32" marker-end="url(#arrow-{kind})"/>')
        else:
            out.append(f'<g class="node {kind}"><rect x="{x:g}" y="24" width="34" height="16" rx="3"/></g>')
        out.append(f'<text x="{x + 40:g}" y="36">{esc(text)}</text>')
        x += 40 + len(text) * CHAR + 18
    out.append("</g>")
    return out


def _value(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False) if not isinstance(value, str) else value


def step_text(s: Step) -> str:
    layer = f"{s.layer}/{s.sublayer}" if s.sublayer else s.layer
    return f"{s.step}. {s.effect} \u2192 {s.object} ({layer}): {s.characteristic} {_value(s.before)} \u2192 {_value(s.after)}"


def steps_svg(graph: Graph) -> str:
    """The timeline: a column per layer, its applications in step order below it."""
    runs = list(graph.steps)
    longest = max((len(step_text(s)) for _, run in runs for s in run), default=20)
    width = min(max(longest * CHAR * 0.9 + 16, 180), 420)
    gap, margin, row = 24, 20, 24
    total_w = 2 * margin + max(len(runs) * (width + gap) - gap, 300)
    tallest = max((len(run) for _, run in runs), default=0)
    total_h = 2 * margin + 30 + tallest * row + 10
    out = _head(graph, total_w, total_h)
    if not runs:
        out.append(f'<text x="{margin}" y="{margin + 16}">no applications</text>')
    for i, (layer, run) in enumerate(runs):
        x = margin + i * (width + gap)
        out.append(f'<g class="run" data-layer="{esc(layer)}">')
        out.append(f'<rect class="head" x="{x:g}" y="{margin}" width="{width:g}" height="24" rx="3"/>')
        out.append(f'<text x="{x + 7:g}" y="{margin + 16}" class="id">{esc(fit(layer + " layer", width))}</text>')
        for j, s in enumerate(run):
            y = margin + 30 + j * row
            out.append(f'<g class="step" data-step="{s.step}" data-effect="{esc(s.effect)}" data-object="{esc(s.object)}">'
                       f"<title>{esc(step_text(s))}</title>"
                       f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{row - 4}" rx="2"/>'
                       f'<text x="{x + 6:g}" y="{y + 14:g}" class="small">{esc(fit(step_text(s), width / 0.9))}</text></g>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
