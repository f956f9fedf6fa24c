"""The reference engine: docs/semantics.md, sections 5 to 8, step by step.

It is deliberately plain: one `Calculation` runs the groups in order, and inside a group repeats
steps (pending -> eligible -> settled -> candidates -> stage -> choice -> apply). With
`condition_timing = settled`, `resolve` reruns whole calculations, each time withdrawing the
earliest application per object whose conditions fail at the end (section 8).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field, replace

from ..model import Board
from ..result import Application, Characteristics, Resolution
from .analysis import AbilitySource, Analysis, Source, analyse
from .graph import strongly_connected_components
from .instances import (
    CONDITION_READS,
    LAYERS,
    STAGES,
    Instance,
    Lookup,
    amount,
    conditions_hold,
    exists,
    reads_of_target,
    resolve_ref,
    targets,
)
from .operations import apply_instance, characteristic_of, characteristic_value
from .pending import PendingTracker, changed_pairs
from .state import HeldAbility, ObjState, own_text, printed_state

# RIFTASP_REFERENCE_CHECK=1: verify the incremental pending tracker against asking from scratch.
CHECK_MODE = os.environ.get("RIFTASP_REFERENCE_CHECK") == "1"
# Reuse unchanged groups after a withdrawal (exact; off only to test that it is exact).
REUSE_GROUPS = True


@dataclass
class _Pick:
    """What one object applies in one step, and why it was chosen."""

    inst: Instance
    reasons: set[str]
    dependents: set[str]  # choice-set instances that depended on this one (for "immediately after")
    cycle: list[str]  # the dependency cycle it belongs to, if any
    tied: list[str]  # instances sharing its timestamp that listing order put after it


@dataclass
class _Record:
    inst: Instance
    application: Application


@dataclass
class _GroupLog:
    """What one group's calculation produced besides states, kept for reuse after a restart."""

    start: int  # its first step
    end: int  # the step that found it finished
    cycles: set[frozenset[str]]
    ties: set[tuple[str, ...]]


@dataclass
class _ObjectProgress:
    """Per-object bookkeeping of one calculation."""

    applied: list[_Record] = field(default_factory=list)
    applied_ids: set[str] = field(default_factory=set)
    highest_stage: int = 0
    # instance id -> ids it was seen to depend on (edges kept after removing cycles)
    depended_on: dict[str, set[str]] = field(default_factory=dict)
    # dependents of the previous application, for the "immediately after" preference
    last_dependents: set[str] = field(default_factory=set)


class Calculation:
    """One calculation of the whole board, with a fixed set of withdrawn applications."""

    def __init__(
        self,
        analysis: Analysis,
        withdrawn: frozenset[tuple[str, str]],
        settled: bool,
        previous: Calculation | None = None,
    ):
        self.a = analysis
        self.previous = previous
        self.withdrawn = withdrawn
        self.settled_timing = settled
        self.states: dict[str, ObjState] = {
            oid: printed_state(
                analysis.objects[oid],
                analysis.initial_held[oid],
                own_text(analysis.objects[oid], analysis.text_listing),
            )
            for oid in analysis.on_board
        }
        self.printed: dict[str, ObjState] = {
            obj.id: printed_state(obj) for obj in analysis.board.objects if not obj.on_board
        }
        self.finished: set[str] = set()
        self.group: set[str] = set()
        self.step = 0
        self.progress: dict[str, _ObjectProgress] = {
            oid: _ObjectProgress() for oid in analysis.on_board
        }
        # Found in the group being calculated; per group, so a later calculation can reuse them.
        self.cycles: set[frozenset[str]] = set()
        self.ties: set[tuple[str, ...]] = set()
        self.group_log: list[_GroupLog] = []
        self._ability_instances: dict[tuple, Instance] = {}

    # -- reading states ------------------------------------------------------------------------

    def view(self, oid: str) -> ObjState | None:
        """The state an object is read in: group members as of the previous step, finished
        objects final, off-board objects printed."""
        state = self.states.get(oid)
        if state is None:
            return self.printed.get(oid)
        if oid not in self.group and oid not in self.finished:
            # The needs graph promised this object would be finished first.
            raise AssertionError(f"reference engine read {oid!r} before calculating it")
        return state

    def final_view(self, oid: str) -> ObjState | None:
        return self.states.get(oid) or self.printed.get(oid)

    def ability_instance(self, holder: str, held: HeldAbility) -> Instance:
        # Keyed by identity fields, not the whole HeldAbility: hashing the effect is slow.
        key = (holder, held.id, held.timestamp, held.listing)
        inst = self._ability_instances.get(key)
        if inst is None:
            e = held.effect
            bearer = holder if held.origin == "effect_text" else self.a.bearer[holder]
            inst = Instance(
                id=held.id,
                kind="ability",
                op=e.op,
                stage=STAGES[e.op.name],
                timestamp=held.timestamp,
                listing=held.listing,
                conditions=e.conditions,
                target=e.target,
                holder=holder,
                bearer=bearer,
                gear=held.gear,
                origin=held.origin,
            )
            self._ability_instances[key] = inst
        return inst

    # -- the calculation -----------------------------------------------------------------------

    def run(self) -> None:
        all_cycles: set[frozenset[str]] = set()
        all_ties: set[tuple[str, ...]] = set()
        # Step numbers are global: every group whose needs are finished runs in the same steps
        # as the others, starting the step after the last object it needs finished; the step in
        # which a group finds nothing left is a step too (section 6, step 4). Running the groups
        # one after another with these numbers gives the same result, since a running group
        # never reads another running group.
        finished_at: dict[str, int] = {}
        for index, group in enumerate(self.a.groups):
            self.group = set(group)
            start = 1 + max(
                (finished_at[q] for oid in group for q in self.a.needs[oid] if q not in self.group),
                default=0,
            )
            self.step = start - 1
            self.cycles, self.ties = set(), set()
            if not self.reuse_group(index, group, start):
                self.run_group(group)
            end = self.step + 1  # the step that finds the group finished
            for oid in group:
                finished_at[oid] = end
            self.group_log.append(_GroupLog(start, end, self.cycles, self.ties))
            all_cycles |= self.cycles
            all_ties |= self.ties
            self.finished.update(group)
        self.group = set()
        self.cycles, self.ties = all_cycles, all_ties
        self.previous = None  # reused what it could; do not keep a chain of calculations alive

    def reuse_group(self, index: int, group: list[str], start: int) -> bool:
        """After a withdrawal the board is calculated again from the printed values (section 8).
        A group's calculation depends only on its own withdrawn applications and the final states
        of the objects it needs, so when neither changed, the previous calculation's result for
        it is exactly what running it again would give; only the step numbers move."""
        prev = self.previous
        if prev is None or not REUSE_GROUPS:
            return False
        members = self.group
        if any(oid in members for oid, _ in self.withdrawn - prev.withdrawn):
            return False
        for oid in group:
            for needed in self.a.needs[oid]:
                if needed not in members and self.states[needed] != prev.states[needed]:
                    return False
        log = prev.group_log[index]
        shift = start - log.start
        for oid in group:
            self.states[oid] = prev.states[oid]
            old = prev.progress[oid]
            progress = self.progress[oid]
            for record in old.applied:
                app = replace(record.application, step=record.application.step + shift)
                progress.applied.append(_Record(record.inst, app))
            progress.applied_ids = set(old.applied_ids)
            progress.highest_stage = old.highest_stage
        self.cycles, self.ties = set(log.cycles), set(log.ties)
        self.step = log.end - 1 + shift  # its last applying step
        return True

    def instance_of(self, src: Source, oid: str) -> Instance | None:
        """The instance a source gives on `oid` now, or None if it does not exist now."""
        if isinstance(src, AbilitySource):
            holder = self.view(src.holder)
            held = holder.held.get(src.id) if holder is not None else None
            if held is None:
                return None  # not held (now): the ability does not exist
            return self.ability_instance(src.holder, held)
        return src if exists(src, oid, self.view) else None

    def pending_from_scratch(self, oid: str) -> list[Instance]:
        """Section 6 step 1, asked directly; the tracker must always agree (check mode)."""
        obj = self.a.objects[oid]
        progress = self.progress[oid]
        result = []
        for src in self.a.sources[oid]:
            inst = self.instance_of(src, oid)
            if inst is None:
                continue
            if inst.id in progress.applied_ids or (oid, inst.id) in self.withdrawn:
                continue
            if not targets(inst, obj, self.view):
                continue
            result.append(inst)
        return result

    def run_group(self, group: list[str]) -> None:
        tracker = PendingTracker(
            group, self.a.sources, self.a.watches, self.a.objects, self.instance_of, self.view
        )
        while True:
            # Steps 1 and 2: pending and eligible instances of every object of the group.
            pending: dict[str, list[Instance]] = {}
            eligible: dict[str, list[Instance]] = {}
            writers: dict[str, Counter] = {}
            for oid in group:
                lists = tracker.lists(oid, self.progress[oid].applied_ids, self.withdrawn)
                pending[oid], eligible[oid], writers[oid] = lists
            if CHECK_MODE:
                for oid in group:
                    fresh = self.pending_from_scratch(oid)
                    assert pending[oid] == fresh, (oid, pending[oid], fresh)
                    assert eligible[oid] == [
                        i for i in fresh if conditions_hold(i, oid, self.view)
                    ], oid
            unblocked = False
            if self.settled_timing:
                candidates = {
                    oid: [
                        i
                        for i in eligible[oid]
                        if not i.conditions or self.is_settled(i, oid, writers)
                    ]
                    for oid in group
                }
                if not any(candidates.values()):
                    candidates = eligible
                    unblocked = True
            else:
                candidates = eligible
            if not any(candidates.values()):
                return
            stage = min(i.stage for insts in candidates.values() for i in insts)
            self.step += 1
            picks: dict[str, _Pick] = {}
            for oid in group:
                choice = [i for i in candidates[oid] if i.stage == stage]
                if choice:
                    picks[oid] = self.choose(oid, choice, unblocked)
            # Every object chose against the same states; now they all change at once.
            new_states = {
                oid: apply_instance(pick.inst, self.states[oid], self.view)
                for oid, pick in picks.items()
            }
            changed = []
            for oid, pick in picks.items():
                self.record(oid, pick, new_states[oid])
                tracker.applied(oid)
                changed += changed_pairs(oid, self.states[oid], new_states[oid])
            self.states.update(new_states)
            tracker.changed(changed)

    def is_settled(self, inst: Instance, oid: str, writers: dict[str, Counter]) -> bool:
        """No other pending instance in this group writes what one of its conditions reads."""
        for cond in inst.conditions:
            read = resolve_ref(cond.of, inst, oid)
            if read is None or read not in self.group:
                continue
            characteristic = CONDITION_READS[cond.kind]
            count = writers[read][characteristic]
            if read == oid and characteristic in inst.writes:
                count -= 1  # the instance itself does not block its own condition
            if count > 0:
                return False
        return True

    # -- choosing within a stage ---------------------------------------------------------------

    def depends(self, b: Instance, a: Instance, oid: str) -> bool:
        """Would applying `a` alone to the object's current state change `b`'s existence,
        targeting, conditions or amount?"""
        obj = self.a.objects[oid]
        now = self.view
        current = now(oid)
        assert current is not None
        hypothetical = apply_instance(a, current, now)

        def then(other: str) -> ObjState | None:
            return hypothetical if other == oid else now(other)

        return self._evaluate(b, oid, obj, now, current) != self._evaluate(
            b, oid, obj, then, hypothetical
        )

    @staticmethod
    def _evaluate(inst: Instance, oid: str, obj, lookup: Lookup, state: ObjState) -> tuple:
        return (
            exists(inst, oid, lookup),
            targets(inst, obj, lookup),
            conditions_hold(inst, oid, lookup),
            amount(inst, state),
        )

    def choose(self, oid: str, choice: list[Instance], unblocked: bool) -> _Pick:
        progress = self.progress[oid]
        ids = [i.id for i in choice]
        deps: dict[str, set[str]] = {i: set() for i in ids}
        if len(choice) > 1:
            for b in choice:
                reads = reads_of_target(b, oid, self.a.objects)
                for a in choice:
                    if a is b:
                        continue
                    if a.writes & reads:
                        if self.depends(b, a, oid):
                            deps[b.id].add(a.id)
                    elif CHECK_MODE:
                        # The shortcut claims `a` cannot change anything `b` is judged on.
                        assert not self.depends(b, a, oid), (oid, b.id, a.id)
        # Dependencies inside a strongly connected component are ignored (section 6, cycles).
        component_of: dict[str, int] = {}
        cycles: dict[int, list[str]] = {}
        for n, comp in enumerate(strongly_connected_components(ids, deps)):
            for member in comp:
                component_of[member] = n
            if len(comp) >= 2:
                cycles[n] = comp
                self.cycles.add(frozenset(comp))
        kept = {b: {a for a in deps[b] if component_of[a] != component_of[b]} for b in ids}
        for b in ids:
            if kept[b]:
                progress.depended_on.setdefault(b, set()).update(kept[b])

        ready = [i for i in choice if not kept[i.id]]
        preferred = [i for i in ready if i.id in progress.last_dependents]
        pool = sorted(preferred or ready, key=lambda i: i.sort_key)
        chosen = pool[0]
        tied = [i.id for i in pool[1:] if i.timestamp == chosen.timestamp]
        dependents = {b for b in ids if chosen.id in kept[b]}

        reasons: set[str] = set()
        if preferred:
            reasons.add("immediately_after")
        if component_of[chosen.id] in cycles:
            reasons.add("cycle")
        if tied:
            reasons.add("tie")
            # One pair per instance the tie put after the chosen one: "two instances with the
            # same timestamp are ordered by listing order" (section 7).
            for other in tied:
                self.ties.add(tuple(sorted((chosen.id, other))))
        elif len(pool) > 1:
            reasons.add("timestamp")  # decided by timestamp among several (for the sentence)
        if progress.highest_stage > chosen.stage:
            reasons.add("recheck")
        if unblocked:
            reasons.add("unblocked")
        return _Pick(
            inst=chosen,
            reasons=reasons,
            dependents=dependents,
            cycle=cycles.get(component_of[chosen.id], []),
            tied=tied,
        )

    def record(self, oid: str, pick: _Pick, after_state: ObjState) -> None:
        inst = pick.inst
        progress = self.progress[oid]
        before_state = self.states[oid]
        characteristic = characteristic_of(inst)
        layer, sublayer = LAYERS[inst.stage]
        depends_on = sorted(
            a for a in progress.depended_on.get(inst.id, ()) if a in progress.applied_ids
        )
        # Labels: timestamp order is the base of every pick, so "timestamp" always comes first;
        # "dependency" marks an application that waited for what it depends on.
        labels = set(pick.reasons) - {"timestamp", "dependency"}
        if depends_on:
            labels.add("dependency")
        reasons = ("timestamp", *sorted(labels))
        before = characteristic_value(characteristic, before_state)
        after = characteristic_value(characteristic, after_state)
        application = Application(
            effect=inst.id,
            step=self.step,
            layer=layer,
            sublayer=sublayer,
            timestamp=inst.timestamp,
            why=_why(oid, inst, pick, depends_on, characteristic, before, after, layer, sublayer),
            reasons=reasons,
            depends_on=tuple(depends_on),
            characteristic=characteristic,
            before=before,
            after=after,
        )
        progress.applied.append(_Record(inst, application))
        progress.applied_ids.add(inst.id)
        progress.highest_stage = max(progress.highest_stage, inst.stage)
        progress.last_dependents = pick.dependents

    # -- the end of a calculation --------------------------------------------------------------

    def failing_applications(self) -> set[tuple[str, str]]:
        """Per object, the earliest application whose conditions fail in the final state."""
        failing = set()
        for oid, progress in self.progress.items():
            for record in progress.applied:
                if not conditions_hold(record.inst, oid, self.final_view):
                    failing.add((oid, record.inst.id))
                    break
        return failing

    def characteristics(self) -> dict[str, Characteristics]:
        result = {}
        for obj in self.a.board.objects:
            state = self.states.get(obj.id) or self.printed[obj.id]
            result[obj.id] = Characteristics(
                name=state.name,
                controller=state.controller,
                might=state.might,
                # Off the board the state is the printed one, so this is printed Might >= 5.
                mighty=state.mighty,
                tags=tuple(sorted(state.tags)),
                types=tuple(state.types),
                keywords=dict(sorted(state.keywords.items())),
                zone=obj.zone,
            )
        return result


def _describe(inst: Instance, oid: str) -> str:
    if inst.kind == "ongoing":
        return f"Ongoing effect {inst.id}"
    if inst.kind == "buff":
        return f"The buff on {oid}"
    if inst.kind == "bonus":
        return f"The Might Bonus of {inst.gear}"
    if inst.kind == "keyword":
        return f"The {inst.keyword} bonus of {oid}"
    if inst.origin == "effect_text":
        return f"Effect Text {inst.id} of {inst.gear} (held by {inst.holder})"
    if inst.origin == "copied":
        return f"Copied ability {inst.id} held by {inst.holder}"
    return f"Ability {inst.id} of {inst.holder}"


def _why(
    oid: str,
    inst: Instance,
    pick: _Pick,
    depends_on: list[str],
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
        change = (
            f"changes {oid}'s {characteristic} from {json.dumps(before)} to {json.dumps(after)}"
        )
    parts = []
    r = pick.reasons
    if "immediately_after" in r:
        parts.append("it applies immediately after the effect it depends on")
    elif depends_on:
        parts.append(f"it depends on {', '.join(depends_on)}, which applied first")
    if pick.dependents:
        parts.append(f"{', '.join(sorted(pick.dependents))} depend on it, so it goes first")
    if "cycle" in r:
        parts.append(f"{', '.join(pick.cycle)} depend on each other, so timestamp order decides")
    if "tie" in r:
        parts.append(
            f"it shares timestamp {inst.timestamp} with {', '.join(pick.tied)}; board listing "
            "order puts it first"
        )
    if "timestamp" in r:
        parts.append("it has the earliest timestamp among the ready effects")
    if "recheck" in r:
        parts.append("it became applicable after a later layer applied, so its layer is rechecked")
    if "unblocked" in r:
        parts.append("conditions waiting on each other were checked against the current state")
    if not parts:
        parts.append("it is the only effect ready in this layer")
    return f"{_describe(inst, oid)} {change} in {where}: {'; '.join(parts)}."


def resolve(board: Board) -> Resolution:
    """Compute every object's characteristics by the procedure of docs/semantics.md."""
    analysis = analyse(board)
    settled = board.settings.condition_timing == "settled"
    withdrawn: frozenset[tuple[str, str]] = frozenset()
    calc: Calculation | None = None
    while True:
        calc = Calculation(analysis, withdrawn, settled, previous=calc)
        calc.run()
        if not settled:
            break
        failing = calc.failing_applications()
        if not failing:
            break
        # Withdrawn applications never come back, so the set only grows and this ends.
        assert not failing & withdrawn
        withdrawn = withdrawn | failing
    by_object: dict[str, list[str]] = {}
    for oid, iid in withdrawn:
        by_object.setdefault(oid, []).append(iid)
    return Resolution(
        ruleset=board.ruleset,
        objects=calc.characteristics(),
        applied={
            oid: [r.application for r in p.applied] for oid, p in calc.progress.items() if p.applied
        },
        dependency_cycles=sorted(sorted(c) for c in calc.cycles),
        object_loops=[list(loop) for loop in analysis.object_loops],
        timestamp_ties=sorted(list(t) for t in calc.ties),
        withdrawn={oid: sorted(ids) for oid, ids in sorted(by_object.items())},
        needs={oid: sorted(q) for oid, q in analysis.needs.items() if q},
        engine="reference",
    )
