"""Sorcery's rules for the reference engine (docs/semantics-sorcery.md), written plainly: the state
of every object, the effects that exist (abilities, bearer abilities, board effects), where each
applies (its position), what each operation, condition and filter does, and how the effects due
at one position are ordered (timestamps and simultaneous entry, control dependency, the at-rest
rule). The global pass itself is riftasp/reference/procedures/layered.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ....model import Board, Effect, GameObject
from ....reference.core.graph import strongly_connected_components
from riftasp.reference.procedures.layered import AFTER, BEFORE_GRANTING, BEFORE_REMOVING, IN, Position

from .realm import Realm

__all__ = ["AFTER", "BEFORE_GRANTING", "BEFORE_REMOVING", "IN", "Position"]  # (read here by the rules)

# What each kind of condition reads, and the operations that change it (§4): the last layer of
# those is the one it waits for (read from the layer table: power 6, keywords 5 in the seed's and
# the Codex's orders). `lacks_adjacent_ally_with` reads controllers and keywords, and waits for
# the ability-adding layer (as encodings/sorcery/conditions/lacks_adjacent_ally_with.lp).
CONDITION_READS = {"power_at_most": ("power", ("set_power", "plus", "minus", "double")),
                   "power_below": ("power", ("set_power", "plus", "minus", "double")),
                   "lacks_adjacent_ally_with": ("keywords", ("gain_keyword",))}
REMOVING = ("silence", "disable", "lose_all_abilities")
# Operations that are the grant themselves when an artifact gives them to its bearer (§3).
GRANTING = ("gain_keywords", "gain_linked_printed")
LAST = 10**9  # an entry order not given sorts after the given ones
# (dependency_layers = all, §5) The operations that change what a filter reads (a type, a
# sub-type, the controller), and the relations that read the way the holder's controller faces.
RETYPING = ("add_type", "add_subtype", "remove_subtype", "gain_control", "copy", "gain_linked_printed")
FACED = ("in_front", "one_step_in_front")


@dataclass(frozen=True)
class Ability:
    """A passive ability an object holds: its own text, a bearer ability of an artifact, one
    granted to a bearer (`E@B`), one a copy or a Pallid Bust brought."""

    name: str
    effect: Effect
    origin: str  # "own" | "bearer" | "granted" | "copied" | "linked"
    key: tuple
    timestamp: int
    supplier: str | None = None  # granted: the artifact that granted it


@dataclass
class ObjState:
    name: str
    controller: str | None  # None: taken by an effect whose controller is no one (controller_of)
    power: int | None
    types: set[str]
    subtypes: set[str]
    affinity: dict[str, int]
    keywords: set[str]
    held: dict[str, Ability]
    lost: bool = False  # lost its abilities: can't gain any ([C])
    silenced: bool = False
    disabled: bool = False


@dataclass(frozen=True)
class Instance:
    """An effect that can apply: an ability held by `holder`, a grant of an artifact's bearer
    ability to its bearer, or a board effect. `holder` is where it measures from (`self`): the
    ability's holder, the bearer for a grant, a board effect's source."""

    uid: tuple
    name: str
    effect: Effect
    kind: str  # "ability" | "grant" | "ongoing"
    holder: str | None
    key: tuple
    timestamp: int
    fixed_controller: str | None = None  # a board effect's
    supplier: str | None = None  # a grant's artifact; an ability's granting artifact
    origin: str = "own"


@dataclass
class Pick:
    inst: Instance
    labels: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    depends_on: tuple[str, ...] = ()
    ties: list[tuple[str, str]] = field(default_factory=list)
    cycle: tuple[str, ...] = ()


class World:
    """One board's calculation state under Sorcery's rules."""

    def apply(self, inst: Instance, oid: str) -> tuple[str, Any, Any, str]:
        """Apply the effect to one object (`apply`): what riftasp/reference/procedures/layered.py
        calls."""
        return apply(self, inst, oid)

    def __init__(self, board: Board, ruleset: Any) -> None:
        self.board = board
        # The readings in force, once: apply() asks two of them for every application.
        self.readings = board.readings_in_force
        self.rules = ruleset
        self.realm = Realm(board)
        self.objects = {obj.id: obj for obj in board.objects}
        self.index = {obj.id: n for n, obj in enumerate(board.objects)}
        self.in_realm = [obj.id for obj in board.objects if obj.zone == "realm"]
        self.state: dict[str, ObjState] = {oid: self._printed_state(self.objects[oid]) for oid in self.in_realm}
        # Control dependencies seen so far (outside a cycle): effect -> those it waited for (§5).
        self.waited_for: dict[tuple, set[tuple]] = {}
        self.picked: set[tuple] = set()  # the effects picked so far
        self.applied: set[tuple] = set()  # those that applied to some object (`note_applied`)
        self.version = 0  # applications so far (what a cache of the state is valid for)
        self._rings: tuple[int, Any] = (-1, None)
        # The layers the rules name by what they do, numbered as the layer table orders them (the
        # seed's: ability removing 3, ability adding 5; the Codex's: 2 and 5).
        self.removing_layer = ruleset.layer_of("silence")[0]
        self.adding_layer = ruleset.layer_of("gain_keyword")[0]
        self.condition_reads = {kind: (what, max(ruleset.layer_of(op)[0] for op in ops))
                                for kind, (what, ops) in CONDITION_READS.items()}  # fmt: skip

    # -- timestamps and order keys (§2) -----------------------------------------------------------

    def side(self, obj: GameObject) -> int:
        active = self.board.active_player
        return 0 if active is None or obj.controller == active else 1

    def card_key(self, obj: GameObject, part: int, position: int) -> tuple:
        entry = obj.entry_order if obj.entry_order is not None else LAST
        return (obj.since, 0, self.side(obj), entry, self.index[obj.id], part, position)

    def _own_abilities(self, obj: GameObject) -> dict[str, Ability]:
        held = {}
        for i, e in enumerate(obj.rules_text):
            ts = e.timestamp if e.timestamp is not None else obj.since
            key = (ts, *self.card_key(obj, 0, i)[1:])
            held[e.id] = Ability(e.id, e, "own", key, ts)
        for j, e in enumerate(obj.effect_text):
            ts = e.timestamp if e.timestamp is not None else obj.since
            key = (ts, *self.card_key(obj, 1, j)[1:])
            held[e.id] = Ability(e.id, e, "bearer", key, ts)
        return held

    def _printed_state(self, obj: GameObject) -> ObjState:
        return ObjState(
            name=obj.name,
            controller=obj.controller,
            power=obj.power,
            types={obj.card_type},
            subtypes=set(obj.tags),
            affinity=printed_affinity(obj),
            keywords={k.name for k in obj.keywords},
            held=self._own_abilities(obj),
        )

    # -- the effects that exist now ---------------------------------------------------------------

    def instances(self) -> list[Instance]:
        """Every effect that exists now (§3, Existence), in no particular order."""
        out = []
        for oid in self.in_realm:
            for ability in self.state[oid].held.values():
                inst = self.instance_of(oid, ability)
                if inst is not None:
                    out.append(inst)
        for n, e in enumerate(self.board.effects):
            assert e.timestamp is not None  # an ongoing effect has one (board_io/references.py)
            key = (e.timestamp, 1, 0, 0, len(self.board.objects) + n, 0, 0)
            out.append(Instance(("ongoing", e.id), e.id, e, "ongoing", e.source, key, e.timestamp, fixed_controller=e.controller))  # fmt: skip
        return out

    def controller_of(self, inst: Instance) -> str | None:
        """Who "you" is: a board effect's own controller; an ability's holder's controller now."""
        if inst.fixed_controller is not None:
            return inst.fixed_controller
        return self.state[inst.holder].controller if inst.holder in self.state else None

    # -- positions (§1, §3, §4) -------------------------------------------------------------------

    def natural(self, op_name: str) -> Position:
        layer, rank = self.rules.layer_of(op_name)
        return Position(layer, IN, rank)

    def instance_of(self, oid: str, ability: Ability) -> Instance | None:
        """The effect an ability held by `oid` is (None: a bearer ability of an artifact not
        carried)."""
        if ability.origin == "bearer":
            bearer = self.objects[oid].attached_to
            if bearer is None or bearer not in self.state:
                return None
            return Instance(("grant", ability.name), ability.name, ability.effect, "grant", bearer,
                            ability.key, ability.timestamp, supplier=oid, origin="bearer")  # fmt: skip
        return Instance(("ability", ability.name), ability.name, ability.effect, "ability", oid,
                        ability.key, ability.timestamp, supplier=ability.supplier, origin=ability.origin)  # fmt: skip

    def position(self, inst: Instance, visited: frozenset = frozenset()) -> tuple[Position, list[str], set[str]]:
        """Where the effect applies, judged now, with what the trace says about it."""
        op = inst.effect.op.name
        notes: list[str] = []
        labels: set[str] = set()
        if self.is_grant(inst):
            granted = self.natural(op).layer
            if granted < self.adding_layer:
                pos = Position(granted, BEFORE_GRANTING)
                labels.add("before_layer")
                notes.append(f"it adds an ability of layer {granted} ({self.rules.layer_name(granted)}) to "
                             f"{inst.holder}, so it applies just before that layer")  # fmt: skip
            else:
                pos = self.natural("gain_keyword")
        elif op == "gain_linked_printed":
            pos = self.natural("add_type")
            linked = self.linked_object(inst)
            layers = [self.natural(e.op.name).layer for e in (linked.rules_text if linked else ())]
            early = [layer for layer in layers if layer < pos.layer]
            type_layer = pos.layer
            if early:
                pos = Position(min(early), BEFORE_GRANTING)
            labels.add("before_layer")
            notes.append(f"it adds types (layer {type_layer}, type) as well as abilities, so it applies in layer {type_layer}")
        elif op in REMOVING:
            pos = self.natural(op)
            earliest = self.removal_position(inst, visited | {inst.uid})
            if earliest is not None and earliest < pos:
                pos = earliest
                labels.add("before_layer")
                notes.append(f"it removes an ability that applies in layer {pos.layer} "
                             f"({self.rules.layer_name(pos.layer)}), so it applies just before that")  # fmt: skip
        else:
            pos = self.natural(op)
        conditions = () if self.is_grant(inst) else inst.effect.conditions
        waits = [self.condition_reads[c.kind] for c in conditions if c.kind in self.condition_reads]
        if waits:
            what, layer = max(waits, key=lambda w: w[1])
            if layer >= pos.layer:
                pos = Position(layer, AFTER)
                labels.add("waited")
                notes.append(f"its condition reads {what}, which layer {layer} ({self.rules.layer_name(layer)}) "
                             "changes, so it waited until just after that layer and was checked once")  # fmt: skip
        return pos, notes, labels

    def removal_position(self, inst: Instance, visited: frozenset) -> Position | None:
        """Just before the earliest of the abilities the effect would remove now applies (§3): [S]
        "If an effect would ... remove an ability, it does so before that ability's layer", older
        or newer. Just before a layer for an ability that applies in it or just before it (a
        grant), up to the ability-removing layer itself (a removal of a removal goes just before
        layer 3, before every removal and grant of a removal there); just before a removal moved
        before its layer, for a removal of that one. (An ability of a later layer applies after
        the removal's own layer anyway.) Removals that would remove each other — two, or a ring
        of them — are judged without each other and go together: [S] "If two abilities would try
        to remove each other, use timestamp order", so each member is placed just before the
        earliest ability outside the ring that any member would remove (or at its own position),
        and among them their order keys decide."""
        rings, by_uid = self.removal_rings()
        ring = rings.get(inst.uid, frozenset())
        members = [inst] + [by_uid[uid] for uid in sorted(ring) if uid in by_uid]
        skip = visited | ring | {inst.uid}
        best = None
        for member in members:
            for t in self.targets(member):
                for ability in self.state[t].held.values():
                    other = self.instance_of(t, ability)
                    if other is None or other.uid in skip:
                        continue
                    at = self.position(other, skip)[0]
                    if at.phase == BEFORE_REMOVING:
                        before = Position(at.layer, BEFORE_REMOVING, at.rank - 1)
                    elif at.layer <= self.removing_layer:
                        before = Position(at.layer, BEFORE_REMOVING)
                    else:
                        continue
                    if best is None or before < best:
                        best = before
        return best

    def is_gaze(self, inst: Instance) -> bool:
        """An at-rest disabling ability (§6: Hillock Basilisk, Stone-gaze Gorgons)."""
        return (inst.effect.op.name == "disable" and inst.effect.target.kind == "filter"
                and inst.effect.target.matching.at_rest and not self.is_grant(inst))  # fmt: skip

    def removal_rings(self) -> tuple[dict[tuple, frozenset], dict[tuple, Instance]]:
        """Each removal's ring (§3): the other removals that, directly or through others, remove
        one of its abilities while it removes one of theirs (a strongly connected component of
        "removes an ability held by an object it names"), in the state now; and the removals by
        uid. Two at-rest disabling abilities try to remove each other's when each one's filter, at
        rest aside, names the other's holder (§6: "when two minions with this type of ability
        are trying to apply to one another")."""
        if self._rings[0] == self.version:
            return self._rings[1]
        removals = [i for i in self.instances() if i.effect.op.name in REMOVING and not self.is_grant(i)]
        by_uid = {i.uid: i for i in removals}
        edges: dict[tuple, list[tuple]] = {}
        for i in removals:
            out = set()
            named = [(t, False) for t in self.targets(i)]
            if self.is_gaze(i):
                named += [(t, True) for t in self.targets(i, ignore_at_rest=True)]
            for t, trying in named:
                for ability in self.state[t].held.values():
                    other = self.instance_of(t, ability)
                    if other is None or other.uid not in by_uid or other.uid == i.uid:
                        continue
                    if not trying or self.is_gaze(other):
                        out.add(other.uid)
            edges[i.uid] = sorted(out)
        rings = {}
        for members in strongly_connected_components([i.uid for i in removals], edges):
            for uid in members:
                rings[uid] = frozenset(members) - {uid}
        self._rings = (self.version, (rings, by_uid))
        return rings, by_uid

    def linked_object(self, inst: Instance) -> GameObject | None:
        supplier = self.objects.get(inst.supplier) if inst.supplier else None
        linked = supplier.linked if supplier is not None else None
        return self.objects.get(linked) if linked else None

    # -- targets, filters, conditions --------------------------------------------------------------

    def targets(self, inst: Instance, ignore_at_rest: bool = False) -> list[str]:
        """The objects the effect names now, in listing order (its conditions aside). A grant
        names the bearer: what the granted ability names is the ability's own business."""
        if self.is_grant(inst):
            return [inst.holder] if inst.holder in self.state else []
        target = inst.effect.target
        if target.kind in ("self", "bearer"):
            return [inst.holder] if inst.holder in self.state else []
        if target.kind == "ids":
            wanted = set(target.ids)
            return [oid for oid in self.in_realm if oid in wanted]
        return [oid for oid in self.in_realm if self.matches(inst, oid, ignore_at_rest)]

    def matches(self, inst: Instance, oid: str, ignore_at_rest: bool = False, after: ObjState | None = None) -> bool:
        """Whether the effect's filter names `oid` now (`after`: in that state of it instead)."""
        f = inst.effect.target.matching
        s = self.state[oid] if after is None else after
        obj = self.objects[oid]
        you = self.controller_of(inst)
        if f.of_type is not None and f.of_type not in s.types:
            return False
        if f.subtype is not None and f.subtype not in s.subtypes:
            return False
        if f.relation is not None and (s.controller == you) != (f.relation == "friendly"):
            return False
        if f.other and oid == inst.holder:
            return False
        if f.at_rest and not ignore_at_rest and not obj.at_rest:
            return False
        if f.near is not None:
            if inst.holder is None or inst.holder not in self.state:
                return False
            return self.realm.related(f.near, inst.holder, oid, you)
        return True

    def read(self, inst: Instance, ref: str, target: str) -> str | None:
        if ref == "target":
            return target
        if ref in ("self", "bearer"):
            return inst.holder
        return ref

    def is_grant(self, inst: Instance) -> bool:
        return inst.kind == "grant" and inst.effect.op.name not in GRANTING

    def holds(self, inst: Instance, target: str) -> bool:
        """Every condition of the effect, checked now (§4); a grant has none of its own."""
        if self.is_grant(inst):
            return True
        for c in inst.effect.conditions:
            oid = self.read(inst, c.of, target)
            if oid not in self.state:
                return False
            if c.kind == "power_at_most":
                p = self.power_read(oid)
                if p is None or p > c.value:
                    return False
            elif c.kind == "power_below":
                p = self.power_read(oid)
                if p is None or p >= c.value:
                    return False
            elif c.kind == "lacks_adjacent_ally_with":
                if self.ally_with(oid, c.keyword):
                    return False
            else:
                raise ValueError(f"sorcery: unknown condition kind {c.kind!r}")
        return True

    def ally_with(self, oid: str, keyword: str) -> bool:
        """An allied object with `keyword` at the object's square or an adjacent one, itself
        included ("a Bound Spirit holding an Eerie Coral could un-disable itself")."""
        me = self.state[oid]
        for other in self.in_realm:
            s = self.state[other]
            if s.controller != me.controller or keyword not in s.keywords:
                continue
            if other == oid or self.realm.related("here", oid, other, me.controller) or \
                    self.realm.related("adjacent", oid, other, me.controller):  # fmt: skip
                return True
        return False

    def power_read(self, oid: str) -> int | None:
        p = self.state[oid].power
        return None if p is None else max(0, p)

    # -- choosing among the effects due (§2, §5, §6) -----------------------------------------------

    def choose(self, due: list[Instance]) -> Pick:
        ordered = sorted(due, key=lambda i: i.key)
        notes: list[str] = []
        labels: set[str] = set()
        # §6: an at-rest disabling ability of a minion not at rest counts as older: it takes the
        # place just before the ability it beats (before any effect that one is older than).
        older = self.at_rest_older(ordered)
        # (Two that beat one ability go in their own order.)
        keys = {i.uid: i.key for i in ordered}
        place = {uid: key + (1,) + key for uid, key in keys.items()}
        for a, b in older:
            place[a] = min(place[a], keys[b] + (0,) + keys[a])
        pool = sorted(ordered, key=lambda i: place[i.uid])
        # §5: control effects wait for those that change their source's controller (with the
        # reading dependency_layers = all, every effect for those that change what it applies to).
        deps = self.dependencies(pool)
        everywhere = self.everywhere
        depends_on: tuple[str, ...] = ()
        cycle: tuple[str, ...] = ()
        if any(deps.values()):
            ids = [i.uid for i in pool]
            components = strongly_connected_components(ids, {k: sorted(v) for k, v in deps.items()})
            comp = {uid: n for n, members in enumerate(components) for uid in members}
            ready = [i for i in pool if not any(comp[d] != comp[i.uid] for d in deps[i.uid])]
            for uid, ds in deps.items():
                self.waited_for.setdefault(uid, set()).update(d for d in ds if comp[d] != comp[uid])
            first = ready[0]
            members = components[comp[first.uid]]
            what = "what the other applies to" if everywhere else "the controller of the other's source"
            if len(members) >= 2:
                cycle = tuple(sorted(self.uid_name(u) for u in members))
                labels.add("cycle")
                notes.append(f"{', '.join(cycle)} each change {what}, so timestamp order decides")
            dependents = sorted({self.uid_name(u) for u, ds in deps.items() if first.uid in ds and comp[u] != comp[first.uid]})
            if dependents:
                labels.add("dependency")
                theirs = "what they apply to" if everywhere else "the controller of their source"
                notes.append(f"{', '.join(dependents)} depend on it (it changes {theirs}), so it applies first, "
                             "ignoring timestamp order")  # fmt: skip
            if first is not pool[0]:
                labels.add("dependency")
        else:
            first = pool[0]
        # What it waited for and that applied before it, to some object (a dependency that
        # vanished before the effect it waited for applied, or one that found nothing to apply
        # to, delayed nothing: §5).
        waited = sorted(self.uid_name(u) for u in self.waited_for.get(first.uid, ()) if u in self.applied)
        self.picked.add(first.uid)
        if waited:
            depends_on = tuple(waited)
            labels.add("dependency")
            what = "what it applies to" if self.everywhere else "the controller of its source"
            notes.append(f"it depends on {', '.join(waited)}, which changed {what}, so that applied first")
        for a, b in older:
            if a == first.uid:
                labels.add("at_rest")
                winner, loser = self.uid_holder(a, due), self.uid_holder(b, due)
                notes.append(f"it counts as older than {self.uid_name(b)}: {loser} is at rest and {winner} is not")
        ties = self.entry_notes(first, ordered, labels, notes)
        return Pick(first, labels, notes, depends_on, ties, cycle)

    def note_applied(self, uid: tuple) -> None:
        """The procedure applied the effect `uid` to an object."""
        self.applied.add(uid)

    def uid_name(self, uid: tuple) -> str:
        return uid[1]

    def uid_holder(self, uid: tuple, due: list[Instance]) -> str | None:
        return next(i.holder for i in due if i.uid == uid)

    def dependencies(self, due: list[Instance]) -> dict[tuple, set[tuple]]:
        """B depends on A (§5): among control effects, when applying A now would change the
        controller of B's source (the holder of B's ability; a board effect follows no source).
        With the reading dependency_layers = all, among every effect due: also when A would change
        the controller of the source of a B that reads its "you" (it gives control; its filter
        asks ally or enemy, or what is in front), or when applying A now to the objects it applies
        to would change whether B's filter names one of them (B's "you" as now)."""
        deps: dict[tuple, set[tuple]] = {i.uid: set() for i in due}
        control = [i for i in due if i.effect.op.name == "gain_control"]
        for b in control:
            if b.kind == "ongoing" or b.holder not in self.state:
                continue
            for a in control:
                if a is not b and self.takes(a, b.holder):
                    deps[b.uid].add(a.uid)
        if not self.everywhere:
            return deps
        for a in due:
            if self.is_grant(a) or a.effect.op.name not in RETYPING:
                continue
            applies = [oid for oid in self.targets(a) if self.holds(a, oid)]
            for b in due:
                if b is a:
                    continue
                if self.reads_you(b) and b.holder in self.state and a.effect.op.name == "gain_control" \
                        and self.takes(a, b.holder):  # fmt: skip
                    deps[b.uid].add(a.uid)
                if b.effect.target.kind != "filter" or self.is_grant(b):
                    continue
                for oid in applies:
                    if self.matches(b, oid) != self.matches(b, oid, after=self.changed(a, oid)):
                        deps[b.uid].add(a.uid)
                        break
        return deps

    @property
    def everywhere(self) -> bool:
        """Whether the dependency rule holds in every layer (the reading dependency_layers)."""
        return self.board.reading("dependency_layers") == "all"

    def takes(self, a: Instance, oid: str) -> bool:
        """Applying control effect `a` now would change the controller of `oid`."""
        return oid in self.targets(a) and self.holds(a, oid) and self.state[oid].controller != self.controller_of(a)

    def reads_you(self, b: Instance) -> bool:
        """An effect whose "you" follows its holder and which reads it: it gives control, or its
        filter asks ally or enemy, or what is in front of its holder."""
        if b.kind == "ongoing" or self.is_grant(b):
            return False
        if b.effect.op.name == "gain_control":
            return True
        if b.effect.target.kind != "filter":
            return False
        f = b.effect.target.matching
        return f.relation is not None or f.near in FACED

    def changed(self, a: Instance, oid: str) -> ObjState:
        """The state `oid` would be in once `a` applied to it, as far as a filter reads it: its
        types, sub-types and controller."""
        s = self.state[oid]
        op = a.effect.op
        types, subtypes, controller = set(s.types), set(s.subtypes), s.controller
        if op.name == "add_type":
            types.add(op.type)
        elif op.name == "add_subtype":
            subtypes.add(op.subtype)
        elif op.name == "remove_subtype":
            subtypes.discard(op.subtype)
        elif op.name == "gain_control":
            controller = self.controller_of(a)
        elif op.name == "copy":
            original = self.objects[op.of]
            types, subtypes = {original.card_type}, set(original.tags)
        elif op.name == "gain_linked_printed":
            linked = self.linked_object(a)
            if linked is not None:
                types.add(linked.card_type)
                subtypes |= set(linked.tags)
        return replace(s, types=types, subtypes=subtypes, controller=controller)

    def at_rest_older(self, due: list[Instance]) -> set[tuple[tuple, tuple]]:
        """(A, B): A counts as older than B (§6)."""
        gazes = [i for i in due if i.effect.op.name == "disable" and i.effect.target.kind == "filter"
                 and i.effect.target.matching.at_rest and i.holder in self.state]  # fmt: skip
        out = set()
        for a in gazes:
            for b in gazes:
                if a is b or a.holder == b.holder:
                    continue
                assert a.holder is not None and b.holder is not None  # (in the realm: see gazes)
                mutual = b.holder in self.targets(a, ignore_at_rest=True) and a.holder in self.targets(b, ignore_at_rest=True)
                a_rests, b_rests = bool(self.objects[a.holder].at_rest), bool(self.objects[b.holder].at_rest)
                if mutual and not a_rests and b_rests:
                    out.add((a.uid, b.uid))
        return out

    def entry_notes(self, first: Instance, ordered: list[Instance], labels: set[str], notes: list[str]) -> list[tuple[str, str]]:
        """What decided between effects of one timestamp (§2): the active player's cards first,
        a stated entry order, or a choice taken as listing order; or a tie of board effects."""
        ties = []
        mine = set(self.targets(first))
        for other in ordered:
            if other is first or other.timestamp != first.timestamp or other.key < first.key:
                continue
            if not mine & set(self.targets(other)):
                continue  # no object gets both: their order changes nothing
            if first.kind == "ongoing" or other.kind == "ongoing":
                labels.add("tie")
                notes.append(f"it shares timestamp {first.timestamp} with {other.name}; board listing order puts it first")
                ties.append((first.name, other.name))
                continue
            a, b = self.card_of(first), self.card_of(other)
            if a is None or b is None or a.id == b.id or a.since != b.since:
                continue
            if self.side(a) != self.side(b):
                labels.add("active_player")
                notes.append(f"{a.id} and {b.id} entered the realm together; the active player's cards count as entering first")
            elif a.entry_order is not None and b.entry_order is not None:
                notes.append(f"{a.id} and {b.id} entered the realm together, in the order the board states")
            else:
                labels.add("choice")
                notes.append(f"{a.id} and {b.id} entered the realm together; the order among them is their player's "
                             "choice, taken as the board's listing order")  # fmt: skip
                ties.append((first.name, other.name))
        return ties

    def card_of(self, inst: Instance) -> GameObject | None:
        """The card whose entering dates the effect: its holder, or the artifact it comes from."""
        oid = inst.supplier if inst.kind == "grant" or inst.origin == "granted" else inst.holder
        return self.objects.get(oid) if oid else None


def printed_affinity(obj: GameObject) -> dict[str, int]:
    from ..words import ELEMENTS

    return {e: getattr(obj, e) for e in ELEMENTS if getattr(obj, e)}


def affinity_words(affinity: dict[str, int]) -> list[str]:
    return sorted(f"{e} {n}" for e, n in affinity.items() if n > 0)


# -- applying (§3, §8) --------------------------------------------------------------------------------


def gain(s: ObjState, ability: Ability) -> None:
    """The object comes to hold the ability, unless it holds it already: an ability held from a
    second source (two Pallid Busts linked to one minion) is not gained again and keeps the order
    key and timestamp it was gained with (docs/semantics-sorcery.md §3, "One ability, several
    sources")."""
    s.held.setdefault(ability.name, ability)


def apply(world: World, inst: Instance, oid: str) -> tuple[str, Any, Any, str]:
    """Apply the effect to one object: (characteristic, before, after, what happened)."""
    before: Any  # the characteristic's value as the trace reports it
    world.version += 1
    s = world.state[oid]
    op = inst.effect.op
    regain = world.readings["regain_after_loss"]
    floor = world.readings["power_floor"] == "each_change"

    def blocked() -> bool:
        return s.lost and not regain

    if inst.kind == "grant" and op.name not in GRANTING:
        before = sorted(s.held)
        if blocked():
            return "abilities", before, before, f"cannot give {oid} an ability: it lost its abilities"
        name = f"{inst.name}@{oid}"
        gain(s, Ability(name, inst.effect, "granted", inst.key + (1,), inst.timestamp, supplier=inst.supplier))
        return "abilities", before, sorted(s.held), f"gives {oid} the ability {name}"
    if op.name == "copy":
        original = world.objects[op.of]
        before = s.name
        granted = {n: a for n, a in s.held.items() if a.origin == "granted"}
        s.name, s.power, s.types = original.name, original.power, {original.card_type}
        s.subtypes, s.affinity = set(original.tags), printed_affinity(original)
        s.keywords = {k.name for k in original.keywords}
        copied = {}
        for i, e in enumerate(original.rules_text):
            name = f"{e.id}@{oid}"
            copied[name] = Ability(name, e, "copied", inst.key + (2, (world.index[oid], i)), inst.timestamp)
        s.held = {**copied, **granted}
        return "copy", before, s.name, f"makes {oid} a copy of {op.of}"
    if op.name in ("add_type", "add_subtype", "remove_subtype"):
        which = "types" if op.name == "add_type" else "subtypes"
        values: set[str] = getattr(s, which)
        before = sorted(values)
        if op.name == "add_type":
            values.add(op.type)
        elif op.name == "add_subtype":
            values.add(op.subtype)
        else:
            values.discard(op.subtype)
        return which, before, sorted(values), ""
    if op.name in REMOVING:
        before = {"abilities": sorted(s.held), "keywords": sorted(s.keywords)}
        s.held, s.keywords, s.lost = {}, set(), True
        if op.name == "silence":
            s.silenced = True
        elif op.name == "disable":
            s.disabled = True
        return "abilities", before, {"abilities": [], "keywords": []}, ""
    if op.name == "gain_control":
        before = s.controller
        s.controller = world.controller_of(inst)
        return "controller", before, s.controller, ""
    if op.name == "gain_keywords":
        before = sorted(s.keywords)
        if blocked():
            return "keywords", before, before, f"cannot give {oid} keywords: it lost its abilities"
        s.keywords |= {k.name for k in op.keywords}
        return "keywords", before, sorted(s.keywords), ""
    if op.name == "gain_linked_printed":
        linked = world.linked_object(inst)
        before = {"types": sorted(s.types), "subtypes": sorted(s.subtypes), "abilities": sorted(s.held)}
        if linked is not None:
            s.types.add(linked.card_type)
            s.subtypes |= set(linked.tags)
            if not blocked():
                s.keywords |= {k.name for k in linked.keywords}
                for i, e in enumerate(linked.rules_text):
                    name = f"{e.id}@{oid}"
                    gain(s, Ability(name, e, "linked", inst.key + (1, i), inst.timestamp, supplier=inst.supplier))
        after = {"types": sorted(s.types), "subtypes": sorted(s.subtypes), "abilities": sorted(s.held)}
        return "types", before, after, "" if linked is not None else "links to no object"
    if op.name in ("gain_affinity", "lose_affinity"):
        before = affinity_words(s.affinity)
        if op.name == "gain_affinity":
            s.affinity[op.element] = max(s.affinity.get(op.element, 0), 1)
        else:
            s.affinity.pop(op.element, None)
        return "affinity", before, affinity_words(s.affinity), ""
    # Layer 6: power.
    before_power = s.power
    if op.name == "set_power":
        s.power = op.value
    elif s.power is None:
        return "power", None, None, f"{oid} has no power"
    elif op.name == "plus":
        s.power += op.amount
    elif op.name == "minus":
        s.power -= op.amount
    elif op.name == "double":
        s.power = 2 * max(0, s.power)
    else:
        raise ValueError(f"sorcery: unknown operation {op.name!r}")
    if floor:
        s.power = max(0, s.power)
    return "power", before_power, s.power, ""
