"""The JSON Schema (draft 2020-12) of the board format, docs/board-format.md.

It is derived from the format's description in `riftasp.board_io.fields`, which the reader's
shape checks follow too: its parts, keys, kinds and enumerations, and the rules between keys.
This module only says how each kind is written in JSON Schema. What a schema cannot say (ids
that must exist, attachment cycles, duplicate effect ids across objects) only the reader
checks, so every board the reader accepts validates, and a board that fails the schema is
rejected by the reader too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .board_io.fields import (
    BOARD,
    CONDITION_PARAMETERS,
    CONTEXTS,
    DEFAULT_TARGET,
    EFFECT,
    EFFECT_REQUIRED,
    FILTER,
    KEYWORD_NAME_PATTERN,
    KEYWORD_PATTERN,
    ONGOING_ONLY,
    OPERATION_FIELDS,
    REF,
    RESERVED_ID_CHARACTERS,
    RESERVED_PLAYERS,
    REALM,
    SETTINGS,
    TARGET,
    TARGET_WORDS,
    WITHOUT_CARD_REQUIRED,
    Kind,
    Part,
    object_part,
    printed_keys,
    type_limited_keys,
)
from .cards import library
from .conditions import CONDITIONS
from .limits import VALUE_MAX, VALUE_MIN
from .model import SYMBOLIC_REFS
from .operations import OPERATIONS
from .rulesets import Ruleset, all_rulesets, known

Schema = dict[str, Any]

# Kinds whose definition depends on the effect holding them: `#/$defs/<context>_<kind>`.
CONTEXTUAL = ("target", "condition", "ref")


def board_schema(ruleset: Ruleset | None = None) -> Schema:
    """The JSON Schema of a board of `ruleset`: its objects' own keys, operations and kinds of
    condition are its plugin's and its manifest's."""
    if ruleset is None:
        from .rulesets import default_ruleset, ruleset as ruleset_named

        ruleset = ruleset_named(default_ruleset())
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "riftasp board",
        "description": f"A {ruleset} board state; see docs/board-format.md.",
        **_part(BOARD),
        "$defs": _definitions(ruleset),
    }


def _value(kind: Kind, context: str = "") -> Schema:
    """What a key of `kind` holds: inline, or a reference to its definition."""
    if kind.name == "array":
        assert kind.item is not None  # an array's kind has its item (kinds.array)
        schema: Schema = {"type": "array", "items": _value(kind.item, context)}
        if kind.non_empty:
            schema["minItems"] = 1
        if kind.unique:
            schema["uniqueItems"] = True
        return schema
    if kind.name == "enum":
        return {"enum": list(kind.choices)}
    if kind.name in _INLINE:
        return _INLINE[kind.name]()
    if kind.name in CONTEXTUAL:
        return {"$ref": f"#/$defs/{context}_{kind.name}"}
    return {"$ref": f"#/$defs/{kind.name}"}


def _part(part: Part, context: str = "") -> Schema:
    schema: Schema = {"type": "object", "additionalProperties": False}
    if part.required:
        schema["required"] = list(part.required)
    schema["properties"] = {key: _value(kind, context) for key, kind in part.fields.items()}
    return schema


def _definitions(ruleset: Ruleset) -> Schema:
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
        "keyword_name": {"type": "string", "pattern": f"^{KEYWORD_NAME_PATTERN}$"},
        "object": _object(ruleset),
        "operation": _operation(ruleset),
        "filter": _part(FILTER),
    }
    for context in CONTEXTS:
        defs[f"{context}_effect"] = _effect(context)
        defs[f"{context}_target"] = _target(context)
        defs[f"{context}_ref"] = _ref(context)
        defs[f"{context}_condition"] = _condition(context, ruleset)
    return defs


def _ref(context: str) -> Schema:
    """An object a condition reads: `self`, `target`, `bearer` (Effect Text) or an object id."""
    symbols = [r for r in SYMBOLIC_REFS if r != "bearer" or context == "effect"]
    return {"anyOf": [{"enum": symbols}, {"$ref": "#/$defs/object_id"}]}


def _object(ruleset: Ruleset) -> Schema:
    schema = _part(object_part(ruleset))
    own = ruleset.object_fields
    # not two statuses the ruleset says exclude each other (Riftbound: attacking and defending)
    groups = ruleset.vocabulary.exclusive_statuses
    if len(groups) == 1:
        schema["properties"]["status"]["not"] = {"allOf": [{"contains": {"const": status}} for status in groups[0]]}
    elif groups:
        schema["properties"]["status"]["not"] = {"anyOf": [
            {"allOf": [{"contains": {"const": status}} for status in group]} for group in groups]}  # fmt: skip
    return schema | {
        # A card gives the printed fields; without one, name and type are needed.
        "if": {"required": ["card"]},
        "then": {"not": {"anyOf": [{"required": [key]} for key in printed_keys(ruleset)]}},
        "else": {"required": list(WITHOUT_CARD_REQUIRED)},
        # A stamp needs what it stamps (and a flag's, the flag set).
        "dependentRequired": {"attached_since": ["attached_to"], **{f.stamp: [f.key] for f in own if f.stamp}},
        # Keys only some types may have (Effect Text: gear).
        "allOf": [{
            "if": {"required": ["type"], "properties": {"type": {"not": {"enum": list(types)}}}},
            "then": {"not": {"anyOf": [{"required": [key]}]}},
        } for types, key, _ in type_limited_keys(ruleset)],  # fmt: skip
        "dependentSchemas": {f.stamp: {"properties": {f.key: {"const": True}}} for f in own if f.stamp},
    }


def _effect(context: str) -> Schema:
    keys = [key for key in EFFECT.fields if context == "ongoing" or key not in ONGOING_ONLY]
    properties = {key: _value(EFFECT.fields[key], context) for key in keys}
    schema: Schema = {"type": "object", "additionalProperties": False, "properties": properties}
    schema["required"] = list(EFFECT_REQUIRED[context])
    if context != "ongoing":
        return schema
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
    """A condition reading `self`: `mighty: self` (a kind that names its object itself),
    `of: self`, or neither (`of` defaults to self)."""
    own = [kind for kind, spec in CONDITIONS.items() if spec.key is None]
    return {
        "anyOf": [
            *({"properties": {kind: {"const": "self"}}, "required": [kind]} for kind in own),
            {"properties": {"of": {"const": "self"}}, "required": ["of"]},
            {"not": {"anyOf": [{"required": [key]} for key in ("of", *own)]}},
        ]
    }


def _target(context: str) -> Schema:
    words = [word for word in TARGET_WORDS if word != "bearer" or context == "effect"]
    forms = [_one_key(key, _value(kind, context)) for key, kind in TARGET.fields.items()]
    return {
        "oneOf": [{"enum": words}, *forms],
        "description": f"default: {DEFAULT_TARGET[context]}" if context in DEFAULT_TARGET else "required",
    }


def _one_key(key: str, value: Schema, **more: Schema) -> Schema:
    """An object that must have `key` (and may have the keys of `more`)."""
    return {"type": "object", "additionalProperties": False, "required": [key], "properties": {key: value, **more}}


def _operation(ruleset: Ruleset) -> Schema:
    variants = []
    named = set(ruleset.operations)
    for name, keys in OPERATION_FIELDS.items():
        if OPERATIONS[name].functor not in named:
            continue
        properties: Schema = {"op": {"const": name}} | {key: _value(kind) for key, kind in keys.items()}
        variants.append(
            {"type": "object", "additionalProperties": False, "required": ["op", *keys], "properties": properties}
        )
    return {"oneOf": variants}


def _condition(context: str, ruleset: Ruleset) -> Schema:
    variants = []
    listed = ruleset.condition_kinds
    for kind, parameter in CONDITION_PARAMETERS.items():
        if kind not in listed:
            continue
        # A kind without a parameter (`mighty`) names its object itself; the others may in `of`.
        more = {} if CONDITIONS[kind].key is None else {"of": _value(REF, context)}
        variants.append(_one_key(kind, _value(parameter, context), **more))
    return {"oneOf": variants}


_INLINE: dict[str, Callable[[], Schema]] = {
    "boolean": lambda: {"type": "boolean"},
    "ruleset": lambda: {"enum": known()},
    "card": lambda: {"enum": sorted({name for r in all_rulesets() for name in library(r)})},
    "settings": lambda: _part(SETTINGS),
    "realm": lambda: _part(REALM),
    "player_or_you": lambda: {"anyOf": [{"enum": list(RESERVED_PLAYERS)}, {"$ref": "#/$defs/text"}]},
}


def timeline_schema(ruleset: Ruleset | None = None) -> Schema:
    """The JSON Schema of a timeline of `ruleset`: a board (the starting state) with `events`,
    each one of the kinds riftasp/timeline/log.py's table describes."""
    from .timeline.log import EVENT_WORDS, EVENTS

    schema = board_schema(ruleset)
    defs = schema["$defs"]
    stamps = {"not": {"anyOf": [{"required": ["since"]}, {"required": ["attached_since"]}, {"required": ["timestamp"]}]}}
    ongoing = dict(defs["ongoing_effect"], required=[k for k in defs["ongoing_effect"]["required"] if k != "timestamp"])
    defs["entering_object"] = {"allOf": [{"$ref": "#/$defs/object"}, stamps]}
    defs["started_effect"] = {"allOf": [ongoing, stamps]}
    values: dict[str, Schema] = {
        "id": {"$ref": "#/$defs/id"}, "zone": {"$ref": "#/$defs/text"}, "player": {"$ref": "#/$defs/player"},
        "field": {"$ref": "#/$defs/text"}, "any": {},
        "object": {"$ref": "#/$defs/entering_object"},
        "objects": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/entering_object"}},
        "effect": {"$ref": "#/$defs/started_effect"},
        "effects": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/started_effect"}},
        "ids": {"type": "array", "items": {"$ref": "#/$defs/object_id"}},
    }  # fmt: skip
    variants = []
    for kind, (required, optional) in EVENTS.items():
        properties = {"event": {"const": kind}, "time": {"$ref": "#/$defs/integer"}}
        properties |= {key: values[value] for key, value in {**required, **optional}.items()}
        variant: Schema = {"type": "object", "description": EVENT_WORDS[kind], "additionalProperties": False,
                           "required": ["event", *required], "properties": properties}
        if "effects" in optional:  # one effect, or a list of them
            variant["oneOf"] = [{"required": ["effect"]}, {"required": ["effects"]}]
        variants.append(variant)
    defs["event"] = {"oneOf": variants}
    schema["title"] = "riftasp timeline"
    schema["description"] = (f"A {ruleset or 'riftbound'} game: a starting board and its events in order; "
                             f"see docs/board-format.md, Timelines.")
    schema["properties"]["events"] = {"type": "array", "items": {"$ref": "#/$defs/event"}}
    schema["required"] = [*schema.get("required", []), "events"]
    return schema
