"""The ruleset facts the reference engine needs, kept apart from the procedure."""

from __future__ import annotations

# Bonus keywords: keyword -> the status during which it adds its value to Might
# (semantics.md section 2, "Keyword bonus"). Ordered by keyword name, the listing order.
BONUS_KEYWORDS: dict[str, dict[str, str]] = {
    "riftbound": {"Assault": "attacking", "Shield": "defending"},
}


def bonus_keywords(ruleset: str) -> dict[str, str]:
    try:
        return BONUS_KEYWORDS[ruleset]
    except KeyError:
        raise ValueError(f"the reference engine does not know ruleset {ruleset!r}") from None
