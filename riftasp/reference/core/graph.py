"""Strongly connected components and a deterministic order of them.

Used by the reference engine for object groups (the *needs* graph, semantics.md §5), for
dependency cycles over the universe of one step (§6) and for the components of failing
applications (§8). Iterative, because a needs chain on a 1,000-object board would overflow
Python's recursion limit.
"""

from __future__ import annotations

import heapq
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


def dependency_order(
    components: list[list[N]], needs: Mapping[N, Iterable[N]], rank: Mapping[N, int]
) -> list[list[N]]:
    """Order components so each comes after every component it needs.

    Among components that could start, the one holding the earliest node by `rank` goes first:
    the spec does not order independent groups, and a fixed rule keeps step numbers reproducible.
    """
    comp_of: dict[N, int] = {}
    for ci, comp in enumerate(components):
        for node in comp:
            comp_of[node] = ci
    waiting_on = [0] * len(components)
    needed_by: list[set[int]] = [set() for _ in components]
    for ci, comp in enumerate(components):
        outside: set[int] = set()
        for node in comp:
            for other in needs.get(node, ()):
                cj = comp_of.get(other)
                if cj is not None and cj != ci:
                    outside.add(cj)
        waiting_on[ci] = len(outside)
        for cj in outside:
            needed_by[cj].add(ci)
    first = [min(rank[node] for node in comp) for comp in components]
    ready = [(first[ci], ci) for ci in range(len(components)) if waiting_on[ci] == 0]
    heapq.heapify(ready)
    order: list[list[N]] = []
    while ready:
        _, ci = heapq.heappop(ready)
        order.append(components[ci])
        for cj in needed_by[ci]:
            waiting_on[cj] -= 1
            if waiting_on[cj] == 0:
                heapq.heappush(ready, (first[cj], cj))
    assert len(order) == len(components), "the component graph is acyclic by construction"
    return order
