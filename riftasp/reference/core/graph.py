"""Strongly connected components (riftasp/graph.py) and a deterministic order of them.

Used by the reference engine for object groups (the *needs* graph, semantics.md §5), for
dependency cycles over the universe of one step (§6) and for the components of failing
applications (§8). Iterative, because a needs chain on a 1,000-object board would overflow
Python's recursion limit.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

from ...graph import strongly_connected_components

N = TypeVar("N", bound=Hashable)

__all__ = ["dependency_order", "strongly_connected_components"]


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
