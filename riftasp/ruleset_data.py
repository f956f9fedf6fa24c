"""Ruleset data that Python reads from `encodings/<ruleset>/manifest.toml`: the keyword rules,
the layer table and the characteristic families.

One source for what several places need to know about a ruleset's keywords: board validation,
the facts the encoding sees, the reference engine and the board generators.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .resources import manifest


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


@cache
def layer_table(ruleset: str) -> tuple[Stage, ...]:
    """The ruleset's stages in order (the manifest's [[layers]])."""
    return tuple(
        Stage(row["stage"], rank, row["layer"], row.get("sublayer"), tuple(row["operations"]))
        for rank, row in enumerate(manifest(ruleset).get("layers", []), start=1)
    )


@cache
def characteristic_families(ruleset: str) -> dict[str, tuple[str, ...]]:
    """Family -> characteristics (the manifest's [characteristics]; `arithmetic` names the
    number that arithmetic changes)."""
    table = manifest(ruleset).get("characteristics", {})
    return {family: tuple([names] if isinstance(names, str) else names) for family, names in table.items()}
