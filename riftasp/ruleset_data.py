"""Ruleset data that Python reads: the `[keywords]` table of `encodings/<ruleset>/manifest.toml`.

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
