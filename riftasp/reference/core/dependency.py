"""The dependency test (docs/semantics.md §6.6): which applications of a universe depend on
which.

B depends on A when applying A alone to its object's current state would change whether B
exists, whether it targets its object, whether its conditions hold, or its result. Only pairs
where A writes something B reads are tried: nothing else can change.
"""

from __future__ import annotations

import os

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
    universe: list[tuple[Instance, str]], analysis: Analysis, states: dict[str, ObjState]
) -> dict[AppId, set[AppId]]:
    """Each application of the universe -> the applications it depends on."""
    by_id = {(i.name, o): (i, o) for i, o in universe}
    deps: dict[AppId, set[AppId]] = {aid: set() for aid in by_id}
    if len(by_id) < 2:
        return deps
    writers = WriteIndex()
    for inst, oid in universe:
        writers.add(analysis.writes(inst, oid), (inst.name, oid))
    test = _Test(analysis, states)
    for b_id, (b, q) in by_id.items():
        tried: set[AppId] = set()
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


class _Test:
    """Applications tried hypothetically against the current states, each computed once."""

    def __init__(self, analysis: Analysis, states: dict[str, ObjState]) -> None:
        self.analysis = analysis
        self.states = states
        self.hypothetical: dict[AppId, ObjState] = {}
        # The world an application makes, when it changes only numbers of its object: the object
        # and its numbers name it, and every maker of that world shares B's answers there (the
        # encoding's moved(P,Ch,V)). k - 1 applications giving one object the same number make
        # one world: B is evaluated once per world, not once per pair (bench/tricky.py's loop of
        # k objects: k^2 evaluations a step, not k^3).
        self.world: dict[AppId, tuple | None] = {}
        self.answers: dict[tuple, tuple] = {}

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
            new = self.hypothetical[a_id] = apply_instance(
                a_inst, self.states[p], view, self.analysis.layout
            )

        def then(x: str) -> ObjState | None:
            return new if x == p else view(x)

        obj = self.analysis.layout.objects[q]
        if now is None:
            now = evaluate(b_inst, obj, view)
        world = self._world(a_id, p, new)
        if world is None:
            return now != evaluate(b_inst, obj, then)
        key = (b_inst.name, q, world)
        there = self.answers.get(key)
        if there is None:
            there = self.answers[key] = evaluate(b_inst, obj, then)
        return now != there
