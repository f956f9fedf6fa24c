"""What can be known about a board before anything is applied.

- the listing order used to break timestamp ties (semantics.md section 2);
- every instance that could ever target each object ("sources"), so a step only looks at those;
- the *needs* graph between objects and its groups, in calculation order (section 5).

"Could" here is judged only from what no effect changes (target kind, listed ids, zone,
location, `other`), exactly the judgement section 5 prescribes for needs edges. The same judgement
bounds the sources, which keeps the engine from scanning every effect on the board for each object.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Board, Effect, GameObject, Operation, Target
from .graph import dependency_order, strongly_connected_components
from .instances import CONDITION_READS, STAGES, Instance
from .ruleset import bonus_keywords
from .state import HeldAbility


@dataclass(frozen=True)
class AbilitySource:
    """A held ability that could target the object; whether it exists is read at run time from
    the holder's state, because copies and lose_all_abilities change what is held."""

    holder: str
    id: str


Source = Instance | AbilitySource

# (object id, characteristic) pairs whose change can change whether a source is pending on an
# object or whether its conditions hold. Characteristics: "might", "controller", "tags",
# "keywords", "types", "held" (status never changes, so it is never watched).
Watch = frozenset[tuple[str, str]]


@dataclass(frozen=True)
class _PotentialAbility:
    id: str
    effect: Effect
    bearer: str | None


@dataclass
class Analysis:
    board: Board
    objects: dict[str, GameObject]
    on_board: list[str]  # board order
    rank: dict[str, int]  # board position of every object
    bearer: dict[str, str | None]  # object -> the on-board object it is attached to
    initial_held: dict[str, dict[str, HeldAbility]]
    sources: dict[str, list[Source]]
    watches: dict[str, list[Watch]]  # parallel to sources
    needs: dict[str, set[str]]
    groups: list[list[str]]  # calculation order
    object_loops: list[list[str]]
    bonus_keywords: dict[str, str]
    text_listing: dict[str, int] = field(default_factory=dict)  # effect id -> listing position


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
        self.rank = {obj.id: i for i, obj in enumerate(board.objects)}
        self.on_board = [obj.id for obj in board.objects if obj.on_board]
        self.on_board_set = set(self.on_board)
        self.bonus = bonus_keywords(board.ruleset)
        self.bearer: dict[str, str | None] = {}
        for obj in board.objects:
            b = obj.attached_to
            self.bearer[obj.id] = b if b in self.on_board_set else None

    # -- listing order -------------------------------------------------------------------------

    def listing(self) -> None:
        pos = 0
        self.text_pos: dict[str, int] = {}
        self.buff_pos: dict[str, int] = {}
        self.bonus_pos: dict[str, int] = {}
        self.keyword_pos: dict[tuple[str, str], int] = {}
        self.ongoing_pos: dict[str, int] = {}
        for obj in self.board.objects:
            for effect in obj.rules_text:
                self.text_pos[effect.id] = pos
                pos += 1
            for effect in obj.effect_text:
                self.text_pos[effect.id] = pos
                pos += 1
            self.buff_pos[obj.id] = pos
            pos += 1
            self.bonus_pos[obj.id] = pos
            pos += 1
            for keyword in sorted(self.bonus):
                self.keyword_pos[(obj.id, keyword)] = pos
                pos += 1
        for effect in self.board.effects:
            self.ongoing_pos[effect.id] = pos
            pos += 1

    # -- what each object holds at the start ---------------------------------------------------

    def attached_gear_timestamp(self, gear: GameObject) -> int:
        return gear.attached_since if gear.attached_since is not None else gear.since

    def initial_held(self) -> dict[str, dict[str, HeldAbility]]:
        held: dict[str, dict[str, HeldAbility]] = {oid: {} for oid in self.on_board}
        for obj in self.board.objects:
            if obj.id in self.on_board_set and self.bearer[obj.id] is None:
                # An attached gear's own rules text is inactive (section 2).
                for e in obj.rules_text:
                    ts = e.timestamp if e.timestamp is not None else obj.since
                    held[obj.id][e.id] = HeldAbility(e.id, e, ts, (self.text_pos[e.id],), "rules")
            bearer = self.bearer[obj.id]
            if bearer is not None:
                for e in obj.effect_text:
                    ts = (
                        e.timestamp
                        if e.timestamp is not None
                        else self.attached_gear_timestamp(obj)
                    )
                    held[bearer][e.id] = HeldAbility(
                        e.id, e, ts, (self.text_pos[e.id],), "effect_text", gear=obj.id
                    )
        return held

    # -- static targeting ----------------------------------------------------------------------

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

    # -- potential holdings, closed under copying ----------------------------------------------

    def potential_holdings(self, initial: dict[str, dict[str, HeldAbility]]) -> None:
        """Every ability each object could hold: its start, plus what any copy could bring."""
        self.potential: dict[str, dict[str, _PotentialAbility]] = {}
        for holder, abilities in initial.items():
            self.potential[holder] = {
                hid: _PotentialAbility(
                    hid, a.effect, holder if a.origin == "effect_text" else self.bearer[holder]
                )
                for hid, a in abilities.items()
            }
        # Copiable text of every object (section 3: printed, or what it copies).
        self.copiable_text: dict[str, dict[str, Effect]] = {
            obj.id: {e.id: e for e in obj.rules_text} for obj in self.board.objects
        }
        arcs: set[tuple[str, str]] = set()
        while True:
            found = set(arcs)
            for e in self.board.effects:
                if e.op.name == "copy":
                    src = e.source
                    found |= self._copy_arcs(e, src, self.bearer.get(src) if src else None)
            for holder, abilities in self.potential.items():
                for ability in abilities.values():
                    if ability.effect.op.name == "copy":
                        found |= self._copy_arcs(ability.effect, holder, ability.bearer)
            if found == arcs:
                return
            arcs = found
            changed = True
            while changed:
                changed = False
                for copier, copied in arcs:
                    for eid, e in list(self.copiable_text[copied].items()):
                        if eid not in self.copiable_text[copier]:
                            self.copiable_text[copier][eid] = e
                            changed = True
            for copier, copied in arcs:
                if copier not in self.on_board_set:
                    continue
                own = {e.id for e in self.objects[copier].rules_text}
                for e in self.copiable_text[copied].values():
                    hid = e.id if e.id in own else f"{e.id}@{copier}"
                    self.potential[copier].setdefault(
                        hid, _PotentialAbility(hid, e, self.bearer[copier])
                    )

    def _copy_arcs(
        self, effect: Effect, holder: str | None, bearer: str | None
    ) -> set[tuple[str, str]]:
        arcs = set()
        for oid in self.could_target(effect.target, holder, bearer):
            copied = _ref(effect.op.of, holder, bearer, oid)
            if copied in self.objects:
                arcs.add((oid, copied))
        return arcs

    # -- sources and needs ---------------------------------------------------------------------

    def sources_and_needs(
        self,
    ) -> tuple[dict[str, list[Source]], dict[str, list[Watch]], dict[str, set[str]]]:
        sources: dict[str, list[Source]] = {oid: [] for oid in self.on_board}
        watches: dict[str, list[Watch]] = {oid: [] for oid in self.on_board}
        needs: dict[str, set[str]] = {oid: set() for oid in self.on_board}

        for e in self.board.effects:
            src = e.source
            bearer = self.bearer.get(src) if src else None
            inst = Instance(
                id=e.id,
                kind="ongoing",
                op=e.op,
                stage=STAGES[e.op.name],
                timestamp=e.timestamp if e.timestamp is not None else 0,
                listing=(self.ongoing_pos[e.id],),
                conditions=e.conditions,
                target=e.target,
                holder=src,
                bearer=bearer,
                controller=e.controller,
            )
            for oid in self.could_target(e.target, src, bearer):
                sources[oid].append(inst)
                watches[oid].append(self._watch(oid, e, src, bearer, held=False))
                self._add_reads(needs[oid], oid, e, src, bearer, held=False)

        for holder in self.on_board:
            for ability in self.potential[holder].values():
                e = ability.effect
                for oid in self.could_target(e.target, holder, ability.bearer):
                    sources[oid].append(AbilitySource(holder, ability.id))
                    watches[oid].append(self._watch(oid, e, holder, ability.bearer, held=True))
                    self._add_reads(needs[oid], oid, e, holder, ability.bearer, held=True)

        for oid in self.on_board:
            obj = self.objects[oid]
            if obj.buffed:
                ts = obj.buff_since if obj.buff_since is not None else obj.since
                watches[oid].append(frozenset())
                sources[oid].append(
                    Instance(
                        id=f"buff:{oid}",
                        kind="buff",
                        op=Operation("plus", amount=1),
                        stage=4,
                        timestamp=ts,
                        listing=(self.buff_pos[oid],),
                    )
                )
            for keyword, status in sorted(self.bonus.items()):
                if status in obj.status:
                    watches[oid].append(frozenset({(oid, "keywords")}))
                    sources[oid].append(
                        Instance(
                            id=f"keyword:{keyword}:{oid}",
                            kind="keyword",
                            op=Operation("plus"),
                            stage=4,
                            timestamp=obj.since,
                            listing=(self.keyword_pos[(oid, keyword)],),
                            keyword=keyword,
                        )
                    )
        for gear in self.board.objects:
            bearer = self.bearer[gear.id]
            if bearer is not None and gear.might_bonus is not None:
                watches[bearer].append(frozenset())
                sources[bearer].append(
                    Instance(
                        id=f"bonus:{gear.id}",
                        kind="bonus",
                        op=Operation("plus", amount=gear.might_bonus),
                        stage=4,
                        timestamp=self.attached_gear_timestamp(gear),
                        listing=(self.bonus_pos[gear.id],),
                        gear=gear.id,
                    )
                )
        return sources, watches, needs

    def _watch(
        self, target: str, effect: Effect, holder: str | None, bearer: str | None, held: bool
    ) -> Watch:
        pairs: set[tuple[str, str]] = set()
        if held and holder is not None:
            pairs.add((holder, "held"))
            pairs.add((holder, "controller"))  # an ability's controller is its holder's
        t = effect.target
        if t.kind == "filter" and t.filter is not None:
            if t.filter.card_type is not None:
                pairs.add((target, "types"))
            if t.filter.tag is not None:
                pairs.add((target, "tags"))
            if t.filter.relation is not None:
                pairs.add((target, "controller"))
        for cond in effect.conditions:
            read = _ref(cond.of, holder, bearer, target)
            if read is not None and cond.kind != "status":
                pairs.add((read, CONDITION_READS[cond.kind]))
        return frozenset(pairs)

    def _add_reads(
        self,
        needs: set[str],
        target: str,
        effect: Effect,
        holder: str | None,
        bearer: str | None,
        held: bool,
    ) -> None:
        """Section 5: the holder of an ability, every object a condition reads, the copied
        object."""
        read: set[str | None] = set()
        if held:
            read.add(holder)
        for cond in effect.conditions:
            read.add(_ref(cond.of, holder, bearer, target))
        if effect.op.name == "copy":
            # The copied object itself. What the copied text reads is read by the abilities the
            # target then holds; those are potential holdings, so each adds its edges above for
            # the objects it could target (and only those: a copied aura that cannot target the
            # copier does not make the copier wait).
            read.add(_ref(effect.op.of, holder, bearer, target))
        for r in read:
            if r is not None and r != target and r in self.on_board_set:
                needs.add(r)


def analyse(board: Board) -> Analysis:
    a = _Analyser(board)
    a.listing()
    initial = a.initial_held()
    a.potential_holdings(initial)
    sources, watches, needs = a.sources_and_needs()
    components = strongly_connected_components(a.on_board, {k: sorted(v) for k, v in needs.items()})
    groups = dependency_order(components, needs, a.rank)
    loops = [g for g in groups if len(g) >= 2]
    return Analysis(
        board=board,
        objects=a.objects,
        on_board=a.on_board,
        rank=a.rank,
        bearer=a.bearer,
        initial_held=initial,
        sources=sources,
        watches=watches,
        needs=needs,
        groups=groups,
        object_loops=loops,
        bonus_keywords=a.bonus,
        text_listing=a.text_pos,
    )
