"""The scheduling procedure "recheck" (Riftbound's, docs/semantics.md §5–§8), step by step.

It is deliberately plain. A `Round` (§8: one calculation with a fixed set W of withdrawn
applications) runs the groups in order (§5); a group repeats steps (§6: pending -> eligible ->
settled -> candidates -> stage -> dependencies over the universe -> cycles -> ready ->
immediately after -> pick) until it finishes. `calculate` runs rounds until the final check
finds nothing failing, withdrawing what core/withdrawal.py chooses. A round takes a group's
calculation from the previous round when nothing it depends on changed (exact: only its steps
shift).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...model import Board, GameObject
from ...result import Application, Characteristics, Resolution, Withdrawal
from ..core.analysis import Analysis, analyse
from ..core.chars import WriteIndex
from ..core.dependency import KEEP, AppId, KeptDependencies, dependencies
from ..core.evaluate import conditions_hold, exists, targets, undoes
from ..core.graph import strongly_connected_components
from ..core.instances import HELD, Instance
from ..core.operators import Copy, SetNumber, apply_instance
from ..core.ruleset import Ruleset
from ..core.state import ObjState, changed
from ..core.trace import Why, application_of
from ..core.support import suspects
from ..core.withdrawal import Component, Failure, choose, ring_through

# Reuse a group's calculation from the previous round when nothing it depends on changed (exact;
# off only to test that it is exact).
REUSE_GROUPS = True


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
    why: Why


@dataclass
class _GroupMemory:
    """What a group's calculation remembers from step to step."""

    previous_dependents: set[AppId] = field(default_factory=set)  # of its previous application
    kept: dict[AppId, set[AppId]] = field(default_factory=dict)  # kept dependencies seen so far
    applied: set[AppId] = field(default_factory=set)
    blocked: set[AppId] = field(default_factory=set)  # candidates a kept dependency held back
    tests: dict[int, KeptDependencies] = field(default_factory=dict)  # the dependency pairs, per stage


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
        check_conditions: bool | None = None,
    ):
        self.a = analysis
        self.previous = previous
        self.withdrawn = withdrawn
        self.settled = settled
        self.check_conditions = settled if check_conditions is None else check_conditions
        self.keeps = analysis.layout.board.reading("rechecked_set") == "keeps"
        # The reading `dependency` (§6, question 5): "result" asks the dependency questions;
        # "none" asks none (timestamp order only: nothing blocked, no "immediately after", no
        # cycle).
        self.asks_dependencies = analysis.layout.board.reading("dependency") != "none"
        self.added: dict[str, dict[str, int]] = {}  # object -> number -> what arithmetic added
        self.states: dict[str, ObjState] = dict(analysis.initial)
        self.progress: dict[str, _Progress] = {oid: _Progress() for oid in analysis.layout.on_board}
        self.records: list[Record] = []
        self.cycles: set[frozenset[str]] = set()
        self.ties: set[tuple[str, str]] = set()
        self.group_log: list[_GroupLog] = []
        self.view = self.states.get
        self.targeted: dict[AppId, tuple] = {}  # targets_now's answers, with the states they read

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
        if any(oid in members for _, oid in self.withdrawn ^ prev.withdrawn):
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

    # -- §6.6: the universe of a step -------------------------------------------------------------

    def universe(self, group: list[str], stage: int) -> list[tuple[Instance, str]]:
        """§6.6: every application of the stage that could target a group object, not applied
        and not withdrawn, whether or not it exists, targets or is eligible now."""
        out = []
        for oid in group:
            done = self.progress[oid].names
            for src in self.a.sources[oid]:
                if src.stage != stage or src.name in done or (src.name, oid) in self.withdrawn:
                    continue
                held = self.a.held_now(src, self.states) if src.kind == HELD else None
                out.append((held or src, oid))
            # Keyword-borne instances that do not exist now can be left out: a ruleset's are
            # applied at a stage where nothing changes keywords (Riftbound: arithmetic), so they
            # depend on nothing and can be in no cycle; they are never candidates.
            for kb in self.a.borne(oid, self.states[oid]):
                if kb.stage != stage or kb.name in done or (kb.name, oid) in self.withdrawn:
                    continue
                out.append((kb, oid))
        return out

    def key(self, inst: Instance, oid: str) -> tuple:
        return inst.key + (self.a.layout.index[oid],)

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
            obj = self.a.layout.objects[oid]
            for inst in self.a.current(oid, self.states):
                if inst.name in done or (inst.name, oid) in self.withdrawn:
                    continue
                if self.targets_now(inst, obj):
                    pending.append((inst, oid))
        eligible = [(i, o) for i, o in pending if conditions_hold(i, o, view)]
        if not self.settled:
            return pending, eligible, eligible, False
        writers: WriteIndex[AppId] = WriteIndex()
        for inst, oid in pending:
            writers.add(self.a.writes(inst, oid), (inst.name, oid))
        settled = [(i, o) for i, o in eligible if self.is_settled(i, o, members, writers)]
        if not settled and eligible:
            return pending, eligible, eligible, True
        return pending, eligible, settled, False

    def targets_now(self, inst: Instance, obj: GameObject) -> bool:
        """`targets` in the current states, kept while the two states it reads (the object's
        and the holder's, whose controller a relation filter compares) are the same: most
        steps change one object, and every step asks this of every pending application."""
        key = (inst.name, obj.id)
        state = self.states[obj.id]
        holder = self.states.get(inst.holder) if inst.holder is not None else None
        was = self.targeted.get(key)
        if was is not None and was[0] is inst and was[1] is state and was[2] is holder:
            return was[3]
        answer = targets(inst, obj, self.view)
        self.targeted[key] = (inst, state, holder, answer)
        return answer

    def choose(
        self, group: list[str], candidates: list, memory: _GroupMemory, pending_ids: set[AppId]
    ) -> _Pick:
        """§6 steps 5-10 (stage, dependency, cycles, ready, immediately after, pick)."""
        stage = min(i.stage for i, _ in candidates)
        choice = [(i, o) for i, o in candidates if i.stage == stage]
        choice_ids = {(i.name, o) for i, o in choice}
        universe = self.universe(group, stage)
        deps: dict[AppId, set[AppId]]
        if not self.asks_dependencies:
            deps = {(i.name, o): set() for i, o in universe}
        elif KEEP:
            test = memory.tests.get(stage) or memory.tests.setdefault(stage, KeptDependencies(self.a))
            deps = test(universe, self.states)
        else:
            deps = dependencies(universe, self.a, self.states)
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
        dependents = {b for b in ids if me in kept[b]}
        why = Why(
            depends_on=tuple(depends_on),
            dependents=tuple(sorted({name for name, _ in dependents})),
            cycle=tuple(sorted({name for name, _ in cycle})) if len(cycle) >= 2 else (),
            tied=tuple(tied),
        )
        return _Pick(inst=inst, oid=oid, labels=labels, dependents=dependents, why=why)

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

    # -- applying and recording -------------------------------------------------------------------

    def apply(self, inst: Instance, oid: str, step: int, labels: set[str], pick: _Pick) -> None:
        before = self.states[oid]
        after = apply_instance(inst, before, self.view, self.a.layout)
        after = self.rechecked_set(inst, oid, before, after)
        self.states[oid] = after
        traced = application_of(inst, oid, step, labels, pick.why, before, after, self.a.ruleset)
        record = Record(inst, oid, step, traced)
        progress = self.progress[oid]
        progress.applied.append(record)
        progress.names.add(inst.name)
        progress.highest_stage = max(progress.highest_stage, inst.stage)
        self.records.append(record)

    def rechecked_set(self, inst: Instance, oid: str, before: ObjState, after: ObjState) -> ObjState:
        """§6, "Rechecked sets": a number set or copied keeps on top what arithmetic added to it
        before (reading `keeps`), or replaces it (`replaces`, the default)."""
        starts = isinstance(inst.operator, (SetNumber, Copy))
        added = self.added.setdefault(oid, {})
        numbers = dict(after.numbers)
        for ch, value in after.numbers.items():
            if value is None:
                continue
            if starts and self.keeps:
                numbers[ch] = value + added.get(ch, 0)
            elif not starts and (was := before.numbers.get(ch)) is not None:
                added[ch] = added.get(ch, 0) + value - was
        return changed(after, numbers=numbers) if numbers != dict(after.numbers) else after

    # -- §8: the final check ----------------------------------------------------------------------

    def holds_in_final_state(self, inst: Instance, oid: str, conditions: bool = True) -> bool:
        view = self.view
        return (
            exists(inst, oid, view)
            and targets(inst, self.a.layout.objects[oid], view)
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
            if not targets(inst, self.a.layout.objects[oid], view):
                parts.append(("target", tuple(reads.targeting)))
            if self.check_conditions:
                for n, c in enumerate(inst.conditions):
                    if not c.holds(inst, oid, view):
                        parts.append(("condition", tuple(reads.conditions[n])))
            if parts:
                out[record] = Failure(tuple(parts))
        return out

    def characteristics(self) -> dict[str, Characteristics]:
        output = self.a.ruleset.characteristics
        return {obj.id: output(obj, self.states[obj.id]) for obj in self.a.layout.board.objects}


def _restorations(
    calc: Round,
    withdrawn: frozenset[AppId],
    records: list[Record],
    restorable: dict[AppId, list[Record]],
    restored: set[AppId],
) -> dict[AppId, tuple[list[Record], str]]:
    """The withdrawals this round takes back (§8): a withdrawn application that would apply in
    the final state, none of whose culprits applied in this round or is withdrawn, restored at
    most once; each with its culprits (which it had enabled), withdrawn in its place."""
    applied = {(r.name, r.oid) for r in calc.records}
    back: dict[AppId, tuple[list[Record], str]] = {}
    for record in records:
        app = (record.name, record.oid)
        if app not in restorable or app in restored or app not in withdrawn:
            continue
        culprits = restorable[app]
        if any((c.name, c.oid) in applied or (c.name, c.oid) in withdrawn for c in culprits):
            continue
        if calc.holds_in_final_state(record.inst, record.oid):
            back[app] = (culprits, "support")
    return back


def _exchanges(
    calc: Round,
    withdrawn: frozenset[AppId],
    records: list[Record],
    exchangeable: dict[AppId, tuple[list[Record], int]],
    restored: set[AppId],
) -> dict[AppId, tuple[list[Record], str]]:
    """The withdrawals this round exchanges (§8, "the other side of a ring"): a member withdrawn
    from a component of failures that would apply in the final state, none of whose component's
    waiting members is withdrawn, is restored (at most once) and they are withdrawn instead —
    those of the latest round that has such members, the most recent decision first."""
    found: dict[AppId, tuple[list[Record], int]] = {}
    for record in records:
        app = (record.name, record.oid)
        if app not in exchangeable or app in restored or app not in withdrawn:
            continue
        waiting, number = exchangeable[app]
        if any((w.name, w.oid) in withdrawn for w in waiting):
            continue
        if calc.holds_in_final_state(record.inst, record.oid):
            found[app] = (waiting, number)
    latest = max((number for _, number in found.values()), default=None)
    return {app: (waiting, "exchanged") for app, (waiting, number) in found.items() if number == latest}


def _held_up(
    analysis: Analysis, calc: Round, withdrawn: frozenset[AppId], settled: bool, check_conditions: bool
) -> list[tuple[Record, tuple[str, ...]]]:
    """The applications that held each other up (§8), each with the names of its set: every
    suspect (core/support.py) with what it supports, probed together — the board calculated
    again without all of them, what would apply anyway out of the set, until nothing leaves (one
    calculation a pass however many suspects the board has; suspects that do not touch each
    other come out as they would one by one). A member stays only with a suspect still in the
    set; [] if none is. Only where conditions are judged at the end."""
    if not check_conditions or analysis.layout.board.reading("self_support") == "kept":
        return []
    sets = [(record, list(support)) for record, support in
            suspects(calc.records, analysis.reads, analysis.writes, undoes, calc.states)]
    unfounded: dict[int, Record] = {id(r): r for _, support in sets for r in support}
    while True:
        if not any(id(record) in unfounded for record, _ in sets):
            return []
        probe = Round(analysis, withdrawn | {(r.name, r.oid) for r in unfounded.values()}, settled,
                      previous=calc, check_conditions=check_conditions)
        probe.run()
        # What would apply without the others has support of its own: out of the set.
        backed = [k for k, r in unfounded.items() if probe.holds_in_final_state(r.inst, r.oid)]
        if not backed:
            break
        for k in backed:
            del unfounded[k]
    names: dict[int, set[str]] = {}
    for record, support in sets:
        if id(record) in unfounded:
            kept = [r for r in support if id(r) in unfounded]
            for r in kept:
                names.setdefault(id(r), set()).update(m.name for m in kept)
    return [(r, tuple(sorted(names[k]))) for k, r in unfounded.items() if k in names]


def unsupported_ring(analysis: Analysis, record: Record) -> set[str]:
    """The names of the applications in `record`'s ring (withdrawal.ring_through) among every
    application that could exist on the board (§5's sources) and `record` itself."""
    me = (record.inst, record.oid)
    nodes = [me] + [(inst, oid) for oid, insts in analysis.sources.items() for inst in insts]
    nodes += analysis.potential_borne
    ring = ring_through(
        me,
        nodes,
        lambda n: analysis.reads(n[0], n[1]).all,
        lambda n: analysis.writes(n[0], n[1]),
    )
    return {inst.name for inst, _ in ring}


def resolve(board: Board, ruleset: Ruleset) -> Resolution:
    """Compute every object's characteristics by the procedure of docs/semantics.md."""
    return calculate(board, ruleset)[0]


def calculate(board: Board, ruleset: Ruleset) -> tuple[Resolution, Round]:
    """The resolution and the last round (its final states and records, for invariant tests)."""
    analysis = analyse(board, ruleset)
    settled = board.reading("condition_timing") == "settled"
    check_conditions = board.reading("condition_timing") != "immediate"
    withdrawn: frozenset[AppId] = frozenset()
    withdrawals: list[Withdrawal] = []
    paradoxical: list[Component] = []
    withdrawn_records: list[Record] = []
    # A withdrawal that may be taken back (§8, "a culprit that stood on its victim"): its
    # culprits, each holding in that round's final state and reached (enabled) by it.
    restorable: dict[AppId, list[Record]] = {}
    # A member withdrawn from a component of failures, with the members that waited for it (§8,
    # "the other side of a ring"): if it would apply in a later final state, they go instead.
    exchangeable: dict[AppId, tuple[list[Record], int]] = {}
    restored: set[AppId] = set()
    calc: Round | None = None
    # A restoration is a trial: the round before it and what stood then. Unless the next round is
    # consistent at once (nothing fails, no withdrawn application would apply in its final
    # state), the round before is the answer.
    trial: tuple | None = None
    number = 0
    while True:
        number += 1
        calc = Round(analysis, withdrawn, settled, previous=calc, check_conditions=check_conditions)
        calc.run()
        failing = calc.failing()
        chosen = choose(
            calc.records,
            failing,
            lambda r: analysis.reads(r.inst, r.oid).all,
            lambda r: analysis.writes(r.inst, r.oid),
            lambda r: undoes(r.inst, r.oid),
        ) if failing else []
        if trial is not None:
            if chosen or any((r.name, r.oid) in withdrawn and calc.holds_in_final_state(r.inst, r.oid)
                             for r in withdrawn_records):
                calc, withdrawn, withdrawals, withdrawn_records, paradoxical = trial
                break
            trial = None
        # Restorations only in a round that withdraws nothing (it would otherwise be the last).
        back = {} if chosen else _restorations(calc, withdrawn, withdrawn_records, restorable, restored)
        if not chosen and not back:
            # Nothing failing, or every failure was only the application undoing itself (§8).
            # Unless applications held each other up: calculated again without them, none would
            # apply (§8, "an application does not hold itself up"); then they are withdrawn and
            # the calculation goes on.
            held = _held_up(analysis, calc, withdrawn, settled, check_conditions)
            if held:
                for r, names in held:
                    withdrawn_records.append(r)
                    withdrawals.append(Withdrawal(object=r.oid, effect=r.name, round=number,
                                                  failed=("self_support",), because=names))
                withdrawn = withdrawn | {(r.name, r.oid) for r, _ in held}
                continue
            # Or a withdrawal from a ring of failures that the final state undoes, exchanged for
            # the members that waited for it (§8, "the other side of a ring").
            back = _exchanges(calc, withdrawn, withdrawn_records, exchangeable, restored)
            if not back:
                break
        if back:
            trial = (calc, withdrawn, list(withdrawals), list(withdrawn_records), list(paradoxical))
        new: set[AppId] = set()
        for component in chosen:
            if component.paradoxical:
                paradoxical.append(component)
            for m in component.members:
                new.add((m.name, m.oid))
                withdrawn_records.append(m)
                withdrawals.append(
                    Withdrawal(
                        object=m.oid,
                        effect=m.name,
                        round=number,
                        failed=component.failed[m],
                        because=tuple(sorted({c.name for c in component.culprits[m]})),
                    )
                )
                culprits = component.culprits[m]
                if not any(c in failing for c in culprits) and len(component.reaches[m]) == len(culprits):
                    restorable[(m.name, m.oid)] = culprits
                if component.waiting:
                    exchangeable[(m.name, m.oid)] = (component.waiting, number)
        for app, (instead, label) in back.items():
            restored.add(app)
            withdrawn_records = [r for r in withdrawn_records if (r.name, r.oid) != app]
            withdrawals = [w for w in withdrawals if (w.effect, w.object) != app]
            for c in instead:
                new.add((c.name, c.oid))
                withdrawn_records.append(c)
                withdrawals.append(Withdrawal(object=c.oid, effect=c.name, round=number,
                                              failed=(label,), because=(app[0],)))
        # W grows, except by restorations, each at most once per application: this ends.
        assert not new & withdrawn
        withdrawn = (withdrawn - back.keys()) | new
    reported = [c for c in paradoxical
                if any((m.name, m.oid) in withdrawn and calc.holds_in_final_state(m.inst, m.oid)
                       for m in c.members)]
    paradoxes = {tuple(sorted(c.ring)) for c in reported}
    # A withdrawn application that would apply in the final state, and that no reported paradox
    # holds, leaves a state that is not consistent: the board has no consistent state that these
    # withdrawals reach, and says so (§8) — with the ring through which it undoes itself.
    covered = {(m.name, m.oid) for c in reported for m in c.members}
    for record in withdrawn_records:
        if (record.name, record.oid) not in covered and calc.holds_in_final_state(record.inst, record.oid):
            paradoxes.add(tuple(sorted(unsupported_ring(analysis, record))))
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
