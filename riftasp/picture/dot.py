"""A graph (model.py) as Graphviz DOT text: `dot -Tsvg` draws it. Node names are the model's
keys (`"object:ID"`, `"effect:ID"`), one line each; every string is quoted and escaped."""

from __future__ import annotations

from .model import Graph
from .svg import COLOURS, step_text

FILLS = {"loop": "#fff7ed", "cycle": "#f5f3ff", "paradox": "#fef2f2"}


def quote(text: str) -> str:
    """A DOT string: backslashes and quotes escaped, line breaks as DOT's own."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text.replace("\r", "").replace("\n", "\\n") + '"'


def _label(*lines: str) -> str:
    # Each line escaped as a whole, then joined by DOT's \n (not escaped again).
    return '"' + "\\n".join(quote(line)[1:-1] for line in lines if line) + '"'


def graph_dot(graph: Graph) -> str:
    out = [f"// riftasp graph of {quote(graph.board)[1:-1]} ({graph.ruleset}, {graph.engine} engine, {graph.show})",
           "digraph riftasp {",
           "  rankdir=LR;",
           '  node [shape=box, fontname="sans-serif", fontsize=11];',
           '  edge [fontname="sans-serif", fontsize=9];']
    if graph.show == "steps":
        out.extend(_steps(graph))
        out.append("}")
        return "\n".join(out) + "\n"
    for n in graph.nodes:
        group = next((c for c in n.classes if c in FILLS), None)
        attrs = [f"label={_label(n.id, n.label, n.summary)}", f"class={quote(' '.join([n.kind, *n.classes]))}"]
        if n.kind == "effect":
            attrs.append('style="rounded,filled"' + ("" if group else ', fillcolor="#f3f4f6"'))
        if group:
            attrs += [f'color="{COLOURS[group]}"', f'fillcolor="{FILLS[group]}"', "penwidth=2.5"]
            if n.kind == "object":
                attrs.append("style=filled")
        if "withdrawn" in n.classes:
            attrs.append('peripheries=2')
        out.append(f"  {quote(n.key)} [{', '.join(attrs)}];")
    for e in graph.edges:
        colour = COLOURS[e.classes[0] if e.classes else e.kind]
        attrs = [f"class={quote(' '.join([e.kind, *e.classes]))}", f'color="{colour}"']
        if e.kind == "dependency":
            attrs.append("style=dashed")
        out.append(f"  {quote(e.source)} -> {quote(e.target)} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _steps(graph: Graph) -> list[str]:
    """One cluster per layer, its applications chained in step order."""
    out = []
    previous = None
    for i, (layer, run) in enumerate(graph.steps):
        out.append(f"  subgraph cluster_{i} {{")
        out.append(f"    label={quote(layer + ' layer')};")
        for s in run:
            name = quote(f"step:{s.step}:{s.object}:{s.effect}")
            out.append(f"    {name} [label={quote(step_text(s))}];")
        out.append("  }")
        for s in run:
            name = quote(f"step:{s.step}:{s.object}:{s.effect}")
            if previous is not None:
                out.append(f"  {previous} -> {name};")
            previous = name
    return out
