"""Listing order: the one order of a board's slots, which breaks timestamp ties
(docs/semantics.md §2, "Order key").

For each object in board order: its rules text, its Effect Text, one slot per kind of instance of
the ruleset's own (Riftbound's: a buff, a Might Bonus; riftasp/rulesets/riftbound/reference/) and
one slot per bonus keyword of the ruleset (by name); then the board's ongoing effects.
A slot's *listing* is a tuple that sorts in that order: (object index, part, position, 0) for an
object's slots, (number of objects + position, 0, 0, 0) for an ongoing effect. `riftasp facts`
writes the listings of text and ongoing effects, a `.lp` board must give exactly those, and the
encoding spells the same buff, bonus and keyword listings in its order keys (`static_key/3`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .model import Board, Effect, GameObject

TEXT_PARTS = ("rules", "effect")
# An object's text slots in order: the second component of their listings (a ruleset's own parts
# and then its keyword part come after them: `all_slots`).
PARTS = {part: number for number, part in enumerate(TEXT_PARTS)}

Listing = tuple[int, int, int | str, int]  # a keyword slot's position is the keyword


class Slot(NamedTuple):
    """A place in listing order, and what stands there."""

    part: str  # a text part, one of the ruleset's own parts, "keyword" or "ongoing"
    listing: Listing
    obj: GameObject | None  # the object whose slot it is; None for an ongoing effect
    # That object's board index (not `index`, which would hide the tuple's own method).
    object_index: int | None
    position: int = 0  # a text effect's place in its part; an ongoing effect's in board.effects
    effect: Effect | None = None  # in text and ongoing slots
    keyword: str | None = None  # in keyword slots

    @property
    def placed(self) -> Effect:
        """The effect of a text or ongoing slot (every slot `listed_effects` gives has one)."""
        if self.effect is None:
            raise ValueError(f"a {self.part} slot holds no effect")
        return self.effect


def text_listing(index: int, part: str, position: int) -> Listing:
    return (index, PARTS[part], position, 0)


def ongoing_listing(objects: int, position: int) -> Listing:
    return (objects + position, 0, 0, 0)


def listing_term(listing: Listing) -> str:
    """The listing as an ASP tuple, as `riftasp facts` writes it: (0,1,2,0)."""
    return "({},{},{},{})".format(*listing)


def text_parts(obj: GameObject) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
    """The object's text in listing order: its rules text, then its Effect Text."""
    return (("rules", obj.rules_text), ("effect", obj.effect_text))


def text_slots(index: int, obj: GameObject) -> Iterator[Slot]:
    """The slots of the object's text effects (`index` is its board index)."""
    for part, effects in text_parts(obj):
        for position, effect in enumerate(effects):
            yield Slot(part, text_listing(index, part, position), obj, index, position, effect)


def ongoing_slots(board: Board) -> Iterator[Slot]:
    first = len(board.objects)
    for position, effect in enumerate(board.effects):
        yield Slot("ongoing", ongoing_listing(first, position), None, None, position, effect)


def listed_effects(board: Board) -> Iterator[Slot]:
    """Every effect of the board, text and ongoing, in listing order."""
    for index, obj in enumerate(board.objects):
        yield from text_slots(index, obj)
    yield from ongoing_slots(board)


def all_slots(board: Board, own_parts: Sequence[str], bonus_keywords: Iterable[str]) -> Iterator[Slot]:
    """Every slot of the board, used or not, in listing order: each object's text, one slot per
    part of the ruleset's own (`own_parts`, in its order), one per bonus keyword; then the
    ongoing effects."""
    keywords = sorted(bonus_keywords)
    keyword_part = len(TEXT_PARTS) + len(own_parts)
    for index, obj in enumerate(board.objects):
        yield from text_slots(index, obj)
        for number, part in enumerate(own_parts, start=len(TEXT_PARTS)):
            yield Slot(part, (index, number, 0, 0), obj, index)
        for keyword in keywords:
            yield Slot("keyword", (index, keyword_part, keyword, 0), obj, index, keyword=keyword)
    yield from ongoing_slots(board)
