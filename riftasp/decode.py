"""The solved model → a Resolution (characteristics, applications and reports)."""

from __future__ import annotations

from collections import defaultdict

import clingo

from .result import Application, Characteristics, Resolution, Withdrawal
from .solver import RoundWithdrawal

# What each operation changes, named in the trace even when the value stays the same.
CHARACTERISTIC_OF_OP = {
    "copy": "copy", "set_controller": "controller", "add_tag": "tags", "remove_tag": "tags",
    "gain_keyword": "keywords", "lose_keyword": "keywords", "lose_all_abilities": "abilities",
}


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

    objects = _characteristics(by, copied)
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
    trace = _traces(by)
    ops = {inst: str(op) for inst, op in by["applied_op"]}
    for inst, obj, step, stage, stamp in by["applied"]:
        oid, p = obj.string, step.number
        layer, sublayer = stages[str(stage)]
        why_tags = sorted(set(reasons[(inst, obj, p)]))
        deps = sorted(depends[(inst, obj)])
        if deps:
            why_tags = sorted(set(why_tags) | {"dependency"})
        why_tags = ["timestamp"] + [t for t in why_tags if t != "timestamp"]
        _, before, after = trace.get((oid, p), (None, None, None))
        characteristic = CHARACTERISTIC_OF_OP.get(ops.get(inst, ""), "might")
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


def _characteristics(by: dict[str, list[tuple]], copied: set[clingo.Symbol]) -> dict[str, Characteristics]:
    fields: dict[str, dict] = defaultdict(
        lambda: {"tags": [], "types": [], "keywords": {}, "abilities": []}
    )
    for obj, value in by["result_name"]:
        fields[obj.string]["name"] = value.string
    for obj, value in by["result_controller"]:
        fields[obj.string]["controller"] = value.string
    for obj, value in by["result_might"]:
        fields[obj.string]["might"] = value.number
    for obj, value in by["result_tag"]:
        fields[obj.string]["tags"].append(value.string)
    for obj, value in by["result_type"]:
        fields[obj.string]["types"].append(str(value))
    for obj, keyword, value in by["result_keyword"]:
        fields[obj.string]["keywords"][keyword.string] = value.number
    for obj, zone in by["result_zone"]:
        fields[obj.string]["zone"] = str(zone)
    for obj, effect in by["result_ability"]:
        held = clingo.Function("ab", [effect, obj])
        fields[obj.string]["abilities"].append(
            f"{effect.string}@{obj.string}" if held in copied else effect.string
        )
    mighty = {obj.string for (obj,) in by["result_mighty"]}
    return {
        oid: Characteristics(
            name=f.get("name", oid),
            controller=f.get("controller"),
            might=f.get("might"),
            mighty=oid in mighty,
            tags=tuple(sorted(f["tags"])),
            types=tuple(sorted(f["types"])),
            keywords=dict(sorted(f["keywords"].items())),
            zone=f.get("zone", "base"),
            abilities=tuple(sorted(f["abilities"])),
        )
        for oid, f in fields.items()
    }


def _traces(by: dict[str, list[tuple]]) -> dict[tuple[str, int], tuple[str, object, object]]:
    """(object, step) → (characteristic, before, after) for the application made then."""
    out: dict[tuple[str, int], tuple[str, object, object]] = {}
    values: dict[tuple[str, int, str, str], object] = {}
    for obj, step, when, value in by["trace_might"]:
        values[(obj.string, step.number, "might", str(when))] = value.number
        out[(obj.string, step.number)] = ("might", None, None)
    for obj, step, when, value in by["trace_controller"]:
        values[(obj.string, step.number, "controller", str(when))] = value.string
        out[(obj.string, step.number)] = ("controller", None, None)
    tag_sets: dict[tuple, list[str]] = defaultdict(list)
    for obj, step, when, value in by["trace_tag"]:
        tag_sets[(obj.string, step.number, str(when))].append(value.string)
    keyword_sets: dict[tuple, dict[str, int]] = defaultdict(dict)
    for obj, step, when, keyword, value in by["trace_keyword"]:
        keyword_sets[(obj.string, step.number, str(when))][keyword.string] = value.number
    for (oid, p), (char, _, _) in list(out.items()):
        out[(oid, p)] = (char, values.get((oid, p, char, "before")), values.get((oid, p, char, "after")))
    for obj, step, *_ in by["trace_tag"]:
        key = (obj.string, step.number)
        if key not in out:
            out[key] = ("tags", sorted(tag_sets[key + ("before",)]), sorted(tag_sets[key + ("after",)]))
    for obj, step, *_ in by["trace_keyword"]:
        key = (obj.string, step.number)
        if key not in out or out[key][0] == "tags":
            before = dict(sorted(keyword_sets[key + ("before",)].items()))
            after = dict(sorted(keyword_sets[key + ("after",)].items()))
            out[key] = ("keywords", before, after)
    for obj, step, source in by["trace_copy"]:
        out[(obj.string, step.number)] = ("copy", None, _s(source))
    return out


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
