"""What can be known about a board before anything is applied.

- the slots of the order key (docs/semantics.md §2);
- what each object holds at the start, and every ability it *could* hold (§5: "abilities a copy
  could bring count as held"), closed under copies of copies;
- every instance that could target each object (its *sources*, §5 "could target");
- which characteristics some instance could write, the *needs* graph between objects and its
  groups, in calculation order (§5).

"Could target" judges only what no effect changes (target kind, listed ids, zone, location,
`other`), exactly as §5 prescribes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..listing import all_slots
from ..model import Board, Effect, GameObject, Operation, Target
from ..ruleset_data import KeywordRules, keyword_rules
from .graph import dependency_order, strongly_connected_components
from .instances import STAGES, Char, Instance, Reads, WriteIndex, reads, writes
from .operations import Board as OpBoard
from .operations import own_ability
from .state import Brought, HeldAbility, KeywordInstance, frozen, printed_state


@dataclass(frozen=True)
class _Potential:
    """An ability an object could hold: its name there, the effect, and how it would hold it."""

    name: str
    effect: Effect
    origin: str  # "own" | "effect_text" | "copied"
    gear: str | None = None


@dataclass
class Analysis:
    board: Board
    objects: dict[str, GameObject]
    index: dict[str, int]  # board position of every object
    on_board: list[str]  # board order
    on_board_set: set[str]
    bearer: dict[str, str | None]  # object -> the on-board object it is attached to
    rules: KeywordRules
    op_board: OpBoard
    keyword_pos: dict[tuple[str, str], int]
    initial_held: dict[str, dict[str, HeldAbility]]
    # object -> every instance that could target it (abilities as potential instances)
    sources: dict[str, list[Instance]]
    # object -> the bonus keywords whose status it has (its keyword bonuses are found at run time)
    bonus_keywords: dict[str, list[str]]
    needs: dict[str, set[str]]
    groups: list[list[str]]  # calculation order
    object_loops: list[list[str]]
    _reads: dict[tuple[str, str], Reads] = field(default_factory=dict)
    _writes: dict[tuple[str, str], tuple[Char, ...]] = field(default_factory=dict)
    _abilities: dict[tuple, Instance] = field(default_factory=dict)

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
            found = self._writes[key] = writes(inst, oid)
        return found

    def ability(self, holder: str, held: HeldAbility) -> Instance:
        """The instance of an ability as its holder holds it now (§2)."""
        key = (holder, held.name, held.timestamp, held.a, held.b)
        inst = self._abilities.get(key)
        if inst is None:
            e = held.effect
            inst = self._abilities[key] = Instance(
                name=held.name,
                kind="ability",
                op=e.op,
                stage=STAGES[e.op.name],
                timestamp=held.timestamp,
                key=(held.timestamp, held.a, held.b, 0, self.index[holder]),
                conditions=e.conditions,
                target=e.target,
                holder=holder,
                bearer=holder if held.origin == "effect_text" else self.bearer[holder],
                origin=held.origin,
                gear=held.gear,
            )
        return inst

    def keyword_bonus(self, oid: str, kw: KeywordInstance) -> Instance:
        """§2: one keyword bonus per instance of a bonus keyword that the object holds."""
        key = (oid, kw)
        inst = self._abilities.get(key)
        if inst is None:
            slot = self.keyword_pos[(oid, kw.keyword)]
            s: Brought | None = kw.source
            if s is None:
                ts = self.objects[oid].since
                name = f"keyword:{kw.keyword}:{oid}"
                order = (ts, slot, 0, 0, 0)
            else:
                ts = s.timestamp
                name = f"keyword:{kw.keyword}:{oid}:{s.name}"
                order = (ts, slot, 1 + s.a, s.b, s.h)
            inst = self._abilities[key] = Instance(
                name=name,
                kind="keyword",
                op=Operation("plus", amount=kw.value),
                stage=4,
                timestamp=ts,
                key=order,
                obj=oid,
                keyword=kw.keyword,
                kw_source=kw.source_name,
                value=kw.value,
            )
        return inst


def _ref(ref: str | None, holder: str | None, bearer: str | None, target: str | None) -> str | None:
    if ref == "self":
        return holder
    if ref == "bearer":
        return bearer
    if ref == "target":
        return target
    return ref


class _Analyser:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.objects = {obj.id: obj for obj in board.objects}
        self.index = {obj.id: i for i, obj in enumerate(board.objects)}
        self.on_board = [obj.id for obj in board.objects if obj.on_board]
        self.on_board_set = set(self.on_board)
        self.rules = keyword_rules(board.ruleset)
        self.bearer: dict[str, str | None] = {}
        for obj in board.objects:
            b = obj.attached_to
            attached = b in self.on_board_set and obj.on_board
            self.bearer[obj.id] = b if attached else None

    # -- §2: slots of the order key ------------------------------------------------------------

    def slots(self) -> None:
        self.text_pos: dict[str, int] = {}
        self.buff_pos: dict[str, int] = {}
        self.bonus_pos: dict[str, int] = {}
        self.keyword_pos: dict[tuple[str, str], int] = {}
        self.ongoing_pos: dict[str, int] = {}
        for pos, slot in enumerate(all_slots(self.board, self.rules.bonus)):
            if slot.part == "ongoing":
                self.ongoing_pos[slot.effect.id] = pos
            elif slot.effect is not None:
                self.text_pos[slot.effect.id] = pos
            elif slot.part == "buff":
                self.buff_pos[slot.obj.id] = pos
            elif slot.part == "bonus":
                self.bonus_pos[slot.obj.id] = pos
            else:
                self.keyword_pos[(slot.obj.id, slot.keyword)] = pos

    def gear_timestamp(self, gear: GameObject) -> int:
        return gear.attached_since if gear.attached_since is not None else gear.since

    # -- §3: what each object holds at the start -----------------------------------------------

    def initial_held(self) -> dict[str, dict[str, HeldAbility]]:
        held: dict[str, dict[str, HeldAbility]] = {oid: {} for oid in self.on_board}
        for obj in self.board.objects:
            if obj.id not in self.on_board_set:
                continue
            if self.bearer[obj.id] is None:
                # An attached gear's own rules text is inactive (§2, RB 135.4).
                for e in obj.rules_text:
                    held[obj.id][e.id] = own_ability(e, obj, self.text_pos[e.id])
            bearer = self.bearer[obj.id]
            if bearer is not None:
                for e in obj.effect_text:
                    ts = e.timestamp if e.timestamp is not None else self.gear_timestamp(obj)
                    held[bearer][e.id] = HeldAbility(
                        e.id, e, "effect_text", ts, self.text_pos[e.id], 0, gear=obj.id
                    )
        return held

    # -- §5: static targeting ------------------------------------------------------------------

    def could_target(self, target: Target, holder: str | None, bearer: str | None) -> list[str]:
        if target.kind == "self":
            return [holder] if holder in self.on_board_set else []
        if target.kind == "bearer":
            return [bearer] if bearer in self.on_board_set else []
        if target.kind == "ids":
            return [i for i in dict.fromkeys(target.ids) if i in self.on_board_set]
        f = target.filter
        result = []
        for oid in self.on_board:
            if f is not None:
                obj = self.objects[oid]
                if f.zone is not None and obj.zone != f.zone:
                    continue
                if f.location is not None and obj.location != f.location:
                    continue
                if f.other and oid == holder:
                    continue
            result.append(oid)
        return result

    def ability_bearer(self, holder: str, origin: str) -> str | None:
        # In Effect Text `self` and `bearer` both mean the bearer, which is its holder (§2).
        return holder if origin == "effect_text" else self.bearer[holder]

    # -- §5: what each object could hold, closed under copies of copies -------------------------

    def potential_holdings(self, initial: dict[str, dict[str, HeldAbility]]) -> None:
        self.potential: dict[str, dict[str, _Potential]] = {
            holder: {n: _Potential(n, a.effect, a.origin, a.gear) for n, a in abilities.items()}
            for holder, abilities in initial.items()
        }
        # Objects that could become an object's copiable root through a copy.
        self.roots: dict[str, set[str]] = {oid: set() for oid in self.on_board}
        while True:
            changed = False
            copies = [(e, e.source, self.bearer.get(e.source) if e.source else None)
                      for e in self.board.effects if e.op.name == "copy"]  # fmt: skip
            for holder, abilities in self.potential.items():
                for p in abilities.values():
                    if p.effect.op.name == "copy":
                        copies.append((p.effect, holder, self.ability_bearer(holder, p.origin)))
            for effect, holder, bearer in copies:
                for oid in self.could_target(effect.target, holder, bearer):
                    x = _ref(effect.op.of, holder, bearer, oid)
                    if x is None or x not in self.objects:
                        continue
                    # X's root is X itself or whatever a copy could make it.
                    new = ({x} | self.roots.get(x, set())) - self.roots[oid]
                    if new:
                        self.roots[oid] |= new
                        changed = True
            for holder in self.on_board:
                for root in self.roots[holder]:
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
        for e in self.board.effects:
            src = e.source
            bearer = self.bearer.get(src) if src else None
            inst = Instance(
                name=e.id,
                kind="ongoing",
                op=e.op,
                stage=STAGES[e.op.name],
                timestamp=e.timestamp if e.timestamp is not None else 0,
                key=(e.timestamp or 0, self.ongoing_pos[e.id], 0, 0, 0),
                conditions=e.conditions,
                target=e.target,
                holder=src,
                bearer=bearer,
                controller=e.controller,
            )
            for oid in self.could_target(e.target, src, bearer):
                sources[oid].append(inst)
        for holder in self.on_board:
            for p in self.potential[holder].values():
                bearer = self.ability_bearer(holder, p.origin)
                # A potential instance: its key is a placeholder (see Instance).
                inst = Instance(
                    name=p.name,
                    kind="ability",
                    op=p.effect.op,
                    stage=STAGES[p.effect.op.name],
                    timestamp=0,
                    key=(0, 0, 0, 0, 0),
                    conditions=p.effect.conditions,
                    target=p.effect.target,
                    holder=holder,
                    bearer=bearer,
                    origin=p.origin,
                    gear=p.gear,
                )
                for oid in self.could_target(p.effect.target, holder, bearer):
                    sources[oid].append(inst)
        for oid in self.on_board:
            obj = self.objects[oid]
            if obj.buffed:
                ts = obj.buff_since if obj.buff_since is not None else obj.since
                sources[oid].append(Instance(
                    name=f"buff:{oid}", kind="buff", op=Operation("plus", amount=1), stage=4,
                    timestamp=ts, key=(ts, self.buff_pos[oid], 0, 0, 0), obj=oid,
                ))  # fmt: skip
        for gear in self.board.objects:
            bearer = self.bearer[gear.id]
            if bearer is not None and gear.might_bonus is not None:
                ts = self.gear_timestamp(gear)
                sources[bearer].append(Instance(
                    name=f"bonus:{gear.id}", kind="bonus",
                    op=Operation("plus", amount=gear.might_bonus), stage=4, timestamp=ts,
                    key=(ts, self.bonus_pos[gear.id], 0, 0, 0), obj=bearer, gear=gear.id,
                ))  # fmt: skip
        return sources

    def bonus_keywords(self) -> dict[str, list[str]]:
        return {
            oid: [k for k, status in self.rules.bonus.items() if status in self.objects[oid].status]
            for oid in self.on_board
        }

    # -- §5: needs -----------------------------------------------------------------------------

    def potential_writes(
        self, sources: dict[str, list[Instance]], bonus: dict[str, list[str]]
    ) -> WriteIndex:
        """Every characteristic some instance on this board could write (§4: it could target
        the object and its operation writes it)."""
        index = WriteIndex()
        for oid, insts in sources.items():
            for inst in insts:
                index.add(writes(inst, oid), inst)
            # A keyword bonus could write Might when the object has the keyword's status and
            # could hold the keyword: printed, gained, or brought by a copy.
            could_hold: set[str] = {k.name for k in self.objects[oid].keywords}
            for inst in insts:
                if inst.op.name == "gain_keywords":
                    could_hold |= {k.name for k in inst.op.keywords}
            for root in self.roots[oid]:
                could_hold |= {k.name for k in self.objects[root].keywords}
            if any(k in could_hold for k in bonus[oid]):
                index.add(((oid, "might", None),), "keyword bonus")
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


def analyse(board: Board) -> Analysis:
    a = _Analyser(board)
    a.slots()
    initial = a.initial_held()
    a.potential_holdings(initial)
    sources = a.sources()
    bonus = a.bonus_keywords()
    needs = a.needs(sources, a.potential_writes(sources, bonus))
    components = strongly_connected_components(a.on_board, {k: sorted(v) for k, v in needs.items()})
    groups = dependency_order(components, needs, a.index)
    return Analysis(
        board=board,
        objects=a.objects,
        index=a.index,
        on_board=a.on_board,
        on_board_set=a.on_board_set,
        bearer=a.bearer,
        rules=a.rules,
        op_board=OpBoard(a.objects, a.text_pos, a.rules),
        keyword_pos=a.keyword_pos,
        initial_held={oid: frozen(h) for oid, h in initial.items()},
        sources=sources,
        bonus_keywords=bonus,
        needs=needs,
        groups=groups,
        object_loops=[g for g in groups if len(g) >= 2],
    )


def initial_state(analysis: Analysis, oid: str):
    return printed_state(analysis.objects[oid], analysis.initial_held[oid])
