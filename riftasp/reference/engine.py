"""The reference engine: docs/semantics.md §5–§8, step by step.

It is deliberately plain. A `Round` (§8: one calculation with a fixed set W of withdrawn
applications) runs the groups in order (§5); a group repeats steps (§6: pending -> eligible ->
settled -> candidates -> stage -> dependencies over the universe -> cycles -> ready ->
immediately after -> pick) until it finishes. `resolve` runs rounds until the final check finds
nothing failing, withdrawing what withdrawal.py chooses. A round takes a group's calculation from
the previous round when nothing it depends on changed (exact: only its steps shift).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace

from ..model import Board
from ..result import Application, Characteristics, Resolution, Withdrawal
from .analysis import Analysis, analyse, initial_state
from .graph import strongly_connected_components
from .instances import (
    LAYERS,
    Instance,
    WriteIndex,
    condition_holds,
    conditions_hold,
    evaluate,
    exists,
    targets,
    undoes,
)
from .operations import apply_instance, characteristic_of, characteristic_value
from .state import ObjState, keyword_values, printed_state
from .withdrawal import Component, Failure, choose

# RIFTASP_REFERENCE_CHECK=1: verify the read/write shortcut of the dependency test, and that
# every instance found held is one the analysis foresaw (the tests switch this on).
CHECK_MODE = os.environ.get("RIFTASP_REFERENCE_CHECK") == "1"
# Reuse a group's calculation from the previous round when nothing it depends on changed (exact;
# off only to test that it is exact).
REUSE_GROUPS = True

AppId = tuple[str, str]  # (instance name, object)


@dataclass(eq=False)
class Record:
    """One application of one round."""

    inst: Instance
    oid: str
    step: int
    application: Application

    @property
    def name(self) -> str:
        return self.inst.name


@dataclass
class _History:
    """One step's application to an object, for the became_applicable / waited labels (§11)."""

    stage: int
    key: tuple
    eligible: frozenset[str]
    candidates: frozenset[str]


@dataclass
class _GroupLog:
    """What one group's calculation produced besides states, for reuse in the next round."""

    start: int  # its first step
    end: int  # the step that found it finished
    records: list[Record]
    cycles: set[frozenset[str]]
    ties: set[tuple[str, str]]


@dataclass
class _Pick:
    """The application a step picks, and what the trace says about the pick."""

    inst: Instance
    oid: str
    labels: set[str]
    dependents: set[AppId]  # had a kept dependency on it in this step (§6.9)
    depends_on: list[str]  # names it had a kept dependency on, applied before it
    cycle: list[str]  # the dependency cycle it is in, if any
    tied: list[str]  # names in the pool with its timestamp that listing order put after it


@dataclass
class _GroupMemory:
    """What a group's calculation remembers from step to step."""

    previous_dependents: set[AppId] = field(default_factory=set)  # of its previous application
    kept: dict[AppId, set[AppId]] = field(default_factory=dict)  # kept dependencies seen so far
    applied: set[AppId] = field(default_factory=set)
    blocked: set[AppId] = field(default_factory=set)  # candidates a kept dependency held back


@dataclass
class _Progress:
    """Per-object bookkeeping of one round."""

    applied: list[Record] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    highest_stage: int = 0
    history: list[_History] = field(default_factory=list)


class Round:
    """One calculation of the whole board with a fixed set W of withdrawn applications (§8)."""

    def __init__(
        self,
        analysis: Analysis,
        withdrawn: frozenset[AppId],
        settled: bool,
        previous: Round | None = None,
    ):
        self.a = analysis
        self.previous = previous
        self.withdrawn = withdrawn
        self.settled = settled
        self.states: dict[str, ObjState] = {oid: initial_state(analysis, oid) for oid in analysis.on_board}
        for obj in analysis.board.objects:
            if not obj.on_board:
                self.states[obj.id] = printed_state(obj)
        self.progress: dict[str, _Progress] = {oid: _Progress() for oid in analysis.on_board}
        self.records: list[Record] = []
        self.cycles: set[frozenset[str]] = set()
        self.ties: set[tuple[str, str]] = set()
        self.group_log: list[_GroupLog] = []
        self.view = self.states.get

    # -- §5: groups in order, steps numbered across the board --------------------------------

    def run(self) -> None:
        finished_at: dict[str, int] = {}
        for group in self.a.groups:
            members = set(group)
            start = 1 + max(
                (finished_at[q] for oid in group for q in self.a.needs[oid] if q not in members),
                default=0,
            )
            log = self.reuse_group(len(self.group_log), group, start)
            if log is None:
                first = len(self.records)
                self.cycles, self.ties = set(), set()
                end = self.run_group(group, start)
                log = _GroupLog(start, end, self.records[first:], self.cycles, self.ties)
            self.group_log.append(log)
            for oid in group:
                finished_at[oid] = log.end
        self.cycles = set().union(*(log.cycles for log in self.group_log))
        self.ties = set().union(*(log.ties for log in self.group_log))
        self.previous = None  # do not keep a chain of rounds alive

    def reuse_group(self, index: int, group: list[str], start: int) -> _GroupLog | None:
        """A group's calculation depends only on its own withdrawn applications and the final
        states of the objects it needs (what else it reads cannot change, §5). When neither
        changed since the previous round, running it again gives the same applications, only
        shifted to its new start step: take them from there."""
        prev = self.previous
        if prev is None or not REUSE_GROUPS:
            return None
        members = set(group)
        if any(oid in members for _, oid in self.withdrawn - prev.withdrawn):
            return None
        for oid in group:
            for q in self.a.needs[oid]:
                if q not in members and self.states[q] != prev.states[q]:
                    return None
        old = prev.group_log[index]
        shift = start - old.start
        records = []
        for r in old.records:
            moved = Record(r.inst, r.oid, r.step + shift, replace(r.application, step=r.step + shift))
            records.append(moved)
            progress = self.progress[r.oid]
            progress.applied.append(moved)
            progress.names.add(r.name)
            progress.highest_stage = max(progress.highest_stage, r.inst.stage)
        self.records.extend(records)
        for oid in group:
            self.states[oid] = prev.states[oid]
        return _GroupLog(start, old.end + shift, records, old.cycles, old.ties)

    # -- §6: what exists now ----------------------------------------------------------------------

    def current(self, oid: str) -> list[Instance]:
        """The instances that exist now among those that could target the object."""
        out = []
        for src in self.a.sources[oid]:
            if src.kind == "ability":
                holder = self.states[src.holder]
                held = holder.held.get(src.name) or holder.retained.get(src.name)
                if held is not None:
                    out.append(self.a.ability(src.holder, held))
            else:
                out.append(src)
        out.extend(self.keyword_bonuses(oid))
        return out

    def keyword_bonuses(self, oid: str) -> list[Instance]:
        bonus = self.a.bonus_keywords[oid]
        if not bonus:
            return []
        return [
            self.a.keyword_bonus(oid, kw) for kw in self.states[oid].keywords if kw.keyword in bonus
        ]

    def universe(self, group: list[str], stage: int) -> list[tuple[Instance, str]]:
        """§6.6: every application of the stage that could target a group object, not applied
        and not withdrawn, whether or not it exists, targets or is eligible now."""
        out = []
        for oid in group:
            done = self.progress[oid].names
            for src in self.a.sources[oid]:
                if src.stage != stage or src.name in done or (src.name, oid) in self.withdrawn:
                    continue
                inst = src
                if src.kind == "ability":
                    holder = self.states[src.holder]
                    held = holder.held.get(src.name) or holder.retained.get(src.name)
                    if held is not None:
                        inst = self.a.ability(src.holder, held)
                out.append((inst, oid))
            if stage == 4:
                # Keyword bonuses that do not exist now can be left out: nothing in the
                # arithmetic stages changes keywords, so they depend on nothing and can be in
                # no cycle; they are never candidates.
                for kb in self.keyword_bonuses(oid):
                    if kb.name not in done and (kb.name, oid) not in self.withdrawn:
                        out.append((kb, oid))
        return out

    def key(self, inst: Instance, oid: str) -> tuple:
        return inst.key + (self.a.index[oid],)

    # -- §6: one group ----------------------------------------------------------------------------

    def run_group(self, group: list[str], start: int) -> int:
        """Run the group's steps from `start` (§6); return the step that finds it finished."""
        members = set(group)
        step = start - 1
        memory = _GroupMemory()
        while True:
            step += 1
            pending, eligible, candidates, unblocked = self.candidates(group, members)
            if not candidates:
                return step
            pick = self.choose(group, candidates, memory, {(i.name, o) for i, o in pending})
            inst, oid = pick.inst, pick.oid
            labels = set(pick.labels)
            if unblocked:
                labels.add("unblocked")
            progress = self.progress[oid]
            if progress.highest_stage > inst.stage:
                labels.add("recheck")
            labels |= self.late_labels(inst, oid)
            progress.history.append(
                _History(
                    inst.stage,
                    self.key(inst, oid),
                    frozenset(i.name for i, o in eligible if o == oid),
                    frozenset(i.name for i, o in candidates if o == oid),
                )
            )
            self.apply(inst, oid, step, labels, pick)
            memory.applied.add((inst.name, oid))
            memory.previous_dependents = pick.dependents

    def candidates(self, group: list[str], members: set[str]) -> tuple[list, list, list, bool]:
        """§6 steps 1-4: pending, eligible, candidates, and whether the group is unblocked."""
        view = self.view
        pending: list[tuple[Instance, str]] = []
        for oid in group:
            done = self.progress[oid].names
            obj = self.a.objects[oid]
            for inst in self.current(oid):
                if inst.name in done or (inst.name, oid) in self.withdrawn:
                    continue
                if targets(inst, obj, view):
                    pending.append((inst, oid))
        eligible = [(i, o) for i, o in pending if conditions_hold(i, o, view)]
        if not self.settled:
            return pending, eligible, eligible, False
        writers = WriteIndex()
        for inst, oid in pending:
            writers.add(self.a.writes(inst, oid), (inst.name, oid))
        settled = [(i, o) for i, o in eligible if self.is_settled(i, o, members, writers)]
        if not settled and eligible:
            return pending, eligible, eligible, True
        return pending, eligible, settled, False

    def choose(
        self, group: list[str], candidates: list, memory: _GroupMemory, pending_ids: set[AppId]
    ) -> _Pick:
        """§6 steps 5-10 (stage, dependency, cycles, ready, immediately after, pick)."""
        stage = min(i.stage for i, _ in candidates)
        choice = [(i, o) for i, o in candidates if i.stage == stage]
        choice_ids = {(i.name, o) for i, o in choice}
        universe = self.universe(group, stage)
        deps = self.dependencies(universe)
        ids = [(i.name, o) for i, o in universe]
        assert choice_ids <= set(ids), "a candidate the analysis did not foresee"
        # Dependencies inside a strongly connected component of *depends on* are ignored.
        if any(deps.values()):
            components = strongly_connected_components(ids, deps)
        else:
            components = [[aid] for aid in ids]
        component_of = {member: n for n, comp in enumerate(components) for member in comp}
        kept = {b: {a for a in deps[b] if component_of[a] != component_of[b]} for b in ids}
        for b in ids:
            if kept[b]:
                memory.kept.setdefault(b, set()).update(kept[b])
        ready = [(i, o) for i, o in choice if not (kept[(i.name, o)] & choice_ids)]
        memory.blocked |= choice_ids - {(i.name, o) for i, o in ready}
        preferred = [(i, o) for i, o in ready if (i.name, o) in memory.previous_dependents]
        pool = sorted(preferred or ready, key=lambda p: self.key(*p))
        inst, oid = pool[0]
        me = (inst.name, oid)
        tied = sorted(
            {i.name for i, _ in pool[1:] if i.timestamp == inst.timestamp and i.name != inst.name}
        )
        for other in tied:
            self.ties.add((inst.name, other))
        cycle = components[component_of[me]]
        # Reported: the cycle's pending members, when two or more (the universe also holds
        # applications that do not exist or target their object now).
        shown = {name for name, o in cycle if (name, o) in pending_ids}
        if len(shown) >= 2:
            self.cycles.add(frozenset(shown))
        depends_on = sorted({a[0] for a in memory.kept.get(me, ()) if a in memory.applied})
        labels = set()
        if preferred:
            labels.add("immediately_after")
        if len(cycle) >= 2:
            labels.add("cycle")
        if tied:
            labels.add("tie")
        if depends_on or me in memory.blocked:
            labels.add("dependency")
        return _Pick(
            inst=inst,
            oid=oid,
            labels=labels,
            dependents={b for b in ids if me in kept[b]},
            depends_on=depends_on,
            cycle=[name for name, _ in cycle] if len(cycle) >= 2 else [],
            tied=tied,
        )

    def late_labels(self, inst: Instance, oid: str) -> set[str]:
        """§11: became_applicable / waited, when a later key of its stage applied to its object
        first while it was not eligible / eligible but not settled."""
        labels = set()
        key = self.key(inst, oid)
        for h in self.progress[oid].history:
            if h.stage == inst.stage and h.key > key:
                if inst.name not in h.eligible:
                    labels.add("became_applicable")
                elif inst.name not in h.candidates:
                    labels.add("waited")
        return labels

    def is_settled(
        self, inst: Instance, oid: str, members: set[str], writers: WriteIndex
    ) -> bool:
        """§6.3: no other pending application on R writes what a condition reads of R in the group."""
        me = (inst.name, oid)
        for reads in self.a.reads(inst, oid).conditions:
            for read in reads:
                if read[0] in members and writers.any_writer(read, exclude=me):
                    return False
        return True

    def dependencies(self, universe: list[tuple[Instance, str]]) -> dict[AppId, set[AppId]]:
        """§6.6: B depends on A when applying A alone to its object's current state would change
        whether B exists, whether it targets its object, whether its conditions hold, or its
        result. Only pairs where A writes something B reads are tried: nothing else can change."""
        by_id = {(i.name, o): (i, o) for i, o in universe}
        deps: dict[AppId, set[AppId]] = {aid: set() for aid in by_id}
        if len(by_id) < 2:
            return deps
        writers = WriteIndex()
        for inst, oid in universe:
            writers.add(self.a.writes(inst, oid), (inst.name, oid))
        hypothetical: dict[AppId, ObjState] = {}
        for b_id, (b, q) in by_id.items():
            tried: set[AppId] = set()
            for read in self.a.reads(b, q).all:
                tried.update(writers.writers(read))
            tried.discard(b_id)
            if CHECK_MODE:
                # Check the shortcut: every other pair must show no dependency.
                for a_id in by_id:
                    if a_id != b_id and a_id not in tried:
                        assert not self.depends(by_id[a_id], (b, q), hypothetical), (b_id, a_id)
            if not tried:
                continue
            now = evaluate(b, self.a.objects[q], self.view)
            for a_id in tried:
                if self.depends(by_id[a_id], (b, q), hypothetical, now):
                    deps[b_id].add(a_id)
        return deps

    def depends(
        self,
        a: tuple[Instance, str],
        b: tuple[Instance, str],
        hypothetical: dict[AppId, ObjState],
        now: tuple | None = None,
    ) -> bool:
        a_inst, p = a
        b_inst, q = b
        a_id = (a_inst.name, p)
        new = hypothetical.get(a_id)
        if new is None:
            new = hypothetical[a_id] = apply_instance(
                a_inst, self.states[p], self.view, self.a.op_board
            )
        view = self.view

        def then(x: str) -> ObjState | None:
            return new if x == p else view(x)

        obj = self.a.objects[q]
        if now is None:
            now = evaluate(b_inst, obj, view)
        return now != evaluate(b_inst, obj, then)

    # -- applying and recording -------------------------------------------------------------------

    def apply(self, inst: Instance, oid: str, step: int, labels: set[str], pick: _Pick) -> None:
        before_state = self.states[oid]
        after_state = apply_instance(inst, before_state, self.view, self.a.op_board)
        self.states[oid] = after_state
        characteristic = characteristic_of(inst)
        rules = self.a.rules
        before = characteristic_value(characteristic, before_state, rules)
        after = characteristic_value(characteristic, after_state, rules)
        layer, sublayer = LAYERS[inst.stage]
        reasons = ("timestamp", *sorted(labels))
        why = _why(oid, inst, reasons, pick, characteristic, before, after, layer, sublayer)
        application = Application(
            effect=inst.name,
            step=step,
            layer=layer,
            sublayer=sublayer,
            timestamp=inst.timestamp,
            why=why,
            reasons=reasons,
            depends_on=tuple(pick.depends_on),
            characteristic=characteristic,
            before=before,
            after=after,
        )
        record = Record(inst, oid, step, application)
        progress = self.progress[oid]
        progress.applied.append(record)
        progress.names.add(inst.name)
        progress.highest_stage = max(progress.highest_stage, inst.stage)
        self.records.append(record)

    # -- §8: the final check ----------------------------------------------------------------------

    def holds_in_final_state(self, inst: Instance, oid: str, conditions: bool = True) -> bool:
        view = self.view
        return (
            exists(inst, oid, view)
            and targets(inst, self.a.objects[oid], view)
            and (not conditions or conditions_hold(inst, oid, view))
        )

    def failing(self) -> dict[Record, Failure]:
        """Every application of the round checked against the final state (§8)."""
        view = self.view
        out: dict[Record, Failure] = {}
        for record in self.records:
            inst, oid = record.inst, record.oid
            reads = self.a.reads(inst, oid)
            parts: list = []
            if not exists(inst, oid, view):
                parts.append(("existence", tuple(reads.existence)))
            if not targets(inst, self.a.objects[oid], view):
                parts.append(("target", tuple(reads.targeting)))
            if self.settled:
                for n, c in enumerate(inst.conditions):
                    if not condition_holds(c, inst, oid, view):
                        parts.append(("condition", tuple(reads.conditions[n])))
            if parts:
                out[record] = Failure(tuple(parts))
        return out

    def characteristics(self) -> dict[str, Characteristics]:
        result = {}
        rules = self.a.rules
        for obj in self.a.board.objects:
            state = self.states[obj.id]
            abilities = (
                tuple(sorted(state.held)) if obj.on_board else tuple(e.id for e in obj.rules_text)
            )
            result[obj.id] = Characteristics(
                name=state.name,
                controller=state.controller,
                might=state.might,
                # Off the board the state is the printed one, so this is printed Might >= 5.
                mighty=state.mighty,
                tags=tuple(sorted(state.tags)),
                types=tuple(state.types),
                keywords=keyword_values(state.keywords, rules),
                zone=obj.zone,
                abilities=tuple(sorted(abilities)),
            )
        return result


def _describe(inst: Instance, oid: str) -> str:
    if inst.kind == "ongoing":
        return f"Ongoing effect {inst.name}"
    if inst.kind == "buff":
        return f"The buff on {oid}"
    if inst.kind == "bonus":
        return f"The Might Bonus of {inst.gear}"
    if inst.kind == "keyword":
        return f"The {inst.keyword} bonus of {oid}"
    if inst.origin == "effect_text":
        return f"Effect Text {inst.name} of {inst.gear} (held by {inst.holder})"
    if inst.origin == "copied":
        return f"Copied ability {inst.name} held by {inst.holder}"
    return f"Ability {inst.name} of {inst.holder}"


def _why(
    oid: str,
    inst: Instance,
    reasons: tuple[str, ...],
    pick: _Pick,
    characteristic: str,
    before,
    after,
    layer: str,
    sublayer: str | None,
) -> str:
    where = f"the {layer} layer" + (f" ({sublayer} sublayer)" if sublayer else "")
    if before == after:
        change = f"leaves {oid}'s {characteristic} unchanged"
    elif characteristic == "copy":
        change = f"makes {oid} a copy of {after}"
    else:
        change = f"changes {oid}'s {characteristic} from {json.dumps(before)} to {json.dumps(after)}"
    parts = []
    if "immediately_after" in reasons:
        parts.append("it applies immediately after the effect it depends on")
    if pick.depends_on:
        parts.append(f"it depends on {', '.join(pick.depends_on)}, which applied first")
    if pick.dependents:
        dependents = sorted({name for name, _ in pick.dependents})
        parts.append(f"{', '.join(dependents)} depend on it, so it goes first")
    if pick.cycle:
        cycle = sorted(set(pick.cycle))
        parts.append(f"{', '.join(cycle)} depend on each other, so timestamp order decides")
    if pick.tied:
        parts.append(
            f"it shares timestamp {inst.timestamp} with {', '.join(pick.tied)}; board listing "
            "order puts it first"
        )
    if "recheck" in reasons:
        parts.append("it became applicable after a later layer applied, so its layer is rechecked")
    if "became_applicable" in reasons:
        parts.append("it became applicable after a newer effect of its layer applied")
    if "waited" in reasons:
        parts.append("its conditions waited for effects that could change what they read")
    if "unblocked" in reasons:
        parts.append("conditions waiting on each other were checked against the current state")
    if not parts:
        parts.append("it has the earliest timestamp among the ready effects")
    return f"{_describe(inst, oid)} {change} in {where}: {'; '.join(parts)}."


def resolve(board: Board) -> Resolution:
    """Compute every object's characteristics by the procedure of docs/semantics.md."""
    return calculate(board)[0]


def calculate(board: Board) -> tuple[Resolution, Round]:
    """The resolution and the last round (its final states and records, for invariant tests)."""
    analysis = analyse(board)
    settled = board.settings.condition_timing == "settled"
    withdrawn: frozenset[AppId] = frozenset()
    withdrawals: list[Withdrawal] = []
    paradoxical: list[Component] = []
    calc: Round | None = None
    number = 0
    while True:
        number += 1
        calc = Round(analysis, withdrawn, settled, previous=calc)
        calc.run()
        failing = calc.failing()
        if not failing:
            break
        chosen = choose(
            calc.records,
            failing,
            lambda r: analysis.reads(r.inst, r.oid).all,
            lambda r: analysis.writes(r.inst, r.oid),
            lambda r: undoes(r.inst, r.oid),
        )
        if not chosen:
            break  # every failure was only the application undoing itself (§8)
        new: set[AppId] = set()
        for component in chosen:
            if component.paradoxical:
                paradoxical.append(component)
            for m in component.members:
                new.add((m.name, m.oid))
                withdrawals.append(
                    Withdrawal(
                        object=m.oid,
                        effect=m.name,
                        round=number,
                        failed=component.failed[m],
                        because=tuple(sorted({c.name for c in component.culprits[m]})),
                    )
                )
        # Withdrawn applications never come back, so W only grows and this ends.
        assert not new & withdrawn
        withdrawn = withdrawn | new
    paradoxes = {
        tuple(sorted(c.ring))
        for c in paradoxical
        if any(calc.holds_in_final_state(m.inst, m.oid) for m in c.members)
    }
    by_object: dict[str, list[str]] = {}
    for oid, name in sorted((o, n) for n, o in withdrawn):
        by_object.setdefault(oid, []).append(name)
    resolution = Resolution(
        ruleset=board.ruleset,
        objects=calc.characteristics(),
        applied={oid: [r.application for r in p.applied] for oid, p in calc.progress.items() if p.applied},
        dependency_cycles=sorted(sorted(c) for c in calc.cycles),
        object_loops=[list(loop) for loop in analysis.object_loops],
        timestamp_ties=sorted(sorted(t) for t in calc.ties),
        withdrawn=by_object,
        needs={oid: sorted(q) for oid, q in analysis.needs.items() if q},
        engine="reference",
        paradoxes=[list(p) for p in sorted(paradoxes)],
        withdrawals=withdrawals,
    )
    return resolution, calc
