"""The final check's choice of what to withdraw (docs/semantics.md §8, "Which failures are
withdrawn"), on the applications of one round.

- culprits of a failing application f (at step s): applications at step s or later (f included)
  that write a characteristic a failing part of f reads;
- a *enables* b: a is at an earlier step than b and writes something b reads; *reaches* is the
  transitive closure;
- f *depends on* g (both failing, g != f): g is a culprit of f or reaches one; f is
  *self-defeating* when it is its own culprit or reaches one of its culprits;
- the strongly connected components of *depends on* that depend on nothing failing outside
  themselves are withdrawn, all members at once; a withdrawn component of two or more, or of one
  self-defeating application, is *paradoxical*.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .graph import strongly_connected_components
from .instances import EVERY, Char, WriteIndex


class Applied(Protocol):
    step: int
    name: str


@dataclass(frozen=True)
class Failure:
    parts: tuple[str, ...]  # among "existence", "target", "condition"
    reads: tuple[Char, ...]  # what the failing parts read


@dataclass
class Component:
    members: list  # the withdrawn applications
    paradoxical: bool
    culprits: dict  # member -> its culprits (applications)
    ring: set[str]  # members and their culprits that a member reaches, by name


def choose(
    applied: Sequence[Applied],
    failing: dict,  # application -> Failure
    reads_of: Callable[[Applied], tuple[Char, ...]],
    writes_of: Callable[[Applied], tuple[Char, ...]],
) -> list[Component]:
    written = WriteIndex()
    readers: dict[tuple[str, str], list[tuple[str | None, Applied]]] = {}
    for app in applied:
        written.add(writes_of(app), app)
        for obj, what, param in reads_of(app):
            readers.setdefault((obj, what), []).append((param, app))

    culprits: dict = {}
    for f, failure in failing.items():
        found: dict = {}
        for read in failure.reads:
            for a in written.writers(read):
                if a.step >= f.step:
                    found[id(a)] = a
        culprits[f] = list(found.values())

    reach_cache: dict[int, set[int]] = {}

    def reach(g: Applied) -> set[int]:
        """ids of the applications g reaches through `enables`."""
        cached = reach_cache.get(id(g))
        if cached is not None:
            return cached
        seen: set[int] = set()
        todo = [g]
        while todo:
            a = todo.pop()
            for obj, what, param in writes_of(a):
                for p, b in readers.get((obj, what), ()):
                    if b.step > a.step and id(b) not in seen:
                        if param == EVERY or p == EVERY or p == param:
                            seen.add(id(b))
                            todo.append(b)
        reach_cache[id(g)] = seen
        return seen

    nodes = list(failing)
    culprit_ids = {id(f): {id(c) for c in culprits[f]} for f in nodes}
    depends: dict[int, list[int]] = {id(f): [] for f in nodes}
    self_defeating: set[int] = set()
    for f in nodes:
        cs = culprit_ids[id(f)]
        if id(f) in cs or reach(f) & cs:
            self_defeating.add(id(f))
        for g in nodes:
            if g is not f and (id(g) in cs or reach(g) & cs):
                depends[id(f)].append(id(g))

    by_id = {id(f): f for f in nodes}
    components = strongly_connected_components([id(f) for f in nodes], depends)
    chosen: list[Component] = []
    for comp in components:
        inside = set(comp)
        if any(g not in inside for f in comp for g in depends[f]):
            continue  # a failure caused by another failing effect waits for it
        members = [by_id[f] for f in comp]
        paradoxical = len(comp) >= 2 or comp[0] in self_defeating
        reached: set[int] = set()
        for m in members:
            reached |= reach(m)
        ring = {m.name for m in members}
        for m in members:
            ring |= {c.name for c in culprits[m] if id(c) in reached}
        chosen.append(Component(members, paradoxical, {m: culprits[m] for m in members}, ring))
    return chosen
