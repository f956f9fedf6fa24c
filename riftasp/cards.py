"""The card library: printed traits and text of named cards, read from `facts/cards/*.lp`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import clingo

from .conditions import CONDITIONS
from .filters import FILTERS
from .model import Effect, Keyword, Operation, Parameters, Target, given_params
from .operations import OPERATIONS
from .specs import ObjectField
from .terms import decode_condition, decode_ops, decode_target

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset


@dataclass(frozen=True)
class CardDef(Parameters):
    """A library card: what every ruleset's cards print, and in `params` the ruleset's own
    printed keys (ObjectField.printed), read as attributes (`card.might`)."""

    name: str
    card_type: str
    tags: tuple[str, ...]
    keywords: tuple[Keyword, ...]
    rules_text: tuple[tuple[str, Effect], ...]  # (key, effect with id = key)
    effect_text: tuple[tuple[str, Effect], ...]
    params: tuple[tuple[str, Any], ...] = ()

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
def library(ruleset: Ruleset) -> dict[str, CardDef]:
    path = ruleset.library_file
    if not path.exists():
        return {}
    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(path))
    ctl.ground([("base", [])])
    atoms = [a.symbol for a in ctl.symbolic_atoms if a.is_fact]
    return _build(atoms, [f for f in ruleset.object_fields if f.printed])


def _build(atoms: list[clingo.Symbol], printed: list[ObjectField]) -> dict[str, CardDef]:
    by_pred: dict[str, list[tuple[clingo.Symbol, ...]]] = defaultdict(list)
    for atom in atoms:
        by_pred[atom.name].append(tuple(atom.arguments))

    def per_card(pred: str) -> dict[str, list[tuple[clingo.Symbol, ...]]]:
        out: dict[str, list[tuple[clingo.Symbol, ...]]] = defaultdict(list)
        for args in by_pred.get(pred, []):
            out[args[0].string].append(args[1:])
        return out

    types, tags = per_card("card_type"), per_card("card_tag")
    keywords, texts = per_card("card_keyword"), per_card("card_text")
    # The ruleset's own printed keys: card_<key>(Card, Number).
    own = {f.name: per_card(f"card_{f.key}") for f in printed}
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
            tags=tuple(t[0].string for t in tags.get(name, [])),
            keywords=tuple(
                Keyword(k[0].string, k[1].number or None) for k in keywords.get(name, [])
            ),
            rules_text=text("rules"),
            effect_text=text("effect"),
            params=given_params({key: table[name][0][0].number for key, table in own.items() if name in table}),
        )
    return cards


# ---- the library for people and for other engines (`riftasp cards`) ---------------------------


def library_text(ruleset: Ruleset) -> str:
    blocks = []
    for name, card in sorted(library(ruleset).items()):
        printed = [card.card_type]
        if card.tags:
            printed.append("tags " + ", ".join(card.tags))
        if card.keywords:
            printed.append("keywords " + ", ".join(str(k) for k in card.keywords))
        printed += [f.shown.format(getattr(card, f.name)) for f in ruleset.object_fields
                    if f.printed and getattr(card, f.name) is not None]  # fmt: skip
        lines = [f"{name}: {'; '.join(printed)}"]
        lines += [f"  {line}" for line in card_text(card, ruleset).splitlines()]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def card_text(card: CardDef, ruleset: Ruleset) -> str:
    """The card's text in words, one line per effect, with the effect's key."""
    number = ruleset.families["arithmetic"][0].capitalize()
    bearer = _bearer_words(ruleset)
    lines = [f"[{key}] {effect_sentence(e, number, 'rules', bearer)}" for key, e in card.rules_text]
    lines += [f"[{key}] Attached effect: {effect_sentence(e, number, 'effect', bearer)}" for key, e in card.effect_text]
    return "\n".join(lines)


def _bearer_words(ruleset: Ruleset) -> str:
    """What the card library calls the object an attached card is attached to: "the unit I'm
    attached to" (the ruleset's first bearer type, its manifest's `[board] bearers`)."""
    bearers = ruleset.vocabulary.bearers
    return f"the {bearers[0] if bearers else 'object'} I'm attached to"


def effect_sentence(effect: Effect, number: str, context: str = "rules",
                    bearer: str = "the unit I'm attached to") -> str:  # fmt: skip
    """An effect in words: `While I'm Mighty, I gain Deflect, Ganking and Shield.` (`number`
    names the ruleset's arithmetic characteristic, `bearer` the object an attached card is
    attached to.)"""
    who = _target_words(effect.target, context, bearer)
    text = f"{who} {_op_words(effect.op, third_person=who not in ('I',), number=number)}"
    if effect.conditions:
        text = "While " + " and ".join(_condition_words(c, bearer) for c in effect.conditions) + ", " + text
    return text[0].upper() + text[1:] + "."


def _target_words(target: Target, context: str, bearer: str) -> str:
    if target.kind == "self":
        return "I"
    if target.kind == "bearer":
        return bearer
    if target.kind == "ids":
        return " and ".join(target.ids)
    f = target.filter
    if f is None:
        return "each object"
    given = [(spec, getattr(f, spec.name)) for spec in FILTERS.values() if getattr(f, spec.name) is not None]
    said = lambda spec, value: spec.words if value is True else spec.words.format(value=value)  # noqa: E731
    words = [said(spec, v) for spec, v in given if spec.role == "adjective"]
    words += [said(spec, v) for spec, v in given if spec.role == "noun"] or ["object"]
    # One place is said: the narrowest, the last the registry lists that the filter gives (a
    # location before a zone).
    where = next((said(spec, v) for spec, v in reversed(given) if spec.role == "after"), "")
    return ("each other " if f.other else "each ") + " ".join(words) + where


def _op_words(op: Operation, third_person: bool, number: str) -> str:
    """The operation's wording from the registry (riftasp/operations/): its parameters, lists
    joined with "and", and the person of the verb."""
    words: dict[str, Any] = {
        "s": "s" if third_person else "",
        "is": "is" if third_person else "am",
        "has": "has" if third_person else "have",
        "its": "its" if third_person else "my",
        "number": number,
    }
    for key, value in op.params:
        words[key] = _and([str(v) for v in value]) if isinstance(value, tuple) else value
    return OPERATIONS[op.name].words.format(**words)


def _condition_words(c, bearer: str = "the unit I'm attached to") -> str:
    who = {"self": "I'm", "bearer": f"{bearer} is", "target": "it is"}.get(c.of, f"{c.of} is")
    has = {"self": "I have", "bearer": f"{bearer} has", "target": "it has"}.get(c.of, f"{c.of} has")
    spec = CONDITIONS[c.kind]
    parameter = None if spec.key is None else getattr(c, spec.key)
    return spec.words.format(who=who, has=has, parameter=parameter)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
