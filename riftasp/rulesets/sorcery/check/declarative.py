"""The declarative checker for Sorcery boards (issue 35; docs/check.md, "What the rules allow, in
Sorcery"): what the rules allow, not how the engines compute.

A small ASP program of its own (encodings/check/sorcery/) guesses a *calculation* — effects picked
one at a time, each applied to the objects it names then whose conditions hold then — derives
every object's state step by step from its printed values, and holds it to what Sorcery's rules
certainly require (docs/semantics-sorcery.md): an effect exists when it is picked; positions in
order (a removal may go as early as an ability its targets hold allows; an effect that came into
being late is not held to positions passed before it existed); a removal before an ability of
layer 3 or earlier its targets hold, unless the two are in a ring; timestamp order at one fixed
position (removals, equal timestamps and control effects waiting for a dependency aside; with the
reading dependency_layers = all, any effect that may wait for a dependency: docs/semantics-sorcery.md
§5); every effect that exists at the end was picked. The layer order is the ruleset's (a variant
that reorders the table, sorcery-codex, is judged by it too). Where the rules' order is intricate (rings, the at-rest
rule, ties, removals that move) it is permissive: it allows every order the rules might allow.

`judge(board, resolution)` asks whether the resolution's final values are the final state of such
a calculation. It reads the board model, the ruleset data (the layer table, the readings) and the
resolution's final values (never its trace); it imports neither engine nor the procedure's
encoding. riftasp/rulesets/riftbound/check/declarative.py dispatches Sorcery boards here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import clingo

from ....model import Board, Effect
from ....resources import encodings_folder
from ....terms import quote
from ....check.declarative import DECLARATIVE, Calculation, Verdict, claimed_number, solve_claim, unknown_kind
from ....check.report import Violation, show
from .board import SorceryBoard
from .invariants import is_count
from .view import read_view

RULESET = "sorcery"
FILES = ("state.lp", "targets.lp", "calculation.lp", "claim.lp")
# The facts this module writes (tests/test_encoding_interface.py reads them).
INPUTS = (
    "obj/1", "horizon/1", "p_name/2", "p_power/2", "p_ctrl/2", "p_type/2", "p_sub/2", "p_aff/3", "p_kw/2",
    "p_hold/2", "inst/1", "og/1", "keeper/2", "holder/2", "fixyou/2", "tk/2", "tid/2", "f_type/2", "f_sub/2",
    "f_rel/2", "f_other/1", "f_rest/1", "f_near/1", "reach/3", "at_rest/1", "cnd/4", "cnever/1", "cunsure/1",
    "adj4/2", "opk/2", "op_type/2", "op_sub/2", "op_kw/2", "op_el/2", "op_n/2", "c_name/2", "c_power/2",
    "c_type/2", "c_sub/2", "c_aff/3", "c_kw/2", "l_type/2", "l_sub/2", "l_kw/2", "brings/3", "granted/1",
    "npos/2", "movable/1", "lay/2", "ts/2", "ring/2", "inring/1", "floor_each/0", "regain/0",
    "claim_name/2", "claim_power/2", "claim_ctrl/2", "claim_type/2", "claim_sub/2", "claim_aff/3",
    "claim_kw/2", "claim_abilities/1", "claim_hold/2", "claim_sil/1", "claim_dis/1", "claim_bad/1",
    "claim_on/0", "relax/0", "dep_all/0",
)  # fmt: skip
OPERATIONS = frozenset({
    "copy", "add_type", "add_subtype", "remove_subtype", "silence", "disable", "lose_all_abilities",
    "gain_control", "gain_keywords", "gain_linked_printed", "gain_affinity", "lose_affinity", "set_power",
    "plus", "minus", "double",
})  # fmt: skip
CONDITIONS = frozenset({"power_at_most", "power_below", "lacks_adjacent_ally_with"})
FILTERS = frozenset({"of_type", "subtype", "relation", "other", "near", "at_rest"})
REMOVING = ("silence", "disable", "lose_all_abilities")
# Bearer abilities that apply to the bearer directly (being ability adding themselves, §3).
DIRECT = ("gain_keywords", "gain_linked_printed")
OP_KIND = {
    "copy": "copy", "add_type": "add_type", "add_subtype": "add_sub", "remove_subtype": "rem_sub",
    "silence": "removal(silence)", "disable": "removal(disable)", "lose_all_abilities": "removal(lose)",
    "gain_control": "control", "gain_keywords": "gain_kw", "gain_linked_printed": "linked",
    "gain_affinity": "gain_aff", "lose_affinity": "lose_aff", "set_power": "set", "plus": "plus",
    "minus": "minus", "double": "double",
}  # fmt: skip
# The size bound: effects that may be picked (the search orders them) and objects.
MAX_APPLICATIONS = 26
MAX_OBJECTS = 40
TIME_LIMIT = 20.0

KINDS = {
    "exists": "picked only while it exists (its holder holds it)",
    "position": "no effect of a later position picked while it existed and was not picked yet",
    "removal_first": "a removal goes before an ability of layer 3 or earlier its targets hold (unless in a ring)",
    "timestamp": "no newer effect of its position picked while it existed and was not picked yet",
    "not_applied": "picked, as it exists in the final state",
}


@dataclass
class State:
    """One object's final characteristics in a calculation (the output contract's)."""

    name: str | None = None
    controller: str | None = None
    power: int | None = None
    types: set[str] = field(default_factory=set)
    subtypes: set[str] = field(default_factory=set)
    affinity: set[str] = field(default_factory=set)
    keywords: set[str] = field(default_factory=set)
    abilities: set[str] = field(default_factory=set)
    silenced: bool = False
    disabled: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "controller": self.controller, "power": self.power,
                "types": sorted(self.types), "subtypes": sorted(self.subtypes), "affinity": sorted(self.affinity),
                "keywords": {k: 1 for k in sorted(self.keywords)}, "abilities": sorted(self.abilities),
                "silenced": self.silenced, "disabled": self.disabled}  # fmt: skip


@dataclass
class Inst:
    """An effect that may be picked: `kind` own (rules text), bear (an artifact's bearer
    ability), gr (the ability a bearer ability grants, E@B), br (rules text a copy or a Pallid
    Bust brought, E@O), og (a board effect). `keeper` holds it (it exists while held), `holder` is
    where it measures from."""

    kind: str
    name: str
    effect: Effect
    keeper: str | None
    holder: str | None
    ts: int | None
    grant: bool = False
    supplier: str | None = None

    @property
    def term(self) -> str:
        return f"k({self.kind},{quote(self.name)})"


class Unsupported(Exception):
    pass


# ---- facts --------------------------------------------------------------------------------


class Facts:
    """The board as the program reads it: objects in the realm and their printed values, the
    effects that may be picked and what each does, names, reaches and positions."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.sb = SorceryBoard(board)
        self.objects = {o.id: o for o in board.objects}
        self.realm = [o.id for o in board.objects if o.zone == "realm"]
        self.in_realm = set(self.realm)
        self.readings = board.readings_in_force
        self._positions()
        self.insts: dict[str, Inst] = {}
        self.held_names: dict[tuple[str, str], str] = {}  # (object, ability name) -> term
        self.lines: list[str] = []
        self._instances()

    # positions (docs/semantics-sorcery.md §1, §3, §4): layer*10 + phase (0 before, removing;
    # 1 before, granting; 2.. in the layer's stages; 8 after)
    def _positions(self) -> None:
        layers: list[str] = []
        self.natural: dict[str, int] = {}
        index: dict[str, int] = {}
        for stage in self.board.ruleset.layers:
            if stage.layer not in layers:
                layers.append(stage.layer)
            n = layers.index(stage.layer) + 1
            k = index.get(stage.layer, 0)
            index[stage.layer] = k + 1
            for op in stage.operations:
                self.natural[op] = n * 10 + 2 + k
        self.natural["gain_keywords"] = self.natural["gain_keyword"]
        self.adding = self.natural["gain_keyword"] // 10
        self.removing = self.natural["silence"] // 10
        self.reads = {"power_at_most": max(self.natural[o] for o in ("set_power", "plus", "minus", "double")) // 10,
                      "power_below": max(self.natural[o] for o in ("set_power", "plus", "minus", "double")) // 10,
                      "lacks_adjacent_ally_with": self.adding}  # fmt: skip

    def position(self, inst: Inst) -> tuple[int, bool]:
        """(position, movable): a removal's moves (§3)."""
        op = inst.effect.op.name
        movable = False
        if inst.grant:
            layer = self.natural[op] // 10
            return (layer * 10 + 1 if layer < self.adding else self.natural["gain_keywords"]), False
        if op == "gain_linked_printed":
            pos = self.natural["add_type"]
            linked = self._linked(inst)
            early = [self.natural[e.op.name] // 10 for e in (linked.rules_text if linked else ())
                     if e.op.name in self.natural and self.natural[e.op.name] // 10 < pos // 10]
            if early:
                pos = min(early) * 10 + 1
        else:
            pos = self.natural[op]
            movable = op in REMOVING
        waits = [self.reads[c.kind] for c in inst.effect.conditions]
        if waits and max(waits) >= pos // 10:
            return max(waits) * 10 + 8, False
        return pos, movable

    def _linked(self, inst: Inst):
        supplier = self.objects.get(inst.supplier) if inst.supplier else None
        linked = supplier.linked if supplier is not None else None
        return self.objects.get(linked) if linked else None

    # the effects that may be picked
    def _add(self, inst: Inst) -> bool:
        term = inst.term
        if term in self.insts:
            if self.insts[term].effect != inst.effect:
                raise Unsupported(f"two abilities named {inst.name!r}")
            return False
        self.insts[term] = inst
        return True

    def _hold(self, oid: str, name: str, term: str) -> None:
        if self.held_names.setdefault((oid, name), term) != term:
            raise Unsupported(f"{oid} may hold two abilities named {name!r}")

    def _instances(self) -> None:
        b = self.board
        for oid in self.realm:
            o = self.objects[oid]
            for e in o.rules_text:
                inst = Inst("own", e.id, e, oid, oid, e.timestamp if e.timestamp is not None else o.since)
                self._hold(oid, e.id, inst.term)
                if not self._add(inst):
                    raise Unsupported(f"two abilities named {e.id!r}")
            for e in o.effect_text:
                ts = e.timestamp if e.timestamp is not None else o.since
                bearer = o.attached_to if o.attached_to in self.in_realm else None
                inst = Inst("bear", e.id, e, oid, bearer, ts, grant=e.op.name not in DIRECT, supplier=oid)
                self._hold(oid, e.id, inst.term)
                if bearer is None:
                    self.lines.append(f"p_hold({quote(oid)},{inst.term}).")
                    continue
                if not self._add(inst):
                    raise Unsupported(f"two abilities named {e.id!r}")
                if inst.grant:
                    name = f"{e.id}@{bearer}"
                    granted = Inst("gr", name, e, bearer, bearer, ts, supplier=oid)
                    self._hold(bearer, name, granted.term)
                    if not self._add(granted):
                        raise Unsupported(f"two abilities named {name!r}")
        for e in b.effects:
            if e.timestamp is None:
                raise Unsupported(f"board effect {e.id!r} without a timestamp")
            holder = e.source if e.source in self.in_realm else None
            if not self._add(Inst("og", e.id, e, None, holder, e.timestamp)):
                raise Unsupported(f"two board effects named {e.id!r}")
        # What copies and Pallid Busts may bring (copies of copies included), to a fixpoint.
        work = list(self.insts.values())
        while work:
            inst = work.pop()
            for oid, e in self.brought(inst):
                name = f"{e.id}@{oid}"
                new = Inst("br", name, e, oid, oid, None)
                self._hold(oid, name, new.term)
                if self._add(new):
                    work.append(new)

    def brought(self, inst: Inst) -> list[tuple[str, Effect]]:
        op = inst.effect.op
        if op.name == "copy" and not inst.grant:
            original = self.objects.get(op.of)
            if original is None:
                raise Unsupported(f"a copy of {op.of!r}, no object of the board")
            return [(oid, e) for oid in self.may_target(inst) for e in original.rules_text]
        if op.name == "gain_linked_printed" and not inst.grant:
            linked = self._linked(inst)
            return [(oid, e) for oid in self.may_target(inst) for e in (linked.rules_text if linked else ())]
        return []

    def may_target(self, inst: Inst) -> list[str]:
        """The objects an effect may ever name (its type, sub-type, ally and rest filters aside)."""
        if inst.grant:
            return [inst.holder] if inst.holder else []
        t = inst.effect.target
        if t.kind in ("self", "bearer"):
            return [inst.holder] if inst.holder else []
        if t.kind == "ids":
            return [o for o in self.realm if o in t.ids]
        f = t.filter
        out = list(self.realm)
        if f is not None and f.near is not None:
            if inst.holder is None:
                return []
            players = self.board.players or (None,)
            out = [o for o in out if any(self.sb.related(f.near, inst.holder, o, p) for p in players)]
        if f is not None and f.other:
            out = [o for o in out if o != inst.holder]
        return out

    # the program's input
    def text(self) -> str:
        lines = self.lines
        for oid in self.realm:
            o, q = self.objects[oid], quote(oid)
            lines += [f"obj({q}).", f"p_name({q},{quote(o.name)}).", f"p_type({q},{quote(o.card_type)})."]
            if o.power is not None:
                lines.append(f"p_power({q},{o.power}).")
            if o.controller is not None:
                lines.append(f"p_ctrl({q},{quote(o.controller)}).")
            lines += [f"p_sub({q},{quote(t)})." for t in o.tags]
            lines += [f"p_kw({q},{quote(k.name)})." for k in o.keywords]
            lines += [f"p_aff({q},{el},{n})." for el, n in affinity(o).items()]
            if o.at_rest:
                lines.append(f"at_rest({q}).")
            for e in o.rules_text:
                lines.append(f"p_hold({q},k(own,{quote(e.id)})).")
            for e in o.effect_text:
                if o.attached_to in self.in_realm:
                    lines.append(f"p_hold({q},k(bear,{quote(e.id)})).")
            for other in self.realm:
                a, c = self.sb.square(oid), self.sb.square(other)
                if a is not None and c is not None and abs(a[0] - c[0]) + abs(a[1] - c[1]) <= 1:
                    lines.append(f"adj4({q},{quote(other)}).")
        if self.readings.get("power_floor", "read") == "each_change":
            lines.append("floor_each.")
        if self.readings.get("regain_after_loss", False):
            lines.append("regain.")
        if self.readings.get("dependency_layers", "control") == "all":
            lines.append("dep_all.")
        lines.append(f"horizon({len(self.insts)}).")
        removals = []
        for term, inst in self.insts.items():
            lines += self._inst_facts(term, inst)
            if inst.effect.op.name in REMOVING and not inst.grant:
                removals.append(inst)
        # Rings of removals (§3, §6): removals that may remove each other's keepers' abilities,
        # directly or through others (judged statically, at rest aside: a superset of the rings).
        reach = {r.term: {s.term for s in removals if s.keeper in self.may_target(r)} for r in removals}
        changed = True
        while changed:
            changed = False
            for r in reach:
                more = set().union(*(reach[s] for s in reach[r])) - reach[r] if reach[r] else set()
                if more:
                    reach[r] |= more
                    changed = True
        for r in reach:
            for s in reach[r]:
                if s != r and r in reach[s]:
                    lines += [f"ring({r},{s}).", f"inring({r})."]
        return "\n".join(lines) + "\n"

    def _inst_facts(self, term: str, inst: Inst) -> list[str]:
        e, op = inst.effect, inst.effect.op
        out = [f"inst({term})."]
        if inst.kind == "og":
            out.append(f"og({term}).")
            if e.controller is not None:
                out.append(f"fixyou({term},{quote(e.controller)}).")
        else:
            assert inst.keeper is not None  # only a board effect has no keeper
            out.append(f"keeper({term},{quote(inst.keeper)}).")
        if inst.kind == "gr":
            out.append(f"granted({term}).")
        if inst.holder is not None:
            out.append(f"holder({term},{quote(inst.holder)}).")
        if inst.ts is not None:
            out.append(f"ts({term},{inst.ts}).")
        pos, movable = self.position(inst)
        out.append(f"npos({term},{pos}).")
        if movable:
            out.append(f"movable({term}).")
        if pos // 10 <= self.removing:
            out.append(f"lay({term},{pos // 10}).")
        # what it does
        if inst.grant:
            out += [f"opk({term},grant).", f"tk({term},self)."]
            if inst.holder is not None:
                out.append(f"brings({term},{quote(inst.holder)},k(gr,{quote(e.id + '@' + inst.holder)})).")
            return out
        out.append(f"opk({term},{OP_KIND[op.name]}).")
        if op.name == "copy":
            x = self.objects[op.of]
            out += [f"c_name({term},{quote(x.name)}).", f"c_type({term},{quote(x.card_type)})."]
            if x.power is not None:
                out.append(f"c_power({term},{x.power}).")
            out += [f"c_sub({term},{quote(t)})." for t in x.tags]
            out += [f"c_kw({term},{quote(k.name)})." for k in x.keywords]
            out += [f"c_aff({term},{el},{n})." for el, n in affinity(x).items()]
        elif op.name == "gain_linked_printed":
            x = self._linked(inst)
            if x is not None:
                out += [f"l_type({term},{quote(x.card_type)})."]
                out += [f"l_sub({term},{quote(t)})." for t in x.tags]
                out += [f"l_kw({term},{quote(k.name)})." for k in x.keywords]
        elif op.name == "add_type":
            out.append(f"op_type({term},{quote(op.type)}).")
        elif op.name in ("add_subtype", "remove_subtype"):
            out.append(f"op_sub({term},{quote(op.subtype)}).")
        elif op.name == "gain_keywords":
            out += [f"op_kw({term},{quote(k.name)})." for k in op.keywords]
        elif op.name in ("gain_affinity", "lose_affinity"):
            out.append(f"op_el({term},{op.element}).")
        elif op.name == "set_power":
            out.append(f"op_n({term},{op.value}).")
        elif op.name in ("plus", "minus"):
            out.append(f"op_n({term},{op.amount}).")
        for oid, b in self.brought(inst):
            out.append(f"brings({term},{quote(oid)},k(br,{quote(b.id + '@' + oid)})).")
        # whom it names
        t = e.target
        if t.kind in ("self", "bearer"):
            out.append(f"tk({term},self).")
        elif t.kind == "ids":
            out.append(f"tk({term},ids).")
            out += [f"tid({term},{quote(o)})." for o in self.realm if o in t.ids]
        else:
            out.append(f"tk({term},filter).")
            f = t.matching
            if f.of_type is not None:
                out.append(f"f_type({term},{quote(f.of_type)}).")
            if f.subtype is not None:
                out.append(f"f_sub({term},{quote(f.subtype)}).")
            if f.relation is not None:
                out.append(f"f_rel({term},{f.relation}).")
            if f.other:
                out.append(f"f_other({term}).")
            if f.at_rest:
                out.append(f"f_rest({term}).")
            if f.near is not None:
                out.append(f"f_near({term}).")
                if inst.holder is not None:
                    for o in self.realm:
                        for p in self.board.players:
                            if self.sb.related(f.near, inst.holder, o, p):
                                out.append(f"reach({term},{quote(o)},{quote(p)}).")
        # its conditions, checked once when it applies
        unsure = False
        many = len(self.may_target(inst)) >= 2
        for n, c in enumerate(e.conditions):
            if c.of == "target":
                ref = "target"
            else:
                read = inst.holder if c.of in ("self", "bearer") else c.of
                if read is None or read not in self.in_realm:
                    out.append(f"cnever({term}).")
                    continue
                ref = f"obj({quote(read)})"
            if c.kind == "lacks_adjacent_ally_with":
                out.append(f"cnd({term},lack({quote(c.keyword)}),{ref},{n}).")
            else:
                out.append(f"cnd({term},{'pam' if c.kind == 'power_at_most' else 'pbl'},{ref},{c.value}).")
            if many and (c.of != "target" or c.kind == "lacks_adjacent_ally_with"):
                unsure = True
        if unsure:
            out.append(f"cunsure({term}).")
        return out


def affinity(obj: Any) -> dict[str, int]:
    return {el: getattr(obj, el) for el in ("air", "earth", "fire", "water") if getattr(obj, el)}


def unsupported(board: Board) -> str | None:
    """Why the checker does not judge this board, or None."""
    if RULESET not in board.ruleset.lineage:
        return f"the {board.ruleset} ruleset has no declarative checker of its own"
    unknown = unknown_kind(board, OPERATIONS, CONDITIONS, FILTERS)
    if unknown is not None:
        return unknown
    if len(board.objects) > MAX_OBJECTS:
        return f"{len(board.objects)} objects, more than the bound of {MAX_OBJECTS}"
    return None


# ---- the claim ------------------------------------------------------------------------------


def claim_facts(facts: Facts, resolution: Any) -> tuple[str, list[Violation]]:
    """The claimed final values of the objects in the realm as facts, and the violations of the
    objects outside it (which report their printed values)."""
    view = read_view(facts.board, resolution)
    lines: list[str] = []
    out: list[Violation] = []
    for oid, final in view.objects.items():
        o, q = facts.objects[oid], quote(oid)
        if oid not in facts.in_realm:
            printed = {"name": o.name, "controller": o.controller, "power": o.power, "types": [o.card_type],
                       "subtypes": sorted(o.tags), "affinity": sorted(f"{el} {n}" for el, n in affinity(o).items()),
                       "keywords": sorted(k.name for k in o.keywords), "silenced": False, "disabled": False}  # fmt: skip
            claimed = {"name": final.name, "controller": final.controller, "power": final.power,
                       "types": sorted(final.types), "subtypes": sorted(final.subtypes),
                       "affinity": sorted(final.affinity), "keywords": sorted(final.keywords),
                       "silenced": final.silenced, "disabled": final.disabled}  # fmt: skip
            for key, value in printed.items():
                if claimed[key] != value:
                    out.append(Violation(oid, DECLARATIVE, "printed", f"{key} {show(value)} (outside the realm)",
                                         show(claimed[key])))
            continue
        lines.append(f"claim_name({q},{quote(final.name)}).")
        if final.power is not None:
            lines.append(f"claim_power({q},{claimed_number(final.power)}).")
        if final.controller is not None:
            lines.append(f"claim_ctrl({q},{quote(final.controller)}).")
        lines += [f"claim_type({q},{quote(t)})." for t in final.types]
        lines += [f"claim_sub({q},{quote(t)})." for t in final.subtypes]
        lines += [f"claim_kw({q},{quote(k)})." for k in final.keywords]
        for word in final.affinity:
            el, _, n = word.partition(" ")
            if el in ("air", "earth", "fire", "water") and is_count(n) and int(n) > 0:
                lines.append(f"claim_aff({q},{el},{claimed_number(int(n))}).")
            else:
                lines.append(f"claim_bad({q}).")
        if final.silenced:
            lines.append(f"claim_sil({q}).")
        if final.disabled:
            lines.append(f"claim_dis({q}).")
        if final.abilities is not None:
            lines.append(f"claim_abilities({q}).")
            for name in final.abilities:
                term = facts.held_names.get((oid, name))
                lines.append(f"claim_hold({q},{term})." if term else f"claim_bad({q}).")
    return "\n".join(lines) + "\n", out


# ---- solving --------------------------------------------------------------------------------


def _text(sym: clingo.Symbol) -> str:
    return sym.string if sym.type == clingo.SymbolType.String else str(sym)


def _name(term: clingo.Symbol) -> str:
    return _text(term.arguments[1]) if term.type == clingo.SymbolType.Function and term.arguments else str(term)


def decode(symbols: list[clingo.Symbol], objects: list[str], keepers: dict[str, str | None]) -> Calculation:
    states = {o: State() for o in objects}
    order: list[tuple[int, tuple[str, str]]] = []
    broken = []
    for s in symbols:
        a = s.arguments
        if s.name == "pick":
            term = str(a[0])
            order.append((a[1].number, (_name(a[0]), keepers.get(term) or "-")))
        elif s.name == "viol":
            broken.append((a[0].name, _name(a[1]), keepers.get(str(a[1])) or "-"))
        elif s.name.startswith("fin_"):
            st = states.setdefault(_text(a[0]), State())
            what = s.name[4:]
            if what == "name":
                st.name = _text(a[1])
            elif what == "power":
                st.power = a[1].number
            elif what == "ctrl":
                st.controller = _text(a[1])
            elif what == "type":
                st.types.add(_text(a[1]))
            elif what == "sub":
                st.subtypes.add(_text(a[1]))
            elif what == "aff":
                st.affinity.add(f"{_text(a[1])} {a[2].number}")
            elif what == "kw":
                st.keywords.add(_text(a[1]))
            elif what == "hold":
                st.abilities.add(_name(a[1]))
            elif what == "sil":
                st.silenced = True
            elif what == "dis":
                st.disabled = True
    return Calculation([app for _, app in sorted(order)], sorted(set(broken)), states)


class Program:
    """One grounding of encodings/check/sorcery/ for a board and a claim, asked several questions."""

    def __init__(self, facts: Facts, claim: str = "") -> None:
        self.facts = facts
        self.objects = list(facts.realm)
        self.keepers = {t: (i.keeper or i.holder) for t, i in facts.insts.items()}
        self.ctl = clingo.Control(["--warn=none", "--opt-mode=opt"])
        folder = encodings_folder() / "check" / "sorcery"
        for name in FILES:
            self.ctl.load(str(folder / name))
        self.ctl.add("base", [], facts.text() + claim)
        self.ctl.add("base", [], "#show pick/2. #show viol/3. #show fin_name/2. #show fin_power/2. #show fin_ctrl/2. "
                     "#show fin_type/2. #show fin_sub/2. #show fin_aff/3. #show fin_kw/2. #show fin_hold/2. "
                     "#show fin_sil/1. #show fin_dis/1.")

    def ground(self) -> int:
        self.ctl.ground([("base", [])])
        return len(self.ctl.symbolic_atoms)

    def ask(self, claim: bool, relax: bool, deadline: float) -> tuple[bool | None, Calculation | None]:
        """(True, the best model) / (False, None) / (None, None) when the time ran out."""
        found, best = solve_claim(self.ctl, claim, relax, deadline)
        return found, (None if best is None else decode(best, self.objects, self.keepers))


def examine(board: Board, resolution: Any | None, time_limit: float = TIME_LIMIT, explain: bool = True) -> Verdict:
    """The verdict on `resolution` of `board` (None: the board alone). `explain=False`: stop once
    it is known whether the claim is reachable (no search for the closest calculation; the
    violation is then `consistent-state` alone)."""
    start = time.monotonic()
    deadline = start + time_limit
    verdict = Verdict()
    why = unsupported(board)
    facts = None
    if why is None:
        try:
            facts = Facts(board)
        except Unsupported as err:
            why = str(err)
    if why is not None or facts is None:
        verdict.skipped = why
        return verdict
    verdict.applications = len(facts.insts)
    if verdict.applications > MAX_APPLICATIONS:
        verdict.skipped = (f"{verdict.applications} effects could be picked, more than the bound of "
                           f"{MAX_APPLICATIONS} (the search orders them)")
        return verdict
    outside: list[Violation] = []
    claim = ""
    if resolution is not None:
        claim, outside = claim_facts(facts, resolution)
    program = Program(facts, claim)
    verdict.atoms = program.ground()
    out = verdict.violations
    out.extend(outside)

    def done() -> Verdict:
        verdict.seconds = time.monotonic() - start
        return verdict

    if resolution is not None:
        verdict.questions += 1
        matches, found = program.ask(claim=True, relax=False, deadline=deadline)
        if matches is None:
            verdict.skipped = f"the resolution's state not judged within {time_limit:g} s"
            return done()
        if matches:
            verdict.consistent, verdict.example, verdict.claim_consistent = True, found, not outside
            return done()
    verdict.questions += 1
    verdict.consistent, verdict.example = program.ask(claim=False, relax=False, deadline=deadline)
    if verdict.consistent is None:
        verdict.skipped = f"no answer within {time_limit:g} s"
        return done()
    if resolution is None:
        return done()
    if verdict.consistent is False:
        # Sorcery's pass always ends in a state: none found is this program's gap, not the
        # resolution's mistake. Never a false alarm: not judged.
        verdict.consistent = None
        verdict.skipped = "the program found no calculation obeying the invariants (not judged)"
        return done()
    verdict.claim_consistent = False
    if not explain:
        out.append(Violation("-", DECLARATIVE, "consistent-state", "a consistent state", "the claimed state is not one"))
        return done()
    verdict.questions += 1
    close, closest = program.ask(claim=True, relax=True, deadline=deadline)
    verdict.closest = closest
    if close is False:
        out.append(Violation("-", DECLARATIVE, "reachable", "a final state some calculation of the board's effects gives",
                             "no calculation gives the claimed state"))
    elif closest is not None:
        for kind, name, obj in closest.broken:
            out.append(Violation(obj, DECLARATIVE, kind, KINDS.get(kind, kind),
                                 "broken by every calculation giving the claimed state", name))
    view = read_view(board, resolution)
    assert verdict.example is not None  # a consistent answer comes with its calculation (Program.ask)
    for oid, s in sorted(verdict.example.states.items()):
        claimed = view.objects[oid]
        pairs = [("name", s.name, claimed.name), ("controller", s.controller, claimed.controller),
                 ("power", s.power, claimed.power), ("types", sorted(s.types), sorted(claimed.types)),
                 ("subtypes", sorted(s.subtypes), sorted(claimed.subtypes)),
                 ("affinity", sorted(s.affinity), sorted(claimed.affinity)),
                 ("keywords", sorted(s.keywords), sorted(claimed.keywords)),
                 ("silenced", s.silenced, claimed.silenced), ("disabled", s.disabled, claimed.disabled)]  # fmt: skip
        if claimed.abilities is not None:
            pairs.append(("abilities", sorted(s.abilities), sorted(claimed.abilities)))
        for what, mine, theirs in pairs:
            if mine != theirs:
                out.append(Violation(oid, DECLARATIVE, f"consistent-{what}", show(mine), show(theirs)))
    if not any(v.invariant == DECLARATIVE for v in out):
        out.append(Violation("-", DECLARATIVE, "consistent-state", "a consistent state", "the claimed state is not one"))
    return done()
