"""The solved model → a Resolution (characteristics, applications and reports).

The shown symbols are first turned into plain Python data (`atoms`), once: every accessor of a
clingo Symbol (`.name`, `.arguments`, `.string`, `.type`) crosses into C through cffi, and
splitting and decoding a batch of small boards by accessors cost half as much CPU as all its
ground calls (issue 9).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

import clingo

from .result import Application, Characteristics, Resolution, Withdrawal
from .solver import RoundWithdrawal
from .terms import quote

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset

# A shown term as plain data: a number is an int, a string a str, a function f(a, b) the tuple
# ("f", a, b). So a constant is ("c",), a tuple term ("", a, b), a negated function ("-f", ...)
# and #inf/#sup ("#inf",)/("#sup",): two terms are equal exactly when their symbols are, and
# `show` writes each as clingo does.
Term = int | str | tuple
Atom = tuple  # (predicate name, argument, ...)

_STRING, _NUMBER, _FUNCTION = clingo.SymbolType.String, clingo.SymbolType.Number, clingo.SymbolType.Function
# The memo's key for a symbol: clingo's own number for it where the Python API has one (symbols
# are unique in clingo, so equal symbols have equal numbers), hashed as a Python int; else the
# Symbol, whose hash and equality each cross into C (~30% of converting a model's atoms).
_key = (lambda sym: sym._rep) if isinstance(getattr(clingo.Number(0), "_rep", None), int) else (lambda sym: sym)
Memo = dict[object, Term]  # converted terms by `_key` of their symbol
_BEFORE, _AFTER = ("before",), ("after",)  # trace_*(O, P, When, ...)


class Withdrawn(NamedTuple):
    """A RoundWithdrawal with its instances and objects as terms."""

    round: int
    instance: Term
    object: str  # an object id: a string term
    failed: tuple[str, ...]
    because: tuple[tuple[Term, Term], ...]


def atoms(symbols: Iterable[clingo.Symbol], memo: Memo | None = None) -> list[Atom]:
    """The shown atoms as (name, argument terms...), in their order. An atom is keyed by its
    name, as decode always read it (the sign of a shown atom is not part of the key)."""
    memo = {} if memo is None else memo
    return [(sym.name, *[term(arg, memo) for arg in sym.arguments]) for sym in symbols]


def term(sym: clingo.Symbol, memo: Memo) -> Term:
    """`sym` as plain data; `memo` keeps each symbol converted (the same instance and object
    terms recur in many atoms)."""
    key = _key(sym)
    found = memo.get(key)
    if found is None:
        memo[key] = found = _converted(sym, memo)
    return found


def _converted(sym: clingo.Symbol, memo: Memo) -> Term:
    kind = sym.type
    if kind is _STRING:
        return sym.string
    if kind is _NUMBER:
        return sym.number
    if kind is _FUNCTION:
        name = sym.name if sym.positive else f"-{sym.name}"
        return (name, *[term(arg, memo) for arg in sym.arguments])
    return (str(sym),)  # #inf, #sup


def show(t: Term) -> str:
    """The term as clingo writes it (`str` of its symbol)."""
    if isinstance(t, tuple) and len(t) == 1:  # a constant: the most common case by far
        return t[0] or "()"
    if isinstance(t, str):
        return quote(t)
    if isinstance(t, int):
        return str(t)
    name = t[0]
    inner = ",".join(map(show, t[1:]))
    return f"({inner},)" if not name and len(t) == 2 else f"{name}({inner})"


def withdrawn_terms(w: RoundWithdrawal, memo: Memo) -> Withdrawn:
    return Withdrawn(w.round, term(w.instance, memo), cast(str, term(w.object, memo)), w.failed,
                     tuple((term(i, memo), term(o, memo)) for i, o in w.because))


def instance_id(t: Term, copied: set[Term]) -> str:
    """The name users see for an instance term (docs/semantics.md §2)."""
    if not isinstance(t, tuple):  # instances are function terms; anything else as written
        return show(t)
    kind = t[0]
    args = [a if isinstance(a, str) else show(a) for a in t[1:]]
    if kind == "og":
        return args[0]
    if kind == "ab":
        return f"{args[0]}@{args[1]}" if t in copied else args[0]
    if kind == "kw":
        source = t[2]
        base = f"keyword:{args[0]}:{args[2]}"
        return base if source[0] == "printed" else f"{base}:{instance_id(source, copied)}"
    if len(args) == 1:
        # A ruleset's own kind of instance on one object (Riftbound's buff(O), bonus(G)): kind:O.
        return f"{kind}:{args[0]}"
    return show(t)


def _s(t: Term) -> int | str:
    """A value as the output gives it: a string or number as itself, anything else as written."""
    return t if isinstance(t, (str, int)) else show(t)


def decode(
    symbols: list[clingo.Symbol], ruleset: Ruleset, withdrawn: Sequence[RoundWithdrawal] = ()
) -> Resolution:
    memo: Memo = {}
    return decode_atoms(atoms(symbols, memo), ruleset, [withdrawn_terms(w, memo) for w in withdrawn])


def decode_atoms(shown: list[Atom], ruleset: Ruleset, withdrawn: Sequence[Withdrawn] = ()) -> Resolution:
    """`decode` on atoms already converted (riftasp/batch.py converts a batch's once)."""
    by: dict[str, list[tuple]] = defaultdict(list)
    copied: set[Term] = set()
    for atom in shown:
        if atom[0] == "copied":
            copied.add(atom[1])
        else:
            by[atom[0]].append(atom[1:])

    names: dict[Term, str] = {}

    def name(t: Term) -> str:
        # An instance recurs in many atoms: name it once.
        if t not in names:
            names[t] = instance_id(t, copied)
        return names[t]

    objects = _characteristics(by, copied, ruleset)
    stages = {a[0]: (show(a[2]), None if show(a[3]) == "none" else show(a[3])) for a in by["stage"]}
    reasons: dict[tuple, list[str]] = defaultdict(list)
    for inst, obj, step, why in by["reason"]:
        reasons[(inst, obj, step)].append(show(why))
    depends: dict[tuple, list[str]] = defaultdict(list)
    for inst, obj, on in by["dependency"]:
        depends[(inst, obj)].append(name(on))
    # A row the dependency rule applied first (the layered pass): what waited for it, or the
    # older effect it went ahead of and what that one waited for.
    first: dict[tuple, tuple[set[str], set[tuple[str, str]]]] = defaultdict(lambda: (set(), set()))
    for inst, obj, waiter in by["awaited_by"]:
        first[(inst, obj)][0].add(name(waiter))
    for inst, obj, older, awaited in by["went_ahead_of"]:
        first[(inst, obj)][1].add((name(older), name(awaited)))
    # cycle_member(O, P, I, Q): in step P the application to O was in a cycle with I on Q.
    cycle_sets: dict[tuple, set[str]] = defaultdict(set)
    for obj, step, inst, _ in by["cycle_member"]:
        cycle_sets[(obj, step)].add(name(inst))

    applied: dict[str, list[Application]] = defaultdict(list)
    trace = _traces(by, lambda effect, obj: _ability_name(effect, obj, copied))
    # A procedure may give each row an order term instead of its step number (the layered pass:
    # step, order key, listing index): the rows are then numbered 1, 2, ... in that order.
    rows = by["applied"]
    numbers = {p: p for _, _, p, _, _ in rows}
    if any(not isinstance(p, int) for p in numbers):
        numbers = {p: n for n, p in enumerate(sorted(numbers), start=1)}
    for inst, obj, p, stage, stamp in rows:
        layer, sublayer = stages[stage]
        why_tags = sorted(set(reasons[(inst, obj, p)]))
        deps = sorted(depends[(inst, obj)])
        if deps:
            why_tags = sorted(set(why_tags) | {"dependency"})
        why_tags = ["timestamp"] + [t for t in why_tags if t != "timestamp"]
        characteristic, before, after = trace[(obj, p)]
        applied[obj].append(
            Application(
                effect=name(inst),
                step=numbers[p],
                layer=layer,
                sublayer=sublayer,
                timestamp=stamp,
                why=_why(layer, stamp, why_tags, deps, sorted(cycle_sets.get((obj, p), set()) - {name(inst)}),
                         first.get((inst, obj))),
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
        loops[group].append(obj)
    ties = sorted({tuple(sorted((name(a), name(b)))) for a, b, _, _ in by["tie"] if name(a) != name(b)})
    needs: dict[str, list[str]] = defaultdict(list)
    for obj, other in by["needs"]:
        needs[obj].append(other)
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
            Withdrawal(w.object, name(w.instance), w.round, w.failed,
                       tuple(sorted({name(c) for c, _ in w.because})))
            for w in withdrawn
        ],
        paradoxes=_paradoxes(by["reported_paradox"], name),
    )


def _withdrawn(rounds: Sequence[Withdrawn], name: Callable[[Term], str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for w in rounds:
        out[w.object].append(name(w.instance))
    return {oid: sorted(ids) for oid, ids in out.items()}


def _paradoxes(rows: list[tuple], name) -> list[list[str]]:
    """reported_paradox(Id, I, O): the paradox recorded as Id names instance I (on O)."""
    sets: dict[Term, set[str]] = defaultdict(set)
    for pid, inst, _ in rows:
        sets[pid].add(name(inst))
    # (Two records may name the same set: the ring found from each of its withdrawn members.)
    return [list(m) for m in sorted({tuple(sorted(members)) for members in sets.values()})]


def _ability_name(effect: Term, holder: str, copied: set[Term]) -> str:
    """An ability as its holder holds it: `E`, or `E@H` when a copy brought it (§2), or when the
    encoding names it `ab(E,H)` itself."""
    if isinstance(effect, tuple) and effect[0] == "ab" and len(effect) == 3:
        return f"{effect[1]}@{effect[2]}"
    if ("ab", effect, holder) in copied:
        return f"{effect}@{holder}"
    return cast(str, effect)  # otherwise the term is an effect id, a string


def _characteristics(
    by: dict[str, list[tuple]], copied: set[Term], ruleset: Ruleset
) -> dict[str, Characteristics]:
    fields = ruleset.output_fields
    values: dict[str, dict] = defaultdict(dict)
    keywords: dict[str, dict[str, int]] = defaultdict(dict)
    zones: dict[str, str] = {}
    abilities: dict[str, list[str]] = defaultdict(list)
    # The characteristic families (state.lp): one value, or the members of a set.
    for obj, char, value in by["result_value"]:
        values[obj][char[0]] = _s(value)
    for obj, char, value in by["result_member"]:
        values[obj].setdefault(char[0], []).append(_s(value))
    for obj, keyword, value in by["result_keyword"]:
        keywords[obj][keyword] = value
    for obj, zone in by["result_zone"]:
        zones[obj] = show(zone)
    for obj, effect in by["result_ability"]:
        abilities[obj].append(_ability_name(effect, obj, copied))
    # Every object a result atom names, in the order they first come (callers iterate it).
    objects = dict.fromkeys([*values, *keywords, *zones, *abilities])
    # A flag is a shown atom of its own, result_<key>(O) (Riftbound's result_mighty/1).
    flags = {f.key: {obj for (obj,) in by[f"result_{f.key}"]} for f in fields if f.kind == "flag"}
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
    [] rather than nothing. (`when`, the constant before or after, is kept as a term: writing
    it out per row cost more than the lookups.)
    """
    chars = {(o, p): show(ch) for o, p, ch in by["trace_char"]}
    sets = {show(ch) for (ch,) in by["set_valued"]}  # reported as sorted lists, [] when empty
    values: dict[tuple, object] = {}
    for obj, step, when, _char, value in by["trace_value"]:
        values[(obj, step, when)] = _s(value)
    for obj, step, when, value in by["trace_root"]:
        values[(obj, step, when)] = value
    members: dict[tuple, list] = defaultdict(list)
    for obj, step, when, _char, value in by["trace_member"]:
        members[(obj, step, when)].append(_s(value))
    keywords: dict[tuple, dict[str, int]] = defaultdict(dict)
    for obj, step, when, keyword, value in by["trace_keyword"]:
        keywords[(obj, step, when)][keyword] = value
    abilities: dict[tuple, list[str]] = defaultdict(list)
    for obj, step, when, effect in by["trace_ability"]:
        abilities[(obj, step, when)].append(name_of_ability(effect, obj))
    # Optional shapes (a procedure that reports a row's characteristic otherwise):
    # trace_shape(O, P, list) reports it as a plain sorted list (keywords, abilities);
    # trace_part(O, P, N, Ch) reports a dict of several characteristics, each a plain list.
    plain = {(o, p) for o, p, shape in by["trace_shape"] if shape == ("list",)}
    parts: dict[tuple, list[tuple[int, str]]] = defaultdict(list)
    for obj, step, n, ch in by["trace_part"]:
        parts[(obj, step)].append((n, show(ch)))
    by_char: dict[tuple, list] = defaultdict(list)
    if parts:
        for obj, step, when, char, value in by["trace_member"]:
            by_char[(obj, step, when, show(char))].append(_s(value))

    def listed(char: str, key: tuple) -> list:
        if char == "keywords":
            return sorted(keywords[key])
        if char == "abilities":
            return sorted(abilities[key])
        return sorted(by_char[(*key, char)])

    def value_at(char: str, key: tuple) -> object:
        row = key[:2]
        if row in parts:
            return {part: listed(part, key) for _, part in sorted(parts[row])}
        if row in plain:
            return listed(char, key) if char in ("keywords", "abilities") else sorted(members[key])
        if char in sets:
            return sorted(members[key])
        if char == "keywords":
            return dict(sorted(keywords[key].items()))
        if char == "abilities":
            return {"abilities": sorted(abilities[key]), "keywords": dict(sorted(keywords[key].items()))}
        return values.get(key)

    return {
        (oid, p): (char, value_at(char, (oid, p, _BEFORE)), value_at(char, (oid, p, _AFTER)))
        for (oid, p), char in chars.items()
    }


def _why(layer: str, stamp: int, tags: list[str], deps: list[str], partners: list[str],
         first: tuple[set[str], set[tuple[str, str]]] | None = None) -> str:
    parts = [f"{layer} layer, timestamp {stamp}"]
    if "dependency" in tags and deps:
        parts.append(f"after {', '.join(deps)}, which it depends on")
    waiting, ahead = first or (set(), set())
    if "dependency" in tags and waiting:
        verb = "depends" if len(waiting) == 1 else "depend"
        parts.append(f"before {', '.join(sorted(waiting))}, which {verb} on it: the independent effect applies first")
    for older, awaited in sorted(ahead):
        if older not in waiting:  # (one that waits for this effect is named above)
            parts.append(f"ahead of the older {older}, which waits for {awaited}")
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
