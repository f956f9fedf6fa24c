"""An application does not hold itself up (docs/semantics.md §8, with the sentences it rests on).

A round whose final check finds nothing failing can still keep an application whose condition on
a number holds at the end only through what that application added (directly, or through what
it made exist, target or meet its conditions). This module finds the *suspects*: an applied f
with a condition on a number that something lowered after f applied, and that, less what f
supported added to it, would no longer hold (or that one of them set). The procedure then
calculates the board again without f and what it supports, to see whether f would apply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from ...result import Application
from .chars import Char, Reads, WriteIndex
from .instances import Instance
from .operators import Arithmetic
from .state import ObjState, changed


class Applied(Protocol):
    @property
    def step(self) -> int: ...
    @property
    def inst(self) -> Instance: ...
    @property
    def oid(self) -> str: ...
    @property
    def application(self) -> Application: ...


A = TypeVar("A", bound=Applied)  # the caller's records (procedures/recheck.py: Record)


def suspects(
    records: Sequence[A],
    reads_of: Callable[[Instance, str], Reads],
    writes_of: Callable[[Instance, str], tuple[Char, ...]],
    undoes_of: Callable[[Instance, str], tuple[Char, ...]],
    states: dict[str, ObjState],
) -> list[tuple[A, list[A]]]:
    """The applications of a round that may be held up by themselves, in step order, each with
    what it supports (itself first)."""
    ordered = sorted(records, key=lambda r: r.step)
    undone: WriteIndex[A] = WriteIndex()
    for r in ordered:
        undone.add(undoes_of(r.inst, r.oid), r)
    view = states.get

    def held(f: A) -> list[A] | None:
        """What f supports, when f is a suspect."""
        reads = reads_of(f.inst, f.oid)
        support: list[A] | None = None  # (found once, for every condition of f)
        for n, condition in enumerate(f.inst.conditions):
            if not condition.holds(f.inst, f.oid, view):
                continue
            for read in reads.conditions[n]:
                # A number something lowered after f applied (a culprit of the condition, §8).
                if _number_of(read, states) is None or not any(
                        x.step > f.step and x.oid == read[0] for x in undone.writers(read)):
                    continue
                support = support or _support(f, ordered, reads_of, writes_of)
                if _sets(support, read, writes_of) or not _holds_without(f, condition, read, support, states, view):
                    return support
        return None

    return [(f, support) for f in ordered if (support := held(f)) is not None]


def _number_of(read: Char, states: dict[str, ObjState]) -> int | None:
    state = states.get(read[0])
    return None if state is None else state.numbers.get(read[1])


def _support(
    f: A,
    ordered: Sequence[A],
    reads_of: Callable[[Instance, str], Reads],
    writes_of: Callable[[Instance, str], tuple[Char, ...]],
) -> list[A]:
    """f, and every application after one of these whose existence, target or condition reads
    what that one writes (an amount read does not count: a smaller number makes it add more)."""
    written: WriteIndex[A] = WriteIndex()
    written.add(writes_of(f.inst, f.oid), f)
    support = [f]
    for b in ordered:
        if b.step <= f.step:
            continue
        reads = reads_of(b.inst, b.oid)
        wanted = reads.existence + reads.targeting + tuple(c for cs in reads.conditions for c in cs)
        if any(a.step < b.step for r in wanted for a in written.writers(r)):
            support.append(b)
            written.add(writes_of(b.inst, b.oid), b)
    return support


def _sets(support: Sequence[Applied], read: Char, writes_of: Callable[[Instance, str], tuple[Char, ...]]) -> bool:
    """One of them writes the number other than by adding to it (a set, a copy)."""
    index: WriteIndex[Applied] = WriteIndex()
    for b in support:
        if b.oid == read[0] and not isinstance(b.inst.operator, Arithmetic):
            index.add(writes_of(b.inst, b.oid), b)
    return bool(index.writers(read))


def _holds_without(
    f: Applied, condition, read: Char, support: Sequence[Applied], states: dict[str, ObjState], view
) -> bool:
    """f's condition, with the number it reads less what the support added to it (the trace's
    before and after of each)."""
    added = 0
    for b in support:
        if b.oid != read[0] or not isinstance(b.inst.operator, Arithmetic):
            continue
        app = b.application
        if app.characteristic == read[1] and app.before is not None and app.after is not None:
            added += app.after - app.before
    state = states[read[0]]
    number = state.numbers[read[1]]
    assert number is not None  # a suspect's read is a number (suspects: _number_of)
    less = changed(state, numbers={**state.numbers, read[1]: number - added})
    return condition.holds(f.inst, f.oid, lambda o: less if o == read[0] else view(o))
