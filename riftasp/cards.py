"""The card library: printed traits and text of named cards, read from `facts/cards/*.lp`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

import clingo

from .model import Effect, Keyword, Target
from .resources import card_library
from .terms import decode_condition, decode_ops, decode_target


@dataclass(frozen=True)
class CardDef:
    name: str
    card_type: str
    might: int | None
    tags: tuple[str, ...]
    keywords: tuple[Keyword, ...]
    might_bonus: int | None
    rules_text: tuple[tuple[str, Effect], ...]  # (key, effect with id = key)
    effect_text: tuple[tuple[str, Effect], ...]

    def instantiate(self, object_id: str, part: str) -> tuple[Effect, ...]:
        """The card's text for one object: effect ids become `<object>.<key>`."""
        entries = self.rules_text if part == "rules" else self.effect_text
        return tuple(
            Effect(
                id=f"{object_id}.{key}",
                op=effect.op,
                target=effect.target,
                conditions=effect.conditions,
            )
            for key, effect in entries
        )


@cache
def library(ruleset: str) -> dict[str, CardDef]:
    path = card_library(ruleset)
    if not path.exists():
        return {}
    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(path))
    ctl.ground([("base", [])])
    atoms = [a.symbol for a in ctl.symbolic_atoms if a.is_fact]
    return _build(atoms)


def _build(atoms: list[clingo.Symbol]) -> dict[str, CardDef]:
    by_pred: dict[str, list[tuple[clingo.Symbol, ...]]] = defaultdict(list)
    for atom in atoms:
        by_pred[atom.name].append(tuple(atom.arguments))

    def per_card(pred: str) -> dict[str, list[tuple[clingo.Symbol, ...]]]:
        out: dict[str, list[tuple[clingo.Symbol, ...]]] = defaultdict(list)
        for args in by_pred.get(pred, []):
            out[args[0].string].append(args[1:])
        return out

    types, mights, tags = per_card("card_type"), per_card("card_might"), per_card("card_tag")
    keywords, bonuses, texts = per_card("card_keyword"), per_card("card_might_bonus"), per_card("card_text")
    ops, targets = per_card("card_effect_op"), per_card("card_effect_target")
    target_ids, filters = per_card("card_effect_target_id"), per_card("card_effect_filter")
    conditions = per_card("card_effect_condition")

    cards: dict[str, CardDef] = {}
    for (name_sym,) in by_pred.get("card", []):
        name = name_sym.string

        def effect(key: str) -> Effect:
            def of(table):
                return [rest[1] for rest in table.get(name, []) if rest[0].name == key]

            kinds = of(targets)
            return Effect(
                id=key,
                op=decode_ops(of(ops)),
                target=decode_target(
                    kinds[0].name if kinds else "self",
                    [s.string for s in of(target_ids)],
                    of(filters),
                ),
                conditions=tuple(decode_condition(c) for c in of(conditions)),
            )

        def text(part: str) -> tuple[tuple[str, Effect], ...]:
            entries = sorted(
                (rest[2].number, rest[0].name) for rest in texts.get(name, []) if rest[1].name == part
            )
            return tuple((key, effect(key)) for _, key in entries)

        cards[name] = CardDef(
            name=name,
            card_type=types[name][0][0].name,
            might=mights[name][0][0].number if name in mights else None,
            tags=tuple(t[0].string for t in tags.get(name, [])),
            keywords=tuple(
                Keyword(k[0].string, k[1].number or None) for k in keywords.get(name, [])
            ),
            might_bonus=bonuses[name][0][0].number if name in bonuses else None,
            rules_text=text("rules"),
            effect_text=text("effect"),
        )
    return cards
