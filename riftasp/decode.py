"""The solved model → a Resolution (characteristics, applications and reports)."""

from __future__ import annotations

from collections import defaultdict

import clingo

from .result import Application, Characteristics, Resolution, Withdrawal
from .rulesets import output_fields
from .solver import RoundWithdrawal

def instance_id(sym: clingo.Symbol, copied: set[clingo.Symbol]) -> str:
    """The name users see for an instance term (docs/semantics.md §2)."""
    args = [a.string if a.type == clingo.SymbolType.String else str(a) for a in sym.arguments]
    if sym.name == "og":
        return args[0]
    if sym.name == "ab":
        return f"{args[0]}@{args[1]}" if sym in copied else args[0]
    if sym.name == "buff":
        return f"buff:{args[0]}"
    if sym.name == "bonus":
        return f"bonus:{args[0]}"
    if sym.name == "kw":
        keyword, source, obj = sym.arguments
        base = f"keyword:{args[0]}:{args[2]}"
        return base if source.name == "printed" else f"{base}:{instance_id(source, copied)}"
    return str(sym)


def _s(sym: clingo.Symbol):
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Number:
        return sym.number
    return str(sym)


def decode(
    symbols: list[clingo.Symbol], ruleset: str, withdrawn: list[RoundWithdrawal] = ()
) -> Resolution:
    by: dict[str, list[tuple]] = defaultdict(list)
    copied: set[clingo.Symbol] = set()
    for sym in symbols:
        if sym.name == "copied":
            copied.add(sym.arguments[0])
        else:
            by[sym.name].append(tuple(sym.arguments))

    names: dict[clingo.Symbol, str] = {}

    def name(sym: clingo.Symbol) -> str:
        # Symbol access crosses into C on every call: name each instance once.
        if sym not in names:
            names[sym] = instance_id(sym, copied)
        return names[sym]

    objects = _characteristics(by, copied, ruleset)
    stages = {str(a[0]): (str(a[2]), None if str(a[3]) == "none" else str(a[3])) for a in by["stage"]}
    reasons: dict[tuple, list[str]] = defaultdict(list)
    for inst, obj, step, why in by["reason"]:
        reasons[(inst, obj, step.number)].append(str(why))
    depends: dict[tuple, list[str]] = defaultdict(list)
    for inst, obj, on in by["dependency"]:
        depends[(inst, obj)].append(name(on))
    # cycle_member(O, P, I, Q): in step P the application to O was in a cycle with I on Q.
    cycle_sets: dict[tuple, set[str]] = defaultdict(set)
    for obj, step, inst, _ in by["cycle_member"]:
        cycle_sets[(obj, step.number)].add(name(inst))

    applied: dict[str, list[Application]] = defaultdict(list)
    trace = _traces(by, lambda effect, obj: _ability_name(effect, obj, copied))
    for inst, obj, step, stage, stamp in by["applied"]:
        oid, p = obj.string, step.number
        layer, sublayer = stages[str(stage)]
        why_tags = sorted(set(reasons[(inst, obj, p)]))
        deps = sorted(depends[(inst, obj)])
        if deps:
            why_tags = sorted(set(why_tags) | {"dependency"})
        why_tags = ["timestamp"] + [t for t in why_tags if t != "timestamp"]
        characteristic, before, after = trace[(oid, p)]
        applied[oid].append(
            Application(
                effect=name(inst),
                step=p,
                layer=layer,
                sublayer=sublayer,
                timestamp=stamp.number,
                why=_why(layer, stamp.number, why_tags, deps, sorted(cycle_sets.get((obj, p), set()) - {name(inst)})),
                reasons=tuple(why_tags),
                depends_on=tuple(deps),
                characteristic=characteristic,
                before=before,
                after=after,
            )
        )
    for apps in applied.values():
        apps.sort(key=lambda a: a.step)

    # A cycle is reported when two or more of its members exist (docs/semantics.md §6.7).
    cycles = sorted({tuple(sorted(m)) for m in cycle_sets.values() if len(m) >= 2})
    loops: dict[str, list[str]] = defaultdict(list)
    for group, obj in by["loop_member"]:
        loops[group.string].append(obj.string)
    ties = sorted({tuple(sorted((name(a), name(b)))) for a, b, _, _ in by["tie"] if name(a) != name(b)})
    needs: dict[str, list[str]] = defaultdict(list)
    for obj, other in by["needs"]:
        needs[obj.string].append(other.string)
    return Resolution(
        ruleset=ruleset,
        objects=objects,
        applied=dict(applied),
        dependency_cycles=[list(c) for c in cycles],
        object_loops=sorted(sorted(members) for members in loops.values()),
        timestamp_ties=[list(t) for t in ties],
        needs={oid: sorted(q) for oid, q in needs.items()},
        withdrawn=_withdrawn(withdrawn, name),
        withdrawals=[
            Withdrawal(w.object.string, name(w.instance), w.round, w.failed,
                       tuple(sorted({name(c) for c, _ in w.because})))
            for w in withdrawn
        ],
        paradoxes=_paradoxes(by["reported_paradox"], name),
    )


def _withdrawn(rounds: list[RoundWithdrawal], name) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for w in rounds:
        out[w.object.string].append(name(w.instance))
    return {oid: sorted(ids) for oid, ids in out.items()}


def _paradoxes(rows: list[tuple], name) -> list[list[str]]:
    """reported_paradox(Id, I, O): the paradox recorded as Id names instance I (on O)."""
    sets: dict[clingo.Symbol, set[str]] = defaultdict(set)
    for pid, inst, _ in rows:
        sets[pid].add(name(inst))
    return sorted(sorted(members) for members in sets.values())


def _ability_name(effect: clingo.Symbol, holder: clingo.Symbol, copied: set[clingo.Symbol]) -> str:
    """An ability as its holder holds it: `E`, or `E@H` when a copy brought it (§2)."""
    if clingo.Function("ab", [effect, holder]) in copied:
        return f"{effect.string}@{holder.string}"
    return effect.string


def _characteristics(
    by: dict[str, list[tuple]], copied: set[clingo.Symbol], ruleset: str
) -> dict[str, Characteristics]:
    fields = output_fields(ruleset)
    values: dict[str, dict] = defaultdict(dict)
    keywords: dict[str, dict[str, int]] = defaultdict(dict)
    zones: dict[str, str] = {}
    abilities: dict[str, list[str]] = defaultdict(list)
    # The characteristic families (state.lp): one value, or the members of a set.
    for obj, char, value in by["result_value"]:
        values[obj.string][char.name] = _s(value)
    for obj, char, value in by["result_member"]:
        values[obj.string].setdefault(char.name, []).append(_s(value))
    for obj, keyword, value in by["result_keyword"]:
        keywords[obj.string][keyword.string] = value.number
    for obj, zone in by["result_zone"]:
        zones[obj.string] = str(zone)
    for obj, effect in by["result_ability"]:
        abilities[obj.string].append(_ability_name(effect, obj, copied))
    # Every object a result atom names, in the order they first come (callers iterate it).
    objects = dict.fromkeys([*values, *keywords, *zones, *abilities])
    # A flag is a shown atom of its own, result_<key>(O) (Riftbound's result_mighty/1).
    flags = {f.key: {obj.string for (obj,) in by[f"result_{f.key}"]} for f in fields if f.kind == "flag"}
    own = {f.key for f in fields}
    return {
        oid: Characteristics(
            fields,
            {k: v for k, v in values[oid].items() if k in own} | {k: oid in held for k, held in flags.items()},
            keywords=keywords[oid],
            zone=zones.get(oid, "base"),
            abilities=abilities[oid],
        )
        for oid in objects
    }


def _traces(by: dict[str, list[tuple]], name_of_ability) -> dict[tuple[str, int], tuple[str, object, object]]:
    """(object, step) → (characteristic, before, after) for the application made then.

    Set-valued characteristics start empty, so an application that leaves no tag still reports
    [] rather than nothing.
    """
    chars = {(o.string, p.number): str(ch) for o, p, ch in by["trace_char"]}
    sets = {str(ch) for (ch,) in by["set_valued"]}  # reported as sorted lists, [] when empty
    values: dict[tuple, object] = {}
    for obj, step, when, _char, value in by["trace_value"]:
        values[(obj.string, step.number, str(when))] = _s(value)
    for obj, step, when, value in by["trace_root"]:
        values[(obj.string, step.number, str(when))] = value.string
    members: dict[tuple, list] = defaultdict(list)
    for obj, step, when, _char, value in by["trace_member"]:
        members[(obj.string, step.number, str(when))].append(_s(value))
    keywords: dict[tuple, dict[str, int]] = defaultdict(dict)
    for obj, step, when, keyword, value in by["trace_keyword"]:
        keywords[(obj.string, step.number, str(when))][keyword.string] = value.number
    abilities: dict[tuple, list[str]] = defaultdict(list)
    for obj, step, when, effect in by["trace_ability"]:
        abilities[(obj.string, step.number, str(when))].append(name_of_ability(effect, obj))

    def value(char: str, key: tuple) -> object:
        if char in sets:
            return sorted(members[key])
        if char == "keywords":
            return dict(sorted(keywords[key].items()))
        if char == "abilities":
            return {"abilities": sorted(abilities[key]), "keywords": dict(sorted(keywords[key].items()))}
        return values.get(key)

    return {
        (oid, p): (char, value(char, (oid, p, "before")), value(char, (oid, p, "after")))
        for (oid, p), char in chars.items()
    }


def _why(layer: str, stamp: int, tags: list[str], deps: list[str], partners: list[str]) -> str:
    parts = [f"{layer} layer, timestamp {stamp}"]
    if "dependency" in tags:
        parts.append(f"after {', '.join(deps)}, which it depends on")
    if "immediately_after" in tags:
        parts.append("immediately after the effect it depends on")
    if "cycle" in tags:
        parts.append(f"mutual dependency with {', '.join(partners)}: timestamp order")
    if "recheck" in tags:
        parts.append(f"recheck: returned to the {layer} layer after a later layer made it applicable")
    if "unblocked" in tags:
        parts.append("conditions waiting on each other, checked on the current state")
    if "tie" in tags:
        parts.append("timestamp tie broken by board order")
    return "; ".join(parts)
