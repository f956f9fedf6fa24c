"""A small layered layout (Sugiyama's scheme, simply): left to right, each node in a column.

1. Cycles are broken by reversing the back edges a depth-first search meets (in node order);
   those are drawn as back edges.
2. Columns by longest path: a node one column right of the furthest node before it.
3. Order within a column by the barycentre of the neighbours in the columns already placed, a
   few sweeps right and left (ties keep the previous order).
4. Coordinates: columns `column_gap` apart, each column centred vertically.

Deterministic: the same nodes and edges in the same order give the same layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SWEEPS = 4


@dataclass(frozen=True)
class Layout:
    position: dict[str, tuple[float, float]]  # node -> its box's top left corner
    column: dict[str, int]
    back_edges: frozenset[tuple[str, str]]  # edges drawn against the flow (they close a cycle)
    width: float
    height: float


def back_edges(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
    """The edges that close a cycle in a depth-first search taken in node order (iterative)."""
    successors: dict[str, list[str]] = {n: [] for n in nodes}
    for s, t in edges:
        if s in successors and t in successors and s != t and t not in successors[s]:
            successors[s].append(t)
    state: dict[str, int] = {}  # 1 on the path, 2 done
    back: set[tuple[str, str]] = set()
    for root in nodes:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(successors[root]))]
        while stack:
            node, rest = stack[-1]
            nxt = next(rest, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                back.add((node, nxt))
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(successors[nxt])))
    return back


def layered(nodes: Sequence[str], edges: Sequence[tuple[str, str]], box_width: float, box_height: float,
            column_gap: float = 70.0, row_gap: float = 18.0, margin: float = 20.0) -> Layout:
    back = back_edges(nodes, edges)
    rank = {n: i for i, n in enumerate(nodes)}
    flow = sorted({(t, s) if (s, t) in back else (s, t) for s, t in edges if s != t and s in rank and t in rank},
                  key=lambda e: (rank[e[0]], rank[e[1]]))
    column = _columns(nodes, flow)
    columns: list[list[str]] = [[] for _ in range(max(column.values(), default=-1) + 1)]
    for n in nodes:
        columns[column[n]].append(n)
    _order(columns, flow)
    tallest = max((len(c) for c in columns), default=0)
    height = 2 * margin + max(tallest * box_height + (tallest - 1) * row_gap, box_height)
    position = {}
    for i, col in enumerate(columns):
        used = len(col) * box_height + (len(col) - 1) * row_gap
        top = margin + (height - 2 * margin - used) / 2
        for j, n in enumerate(col):
            position[n] = (margin + i * (box_width + column_gap), top + j * (box_height + row_gap))
    width = 2 * margin + max(len(columns) * box_width + (len(columns) - 1) * column_gap, box_width)
    return Layout(position, column, frozenset(back), width, height)


def _columns(nodes: Sequence[str], flow: Sequence[tuple[str, str]]) -> dict[str, int]:
    """Longest path from the sources (Kahn's order, ties in node order)."""
    incoming = {n: 0 for n in nodes}
    successors: dict[str, list[str]] = {n: [] for n in nodes}
    for s, t in flow:
        successors[s].append(t)
        incoming[t] += 1
    column = {n: 0 for n in nodes}
    ready = [n for n in nodes if incoming[n] == 0]
    done = 0
    while ready:
        n = ready.pop(0)
        done += 1
        for t in successors[n]:
            column[t] = max(column[t], column[n] + 1)
            incoming[t] -= 1
            if incoming[t] == 0:
                ready.append(t)
    assert done == len(nodes), "the flow has a cycle"  # back_edges broke them all
    return column


def _order(columns: list[list[str]], flow: Sequence[tuple[str, str]]) -> None:
    """Barycentre sweeps, in place: right (by the neighbours to the left), then left, SWEEPS times."""
    before: dict[str, list[str]] = {}
    after: dict[str, list[str]] = {}
    for s, t in flow:
        after.setdefault(s, []).append(t)
        before.setdefault(t, []).append(s)

    def place() -> dict[str, float]:
        return {n: j / max(len(col), 1) for col in columns for j, n in enumerate(col)}

    for sweep in range(SWEEPS):
        rightward = sweep % 2 == 0
        indices = range(1, len(columns)) if rightward else range(len(columns) - 2, -1, -1)
        for i in indices:
            at = place()
            neighbours = before if rightward else after
            current = columns[i]

            def key(item: tuple[int, str]) -> tuple[float, int]:
                j, n = item
                known = [at[m] for m in neighbours.get(n, [])]
                return (sum(known) / len(known) if known else j / max(len(current), 1), j)

            columns[i] = [n for _, n in sorted(enumerate(current), key=key)]
