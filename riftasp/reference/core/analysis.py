"""What can be known about a board before anything is applied.

- what each object holds at the start, and every ability it *could* hold (docs/semantics.md §5:
  "abilities a copy could bring count as held"), closed under copies of copies;
- every instance that could target each object (its *sources*, §5 "could target");
- which characteristics some instance could write, the *needs* graph between objects and its
  groups, in calculation order (§5).

"Could target" judges what no effect changes (target kind, listed ids, zone, location, `other`)
as it is, and what effects can change (a filter's controller, tag or type) against every value
it could ever take (§5): printed, brought by a copy, set or added by an instance that could
target the object. Those values and "could target" grow together to a fixpoint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import Board, Effect, Target
from .chars import Char, Reads, WriteIndex
from .evaluate import conditions_hold, reads, targets
from .graph import dependency_order, strongly_connected_components
from .instances import HELD, ONGOING, Instance
from .layout import Layout, attached_timestamp, lay_out
from .operators import AddMember, Copy, GainKeywords, SetValue
from .ruleset import Ruleset
from .state import CONTROLLER, Brought, HeldAbility, KeywordInstance, ObjState, frozen, own_ability


@dataclass(frozen=True)
class _Potential:
    """An ability an object could hold: its name there, the effect, and how it would hold it."""

    name: str
    effect: Effect
    origin: str  # "own" | "effect_text" | "copied"
    supplier: str | None = None


@dataclass
class Analysis:
    layout: Layout
    # Every object's state before anything applies: on the board holding its initial abilities,
    # off the board its printed values (all it ever is).
    initial: dict[str, ObjState]
    # object -> every instance that could target it (abilities as potential instances)
    sources: dict[str, list[Instance]]
    # object -> the keywords that bear instances on it (those instances are found at run time)
    borne_keywords: dict[str, tuple[str, ...]]
    needs: dict[str, set[str]]
    groups: list[list[str]]  # calculation order
    object_loops: list[list[str]]
    # every keyword-borne instance that could exist, with its object (for the rings of §8)
    potential_borne: list[tuple[Instance, str]] = field(default_factory=list)
    _reads: dict[tuple[str, str], Reads] = field(default_factory=dict)
    _writes: dict[tuple[str, str], tuple[Char, ...]] = field(default_factory=dict)
    _instances: dict[tuple, Instance] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ruleset: Ruleset = self.layout.ruleset

    # -- instances ---------------------------------------------------------------------------------

    def reads(self, inst: Instance, oid: str) -> Reads:
        key = (inst.name, oid)
        found = self._reads.get(key)
        if found is None:
            found = self._reads[key] = reads(inst, oid)
        return found

    def writes(self, inst: Instance, oid: str) -> tuple[Char, ...]:
        key = (inst.name, oid)
        found = self._writes.get(key)
        if found is None:
            found = self._writes[key] = inst.operator.writes(inst.op, oid)
        return found

    def ability(self, holder: str, held: HeldAbility) -> Instance:
        """The instance of an ability as its holder holds it now (§2)."""
        key = (holder, held.name, held.timestamp, held.a, held.b)
        inst = self._instances.get(key)
        if inst is None:
            inst = self._instances[key] = Instance(
                **self.layout.bind(held.effect),
                name=held.name,
                kind=HELD,
                timestamp=held.timestamp,
                key=(held.timestamp, held.a, held.b, 0, self.layout.index[holder]),
                holder=holder,
                bearer=holder if held.origin == "effect_text" else self.layout.bearer[holder],
                origin=held.origin,
                supplier=held.supplier,
            )
        return inst

    def held_now(self, src: Instance, states: dict[str, ObjState]) -> Instance | None:
        """A potential ability as its holder holds (or retains) it now; None when it does not."""
        assert src.holder is not None  # an ability's instance has its holder
        holder = states[src.holder]
        held = holder.held.get(src.name) or holder.retained.get(src.name)
        return None if held is None else self.ability(src.holder, held)

    def borne(self, oid: str, state: ObjState) -> list[Instance]:
        """The keyword-borne instances on an object now: one per instance of a bearing keyword."""
        keywords = self.borne_keywords[oid]
        if not keywords:
            return []
        out = []
        for kw in state.keywords:
            if kw.keyword in keywords:
                inst = self._instances.get((oid, kw))
                if inst is None:
                    inst = self.ruleset.borne_instance(self.layout, oid, kw)
                    self._instances[(oid, kw)] = inst
                out.append(inst)
        return out

    def current(self, oid: str, states: dict[str, ObjState]) -> list[Instance]:
        """The instances that exist now among those that could target the object."""
        out = []
        for src in self.sources[oid]:
            if src.kind != HELD:
                out.append(src)
                continue
            # held_now, written out: this loop is the engine's busiest.
            assert src.holder is not None  # an ability's instance has its holder
            holder = states[src.holder]
            held = holder.held.get(src.name) or holder.retained.get(src.name)
            if held is not None:
                out.append(self.ability(src.holder, held))
        out.extend(self.borne(oid, states[oid]))
        return out


def _ref(ref: str | None, holder: str | None, bearer: str | None, target: str | None) -> str | None:
    if ref == "self":
        return holder
    if ref == "bearer":
        return bearer
    if ref == "target":
        return target
    return ref


class _Analyser:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.ruleset = layout.ruleset
        self.objects = layout.objects
        self.on_board = layout.on_board
        self.on_board_set = layout.on_board_set
        self.bearer = layout.bearer
        operators = self.ruleset.operators
        self.copy_ops = {name for name, op in operators.items() if isinstance(op, Copy)}
        self._printed: dict[str, ObjState] = {}  # add_printed's printed states, one per root
        # What each characteristic of each object on the board could ever be: (object, what) ->
        # values (single-valued) or members (set-valued); grown by potential_holdings().
        self.may: dict[tuple[str, str], set[str]] = {}
        # The other way round: (what, value or member) -> the objects that could have it, so that
        # a filter asking for a member looks at those objects only (looking at every object for
        # every filtered effect cost time in proportion to the board squared).
        self.may_have: dict[tuple[str, str], set[str]] = {}
        for oid in self.on_board:
            self.add_printed(oid, oid)

    def add_printed(self, oid: str, root: str, copiable_only: bool = False) -> bool:
        """Add `root`'s printed values to what `oid` could have; True when something is new."""
        printed = self._printed.get(root)
        if printed is None:
            printed = self._printed[root] = self.layout.printed(root)  # (a root of many holders)
        families = self.ruleset.families
        new = False
        for ch, v in printed.values.items():
            if copiable_only and ch not in families.copied_values:
                continue
            new |= self.may_add(oid, ch, {v})
        for ch, members in printed.members.items():
            if copiable_only and ch not in families.copied_members:
                continue
            new |= self.may_add(oid, ch, set(members))
        return new

    def may_add(self, oid: str, what: str, values: set) -> bool:
        have = self.may.setdefault((oid, what), set())
        if values <= have:
            return False
        for value in values - have:
            self.may_have.setdefault((what, value), set()).add(oid)
        have |= values
        return True

    def may_match(self, effect: Effect, oid: str, controllers: set[str]) -> bool:
        """Whether the filter's parts that effects can change could ever match `oid`."""
        f = effect.target.filter
        for characteristic, member in self.layout.bind(effect)["asks"]:
            if member not in self.may.get((oid, characteristic), ()):
                return False
        if f is not None and f.relation is not None:
            theirs = self.may.get((oid, CONTROLLER), set())
            if f.relation == "friendly":
                return bool(theirs & controllers)
            return any(c != d for c in theirs for d in controllers)
        return True

    def instance_controllers(self, effect: Effect, holder: str | None, ongoing: bool) -> set[str]:
        """The controllers an instance could have: an ongoing effect's own, an ability's holder's."""
        if ongoing:
            return {effect.controller} if effect.controller is not None else set()
        return self.may.get((holder, CONTROLLER), set()) if holder is not None else set()

    # -- §3: what each object holds at the start -----------------------------------------------

    def initial_held(self) -> dict[str, dict[str, HeldAbility]]:
        text_pos = self.layout.text_pos
        held: dict[str, dict[str, HeldAbility]] = {oid: {} for oid in self.on_board}
        for obj in self.layout.board.objects:
            if obj.id not in self.on_board_set:
                continue
            bearer = self.bearer[obj.id]
            if bearer is None:
                # An attached object's own rules text is inactive (§2).
                for e in obj.rules_text:
                    held[obj.id][e.id] = own_ability(e, obj, text_pos[e.id])
            else:
                for e in obj.effect_text:
                    ts = e.timestamp if e.timestamp is not None else attached_timestamp(obj)
                    held[bearer][e.id] = HeldAbility(
                        e.id, e, "effect_text", ts, text_pos[e.id], 0, supplier=obj.id
                    )
        return held

    # -- §5: static targeting ------------------------------------------------------------------

    def could_target(
        self,
        target: Target,
        holder: str | None,
        bearer: str | None,
        effect: Effect | None = None,
        ongoing: bool = False,
    ) -> list[str]:
        found = self._could_target(target, holder, bearer, effect, ongoing)
        if effect is None or not any(c.kind == "status" for c in effect.conditions):
            return found
        return [oid for oid in found if not self.never_holds(effect, holder, bearer, oid, ongoing)]

    def never_holds(self, effect: Effect, holder: str | None, bearer: str | None, oid: str, ongoing: bool) -> bool:
        """An effect that can never apply changes nothing (issue 35, C2), not even what could be:
        no effect writes a status, so a status condition false on the board never holds (read of
        a named object, `self` — an ongoing effect's source, or nothing — or `target`)."""
        for c in effect.conditions:
            if c.kind != "status" or c.of == "bearer":
                continue
            if c.of == "self" and ongoing and holder is None:
                return True  # a reference to nothing
            r = _ref(c.of, holder, bearer, oid)
            if r is not None and r in self.objects and c.status not in self.objects[r].status:
                return True
        return False

    def _could_target(self, target: Target, holder: str | None, bearer: str | None, effect: Effect | None,
                      ongoing: bool) -> list[str]:  # fmt: skip
        """could_target before the conditions that never hold: by target kind and filter."""
        if target.kind == "self":
            return [holder] if holder in self.on_board_set else []
        if target.kind == "bearer":
            return [bearer] if bearer in self.on_board_set else []
        if target.kind == "ids":
            return [i for i in dict.fromkeys(target.ids) if i in self.on_board_set]
        f = target.filter
        controllers = self.instance_controllers(effect, holder, ongoing) if effect is not None else set()
        result = []
        for oid in self._filter_candidates(effect):
            if f is not None:
                obj = self.objects[oid]
                if f.zone is not None and obj.zone != f.zone:
                    continue
                if f.location is not None and obj.location != f.location:
                    continue
                if f.other and oid == holder:
                    continue
                if effect is not None and not self.may_match(effect, oid, controllers):
                    continue
            result.append(oid)
        return result

    def _filter_candidates(self, effect: Effect | None) -> list[str]:
        """The objects on the board, in board order, that could have every member the filter
        asks for (may_match asks the same, object by object): those that could have its rarest."""
        asks = self.layout.bind(effect)["asks"] if effect is not None else ()
        if not asks:
            return self.on_board
        rarest = min((self.may_have.get(ask, set()) for ask in asks), key=len)
        return sorted((oid for oid in rarest if oid in self.on_board_set), key=self.layout.index.__getitem__)

    def ability_bearer(self, holder: str, origin: str) -> str | None:
        # In Effect Text `self` and `bearer` both mean the bearer, which is its holder (§2).
        return holder if origin == "effect_text" else self.bearer[holder]

    # -- §5: what each object could hold, closed under copies of copies -------------------------

    def potential_holdings(self, initial: dict[str, dict[str, HeldAbility]]) -> None:
        self.potential: dict[str, dict[str, _Potential]] = {
            holder: {n: _Potential(n, a.effect, a.origin, a.supplier) for n, a in abilities.items()}
            for holder, abilities in initial.items()
        }
        # Objects that could become an object's copiable root through a copy.
        self.roots: dict[str, set[str]] = {oid: set() for oid in self.on_board}
        operators = self.ruleset.operators
        # The roots each holder gained since its roots' rules text was last looked at (a copy
        # chain of n objects gains one level of roots a pass: looking at every root every pass
        # cost n^3).
        fresh: dict[str, set[str]] = {}
        looked: dict[str, set[str]] = {}
        edges: set[tuple[str, str | None, str]] = set()  # (copy effect, holder, target) seen in a pass before
        while True:
            changed = False
            # Every effect that could exist: (effect, holder, bearer, ongoing).
            every = [(e, e.source, self.bearer.get(e.source) if e.source else None, True)
                     for e in self.layout.board.effects]  # fmt: skip
            for potential_holder, abilities in self.potential.items():
                for p in abilities.values():
                    every.append((p.effect, potential_holder, self.ability_bearer(potential_holder, p.origin), False))
            for effect, holder, bearer, ongoing in every:
                operator = operators.get(effect.op.name)
                is_copy = effect.op.name in self.copy_ops
                if not (is_copy or isinstance(operator, (SetValue, AddMember))):
                    continue
                for oid in self.could_target(effect.target, holder, bearer, effect, ongoing):
                    if not is_copy:
                        assert isinstance(operator, (SetValue, AddMember))  # (the others went on above)
                        # A value it sets or a member it adds is one the object could have.
                        value = getattr(effect.op, operator.field)
                        changed |= self.may_add(oid, operator.reported, {value})
                        continue
                    x = _ref(effect.op.of, holder, bearer, oid)
                    if x is None or x not in self.objects:
                        continue
                    # X's root is X itself or whatever a copy could make it. (A copy seen in a
                    # pass before passes on only what X gained since.)
                    edge = (effect.id, holder, oid)
                    if edge in edges:
                        gained = looked.get(x, set()) | fresh.get(x, set())
                        if not gained:
                            continue
                        new = gained - self.roots[oid]
                    else:
                        edges.add(edge)
                        new = ({x} | self.roots.get(x, set())) - self.roots[oid]
                    if new:
                        self.roots[oid] |= new
                        fresh.setdefault(oid, set()).update(new)
                        changed = True
                        for root in new:
                            self.add_printed(oid, root, copiable_only=True)
            looked, fresh = fresh, {}
            for holder in self.on_board:
                for root in looked.get(holder, ()):
                    for e in self.objects[root].rules_text:
                        own = root == holder
                        name = e.id if own else f"{e.id}@{holder}"
                        if name not in self.potential[holder]:
                            self.potential[holder][name] = _Potential(
                                name, e, "own" if own else "copied"
                            )
                            changed = True
            if not changed:
                return

    # -- sources: every instance that could target each object ---------------------------------

    def sources(self) -> dict[str, list[Instance]]:
        sources: dict[str, list[Instance]] = {oid: [] for oid in self.on_board}
        for e in self.layout.board.effects:
            src = e.source
            bearer = self.bearer.get(src) if src else None
            inst = Instance(
                **self.layout.bind(e),
                name=e.id,
                kind=ONGOING,
                timestamp=e.timestamp if e.timestamp is not None else 0,
                key=(e.timestamp or 0, self.layout.ongoing_pos[e.id], 0, 0, 0),
                holder=src,
                bearer=bearer,
                controller=e.controller,
            )
            for oid in self.could_target(e.target, src, bearer, e, ongoing=True):
                sources[oid].append(inst)
        for holder in self.on_board:
            for p in self.potential[holder].values():
                bearer = self.ability_bearer(holder, p.origin)
                # A potential instance: its key is a placeholder (see Instance).
                inst = Instance(
                    **self.layout.bind(p.effect),
                    name=p.name,
                    kind=HELD,
                    timestamp=0,
                    key=(0, 0, 0, 0, 0),
                    holder=holder,
                    bearer=bearer,
                    origin=p.origin,
                    supplier=p.supplier,
                )
                for oid in self.could_target(p.effect.target, holder, bearer, p.effect):
                    sources[oid].append(inst)
        for oid, inst in self.ruleset.own_instances(self.layout):
            sources[oid].append(inst)
        return sources

    def borne_keywords(self) -> dict[str, tuple[str, ...]]:
        return {oid: self.ruleset.borne_keywords(self.objects[oid]) for oid in self.on_board}

    def potential_borne(
        self, sources: dict[str, list[Instance]], borne: dict[str, tuple[str, ...]]
    ) -> list[tuple[Instance, str]]:
        """Every keyword-borne instance that could exist: one per bearing keyword an object has
        printed, could gain, or could take from what a copy could make it, named by what brings
        it (its order key is a placeholder: these only name rings, §8)."""
        out: list[tuple[Instance, str]] = []
        for oid in self.on_board:
            bearing = borne[oid]
            if not bearing:
                continue
            found: list[tuple[str, str | None]] = [(k.name, None) for k in self.objects[oid].keywords]
            for inst in sources[oid]:
                if isinstance(inst.operator, GainKeywords):
                    found += [(k.name, inst.name) for k in inst.op.keywords]
                elif inst.op.name in self.copy_ops:
                    x = _ref(inst.op.of, inst.holder, inst.bearer, oid)
                    if x in self.objects:
                        for root in ({x} | self.roots.get(x, set())) - {oid}:
                            found += [(k.name, inst.name) for k in self.objects[root].keywords]
            for keyword, source in dict.fromkeys(found):
                if keyword in bearing:
                    brought = None if source is None else Brought(source, 0, 0, 0, 0)
                    inst = self.ruleset.borne_instance(self.layout, oid, KeywordInstance(keyword, 1, brought))
                    out.append((inst, oid))
        return out

    # -- §5: needs -----------------------------------------------------------------------------

    def potential_writes(
        self, sources: dict[str, list[Instance]], borne: dict[str, tuple[str, ...]]
    ) -> WriteIndex[Instance | str]:
        """Every characteristic some instance on this board could write (§4: it could target
        the object and its operation writes it); "keyword-borne" for a keyword-borne instance
        the object could come to have."""
        index: WriteIndex[Instance | str] = WriteIndex()
        for oid, insts in sources.items():
            for inst in insts:
                index.add(inst.operator.writes(inst.op, oid), inst)
            if not borne[oid]:
                continue
            # A keyword-borne instance could write when the object could hold a bearing
            # keyword: printed, gained, or brought by a copy.
            could_hold: set[str] = {k.name for k in self.objects[oid].keywords}
            for inst in insts:
                if isinstance(inst.operator, GainKeywords):
                    could_hold |= {k.name for k in inst.op.keywords}
            for root in self.roots[oid]:
                could_hold |= {k.name for k in self.objects[root].keywords}
            if any(k in could_hold for k in borne[oid]):
                index.add(self.ruleset.borne_writes(oid), "keyword-borne")
        return index

    def needs(self, sources: dict[str, list[Instance]], written: WriteIndex) -> dict[str, set[str]]:
        needs: dict[str, set[str]] = {oid: set() for oid in self.on_board}
        for oid, insts in sources.items():
            for inst in insts:
                for read in reads(inst, oid).all:
                    q = read[0]
                    if q != oid and q in self.on_board_set and written.any_writer(read):
                        needs[oid].add(q)
        return needs


def never_applies(
    sources: dict[str, list[Instance]], written: WriteIndex, initial: dict[str, ObjState], layout: Layout
) -> dict[str, list[Instance]]:
    """The sources without the applications that can never apply (issue 35, class C2: an effect
    that can never apply changes nothing): one that reads nothing any instance could write and
    does not exist, target its object or meet its conditions at the start never will, so it
    waits for nothing, nothing waits for it and it is in no universe of dependency questions."""
    view = initial.get
    out: dict[str, list[Instance]] = {}
    for oid, insts in sources.items():
        kept = []
        for inst in insts:
            if inst.kind in (HELD, ONGOING) and not any(written.any_writer(r) for r in reads(inst, oid).all):
                if inst.kind == HELD:
                    assert inst.holder is not None  # an ability's instance has its holder
                    if inst.name not in initial[inst.holder].held:
                        continue  # it never exists
                if not (targets(inst, layout.objects[oid], view) and conditions_hold(inst, oid, view)):
                    continue
            kept.append(inst)
        out[oid] = kept
    return out


def analyse(board: Board, ruleset: Ruleset) -> Analysis:
    layout = lay_out(board, ruleset)
    a = _Analyser(layout)
    held = a.initial_held()
    a.potential_holdings(held)
    sources = a.sources()
    borne = a.borne_keywords()
    written = a.potential_writes(sources, borne)
    potential_borne = a.potential_borne(sources, borne)
    needs = a.needs(sources, written)
    on_board = layout.on_board
    components = strongly_connected_components(on_board, {k: sorted(v) for k, v in needs.items()})
    groups = dependency_order(components, needs, layout.index)
    initial = {oid: layout.printed(oid, frozen(held.get(oid, {}))) for oid in layout.objects}
    sources = never_applies(sources, written, initial, layout)
    return Analysis(
        layout=layout,
        initial=initial,
        sources=sources,
        borne_keywords=borne,
        needs=needs,
        groups=groups,
        object_loops=[g for g in groups if len(g) >= 2],
        potential_borne=potential_borne,
    )
