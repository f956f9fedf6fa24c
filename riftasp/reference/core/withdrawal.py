"""The final check's choice of what to withdraw (docs/semantics.md §8, "Which failures are
withdrawn"), on the applications of one round.

- culprits of a failing part of f (at step s): the applications at a later step that could make
  that part false (write what it reads, and not only by adding), and for a condition f itself; an
  existence or target without culprits failed only through f itself and does not count; f fails
  when a part with culprits fails;
- a *enables* b: a is at an earlier step than b and writes something b reads; *reaches* is the
  transitive closure;
- f *depends on* g (both failing, g != f): g is a culprit of f or reaches one; f is
  *self-defeating* when it is its own culprit or reaches one of its culprits;
- the strongly connected components of *depends on* that depend on nothing failing outside
  themselves are withdrawn: the members with a culprit outside the component, or all members
  when none has one (a member whose culprits are all other members failed only
  because of them); a withdrawn component of two or more, or of one self-defeating application,
  is *paradoxical*.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .graph import strongly_connected_components
from .chars import Char, WriteIndex


class Applied(Protocol):
    @property
    def step(self) -> int: ...
    @property
    def name(self) -> str: ...


A = TypeVar("A", bound=Applied)  # the caller's records (procedures/recheck.py: Record)
N = TypeVar("N")  # a node of ring_through's graph


@dataclass(frozen=True)
class Failure:
    # (part, what it reads) for each failing part: "existence", "target", or "condition" (one
    # entry per failing condition)
    parts: tuple[tuple[str, tuple[Char, ...]], ...]


@dataclass
class Component:
    members: list  # the withdrawn applications
    paradoxical: bool
    culprits: dict  # member -> its culprits (applications)
    failed: dict  # member -> the parts that failed with a culprit
    ring: set[str]  # members, their culprits a member reaches, and the chains between, by name
    reaches: dict  # member -> its culprits it reaches (enables, directly or through others)
    # the component's members that failed only because of other members and wait (none for a
    # closed ring, withdrawn whole)
    waiting: list


def choose(
    applied: Sequence[A],
    failing: dict[A, Failure],
    reads_of: Callable[[A], tuple[Char, ...]],
    writes_of: Callable[[A], tuple[Char, ...]],
    undoes_of: Callable[[A], tuple[Char, ...]],
) -> list[Component]:
    """The components to withdraw. "g reaches a culprit c" is asked backwards: g is among the
    applications that enable c, directly or through others (c's *ancestors*)."""
    written: WriteIndex[A] = WriteIndex()
    undone: WriteIndex[A] = WriteIndex()
    for app in applied:
        written.add(writes_of(app), app)
        undone.add(undoes_of(app), app)

    culprits: dict = {}
    failed: dict = {}
    for f, failure in failing.items():
        found: dict = {}
        parts: list[str] = []
        for part, reads in failure.parts:
            # For a condition, f itself counts: a decrease conditioned on the number it lowers
            # switches itself off (§8).
            mine = [a for read in reads for a in undone.writers(read)
                    if a.step > f.step or (a is f and part == "condition")]
            if mine:
                parts.append(part)
                for a in mine:
                    found[id(a)] = a
        if found:  # a part without culprits failed only through f itself (§8)
            culprits[f] = list(found.values())
            failed[f] = tuple(dict.fromkeys(parts))

    ancestor_cache: dict[int, set[int]] = {}

    def ancestors(c: A) -> set[int]:
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

    nodes = list(culprits)
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

    by_id = {id(a): a for a in applied}
    components = strongly_connected_components([id(f) for f in nodes], depends)
    chosen: list[Component] = []
    for comp in components:
        inside = set(comp)
        if any(g not in inside for f in comp for g in depends[f]):
            continue  # a failure caused by another failing effect waits for it
        # The members that failed through something outside the component; the others failed
        # only because of those (class G) and wait. None: a closed ring, withdrawn whole.
        roots = [f for f in comp if any(id(c) not in inside for c in culprits[by_id[f]])]
        members = [by_id[f] for f in (roots or comp)]
        paradoxical = len(comp) >= 2 or comp[0] in self_defeating
        ring = {m.name for m in members}
        if paradoxical:
            for m in members:
                for c in culprits[m]:
                    if not ancestors(c) & inside:
                        continue
                    ring.add(c.name)
                    # ... and every application on an enabling chain from a member to c.
                    for x in ancestors(c):
                        if x in inside or ancestors(by_id[x]) & inside:
                            ring.add(by_id[x].name)
        reaches = {m: [c for c in culprits[m] if id(m) in ancestors(c)] for m in members}
        waiting = [by_id[f] for f in comp if roots and f not in roots]
        chosen.append(Component(members, paradoxical, {m: culprits[m] for m in members},
                                {m: failed[m] for m in members}, ring, reaches, waiting))
    return chosen


def ring_through(
    start: N,
    nodes: Sequence[N],
    reads_of: Callable[[N], tuple[Char, ...]],
    writes_of: Callable[[N], tuple[Char, ...]],
) -> set[N]:
    """The applications through which `start` undoes itself: every one it could affect (it writes
    what they read, directly or through others) that could affect it back — its strongly
    connected part of the board's could-affect graph (§8: a withdrawn application that would
    apply in the final state names the ring of its paradox)."""
    readers: WriteIndex[N] = WriteIndex()
    writers: WriteIndex[N] = WriteIndex()
    for n in nodes:
        readers.add(reads_of(n), n)
        writers.add(writes_of(n), n)

    def closure(step: Callable[[N], list[N]]) -> set[N]:
        seen = {start}
        todo = [start]
        while todo:
            for m in step(todo.pop()):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    forward = closure(lambda a: [b for w in writes_of(a) for b in readers.writers(w)])
    backward = closure(lambda b: [a for r in reads_of(b) for a in writers.writers(r)])
    return forward & backward
