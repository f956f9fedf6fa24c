"""The ASP term language for effects, in both directions.

Board facts (`riftasp facts`), the card library in `facts/cards/` and `.lp` boards all spell
operations, targets and conditions with these terms. Ids, names, players, tags and keywords are
strings; kinds (zones, types, statuses, operations) are constants.
"""

from __future__ import annotations

import clingo

from .model import Condition, Filter, Keyword, Operation, Target


def quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def ref_term(ref: str) -> str:
    """`self`, `bearer` and `target` are constants; an object id is a string."""
    return ref if ref in ("self", "bearer", "target") else quote(ref)


def op_terms(op: Operation) -> list[str]:
    """One term per fact: keyword operations give one fact per keyword."""
    n = op.name
    if n == "copy":
        return [f"copy({quote(op.of)})"]
    if n in ("set_might", "increase_to"):
        return [f"{n}({op.value})"]
    if n == "set_controller":
        return [f"set_controller({quote(op.player)})"]
    if n in ("add_tag", "remove_tag"):
        return [f"{n}({quote(op.tag)})"]
    if n == "gain_keywords":
        return [f"gain_keyword({quote(k.name)},{k.value or 0})" for k in op.keywords]
    if n == "lose_keywords":
        return [f"lose_keyword({quote(k.name)})" for k in op.keywords]
    if n in ("lose_all_abilities", "double"):
        return [n]
    if n in ("plus", "minus"):
        return [f"{n}({op.amount})"]
    if n == "plus_max":
        return [f"plus_max({op.amount},{op.max})"]
    if n == "minus_min":
        return [f"minus_min({op.amount},{op.min})"]
    raise ValueError(f"unknown operation {n!r}")


def target_facts(effect_term: str, target: Target) -> list[str]:
    facts = [f"effect_target({effect_term},{target.kind})."]
    for oid in target.ids:
        facts.append(f"effect_target_id({effect_term},{quote(oid)}).")
    if target.filter is not None:
        f = target.filter
        if f.card_type is not None:
            facts.append(f"effect_filter({effect_term},type({f.card_type})).")
        if f.relation is not None:
            facts.append(f"effect_filter({effect_term},relation({f.relation})).")
        if f.tag is not None:
            facts.append(f"effect_filter({effect_term},tag({quote(f.tag)})).")
        if f.zone is not None:
            facts.append(f"effect_filter({effect_term},zone({f.zone})).")
        if f.location is not None:
            facts.append(f"effect_filter({effect_term},location({quote(f.location)})).")
        if f.other:
            facts.append(f"effect_filter({effect_term},other).")
    return facts


def condition_term(c: Condition) -> str:
    r = ref_term(c.of)
    if c.kind == "mighty":
        return f"mighty({r})"
    if c.kind == "status":
        return f"status({r},{c.status})"
    if c.kind == "might_at_least":
        return f"might_at_least({r},{c.value})"
    if c.kind == "has_keyword":
        return f"has_keyword({r},{quote(c.keyword)})"
    if c.kind == "controlled_by":
        player = "you" if c.player == "you" else quote(c.player)
        return f"controlled_by({r},{player})"
    raise ValueError(f"unknown condition {c.kind!r}")


# ---- decoding: clingo symbols back into the model -------------------------------------------


def _text(sym: clingo.Symbol) -> str:
    return sym.string if sym.type == clingo.SymbolType.String else sym.name


def _num(sym: clingo.Symbol) -> int:
    return sym.number


def decode_ref(sym: clingo.Symbol) -> str:
    return _text(sym)


def decode_ops(syms: list[clingo.Symbol]) -> Operation:
    """Several gain_keyword/lose_keyword facts form one operation; anything else is one fact."""
    first = syms[0]
    name = first.name
    args = first.arguments
    if name == "gain_keyword":
        return Operation(
            "gain_keywords",
            keywords=tuple(Keyword(_text(s.arguments[0]), _num(s.arguments[1]) or None) for s in syms),
        )
    if name == "lose_keyword":
        return Operation("lose_keywords", keywords=tuple(Keyword(_text(s.arguments[0])) for s in syms))
    if len(syms) != 1:
        raise ValueError(f"an effect has several operations: {', '.join(map(str, syms))}")
    if name == "copy":
        return Operation("copy", of=_text(args[0]))
    if name in ("set_might", "increase_to"):
        return Operation(name, value=_num(args[0]))
    if name == "set_controller":
        return Operation(name, player=_text(args[0]))
    if name in ("add_tag", "remove_tag"):
        return Operation(name, tag=_text(args[0]))
    if name in ("lose_all_abilities", "double") and not args:
        return Operation(name)
    if name in ("plus", "minus"):
        return Operation(name, amount=_num(args[0]))
    if name == "plus_max":
        return Operation(name, amount=_num(args[0]), max=_num(args[1]))
    if name == "minus_min":
        return Operation(name, amount=_num(args[0]), min=_num(args[1]))
    raise ValueError(f"unknown operation {first}")


def decode_target(kind: str, ids: list[str], filters: list[clingo.Symbol]) -> Target:
    if kind in ("self", "bearer"):
        return Target(kind)
    if kind == "ids":
        return Target("ids", ids=tuple(ids))
    if kind != "filter":
        raise ValueError(f"unknown target kind {kind}")
    fields: dict = {}
    for f in filters:
        if f.name == "other":
            fields["other"] = True
        elif f.name == "type":
            fields["card_type"] = _text(f.arguments[0])
        else:
            fields[f.name] = _text(f.arguments[0])
    return Target("filter", filter=Filter(**fields))


def decode_condition(sym: clingo.Symbol) -> Condition:
    name, args = sym.name, sym.arguments
    of = decode_ref(args[0])
    if name == "mighty":
        return Condition("mighty", of=of)
    if name == "status":
        return Condition("status", of=of, status=_text(args[1]))
    if name == "might_at_least":
        return Condition("might_at_least", of=of, value=_num(args[1]))
    if name == "has_keyword":
        return Condition("has_keyword", of=of, keyword=_text(args[1]))
    if name == "controlled_by":
        return Condition("controlled_by", of=of, player=_text(args[1]))
    raise ValueError(f"unknown condition {sym}")
