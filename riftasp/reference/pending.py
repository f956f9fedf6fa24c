"""Which instances are pending on each object of a group, and whether their conditions hold.

Section 6 asks these questions again at every step. Asking them from scratch costs every source of
every object per step, quadratic for an object with many auras. This tracker keeps each source's
last answer and asks again only when something it reads changed (the `watch` pairs computed by the
analysis). The answers are exactly those of asking from scratch: the engine's check mode
(RIFTASP_REFERENCE_CHECK=1) compares them at every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..model import GameObject
from .analysis import Source, Watch
from .instances import Instance, Lookup, conditions_hold, targets
from .state import ObjState


@dataclass(eq=False)
class _Entry:
    target: str
    source: Source
    watch: Watch
    inst: Instance | None = None  # set while the source exists and targets the object
    holds: bool = False  # its conditions hold


class PendingTracker:
    def __init__(
        self,
        group: list[str],
        sources: dict[str, list[Source]],
        watches: dict[str, list[Watch]],
        objects: dict[str, GameObject],
        instance_of: Callable[[Source, str], Instance | None],
        lookup: Lookup,
    ) -> None:
        self._objects = objects
        self._lists: dict[str, tuple[list[Instance], list[Instance], Counter]] = {}
        self._dirty: set[str] = set(group)
        self._instance_of = instance_of
        self._lookup = lookup
        members = set(group)
        self.entries: dict[str, list[_Entry]] = {}
        # Only group members change while the group runs; other objects are final or printed.
        self._watchers: dict[tuple[str, str], list[_Entry]] = {}
        for oid in group:
            entries = [
                _Entry(oid, src, w) for src, w in zip(sources[oid], watches[oid], strict=True)
            ]
            self.entries[oid] = entries
            for entry in entries:
                for pair in entry.watch:
                    if pair[0] in members:
                        self._watchers.setdefault(pair, []).append(entry)
                self._evaluate(entry)

    def _evaluate(self, entry: _Entry) -> None:
        inst = self._instance_of(entry.source, entry.target)
        if inst is not None and targets(inst, self._objects[entry.target], self._lookup):
            entry.inst = inst
            entry.holds = conditions_hold(inst, entry.target, self._lookup)
        else:
            entry.inst = None
            entry.holds = False

    def lists(
        self, oid: str, applied: set[str], withdrawn: frozenset[tuple[str, str]]
    ) -> tuple[list[Instance], list[Instance], Counter]:
        """Pending instances, the eligible ones among them, and how many pending ones write each
        characteristic. Rebuilt only after the object applied something or a source of it was
        re-asked."""
        if oid in self._dirty:
            pending, eligible = [], []
            for entry in self.entries[oid]:
                inst = entry.inst
                if inst is None or inst.id in applied or (oid, inst.id) in withdrawn:
                    continue
                pending.append(inst)
                if entry.holds:
                    eligible.append(inst)
            writers = Counter(w for inst in pending for w in inst.writes)
            self._lists[oid] = (pending, eligible, writers)
            self._dirty.discard(oid)
        return self._lists[oid]

    def applied(self, oid: str) -> None:
        self._dirty.add(oid)

    def changed(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Re-ask every source that reads one of the changed (object, characteristic) pairs."""
        dirty: dict[int, _Entry] = {}
        for pair in pairs:
            for entry in self._watchers.get(pair, ()):
                dirty[id(entry)] = entry
        for entry in dirty.values():
            self._evaluate(entry)
            self._dirty.add(entry.target)


def changed_pairs(oid: str, old: ObjState, new: ObjState) -> list[tuple[str, str]]:
    """The characteristics of one object that an application changed."""
    if old is new:
        return []
    pairs = []
    if old.might != new.might:
        pairs.append((oid, "might"))
    if old.controller != new.controller:
        pairs.append((oid, "controller"))
    if old.tags != new.tags:
        pairs.append((oid, "tags"))
    if old.keywords != new.keywords:
        pairs.append((oid, "keywords"))
    if old.types != new.types:
        pairs.append((oid, "types"))
    if old.held is not new.held:
        pairs.append((oid, "held"))
    return pairs
