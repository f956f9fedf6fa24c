"""The ASP term language for effects, in both directions.

Board facts (`riftasp facts`), the card library in `facts/cards/` and `.lp` boards all spell
operations, targets and conditions with these terms. Ids, names, players, tags and keywords are
strings; kinds (zones, types, statuses, operations) are constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import clingo

from .conditions import CONDITIONS
from .filters import FILTERS
from .kinds import Kind
from .model import Condition, Filter, Keyword, Operation, Target
from .operations import OPERATIONS, by_functor


def quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def ref_term(ref: str) -> str:
    """`self`, `bearer` and `target` are constants; an object id is a string."""
    return ref if ref in ("self", "bearer", "target") else quote(ref)


def op_terms(op: Operation) -> list[str]:
    """One term per fact: an operation with a list (`each`) gives one fact per item."""
    spec = OPERATIONS.get(op.name)
    if spec is None:
        raise ValueError(f"unknown operation {op.name!r}")
    if spec.each:
        ((key, kind),) = spec.fact_kinds
        return [_term(spec.functor, _arguments(kind, item)) for item in getattr(op, key)]
    return [_term(spec.functor, [a for key, kind in spec.fact_kinds for a in _arguments(kind, getattr(op, key))])]


def _term(functor: str, arguments: list[str]) -> str:
    return f"{functor}({','.join(arguments)})" if arguments else functor


def _arguments(kind: Kind, value: Any) -> list[str]:
    """A parameter's arguments: numbers as numbers, a keyword as its name and number (0: none),
    anything else (ids, players, tags) as a string."""
    if kind.name in ("integer", "amount"):
        return [str(value)]
    if kind.name == "keyword":
        return [quote(value.name), str(value.value or 0)]
    if kind.name == "keyword_name":
        return [quote(value.name)]
    return [quote(value)]


def target_facts(effect_term: str, target: Target) -> list[str]:
    facts = [f"effect_target({effect_term},{target.kind})."]
    for oid in target.ids:
        facts.append(f"effect_target_id({effect_term},{quote(oid)}).")
    if target.filter is not None:
        # One fact per kind of filter it sets: `key(Value)`, a flag as `key`; a string for a
        # text, a constant for an enumeration (the filters' registry).
        for key, spec in FILTERS.items():
            value = getattr(target.filter, spec.name)
            if value is None:
                continue
            if spec.kind.name == "boolean":
                facts.append(f"effect_filter({effect_term},{key}).")
            else:
                argument = value if spec.kind.name == "enum" else quote(value)
                facts.append(f"effect_filter({effect_term},{key}({argument})).")
    return facts


def condition_term(c: Condition) -> str:
    """`kind(Of, Parameter)`, or `kind(Of)` for a kind whose key names its object."""
    spec = CONDITIONS.get(c.kind)
    if spec is None:
        raise ValueError(f"unknown condition {c.kind!r}")
    r = ref_term(c.of)
    if spec.key is None or spec.parameter is None:
        return f"{c.kind}({r})"
    value = getattr(c, spec.key)
    kind = spec.parameter.name
    if kind in ("integer", "amount"):
        parameter = str(value)
    elif kind == "enum" or (kind == "player_or_you" and value == "you"):
        parameter = value  # a constant: a status, or `you` for the effect's controller
    else:
        parameter = quote(value)
    return f"{c.kind}({r},{parameter})"


# ---- decoding: clingo symbols back into the model -------------------------------------------


class SymbolLike(Protocol):
    """What the decoders read of a term: a clingo.Symbol (the card library), or the `.lp`
    board reader's plain-Python Term (riftasp/board_io/lp_parsing.py)."""

    @property
    def type(self) -> clingo.SymbolType: ...
    @property
    def name(self) -> str: ...
    @property
    def arguments(self) -> Sequence[SymbolLike]: ...
    @property
    def string(self) -> str: ...
    @property
    def number(self) -> int: ...


def _text(sym: SymbolLike) -> str:
    return sym.string if sym.type == clingo.SymbolType.String else sym.name


def _num(sym: SymbolLike) -> int:
    return sym.number


def decode_ref(sym: SymbolLike) -> str:
    return _text(sym)


def decode_ops(syms: Sequence[SymbolLike]) -> Operation:
    """The facts of one effect's operation: one, or one per item for an operation with a list."""
    first = syms[0]
    spec = by_functor(first.name) if first.type == clingo.SymbolType.Function else None
    if spec is None:
        raise ValueError(f"unknown operation {first}")
    if spec.each:
        ((key, kind),) = spec.fact_kinds
        return Operation(spec.name, **{key: tuple(_decode(kind, list(s.arguments))[0] for s in syms)})
    if len(syms) != 1:
        raise ValueError(f"an effect has several operations: {', '.join(map(str, syms))}")
    args: Sequence[SymbolLike] = list(first.arguments)
    values: dict[str, Any] = {}
    for key, kind in spec.fact_kinds:
        values[key], args = _decode(kind, args)
    if args:
        raise ValueError(f"unknown operation {first}")
    return Operation(spec.name, **values)


def argument_count(kind: Kind) -> int:
    """How many of a term's arguments a parameter of this kind takes."""
    return 2 if kind.name == "keyword" else 1


def _decode(kind: Kind, args: Sequence[SymbolLike]) -> tuple[Any, Sequence[SymbolLike]]:
    """A parameter's value from the first arguments, and the arguments left."""
    n = argument_count(kind)
    if len(args) < n:
        raise ValueError("too few arguments")
    taken, rest = args[:n], args[n:]
    if kind.name in ("integer", "amount"):
        return _num(taken[0]), rest
    if kind.name == "keyword":
        return Keyword(_text(taken[0]), _num(taken[1]) or None), rest
    if kind.name == "keyword_name":
        return Keyword(_text(taken[0])), rest
    return _text(taken[0]), rest


def decode_target(kind: str, ids: list[str], filters: Sequence[SymbolLike]) -> Target:
    if kind in ("self", "bearer"):
        return Target(kind)
    if kind == "ids":
        return Target("ids", ids=tuple(ids))
    if kind != "filter":
        raise ValueError(f"unknown target kind {kind}")
    fields: dict = {}
    for f in filters:
        spec = FILTERS.get(f.name)
        if spec is None:
            raise ValueError(f"unknown filter {f}")
        fields[spec.name] = True if spec.kind.name == "boolean" else _text(f.arguments[0])
    return Target("filter", filter=Filter(**fields))


def decode_condition(sym: SymbolLike) -> Condition:
    spec = CONDITIONS.get(sym.name) if sym.type == clingo.SymbolType.Function else None
    if spec is None or len(sym.arguments) != (1 if spec.key is None else 2):
        raise ValueError(f"unknown condition {sym}")
    of = decode_ref(sym.arguments[0])
    if spec.key is None or spec.parameter is None:
        return Condition(spec.kind, of=of)
    arg = sym.arguments[1]
    value = _num(arg) if spec.parameter.name in ("integer", "amount") else _text(arg)
    return Condition(spec.kind, of=of, **{spec.key: value})
