"""Riftbound's keyword tables, for code that knows its ruleset (the generators, the classes).

The tables themselves are data in encodings/riftbound/manifest.toml, read by
riftasp.ruleset_data: RB 807.2 (Assault), 809.2 (Deflect), 814.2 (Shield) and 823 (Hunt) add up
and a keyword written without a number counts 1; every other keyword is held once and takes no
number.
"""

from __future__ import annotations

from ...ruleset_data import KeywordRules, keyword_rules

__all__ = ["BONUS", "NON_SUMMING", "SUMMING", "KeywordRules", "keyword_rules"]

_RIFTBOUND = keyword_rules("riftbound")
SUMMING = _RIFTBOUND.summing
NON_SUMMING = _RIFTBOUND.non_summing
BONUS = _RIFTBOUND.bonus
