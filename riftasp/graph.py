"""Strongly connected components of a directed graph (Tarjan's algorithm, iterative: a needs
chain of a 1,000-object board would overflow Python's recursion limit).

A graph utility, no rules logic: the reference engine uses it for object groups, dependency
cycles and failing applications; riftasp/step_names.py for the predicates a ground call defines
recursively; bench/rule_profile.py for rule groups.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def strongly_connected_components(
    nodes: Sequence[N], edges: Mapping[N, Iterable[N]]
) -> list[list[N]]:
    """Tarjan's algorithm. Each component lists its nodes in the order of `nodes`.

    Edges to nodes outside `nodes` are ignored, so callers can pass a partial graph.
    """
    position = {node: i for i, node in enumerate(nodes)}
    index: dict[N, int] = {}
    lowlink: dict[N, int] = {}
    on_stack: set[N] = set()
    stack: list[N] = []
    components: list[list[N]] = []
    counter = 0

    for root in nodes:
        if root in index:
            continue
        # Each frame: (node, iterator over its successors).
        work: list[tuple[N, list[N], int]] = []
        index[root] = lowlink[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        succ = [m for m in edges.get(root, ()) if m in position]
        work.append((root, succ, 0))
        while work:
            node, succ, i = work[-1]
            if i < len(succ):
                work[-1] = (node, succ, i + 1)
                nxt = succ[i]
                if nxt not in index:
                    index[nxt] = lowlink[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, [m for m in edges.get(nxt, ()) if m in position], 0))
                elif nxt in on_stack:
                    lowlink[node] = min(lowlink[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                lowlink[parent] = min(lowlink[parent], lowlink[node])
            if lowlink[node] == index[node]:
                component: list[N] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                component.sort(key=position.__getitem__)
                components.append(component)
    return components
