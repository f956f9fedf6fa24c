"""Pictures of a calculation (`riftasp graph`, issue 40): the graph of a resolution (model.py),
a layered layout for it (layout.py), and its texts: SVG (svg.py), Graphviz DOT (dot.py) and the
model as JSON (`Graph.to_json()`).

Pure Python, no rules logic: everything comes from a Resolution's JSON (its output contract),
and from the board only what the resolution does not say (each effect's operation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import SHOWS, Graph, build_graph

if TYPE_CHECKING:
    from ..model import Board

FORMATS = ("svg", "dot", "json")

__all__ = ["FORMATS", "SHOWS", "Graph", "build_graph", "render"]


def render(resolution: dict[str, Any], board: Board | None, show: str = "all", fmt: str = "svg") -> str:
    """The picture of a resolution (its `to_json()`) as text of `fmt`, ending in a newline."""
    import json

    graph = build_graph(resolution, board, show)
    if fmt == "json":
        return json.dumps(graph.to_json(), indent=2) + "\n"
    if fmt == "dot":
        from .dot import graph_dot

        return graph_dot(graph)
    if fmt == "svg":
        from .svg import graph_svg

        return graph_svg(graph)
    raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
