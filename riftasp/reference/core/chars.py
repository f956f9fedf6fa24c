"""What applications read and write (docs/semantics.md §4, "Reads and writes"), and who writes
what.

A characteristic read or written is a triple (object, what, parameter): `what` is a
characteristic of the ruleset (a single value or a number: parameter None; a set: parameter the
member), or one of `keyword`, `ability` (parameter its name), `copiable` or `status` (parameter
None). A write may have the parameter EVERY: every member, keyword or ability at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

Char = tuple[str, str, "str | None"]
EVERY = "*"
KEYWORD = "keyword"
ABILITY = "ability"
COPIABLE = "copiable"
STATUS = "status"


@dataclass(frozen=True)
class Reads:
    existence: tuple[Char, ...]
    targeting: tuple[Char, ...]
    conditions: tuple[tuple[Char, ...], ...]  # one entry per condition, in order
    result: tuple[Char, ...]

    @property
    def all(self) -> tuple[Char, ...]:
        out = self.existence + self.targeting + self.result
        for c in self.conditions:
            out += c
        return out


def matches(write: Char, read: Char) -> bool:
    return (
        write[0] == read[0]
        and write[1] == read[1]
        and (write[2] == EVERY or read[2] == EVERY or write[2] == read[2])
    )


class WriteIndex(Generic[T]):
    """Who writes what, indexed by (object, what), so "does anything write what X reads" is a
    lookup instead of a scan. The writers are items of type T (an application, or its id)."""

    def __init__(self) -> None:
        self._by: dict[tuple[str, str], list[tuple[str | None, T]]] = {}

    def add(self, written: tuple[Char, ...], item: T) -> None:
        for obj, what, param in written:
            self._by.setdefault((obj, what), []).append((param, item))

    def writers(self, read: Char) -> list[T]:
        obj, what, param = read
        return [
            item
            for p, item in self._by.get((obj, what), ())
            if p == EVERY or param == EVERY or p == param
        ]

    def any_writer(self, read: Char, exclude: T | None = None) -> bool:
        obj, what, param = read
        for p, item in self._by.get((obj, what), ()):
            if item != exclude and (p == EVERY or param == EVERY or p == param):
                return True
        return False
