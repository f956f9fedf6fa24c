"""The dependency test (docs/semantics.md §6.6): which applications of a universe depend on
which.

B depends on A when applying A alone to its object's current state would change whether B
exists, whether it targets its object, whether its conditions hold, or its result. Only pairs
where A writes something B reads are tried: nothing else can change. With the reading
`dependency = none` (timestamp order only) nothing here is asked (procedures/recheck.py, `Round`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .analysis import Analysis
from .chars import WriteIndex
from .evaluate import evaluate
from .instances import Instance
from .operators import apply_instance
from .state import ObjState

# RIFTASP_REFERENCE_CHECK=1: verify the read/write shortcut against trying every pair (the tests
# switch this on).
CHECK_MODE = os.environ.get("RIFTASP_REFERENCE_CHECK") == "1"

AppId = tuple[str, str]  # (instance name, object)


def dependencies(
    universe: list[tuple[Instance, str]], analysis: Analysis, states: dict[str, ObjState],
    only: list[tuple[Instance, str]] | None = None, kept: dict[AppId, tuple] | None = None,
) -> _Made:
    """Each application of the universe (or of `only`, a part of it) -> the applications of the
    universe it depends on (and, in `tried`, those tried for it)."""
    by_id = {(i.name, o): (i, o) for i, o in universe}
    asked = by_id if only is None else {(i.name, o): (i, o) for i, o in only}
    deps = _Made()  # (each answer, and what was tried for it)
    for aid in asked:
        deps[aid] = set()
        deps.tried[aid] = set()
    if len(by_id) < 2:
        return deps
    writers: WriteIndex[AppId] = WriteIndex()
    for inst, oid in universe:
        writers.add(analysis.writes(inst, oid), (inst.name, oid))
    test = _Test(analysis, states, kept)
    for b_id, (b, q) in asked.items():
        tried = deps.tried[b_id]
        for read in analysis.reads(b, q).all:
            tried.update(writers.writers(read))
        tried.discard(b_id)
        if CHECK_MODE:
            # Check the shortcut: every other pair must show no dependency.
            for a_id in by_id:
                if a_id != b_id and a_id not in tried:
                    assert not test.depends(by_id[a_id], (b, q)), (b_id, a_id)
        if not tried:
            continue
        now = evaluate(b, analysis.layout.objects[q], states.get)
        for a_id in tried:
            if test.depends(by_id[a_id], (b, q), now):
                deps[b_id].add(a_id)
    return deps


# RIFTASP_KEEP_DEPENDENCIES=0: every step tests every pair again (tests compare the answers).
KEEP = os.environ.get("RIFTASP_KEEP_DEPENDENCIES") != "0"


@dataclass
class _Entry:
    inst: Instance  # B's instance when its entry was made
    on: frozenset[AppId]  # the applications B depends on, of those tried then


class KeptDependencies:
    """`dependencies` from step to step of one stage of one group, each pair kept unless an input
    of its test changed (issue 36: a step of a loop of k objects tried k^3 pairs, though one
    application changes one object).

    Whether B depends on A is a function of B's and A's instances and of the states of the
    objects B reads (its evaluation, §6.6) and of A's object and what A's result reads (A applied
    hypothetically). States are immutable, so a changed state is a new object: B's entry is made
    again when one of those states is not the one it was made with, when B's instance is another,
    or when an application that writes what B reads entered the universe. An application that left
    the universe (applied or withdrawn) only leaves B's answer."""

    def __init__(self, analysis: Analysis) -> None:
        self.a = analysis
        self.entries: dict[AppId, _Entry] = {}
        self.watched: dict[str, list[AppId]] = {}  # object -> entries made with its state
        self.seen: dict[str, ObjState | None] = {}  # object -> the state those entries saw
        self.readers: dict[tuple[str, str], set[AppId]] = {}  # (object, what) -> entries reading it
        self.members: dict[AppId, Instance] = {}  # the previous universe
        self.hypotheses: dict[AppId, tuple] = {}  # A's hypothetical states (_Test.kept)
        self.result_objects: dict[AppId, tuple[str, ...]] = {}  # what A's result reads, besides its object

    def __call__(
        self, universe: list[tuple[Instance, str]], states: dict[str, ObjState]
    ) -> dict[AppId, set[AppId]]:
        by_id = {(i.name, o): (i, o) for i, o in universe}
        for oid in [o for o, seen in self.seen.items() if states.get(o) is not seen]:
            del self.seen[oid]
            for b_id in self.watched.pop(oid):
                self.entries.pop(b_id, None)
        for a_id, (a, p) in by_id.items():
            if self.members.get(a_id) is not a:
                for obj, what, _ in self.a.writes(a, p):
                    for b_id in self.readers.get((obj, what), ()):
                        self.entries.pop(b_id, None)
        self.members = {a_id: a for a_id, (a, _) in by_id.items()}
        missing = [(b, q) for b_id, (b, q) in by_id.items()
                   if (e := self.entries.get(b_id)) is None or e.inst is not b]  # fmt: skip
        made = dependencies(universe, self.a, states, only=missing, kept=self.hypotheses) if missing else _Made()
        for b, q in missing:
            b_id = (b.name, q)
            on = made[b_id]
            self.entries[b_id] = _Entry(b, frozenset(on))
            reads = self.a.reads(b, q).all
            # (A tried application writes what B reads, so its object is among those B reads;
            # only what its result reads is more.)
            watch = {obj for obj, _, _ in reads}
            for obj, what, _ in reads:
                self.readers.setdefault((obj, what), set()).add(b_id)
            for a_id in made.tried[b_id]:
                more = self.result_objects.get(a_id)
                if more is None:
                    a, p = by_id[a_id]
                    more = self.result_objects[a_id] = tuple({obj for obj, _, _ in self.a.reads(a, p).result} - {p})
                if more:
                    watch.update(more)
            for obj in watch:
                self.watched.setdefault(obj, []).append(b_id)
                self.seen.setdefault(obj, states.get(obj))
        deps = {b_id: {a for a in self.entries[b_id].on if a in by_id} for b_id in by_id}
        if CHECK_MODE:
            assert deps == dependencies(universe, self.a, states), "a kept dependency went stale"
        return deps


class _Made(dict[AppId, set[AppId]]):
    """`dependencies(..., only=...)`: each B's answer, and the applications tried for it."""

    def __init__(self) -> None:
        super().__init__()
        self.tried: dict[AppId, set[AppId]] = {}


class _Test:
    """Applications tried hypothetically against the current states, each computed once."""

    def __init__(
        self, analysis: Analysis, states: dict[str, ObjState], kept: dict[AppId, tuple] | None = None
    ) -> None:
        self.analysis = analysis
        self.states = states
        self.hypothetical: dict[AppId, ObjState] = {}
        # Hypothetical states kept from earlier steps (KeptDependencies): A applied to its
        # object is a function of A, that object's state and the states A's result reads.
        self.kept = kept
        # The world an application makes, when it changes only numbers of its object: the object
        # and its numbers name it, and every maker of that world shares B's answers there (the
        # encoding's moved(P,Ch,V)). k - 1 applications giving one object the same number make
        # one world: B is evaluated once per world, not once per pair (bench/tricky.py's loop of
        # k objects: k^2 evaluations a step, not k^3).
        self.world: dict[AppId, tuple | None] = {}
        self.answers: dict[tuple, tuple] = {}

    def _applied(self, a_inst: Instance, p: str, a_id: AppId) -> ObjState:
        if self.kept is None:
            return apply_instance(a_inst, self.states[p], self.states.get, self.analysis.layout)
        inputs = (self.states[p], *(self.states.get(o) for o, _, _ in self.analysis.reads(a_inst, p).result))
        was = self.kept.get(a_id)
        if was is not None and was[0] is a_inst and len(was[1]) == len(inputs) and all(
            x is y for x, y in zip(was[1], inputs)
        ):
            self.world[a_id] = was[3]
            return was[2]
        new = apply_instance(a_inst, self.states[p], self.states.get, self.analysis.layout)
        self.kept[a_id] = (a_inst, inputs, new, self._world(a_id, p, new))
        return new

    def _world(self, a_id: AppId, p: str, new: ObjState) -> tuple | None:
        if a_id not in self.world:
            old = self.states[p]
            same = all(getattr(new, f) is getattr(old, f) for f in ObjState.__dataclass_fields__ if f != "numbers")
            self.world[a_id] = (p, tuple(sorted(new.numbers.items()))) if same else None
        return self.world[a_id]

    def depends(
        self, a: tuple[Instance, str], b: tuple[Instance, str], now: tuple | None = None
    ) -> bool:
        a_inst, p = a
        b_inst, q = b
        view = self.states.get
        a_id = (a_inst.name, p)
        new = self.hypothetical.get(a_id)
        if new is None:
            new = self.hypothetical[a_id] = self._applied(a_inst, p, a_id)
        world = self._world(a_id, p, new)
        key = (b_inst.name, q, world)
        there = self.answers.get(key) if world is not None else None
        if there is None:

            def then(x: str) -> ObjState | None:
                return new if x == p else view(x)

            there = evaluate(b_inst, self.analysis.layout.objects[q], then)
            if world is not None:
                self.answers[key] = there
        if now is None:
            now = evaluate(b_inst, self.analysis.layout.objects[q], view)
        return now != there
