"""Ruleset data that Python reads from `encodings/<ruleset>/manifest.toml`: the keyword rules,
the layer table, the characteristic families and the board's vocabulary (card types, zones,
statuses, what is attached to what).

One source for what several places need to know about a ruleset's keywords: board validation,
the facts the encoding sees, the reference engine and the board generators.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .resources import forgotten_with_new_folders, manifest, rulesets


@dataclass(frozen=True)
class KeywordRules:
    summing: frozenset[str]  # instances add their values; a missing number counts as 1
    non_summing: frozenset[str]  # known keywords held once whatever the count (no number)
    bonus: dict[str, str]  # keyword -> status during which it adds its value to Might

    def sums(self, keyword: str) -> bool:
        return keyword in self.summing

    def may_carry_number(self, keyword: str) -> bool:
        """Only a keyword that adds up takes a number (docs/semantics.md §3)."""
        return self.sums(keyword)


@forgotten_with_new_folders
@cache
def keyword_rules(ruleset: str) -> KeywordRules:
    keywords = manifest(ruleset).get("keywords", {})
    return KeywordRules(
        summing=frozenset(keywords.get("summing", [])),
        non_summing=frozenset(keywords.get("non_summing", [])),
        bonus=dict(sorted(keywords.get("bonus", {}).items())),
    )


@dataclass(frozen=True)
class Stage:
    name: str
    rank: int  # 1 = applied first
    layer: str
    sublayer: str | None
    operations: tuple[str, ...]


@forgotten_with_new_folders
@cache
def layer_table(ruleset: str) -> tuple[Stage, ...]:
    """The ruleset's stages in order (the manifest's [[layers]])."""
    return tuple(
        Stage(row["stage"], rank, row["layer"], row.get("sublayer"), tuple(row["operations"]))
        for rank, row in enumerate(manifest(ruleset).get("layers", []), start=1)
    )


@forgotten_with_new_folders
@cache
def characteristic_families(ruleset: str) -> dict[str, tuple[str, ...]]:
    """Family -> characteristics (the manifest's [characteristics]; `arithmetic` names the
    number that arithmetic changes)."""
    table = manifest(ruleset).get("characteristics", {})
    return {family: tuple([names] if isinstance(names, str) else names) for family, names in table.items()}


@dataclass(frozen=True)
class BoardVocabulary:
    """The words a ruleset's boards use (the manifest's `[board]`): its card types, its zones
    and which of them are on the board, its statuses (and the sets of them an object may not
    have at once), the types that are attached to another object and have Effect Text, and the
    types they are attached to."""

    card_types: tuple[str, ...]
    zones: tuple[str, ...]
    board_zones: tuple[str, ...]
    statuses: tuple[str, ...]
    exclusive_statuses: tuple[tuple[str, ...], ...]
    attachable: tuple[str, ...]
    bearers: tuple[str, ...]


@forgotten_with_new_folders
@cache
def board_vocabulary(ruleset: str) -> BoardVocabulary:
    """The ruleset's board words: its manifest's `[board]` (or that of the ruleset it extends)."""
    table = manifest(ruleset).get("board")
    if table is None:
        raise ValueError(f"ruleset {ruleset}: its manifest has no [board] (its card types and zones)")
    words = BoardVocabulary(
        card_types=tuple(table["card_types"]),
        zones=tuple(table["zones"]),
        board_zones=tuple(table["board_zones"]),
        statuses=tuple(table.get("statuses", ())),
        exclusive_statuses=tuple(tuple(group) for group in table.get("exclusive_statuses", ())),
        attachable=tuple(table.get("attachable", ())),
        bearers=tuple(table.get("bearers", ())),
    )
    if not set(words.board_zones) <= set(words.zones):
        raise ValueError(f"ruleset {ruleset}: [board] board_zones must be among its zones")
    return words


@forgotten_with_new_folders
@cache
def board_zones_everywhere() -> frozenset[str]:
    """The zones that are on the board in some ruleset riftasp knows (GameObject.on_board). A
    zone may not be on the board in one ruleset and off it in another."""
    on: set[str] = set()
    off: dict[str, str] = {}  # zone -> a ruleset that has it off the board
    for name in rulesets():
        words = board_vocabulary(name)
        on.update(words.board_zones)
        for zone in set(words.zones) - set(words.board_zones):
            off.setdefault(zone, name)
    clash = sorted(on & set(off))
    if clash:
        raise ValueError(f"zone {clash[0]!r} is on the board in one ruleset and off it in {off[clash[0]]}")
    return frozenset(on)


def words_of_rulesets_listing(kind: str, name: str, words: str) -> tuple[str, ...]:
    """The union, in order of first appearance, of `words` (a BoardVocabulary field) of every
    ruleset whose manifest lists `name` among its `[encoding]` `kind` ("conditions",
    "filters"): the values a shared condition or filter may take."""
    found: dict[str, None] = {}
    for ruleset in rulesets():
        if name in manifest(ruleset).get("encoding", {}).get(kind, ()):
            found.update(dict.fromkeys(getattr(board_vocabulary(ruleset), words)))
    return tuple(found)
