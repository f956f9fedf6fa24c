"""Writing a board back: the model as JSON data that `board_from_dict` reads back equal,
defaults left out and a card object written as its `card`; and the card library written the same
way (`riftasp cards --json`)."""

from __future__ import annotations

from typing import Any

from ..cards import CardDef, card_text, library
from ..conditions import CONDITIONS
from ..filters import FILTERS
from ..model import Board, Condition, Effect, Filter, GameObject, Operation, Target
from ..operations import OPERATIONS
from ..rulesets import Ruleset
from ..specs import ObjectField
from .fields import DEFAULT_TARGET


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board as JSON data that `board_from_dict` reads back equal (modulo `source`)."""
    data: dict[str, Any] = {"ruleset": board.ruleset.name}
    if board.settings.given():
        data["settings"] = board.settings.given()
    if board.realm is not None:
        data["realm"] = {"rows": board.realm[0], "columns": board.realm[1]}
    data["players"] = list(board.players)
    if board.active_player is not None:
        data["active_player"] = board.active_player
    data["objects"] = [_object_to_dict(obj, board.ruleset.object_fields) for obj in board.objects]
    if board.effects:
        data["effects"] = [_effect_to_dict(e, "ongoing") for e in board.effects]
    return data


def _object_to_dict(obj: GameObject, own: tuple[ObjectField, ...]) -> dict[str, Any]:
    data: dict[str, Any] = {"id": obj.id}
    if obj.card is not None:
        data["card"] = obj.card
    else:
        data |= {"name": obj.name, "type": obj.card_type}
    data |= {"owner": obj.owner, "controller": obj.controller, "zone": obj.zone}
    optional: dict[str, Any] = {
        "location": obj.location,
        "status": list(obj.status) or None,
        "since": obj.since or None,
        "attached_to": obj.attached_to,
        "attached_since": obj.attached_since,
    }
    # The ruleset's own keys (a flag only while it holds, with its stamp); a card prints some.
    for f in own:
        if not (f.printed and obj.card is not None):
            optional[f.key] = getattr(obj, f.name) or None if f.kind.name == "boolean" else getattr(obj, f.name)
            if f.stamp:
                optional[f.stamp] = getattr(obj, f.stamp)
    if obj.card is None:
        optional |= {
            "tags": list(obj.tags) or None,
            "keywords": [str(k) for k in obj.keywords] or None,
            "rules_text": [_effect_to_dict(e, "rules") for e in obj.rules_text] or None,
            "effect_text": [_effect_to_dict(e, "effect") for e in obj.effect_text] or None,
        }
    return data | {key: value for key, value in optional.items() if value is not None}


def _effect_to_dict(effect: Effect, context: str) -> dict[str, Any]:
    data: dict[str, Any] = {"id": effect.id, "op": _op_to_dict(effect.op)}
    if context == "ongoing" or effect.target != Target(DEFAULT_TARGET[context]):
        data["target"] = _target_to_dict(effect.target)
    if effect.conditions:
        data["conditions"] = [_condition_to_dict(c) for c in effect.conditions]
    for key in ("timestamp", "controller", "source"):
        if getattr(effect, key) is not None:
            data[key] = getattr(effect, key)
    return data


def _op_to_dict(op: Operation) -> dict[str, Any]:
    data: dict[str, Any] = {"op": op.name}
    for param in OPERATIONS[op.name].params:
        value = getattr(op, param.key)
        data[param.key] = [str(k) for k in value] if param.kind.name == "array" else value
    return data


def _target_to_dict(target: Target) -> Any:
    if target.kind in ("self", "bearer"):
        return target.kind
    if target.kind == "ids":
        return {"ids": list(target.ids)}
    f = target.filter or Filter()
    # In the registry's order; a flag only when set.
    data = {key: getattr(f, spec.name) for key, spec in FILTERS.items()}
    return {"filter": {key: value for key, value in data.items() if value is not None}}


def _condition_to_dict(condition: Condition) -> dict[str, Any]:
    key = CONDITIONS[condition.kind].key
    if key is None:
        return {condition.kind: condition.of}
    parameter = getattr(condition, key)
    data: dict[str, Any] = {condition.kind: parameter}
    return data if condition.of == "self" else data | {"of": condition.of}


# ---- the card library as the board format writes it (`riftasp cards --json`) -------------------


def card_to_dict(card: CardDef, ruleset: Ruleset) -> dict[str, Any]:
    """A card as the board format writes an object's printed fields (effect ids are the card's
    keys; on a board, the object `x` holding the card has them as `x.<key>`), plus its text."""
    holder = GameObject(id="card", name=card.name, card_type=card.card_type, owner="p", controller="p",
                        zone="base", tags=card.tags, keywords=card.keywords, params=card.params,
                        rules_text=tuple(e for _, e in card.rules_text),
                        effect_text=tuple(e for _, e in card.effect_text))  # fmt: skip
    written = board_to_dict(Board(players=("p",), active_player=None, objects=(holder,), ruleset=ruleset))
    written = written["objects"][0]
    data: dict[str, Any] = {"name": card.name, "type": card.card_type, "tags": list(card.tags),
                            "keywords": [str(k) for k in card.keywords]}  # fmt: skip
    data |= {f.key: getattr(card, f.name) for f in ruleset.object_fields if f.printed}
    for key in ("rules_text", "effect_text"):
        data[key] = written.get(key, [])
    data["text"] = card_text(card, ruleset)
    return data


def library_json(ruleset: Ruleset) -> dict[str, Any]:
    return {"ruleset": ruleset.name, "cards": [card_to_dict(c, ruleset) for _, c in sorted(library(ruleset).items())]}
