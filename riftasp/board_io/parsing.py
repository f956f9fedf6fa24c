"""JSON and YAML syntax: text into plain data (dicts, lists, strings, numbers, booleans).

Both parsers keep what the shape checks must still see: a key given twice (`Mapping`) and a
number too long to convert (`LongNumber`). YAML's costly features are refused before they
cost: aliases, and brackets nested deeper than a board needs.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import BoardError, text_position

# Numbers longer than this are not converted (Python refuses over 4,300 digits, and slowly).
LONGEST_NUMBER = 40
# How deep [ ] and { } may nest in a YAML board (see _check_flow_depth).
MAX_FLOW_DEPTH = 100
_BRACKETS = re.compile(r"[\[\]{}]")
YAML_HINT = "reading YAML boards needs PyYAML: pip install riftasp[yaml]"


class Mapping(dict):
    """A parsed JSON/YAML object that remembers keys given twice (the parsers keep the last)."""

    duplicates: tuple[Any, ...] = ()


def _mapping_from_pairs(pairs: list[tuple[Any, Any]]) -> Mapping:
    mapping = Mapping(pairs)
    if len(mapping) != len(pairs):
        seen: set[Any] = set()
        duplicates = []
        for key, _ in pairs:
            if key in seen:
                duplicates.append(key)
            seen.add(key)
        mapping.duplicates = tuple(duplicates)
    return mapping


class LongNumber:
    """A number too long to convert (Python refuses over 4,300 digits): reported where it is."""

    def __init__(self, text: str) -> None:
        self.length = len(text)

    def __repr__(self) -> str:
        return f"a number written with {self.length:,} characters"


def _parse_int(text: str) -> int | LongNumber:
    return int(text) if len(text) <= LONGEST_NUMBER else LongNumber(text)


def _parse_float(text: str) -> float | LongNumber:
    return float(text) if len(text) <= LONGEST_NUMBER else LongNumber(text)


def parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(
            text, object_pairs_hook=_mapping_from_pairs, parse_int=_parse_int, parse_float=_parse_float
        )
    except json.JSONDecodeError as problem:
        where = f"line {problem.lineno} column {problem.colno}"
        raise BoardError(source, where, f"invalid JSON: {problem.msg}") from None
    except RecursionError:
        raise BoardError(source, "file", "invalid JSON: nested too deeply") from None


def parse_yaml(text: str, source: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise BoardError(source, "file", YAML_HINT) from None
    _check_flow_depth(text, source)

    class Loader(yaml.SafeLoader):
        pass

    def construct_mapping(loader: Loader, node: yaml.MappingNode) -> Mapping:
        # Merge keys (`<<`) are not flattened: the safe loader then rejects them as an
        # unknown tag, rather than an override being mistaken for a duplicate key.
        pairs = loader.construct_pairs(node, deep=True)
        for (key, _), (key_node, _) in zip(pairs, node.value):
            if not isinstance(key, (str, int, float, bool, type(None))):
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a scalar", key_node.start_mark
                )
        return _mapping_from_pairs(pairs)

    def construct_number(loader: Loader, node: yaml.ScalarNode) -> Any:
        if len(node.value) > LONGEST_NUMBER:  # also base-60 "1:2:3:…", slow to convert
            return LongNumber(node.value)
        return constructors[node.tag](loader, node)

    def compose_node(loader: Loader, parent: Any, index: Any) -> Any:
        # An alias repeats a whole subtree: a few lines could stand for billions of objects.
        if loader.check_event(yaml.AliasEvent):
            mark = loader.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in a board", mark)
        return yaml.SafeLoader.compose_node(loader, parent, index)

    constructors = yaml.SafeLoader.yaml_constructors
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    for tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        Loader.add_constructor(tag, construct_number)
    # (method-assign with PyYAML's stubs, types-PyYAML; without them yaml is Any and the ignore
    # goes unused, which is no error either.)
    Loader.compose_node = compose_node  # type: ignore[method-assign, unused-ignore]
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else "file"
        what = problem.problem or problem.context
        if what and what.startswith("but ") and problem.context:  # "…, but found another document"
            what = f"{problem.context}, {what}"
        raise BoardError(source, where, f"invalid YAML: {what}") from None
    except yaml.reader.ReaderError as problem:
        where = text_position(text, problem.position)
        character = chr(problem.character) if isinstance(problem.character, int) else problem.character
        raise BoardError(source, where, f"invalid YAML: {problem.reason} ({character!r})") from None
    except yaml.YAMLError as problem:
        raise BoardError(source, "file", f"invalid YAML: {problem}") from None
    except RecursionError:
        raise BoardError(source, "file", "invalid YAML: nested too deeply") from None
    except ValueError as problem:  # a scalar the safe loader cannot convert, e.g. 2001-13-45
        raise BoardError(source, "file", f"invalid YAML: {problem}") from None


def _check_flow_depth(text: str, source: str) -> None:
    """PyYAML's scanner takes time quadratic in the nesting of [ ] and { }: a line of brackets
    would hang it. A board nests a few levels; brackets inside quoted text count here too, so
    the bound is generous."""
    depth = 0
    for bracket in _BRACKETS.finditer(text):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_FLOW_DEPTH:
            raise BoardError(source, text_position(text, bracket.start()), "invalid YAML: nested too deeply")
