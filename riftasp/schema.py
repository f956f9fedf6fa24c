"""The JSON Schema (draft 2020-12) of the board format, docs/board-format.md.

It describes the shape `riftasp.board_io` accepts: keys, types, enumerations and where `self`,
`bearer` and `target` may appear. What a schema cannot say (ids that must exist, attachment
cycles, duplicate effect ids across objects) only the reader checks, so every board the reader
accepts validates, and a board that fails the schema is rejected by the reader too.
"""

from __future__ import annotations

from typing import Any

from .board_io import (
    CONDITION_TIMINGS,
    DEFAULT_TARGET,
    FILTER_KEYS,
    KEYWORD_NAME,
    KEYWORD_PATTERN,
    PRINTED_KEYS,
    RELATIONS,
    RESERVED_ID_CHARACTERS,
    RESERVED_PLAYERS,
    TEXT_KEYS,
)
from .cards import library
from .limits import VALUE_MAX, VALUE_MIN
from .model import CARD_TYPES, CONDITIONS, OPERATIONS, STATUSES, SYMBOLIC_REFS, ZONES
from .resources import rulesets

Schema = dict[str, Any]

# Effects differ by where they stand: text targets default, `bearer` is Effect Text only,
# ongoing effects need a timestamp and a controller and may have a source.
CONTEXTS = ("rules", "effect", "ongoing")


def board_schema() -> Schema:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "riftasp board",
        "description": "A Riftbound board state; see docs/board-format.md.",
        "type": "object",
        "additionalProperties": False,
        "required": ["players", "objects"],
        "properties": {
            "ruleset": {"enum": rulesets()},
            "settings": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"condition_timing": {"enum": list(CONDITION_TIMINGS)}},
            },
            "players": {"type": "array", "items": {"$ref": "#/$defs/player"}, "uniqueItems": True},
            "active_player": {"$ref": "#/$defs/text"},
            "objects": {"type": "array", "items": {"$ref": "#/$defs/object"}},
            "effects": {"type": "array", "items": {"$ref": "#/$defs/ongoing_effect"}},
        },
        "$defs": _definitions(),
    }


def _definitions() -> Schema:
    defs: Schema = {
        # Non-empty and NUL-free: what clingo strings can carry.
        "text": {"type": "string", "minLength": 1, "pattern": "^[^\\u0000]*$"},
        "integer": {"type": "integer", "minimum": VALUE_MIN, "maximum": VALUE_MAX},
        "amount": {"type": "integer", "minimum": 0, "maximum": VALUE_MAX},
        "player": {"allOf": [{"$ref": "#/$defs/text"}, {"not": {"enum": list(RESERVED_PLAYERS)}}]},
        # Without the characters of riftasp's instance names (buff:<id>, <effect>@<holder>).
        "id": {"type": "string", "minLength": 1, "pattern": f"^[^\\u0000{RESERVED_ID_CHARACTERS}]*$"},
        "object_id": {"allOf": [{"$ref": "#/$defs/id"}, {"not": {"enum": list(SYMBOLIC_REFS)}}]},
        "keyword": {"type": "string", "pattern": f"^{KEYWORD_PATTERN}$"},
        "keyword_name": {"type": "string", "pattern": f"^{KEYWORD_NAME}$"},
        "object": _object(),
        "operation": _operation(),
        "filter": _filter(),
    }
    for context in CONTEXTS:
        defs[f"{context}_effect"] = _effect(context)
        defs[f"{context}_target"] = _target(context)
        defs[f"{context}_ref"] = _ref(context)
        defs[f"{context}_condition"] = _condition(context)
    return defs


def _ref(context: str) -> Schema:
    """An object a condition reads: `self`, `target`, `bearer` (Effect Text) or an object id."""
    symbols = [r for r in SYMBOLIC_REFS if r != "bearer" or context == "effect"]
    return {"anyOf": [{"enum": symbols}, {"$ref": "#/$defs/object_id"}]}


def _unique_texts() -> Schema:
    return {"type": "array", "items": {"$ref": "#/$defs/text"}, "uniqueItems": True}


def _object() -> Schema:
    properties: Schema = {
        "id": {"$ref": "#/$defs/object_id"},
        "card": {"enum": sorted({name for r in rulesets() for name in library(r)})},
        "name": {"$ref": "#/$defs/text"},
        "type": {"enum": list(CARD_TYPES)},
        "owner": {"$ref": "#/$defs/text"},
        "controller": {"$ref": "#/$defs/text"},
        "zone": {"enum": list(ZONES)},
        "location": {"$ref": "#/$defs/text"},
        "might": {"$ref": "#/$defs/integer"},
        "tags": _unique_texts(),
        "keywords": {"type": "array", "items": {"$ref": "#/$defs/keyword"}, "uniqueItems": True},
        "status": {
            "type": "array", "items": {"enum": list(STATUSES)}, "uniqueItems": True,
            # not attacking and defending at once
            "not": {"allOf": [{"contains": {"const": status}} for status in STATUSES]},
        },  # fmt: skip
        "since": {"$ref": "#/$defs/integer"},
        "buff": {"type": "boolean"},
        "buff_since": {"$ref": "#/$defs/integer"},
        "attached_to": {"$ref": "#/$defs/object_id"},
        "attached_since": {"$ref": "#/$defs/integer"},
        "might_bonus": {"$ref": "#/$defs/integer"},
    }
    for part, key in TEXT_KEYS.items():
        properties[key] = {"type": "array", "items": {"$ref": f"#/$defs/{part}_effect"}}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "owner", "zone"],
        "properties": properties,
        # A card gives the printed fields; without one, name and type are needed.
        "if": {"required": ["card"]},
        "then": {"not": {"anyOf": [{"required": [key]} for key in PRINTED_KEYS]}},
        "else": {"required": ["name", "type"]},
        "dependentRequired": {"attached_since": ["attached_to"], "buff_since": ["buff"]},
        # Effect Text and a Might Bonus act through an attachment: only gear has them.
        "allOf": [{
            "if": {"required": ["type"], "properties": {"type": {"not": {"const": "gear"}}}},
            "then": {"not": {"anyOf": [{"required": ["effect_text"]}, {"required": ["might_bonus"]}]}},
        }],  # fmt: skip
        "dependentSchemas": {"buff_since": {"properties": {"buff": {"const": True}}}},
    }


def _effect(context: str) -> Schema:
    properties: Schema = {
        "id": {"$ref": "#/$defs/id"},
        "op": {"$ref": "#/$defs/operation"},
        "target": {"$ref": f"#/$defs/{context}_target"},
        "conditions": {"type": "array", "items": {"$ref": f"#/$defs/{context}_condition"}, "uniqueItems": True},
        "timestamp": {"$ref": "#/$defs/integer"},
    }
    schema: Schema = {"type": "object", "additionalProperties": False, "properties": properties}
    if context != "ongoing":
        schema["required"] = ["id", "op"]
        return schema
    properties["controller"] = {"$ref": "#/$defs/text"}
    properties["source"] = {"$ref": "#/$defs/object_id"}
    schema["required"] = ["id", "op", "target", "timestamp", "controller"]
    # `self` in an ongoing effect is its source: mentioning it needs one.
    schema["if"] = {
        "anyOf": [
            {"properties": {"target": {"const": "self"}}, "required": ["target"]},
            {"properties": {"conditions": {"contains": _mentions_self()}}, "required": ["conditions"]},
        ]
    }
    schema["then"] = {"required": ["source"]}
    return schema


def _mentions_self() -> Schema:
    """A condition reading `self`: `mighty: self`, `of: self`, or no `of` (its default)."""
    return {
        "anyOf": [
            {"properties": {"mighty": {"const": "self"}}, "required": ["mighty"]},
            {"properties": {"of": {"const": "self"}}, "required": ["of"]},
            {"not": {"anyOf": [{"required": ["of"]}, {"required": ["mighty"]}]}},
        ]
    }


def _target(context: str) -> Schema:
    kinds = ["self", "bearer"] if context == "effect" else ["self"]
    return {
        "oneOf": [
            {"enum": kinds},
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["ids"],
                "properties": {
                    "ids": {"type": "array", "items": {"$ref": "#/$defs/object_id"}, "uniqueItems": True}
                },
            },
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["filter"],
                "properties": {"filter": {"$ref": "#/$defs/filter"}},
            },
        ],
        "description": f"default: {DEFAULT_TARGET[context]}" if context in DEFAULT_TARGET else "required",
    }


def _filter() -> Schema:
    fields: Schema = {
        "type": {"enum": list(CARD_TYPES)},
        "relation": {"enum": list(RELATIONS)},
        "tag": {"$ref": "#/$defs/text"},
        "zone": {"enum": list(ZONES)},
        "location": {"$ref": "#/$defs/text"},
        "other": {"type": "boolean"},
    }
    assert tuple(fields) == FILTER_KEYS
    return {"type": "object", "additionalProperties": False, "properties": fields}


_OP_FIELDS: dict[str, Schema] = {
    "of": {"$ref": "#/$defs/object_id"},
    "value": {"$ref": "#/$defs/integer"},
    "player": {"$ref": "#/$defs/text"},
    "tag": {"$ref": "#/$defs/text"},
    "amount": {"$ref": "#/$defs/amount"},
    "max": {"$ref": "#/$defs/integer"},
    "min": {"$ref": "#/$defs/integer"},
}


def _operation() -> Schema:
    variants = []
    for name, fields in OPERATIONS.items():
        properties: Schema = {"op": {"const": name}}
        for field_name in fields:
            if field_name == "keywords":
                item = "keyword" if name == "gain_keywords" else "keyword_name"
                properties[field_name] = {
                    "type": "array", "items": {"$ref": f"#/$defs/{item}"}, "minItems": 1, "uniqueItems": True
                }  # fmt: skip
            else:
                properties[field_name] = _OP_FIELDS[field_name]
        variants.append(
            {"type": "object", "additionalProperties": False, "required": ["op", *fields], "properties": properties}
        )
    return {"oneOf": variants}


_CONDITION_PARAMETERS: dict[str, Schema] = {
    "status": {"enum": list(STATUSES)},
    "might_at_least": {"$ref": "#/$defs/integer"},
    "has_keyword": {"$ref": "#/$defs/keyword_name"},
    "controlled_by": {"anyOf": [{"enum": list(RESERVED_PLAYERS)}, {"$ref": "#/$defs/text"}]},
}


def _condition(context: str) -> Schema:
    ref = {"$ref": f"#/$defs/{context}_ref"}
    mighty = {"type": "object", "additionalProperties": False, "required": ["mighty"], "properties": {"mighty": ref}}
    variants = [mighty]
    for kind in CONDITIONS:
        if kind == "mighty":
            continue
        variants.append(
            {
                "type": "object",
                "additionalProperties": False,
                "required": [kind],
                "properties": {kind: _CONDITION_PARAMETERS[kind], "of": ref},
            }
        )
    return {"oneOf": variants}
