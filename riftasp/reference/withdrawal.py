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
from .instances import Char, WriteIndex


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
    """The components to withdraw. "g reaches a culprit c" is asked backwards: g is among the
    applications that enable c, directly or through others (c's *ancestors*)."""
    written = WriteIndex()
    for app in applied:
        written.add(writes_of(app), app)

    culprits: dict = {}
    for f, failure in failing.items():
        found: dict = {}
        for read in failure.reads:
            for a in written.writers(read):
                if a.step >= f.step:
                    found[id(a)] = a
        culprits[f] = list(found.values())

    ancestor_cache: dict[int, set[int]] = {}

    def ancestors(c: Applied) -> set[int]:
        """ids of the applications that reach c through `enables`."""
        cached = ancestor_cache.get(id(c))
        if cached is not None:
            return cached
        seen: set[int] = set()
        todo = [c]
        while todo:
            b = todo.pop()
            for read in reads_of(b):
                for a in written.writers(read):
                    if a.step < b.step and id(a) not in seen:
                        seen.add(id(a))
                        todo.append(a)
        ancestor_cache[id(c)] = seen
        return seen

    nodes = list(failing)
    failing_ids = {id(f) for f in nodes}
    depends: dict[int, list[int]] = {}
    self_defeating: set[int] = set()
    for f in nodes:
        # g is a culprit of f, or reaches one.
        supporters: set[int] = set()
        for c in culprits[f]:
            supporters.add(id(c))
            supporters |= ancestors(c)
        if id(f) in supporters:
            self_defeating.add(id(f))
        depends[id(f)] = sorted((supporters & failing_ids) - {id(f)})

    by_id = {id(f): f for f in nodes}
    components = strongly_connected_components([id(f) for f in nodes], depends)
    chosen: list[Component] = []
    for comp in components:
        inside = set(comp)
        if any(g not in inside for f in comp for g in depends[f]):
            continue  # a failure caused by another failing effect waits for it
        members = [by_id[f] for f in comp]
        paradoxical = len(comp) >= 2 or comp[0] in self_defeating
        ring = {m.name for m in members}
        for m in members:
            ring |= {c.name for c in culprits[m] if ancestors(c) & inside}
        chosen.append(Component(members, paradoxical, {m: culprits[m] for m in members}, ring))
    return chosen
