"""Invariant 3, needs (docs/semantics.md §13): every reported object loop is strongly connected
through reads of characteristics that something on the board could write.

The reads and writes are computed from the board alone, following §4 ("Reads and writes") and §5
("could target": the target kind, listed ids, zone, location and `other` as they are; a filter's
type, tag and friendly/enemy against every value the object and the instance could ever have —
printed, brought by a copy, set or added by something that could target it; abilities a copy
could bring count as held, through copies of copies). O needs Q (Q != O, Q on the
board) when an instance that could target O reads a characteristic of Q that some instance on
the board could write. Status is never written.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....model import Effect
from .index import BoardIndex, condition_object
from .operations import parameter, spec_of
from ....check.report import NEEDS, Violation


@dataclass(frozen=True)
class _Potential:
    """An instance that could exist: effect E held by `holder` (ongoing: its source)."""

    effect: Effect
    kind: str  # "ongoing" | "rules" | "effect" | "copied"
    holder: str | None


class Needs:
    def __init__(self, index: BoardIndex) -> None:
        self.ix = index
        # What each object on the board could ever have: controllers, tags (grown with copies,
        # set_controller and add_tag that could target it; types follow from roots()).
        self.may_controller: dict[str, set[str]] = {}
        self.may_tags: dict[str, set[str]] = {}
        for oid in index.on_board:
            obj = index.objects[oid]
            self.may_controller[oid] = {obj.controller}
            self.may_tags[oid] = set(obj.tags)
        self.copies: dict[str, set[str]] = {o: set() for o in index.order}
        self.potentials = self._potentials()
        self._writes()
        self.edges = self._edges()

    # -- what could exist ----------------------------------------------------------------------

    def could_target(self, p: _Potential) -> list[str]:
        ix = self.ix
        t = p.effect.target
        if t.kind == "self":
            return [p.holder] if p.holder in ix.on_board else []
        if t.kind == "bearer":
            return [p.holder] if p.kind == "effect" and p.holder in ix.on_board else []
        if t.kind == "ids":
            return [i for i in dict.fromkeys(t.ids) if i in ix.on_board]
        f = t.filter
        out = []
        for oid in ix.order:
            if oid not in ix.on_board:
                continue
            obj = ix.objects[oid]
            if f is not None:
                if f.zone is not None and obj.zone != f.zone:
                    continue
                if f.location is not None and obj.location != f.location:
                    continue
                if f.other and oid == p.holder:
                    continue
                if not self._may_match(p, f, oid):
                    continue
            out.append(oid)
        return out

    def _may_match(self, p: _Potential, f, oid: str) -> bool:
        ix = self.ix
        if f.card_type is not None and f.card_type not in {ix.objects[r].card_type for r in self.roots(oid)}:
            return False
        if f.tag is not None and f.tag not in self.may_tags[oid] and not any(
                f.tag in ix.objects[r].tags for r in self.roots(oid)):
            return False
        if f.relation is not None:
            if p.kind == "ongoing":
                mine = {p.effect.controller} if p.effect.controller is not None else set()
            else:
                mine = self.may_controller.get(p.holder, set()) if p.holder is not None else set()
            theirs = self.may_controller[oid]
            if f.relation == "friendly":
                return bool(mine & theirs)
            return any(c != d for c in theirs for d in mine)
        return True

    def _potentials(self) -> list[_Potential]:
        ix = self.ix
        held: dict[str, dict[str, _Potential]] = {o: {} for o in ix.order if o in ix.on_board}
        for oid in held:
            for name in ix.initially_held(oid):
                kind, _ = ix.place[name]
                held[oid][name] = _Potential(ix.effects[name], kind, oid)
        ongoing = [_Potential(e, "ongoing", e.source) for e in ix.board.effects]
        # copies[X]: the objects X could copy; copiable text follows copies of copies.
        while True:
            changed = False
            for p in ongoing + [q for h in held.values() for q in list(h.values())]:
                op = p.effect.op
                does = spec_of(op).does
                sets_controller = does.kind == "set" and does.characteristic == "controller"
                if sets_controller or (does.kind == "add" and does.characteristic == "tags"):
                    grown = self.may_controller if sets_controller else self.may_tags
                    value = str(parameter(op))  # (a player or a tag: text, as the board format reads it)
                    for x in self.could_target(p):
                        if value not in grown[x]:
                            grown[x].add(value)
                            changed = True
                    continue
                if does.kind != "copy":
                    continue
                for x in self.could_target(p):
                    if p.effect.op.of not in self.copies[x]:
                        self.copies[x].add(p.effect.op.of)
                        changed = True
            for x in held:
                for root in self.roots(x) - {x}:
                    for e in ix.objects[root].rules_text:
                        name = ix.copied_name(e.id, x)
                        if name not in held[x]:
                            held[x][name] = _Potential(e, "rules" if name == e.id else "copied", x)
                            changed = True
            if not changed:
                break
        return ongoing + [p for h in held.values() for p in h.values()]

    def roots(self, x: str) -> set[str]:
        """Every object whose printed values x's copiable values could be (x included)."""
        seen, todo = {x}, [x]
        while todo:
            for y in self.copies.get(todo.pop(), ()):
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen

    # -- what could be written -----------------------------------------------------------------

    def _writes(self) -> None:
        ix = self.ix
        self.might: set[str] = set()
        self.controller: set[str] = set()
        self.types: set[str] = set()
        self.all_tags: set[str] = set()
        self.tag: set[tuple[str, str]] = set()
        self.all_keywords: set[str] = set()
        self.keyword: set[tuple[str, str]] = set()
        self.abilities: set[str] = set()
        self.copiable: set[str] = set()
        gained: dict[str, set[str]] = {}
        for p in self.potentials:
            op = p.effect.op
            does = spec_of(op).does
            for o in self.could_target(p):
                n = does.kind
                if n == "copy":
                    self.might.add(o)
                    self.types.add(o)
                    self.all_tags.add(o)
                    self.all_keywords.add(o)
                    self.abilities.add(o)
                    self.copiable.add(o)
                elif n == "set" and does.characteristic == "controller":
                    self.controller.add(o)
                elif n in ("add", "remove"):  # a tag (operations.py: the only members replayed)
                    self.tag.add((o, str(parameter(op))))
                elif n in ("gain_keywords", "lose_keywords"):
                    for kw in op.keywords:
                        self.keyword.add((o, kw.name))
                        if n == "gain_keywords":
                            gained.setdefault(o, set()).add(kw.name)
                elif n == "lose_all_abilities":
                    self.all_keywords.add(o)
                    self.abilities.add(o)
                else:  # setting Might, and arithmetic
                    self.might.add(o)
        for o in ix.on_board:
            obj = ix.objects[o]
            if obj.buffed:
                self.might.add(o)
            if o in ix.bearer and obj.might_bonus is not None:
                self.might.add(ix.bearer[o])
            # A keyword bonus writes Might while o has the status and could hold the keyword.
            could_hold = set(gained.get(o, ()))
            for root in (self.roots(o) if o in self.copiable else {o}):
                could_hold |= {k.name for k in ix.objects[root].keywords}
            for keyword, status in ix.bonus.items():
                if status in obj.status and keyword in could_hold:
                    self.might.add(o)

    def writable(self, q: str, what: str, detail: str | None = None) -> bool:
        if what == "might":
            return q in self.might
        if what == "controller":
            return q in self.controller
        if what == "keyword":
            return q in self.all_keywords or (q, detail) in self.keyword
        if what == "ability":
            return q in self.abilities
        if what == "copiable":
            return q in self.copiable
        if what == "types":
            return q in self.types
        if what == "tag":
            return q in self.all_tags or (q, detail) in self.tag
        return False  # status: never written

    # -- the needs graph -----------------------------------------------------------------------

    def _edges(self) -> dict[str, set[str]]:
        ix = self.ix
        edges: dict[str, set[str]] = {o: set() for o in ix.order if o in ix.on_board}

        def read(o: str, q: str | None, what: str, detail: str | None = None) -> None:
            if q is not None and q != o and q in ix.on_board and self.writable(q, what, detail):
                edges[o].add(q)

        for p in self.potentials:
            e = p.effect
            ability = p.kind != "ongoing"
            for o in self.could_target(p):
                if ability:
                    read(o, p.holder, "ability")  # existence
                t = e.target
                if t.kind == "filter" and t.filter is not None and t.filter.relation is not None and ability:
                    read(o, p.holder, "controller")  # friendly/enemy: the holder's controller
                for c in e.conditions:
                    r = condition_object(c.of, p.holder, p.kind, o)
                    if c.kind in ("mighty", "might_at_least"):
                        read(o, r, "might")
                    elif c.kind == "has_keyword":
                        read(o, r, "keyword", c.keyword)
                    elif c.kind == "controlled_by":
                        read(o, r, "controller")
                        if c.player == "you" and ability:
                            read(o, p.holder, "controller")
                if spec_of(e.op).does.kind == "copy":
                    read(o, e.op.of, "copiable")
        return edges


def loop_checks(index: BoardIndex, loops: list[list[str]], out: list[Violation]) -> int:
    """Each reported loop is strongly connected through writable reads. Returns the checks made."""
    if not loops:
        return 0
    needs = Needs(index)
    for loop in loops:
        members = list(dict.fromkeys(loop))
        where = ",".join(sorted(members))
        bad = [m for m in members if m not in index.on_board]
        if bad:
            out.append(Violation(where, NEEDS, "loop-members", "objects on the board",
                                 ", ".join(bad)))
            continue
        if len(members) < 2:
            out.append(Violation(where, NEEDS, "strongly-connected", "a loop of two or more objects",
                                 "one object"))
            continue
        inside = set(members)
        sub = {m: needs.edges[m] & inside for m in members}
        start = members[0]
        forward = _reach(start, sub)
        backward = _reach(start, {m: {n for n in members if m in sub[n]} for m in members})
        missing = [m for m in members if m not in forward or m not in backward]
        if missing:
            shown = ", ".join(f"{a}->{b}" for a in sorted(sub) for b in sorted(sub[a])) or "none"
            m = missing[0]
            gap = f"{start} -> {m}" if m not in forward else f"{m} -> {start}"
            out.append(Violation(
                where, NEEDS, "strongly-connected",
                "every member needs every other, through reads of characteristics something can write",
                f"no path {gap}; needs inside the loop: {shown}",
            ))
    return len(loops)


def _reach(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for n in graph[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen
