"""The ruleset's keyword rules, in one place: which keywords add up, which carry no number.

RB 807.2 (Assault), 809.2 (Deflect), 814.2 (Shield): instances of a summing keyword add up and
a keyword written without a number counts 1 (`Shield` + `Shield 2` = Shield 3). A non-summing
keyword (Ganking, Tank, Temporary, Backline) does nothing more when held twice, and is never
printed or granted with a number. Keywords in neither set (e.g. `Equip` on gear) are not
constrained here.

Read by the board generators (riftasp/strategies.py: a number only on a summing keyword) and
meant for board validation too, so both agree on what a legal keyword is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeywordRules:
    summing: frozenset[str]
    non_summing: frozenset[str]
    # Keyword -> the status under which it adds its value to Might (Shield N: +N while defending).
    bonus: dict[str, str]

    def may_carry_number(self, name: str) -> bool:
        """Whether `name N` is a legal keyword (False only for the non-summing ones)."""
        return name not in self.non_summing

    def sums(self, name: str) -> bool:
        return name in self.summing


RIFTBOUND = KeywordRules(
    summing=frozenset({"Assault", "Deflect", "Shield", "Hunt"}),
    non_summing=frozenset({"Ganking", "Tank", "Temporary", "Backline"}),
    bonus={"Shield": "defending", "Assault": "attacking"},
)

RULES: dict[str, KeywordRules] = {"riftbound": RIFTBOUND}

# The Riftbound tables by themselves, for code that knows its ruleset.
SUMMING = RIFTBOUND.summing
NON_SUMMING = RIFTBOUND.non_summing
BONUS = RIFTBOUND.bonus


def keyword_rules(ruleset: str = "riftbound") -> KeywordRules:
    return RULES[ruleset]
