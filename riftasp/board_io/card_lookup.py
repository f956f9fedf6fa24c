"""Objects that are library cards: the card a `card` field names, the object filled from it,
and, for `.lp` boards (whose facts do not say so), recognising an object that is a card."""

from __future__ import annotations

from dataclasses import replace

from ..cards import CardDef
from ..model import GameObject
from ..rulesets import Ruleset
from .errors import Invalid, shown


def find_card(name: str, path: str, ruleset: Ruleset, cards: dict[str, CardDef]) -> CardDef:
    if name not in cards:
        known = ", ".join(shown(n) for n in sorted(cards)) or "no cards"
        raise Invalid(path, f"unknown card {shown(name)}; the {ruleset} library has {known}")
    return cards[name]


def with_card(obj: GameObject, card: CardDef) -> GameObject:
    """The object with its printed fields and text taken from the card."""
    return replace(
        obj,
        card=card.name,
        name=card.name,
        card_type=card.card_type,
        tags=card.tags,
        keywords=card.keywords,
        rules_text=card.instantiate(obj.id, "rules"),
        effect_text=card.instantiate(obj.id, "effect"),
        # The ruleset's own printed keys come from the card, the others stay the object's.
        params=tuple(sorted({**dict(obj.params), **dict(card.params)}.items())),
    )


def recognise_card(obj: GameObject, cards: dict[str, CardDef]) -> GameObject:
    """`card` for an object that is exactly a library card.

    Facts do not say an object came from a card; an object whose printed fields and text are
    exactly those the card gives (with its effect ids `<object>.<key>`) is read as that card,
    so a board read from JSON comes back equal from its facts.
    """
    card = cards.get(obj.name)
    if card is not None and with_card(obj, card) == replace(obj, card=card.name):
        return replace(obj, card=card.name)
    return obj
