"""Invariant 1, final consistency (docs/semantics.md §13): instances judged in the final state.

The final state is the resolution's own: on the board an object has its reported Might,
controller, types, tags and keywords, its board status, zone and location; off the board its
printed values (§4: conditions read printed values off the board). In that state:

- every applied instance exists (§4), targets its object and — `condition_timing = settled` —
  meets its conditions; a keyword bonus applies only while its object has the keyword's status;
- on an object with Might and the status of a bonus keyword K, the Might its applied K bonuses
  add up to (`after - before` of their rows) equals its final K value;
- every instance that exists, targets an object on the board and meets its conditions there was
  applied to it, is withdrawn on it, or is named in a reported paradox (a group only finishes when
  nothing is eligible, §6 step 4, in either condition timing);
- the reports agree with themselves: `mighty` is Might >= 5 on the board, objects off the board
  report their printed values, nothing is both applied and withdrawn on one object, a paradox
  names instances of the board and at least one of them is withdrawn.

What an object holds comes from its `abilities` list; without it, from the trace replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ....model import Condition
from .view import View
from .index import MIGHTY, BoardIndex, Inst, condition_object
from .operations import lowers_might, parameter, spec_of
from .replay import Replayed
from ....check.report import FINAL, Violation, show


@dataclass(frozen=True)
class Values:
    might: int | None
    controller: str | None
    tags: frozenset[str]
    types: frozenset[str]
    keywords: dict[str, int]
    status: tuple[str, ...]


class FinalState:
    def __init__(self, index: BoardIndex, view: View, replayed: Replayed | None) -> None:
        self.ix = index
        self.view = view
        self.replayed = replayed
        self.values: dict[str, Values] = {}
        for oid, obj in index.objects.items():
            if oid in index.on_board:
                f = view.objects[oid]
                self.values[oid] = Values(f.might, f.controller, f.tags, f.types, f.keywords, obj.status)
            else:
                p = index.printed[oid]
                self.values[oid] = Values(p.might, p.controller, p.tags, p.types, index.aggregate(p.keywords),
                                          obj.status)
        # What each object on the board holds at the end (None: unknown), and retains (§3).
        self.held: dict[str, frozenset[str] | None] = {}
        self.retained: dict[str, frozenset[str]] = {}
        for oid in index.on_board:
            reported = view.objects[oid].abilities
            state = replayed.states.get(oid) if replayed is not None else None
            lost = replayed is None or oid in replayed.lost
            if reported is not None:
                self.held[oid] = reported
            elif replayed is not None and not lost:
                self.held[oid] = frozenset(state.held) if state is not None else frozenset(index.initially_held(oid))
            else:
                self.held[oid] = None
            self.retained[oid] = frozenset(state.retained) if state is not None else frozenset()

    # -- §4 in the final state -----------------------------------------------------------------

    def controller_of(self, inst: Inst) -> str | None:
        if inst.kind == "ongoing":
            assert inst.effect is not None  # (each kind has the fields Inst names for it)
            return inst.effect.controller
        if inst.holder is None or inst.holder not in self.ix.on_board:
            return None
        return self.values[inst.holder].controller

    def exists(self, inst: Inst, oid: str) -> bool | None:
        """Whether the instance exists for `oid` in the final state (None: unknown), §4."""
        ix = self.ix
        if inst.kind == "ongoing":
            return True
        if inst.is_ability:
            h = inst.holder
            if h is None or h not in ix.on_board:
                return False
            held = self.held[h]
            if held is None:
                return None
            return inst.name in held or inst.name in self.retained[h]
        if inst.kind == "buff":
            assert inst.fixed is not None
            return ix.objects[inst.fixed].buffed and inst.fixed in ix.on_board
        if inst.kind == "bonus":
            assert inst.gear is not None
            return ix.objects[inst.gear].might_bonus is not None and inst.fixed is not None
        # keyword bonus: the object holds that keyword instance
        assert inst.keyword is not None
        names = self.keyword_instances(oid, inst.keyword)
        if names is None:
            return inst.fixed == oid and inst.keyword in self.values[oid].keywords
        return inst.fixed == oid and inst.name in names

    def keyword_instances(self, oid: str, keyword: str) -> list[str] | None:
        """The names of the keyword bonuses of `oid`'s final `keyword` instances (None: unknown)."""
        if self.replayed is None or oid in self.replayed.lost:
            return None
        state = self.replayed.states.get(oid)
        kws: list[tuple[str, int, str | None, int]]
        if state is None:
            kws = [(k, v, None, 0) for k, v in self.ix.printed[oid].keywords]
        else:
            kws = state.kws
        return [self.ix.keyword_name(k, oid, s) for k, _, s, _ in kws if k == keyword]

    def why_not(self, inst: Inst, oid: str) -> str:
        """What was found instead, for an instance that does not exist."""
        ix = self.ix
        if inst.is_ability:
            h = inst.holder
            if h is None or h not in ix.on_board:
                return f"{inst.gear} is not attached" if inst.kind == "effect" else "no holder on the board"
            return f"{h} holds {show(self.held[h])}"
        if inst.kind == "buff":
            return f"{inst.fixed} is not buffed on the board"
        if inst.kind == "bonus":
            assert inst.gear is not None
            if ix.objects[inst.gear].might_bonus is None:
                return f"{inst.gear} has no Might Bonus"
            return f"{inst.gear} is not attached"
        assert inst.keyword is not None
        names = self.keyword_instances(oid, inst.keyword)
        if names is None:
            return f"{oid} has no {inst.keyword}"
        return f"{oid}'s {inst.keyword} instances: {show(names)}"

    def targets(self, inst: Inst, oid: str) -> bool:
        ix = self.ix
        if oid not in ix.on_board:
            return False
        if inst.kind in ("buff", "bonus", "keyword"):
            return oid == inst.fixed
        assert inst.effect is not None  # the other kinds are effects
        target = inst.effect.target
        if target.kind == "self":
            return oid == inst.holder
        if target.kind == "bearer":
            return inst.kind == "effect" and oid == inst.holder
        if target.kind == "ids":
            return oid in target.ids
        f = target.filter
        if f is None:
            return True
        obj, v = ix.objects[oid], self.values[oid]
        if f.zone is not None and obj.zone != f.zone:
            return False
        if f.location is not None and obj.location != f.location:
            return False
        if f.other and oid == inst.holder:
            return False
        if f.card_type is not None and f.card_type not in v.types:
            return False
        if f.tag is not None and f.tag not in v.tags:
            return False
        if f.relation is not None:
            controller = self.controller_of(inst)
            friendly = controller is not None and v.controller == controller
            if friendly != (f.relation == "friendly"):
                return False
        return True

    def failing_conditions(self, inst: Inst, oid: str) -> list[str]:
        """The conditions that do not hold in the final state, described."""
        if inst.kind == "keyword":
            assert inst.keyword is not None
            status = self.ix.bonus[inst.keyword]
            return [] if status in self.values[oid].status else [f"status {status} of {oid}"]
        if inst.effect is None:
            return []
        return [_describe(c) for c in inst.effect.conditions if not self.holds(c, inst, oid)]

    def holds(self, c: Condition, inst: Inst, oid: str) -> bool:
        ref = condition_object(c.of, inst.holder, inst.kind, oid)
        if ref is None or ref not in self.values:
            return False
        v = self.values[ref]
        if c.kind == "mighty":
            return v.might is not None and v.might >= MIGHTY
        if c.kind == "might_at_least":
            return v.might is not None and v.might >= c.value
        if c.kind == "status":
            return c.status in v.status
        if c.kind == "has_keyword":
            return c.keyword in v.keywords
        if c.kind == "controlled_by":
            player = self.controller_of(inst) if c.player == "you" else c.player
            return player is not None and v.controller == player
        return False

    # -- which objects an instance could be checked on -----------------------------------------

    def objects_for(self, inst: Inst) -> Iterable[str]:
        if inst.kind in ("buff", "bonus", "keyword"):
            return [inst.fixed] if inst.fixed is not None and inst.fixed in self.ix.on_board else []
        assert inst.effect is not None  # the other kinds are effects
        target = inst.effect.target
        if target.kind in ("self", "bearer"):
            return [inst.holder] if inst.holder in self.ix.on_board else []
        if target.kind == "ids":
            return [i for i in dict.fromkeys(target.ids) if i in self.ix.on_board]
        return [o for o in self.ix.order if o in self.ix.on_board]

    def candidates(self) -> Iterable[str]:
        """Every instance name that can exist in the final state (§2)."""
        ix = self.ix
        yield from (e.id for e in ix.board.effects)
        for oid in ix.order:
            if oid not in ix.on_board:
                continue
            held = self.held[oid]
            if held is not None:
                yield from sorted(held | self.retained[oid])
            obj = ix.objects[oid]
            if obj.buffed:
                yield f"buff:{oid}"
            if oid in ix.bearer and obj.might_bonus is not None:
                yield f"bonus:{oid}"
            for keyword in ix.bonus:
                yield from self.keyword_instances(oid, keyword) or ()


def final_consistency(index: BoardIndex, view: View, replayed: Replayed | None, out: list[Violation],
                      skipped: list[str]) -> int:
    checked = 0
    state = FinalState(index, view, replayed)

    def fail(oid: str, check: str, expected, found, effect: str | None = None, decisions: tuple[str, ...] = ()) -> None:
        v = Violation(oid, FINAL, check, show(expected), show(found), effect)
        out.append(v.on_decision(*decisions) if decisions else v)

    # The reports agree with themselves.
    for oid in index.order:
        f = view.objects[oid]
        obj = index.objects[oid]
        checked += 2
        if f.zone and f.zone != obj.zone:
            fail(oid, "zone", obj.zone, f.zone)
        if oid in index.on_board:
            mighty = f.might is not None and f.might >= MIGHTY
            if f.mighty != mighty:
                fail(oid, "mighty", mighty, f.mighty)
        else:
            p = index.printed[oid]
            printed = {"name": p.name, "controller": p.controller, "might": p.might,
                       "mighty": p.might is not None and p.might >= MIGHTY, "tags": sorted(p.tags),
                       "types": sorted(p.types), "keywords": index.aggregate(p.keywords)}
            found = {"name": f.name, "controller": f.controller, "might": f.might, "mighty": f.mighty,
                     "tags": sorted(f.tags), "types": sorted(f.types), "keywords": dict(sorted(f.keywords.items()))}
            for key, value in printed.items():
                if found[key] != value:
                    # Reporting printed keywords off the board is riftasp's Decision R9, no Might
                    # (not 0) its R8; the other printed values are the rule's ([G]).
                    decisions = ("R9",) if key == "keywords" else ("R8",) if key == "might" and value is None else ()
                    fail(oid, "off-board", f"printed {key} {show(value)}", found[key], decisions=decisions)
    for oid, names in view.withdrawn.items():
        checked += 1
        unknown = sorted(n for n in names if index.instance(n) is None)
        if unknown:
            fail(oid, "withdrawn", "names of instances of this board", ", ".join(unknown))
    for paradox in view.paradoxes:
        checked += 1
        unknown = sorted(n for n in paradox if index.instance(n) is None)
        where = ",".join(sorted(paradox))
        if unknown:
            fail(where, "paradox", "names of instances of this board", ", ".join(unknown))
        elif not any(n in names for names in view.withdrawn.values() for n in paradox):
            fail(where, "paradox", "a withdrawn member", "none of its members is withdrawn")

    if view.applied is None:
        skipped.append("final consistency of applications (exists, targets, conditions, keyword bonuses, "
                       "nothing left unapplied): the resolution has no 'applied' trace")
        return checked
    if any(state.held[o] is None for o in index.on_board):
        skipped.append("existence of abilities on objects whose abilities are unknown (no 'abilities' and "
                       "no complete trace)")
    settled = index.conditions_at_end
    if not settled:
        skipped.append("conditions of applied instances (condition_timing = immediate judges them only "
                       "when they apply)")

    applied_names: dict[str, set[str]] = {o: {r.effect for r in rows} for o, rows in view.applied.items()}
    for oid, rows in view.applied.items():
        for row in rows:
            checked += 1
            inst = index.instance(row.effect)
            if inst is None:
                fail(oid, "exists", "an instance of this board (§2 names)", "unknown name", row.effect)
                continue
            if row.effect in view.withdrawn.get(oid, ()):
                fail(oid, "applied-and-withdrawn", "applied or withdrawn, not both", "both", row.effect)
            # An existence or target that fails with no other application after it that could have
            # made it false failed through the application itself, which cannot undo itself (§8);
            # a condition can switch itself off.
            undone = _Undone(index, view, row, oid)
            if state.exists(inst, oid) is False and undone.any(_existence_reads(inst, oid)):
                fail(oid, "exists", "exists in the final state", state.why_not(inst, oid), row.effect)
            if oid not in index.on_board:
                continue  # reported by the trace replay (off-board objects are not calculated)
            if not state.targets(inst, oid) and undone.any(_target_reads(inst, oid)):
                fail(oid, "targets", f"targets {oid} in the final state", "does not", row.effect)
            if settled or inst.kind == "keyword":
                failing = [
                    _describe(c) for c in (inst.effect.conditions if inst.effect is not None else ())
                    if not state.holds(c, inst, oid) and undone.any(_condition_reads(c, inst, oid), itself=True)
                ]
                if inst.kind == "keyword":
                    failing = state.failing_conditions(inst, oid)  # its status: never written
                if failing:
                    fail(oid, "conditions", "its conditions hold in the final state",
                         "fails: " + "; ".join(failing), row.effect)

    # Keyword bonuses add up to the final keyword value.
    for oid in index.order:
        if oid not in index.on_board or view.objects[oid].might is None:
            continue
        rows = view.applied.get(oid, [])
        for keyword, status in index.bonus.items():
            if status not in index.objects[oid].status:
                continue
            # A withdrawn bonus of K is accounted for by `not-applied` (withdrawn or in a paradox).
            withdrawn = view.withdrawn.get(oid, ())
            if any((inst := index.instance(n)) is not None and inst.kind == "keyword"
                   and inst.keyword == keyword and inst.fixed == oid for n in withdrawn):
                continue
            checked += 1
            added = 0
            for row in rows:
                inst = index.instance(row.effect)
                if inst is not None and inst.kind == "keyword" and inst.keyword == keyword and inst.fixed == oid:
                    if isinstance(row.before, int) and isinstance(row.after, int):
                        added += row.after - row.before
            expected = view.objects[oid].keywords.get(keyword, 0)
            if added != expected:
                fail(oid, "keyword-bonus", f"{keyword} bonuses add {expected} (final {keyword} value)",
                     f"they add {added}", f"keyword:{keyword}:{oid}")

    # A withdrawn application that would apply in the final state is part of a reported paradox
    # (§8: a withdrawal never stands on a support that is itself withdrawn; a board without a
    # consistent state is reported, never hidden).
    in_paradox = set().union(*view.paradoxes) if view.paradoxes else set()
    if settled:
        for oid, withdrawn in view.withdrawn.items():
            for name in sorted(withdrawn):
                inst = index.instance(name)
                if inst is None or oid not in index.on_board:
                    continue
                checked += 1
                if (name not in in_paradox and state.exists(inst, oid) is True and state.targets(inst, oid)
                        and not state.failing_conditions(inst, oid)):
                    fail(oid, "withdrawn-holds", "withdrawn only while it fails in the final state, or part of a "
                         "reported paradox", "it exists, targets and meets its conditions; no paradox names it",
                         name)
    else:
        skipped.append("withdrawn applications that hold in the final state (condition_timing = immediate)")

    # Nothing that holds in the final state is left unapplied.
    for name in dict.fromkeys(state.candidates()):
        inst = index.instance(name)
        if inst is None:
            continue
        for oid in state.objects_for(inst):
            if not state.targets(inst, oid):
                continue
            if state.exists(inst, oid) is not True:
                continue
            checked += 1
            if state.failing_conditions(inst, oid):
                continue
            if name in applied_names.get(oid, ()) or name in view.withdrawn.get(oid, ()) or name in in_paradox:
                continue
            fail(oid, "not-applied", "applied, withdrawn or in a reported paradox (it exists, targets "
                 f"{oid} and meets its conditions in the final state)", "none of these", name)
    return checked


# ---- what a failing part reads, and whether another application could have undone it ----------


def _existence_reads(inst: Inst, oid: str) -> list[tuple[str | None, str, str | None]]:
    if inst.is_ability:
        return [(inst.holder, "ability", inst.name)]
    if inst.kind == "keyword":
        return [(oid, "keyword", inst.keyword)]
    return []


def _target_reads(inst: Inst, oid: str) -> list[tuple[str | None, str, str | None]]:
    target = inst.effect.target if inst.effect is not None else None
    f = target.filter if target is not None and target.kind == "filter" else None
    if f is None:
        return []
    reads: list[tuple[str | None, str, str | None]] = []
    if f.card_type is not None:
        reads.append((oid, "types", None))
    if f.tag is not None:
        reads.append((oid, "tag", f.tag))
    if f.relation is not None:
        reads.append((oid, "controller", None))
        if inst.is_ability:
            reads.append((inst.holder, "controller", None))
    return reads


def _condition_reads(c: Condition, inst: Inst, oid: str) -> list[tuple[str | None, str, str | None]]:
    ref = condition_object(c.of, inst.holder, inst.kind, oid)
    if c.kind in ("mighty", "might_at_least"):
        return [(ref, "might", None)]
    if c.kind == "has_keyword":
        return [(ref, "keyword", c.keyword)]
    if c.kind == "controlled_by":
        reads: list[tuple[str | None, str, str | None]] = [(ref, "controller", None)]
        if c.player == "you" and inst.is_ability:
            reads.append((inst.holder, "controller", None))
        return reads
    return []  # status: nothing writes it


class _Undone:
    """Whether another application later than `row` could have made a read false (§8 culprits):
    a decrease, setting Might or a copy for Might; losing the keyword, losing all abilities or a
    copy for a keyword; losing all abilities or a copy for an ability; removing the tag or a copy
    for a tag; a copy for types; setting the controller for a controller. Increases and gains
    never undo. (What an operation does is its registry entry's, operations.py.)"""

    def __init__(self, index: BoardIndex, view: View, row, oid: str) -> None:
        assert view.applied is not None  # (asked only while the trace is replayed)
        self.ix, self.view, self.row, self.oid = index, view, row, oid
        self.applied = view.applied

    def any(self, reads, itself: bool = False) -> bool:
        """`itself`: the row's own application counts too (for a condition, §8)."""
        return any(self._one(obj, what, param, itself) for obj, what, param in reads if obj is not None)

    def _one(self, obj: str, what: str, param: str | None, itself: bool) -> bool:
        for other in self.applied.get(obj, []):
            own = other.effect == self.row.effect and obj == self.oid
            if (other.step <= self.row.step or own) and not (own and itself):
                continue
            inst = self.ix.instance(other.effect)
            op = inst.effect.op if inst is not None and inst.effect is not None else None
            if op is not None and _undoes(op, what, param):
                return True
        return False


def _undoes(op, what: str, param: str | None) -> bool:
    spec = spec_of(op)
    does = spec.does
    if does.kind == "copy":
        return what in ("might", "types", "tag", "keyword", "ability")
    if what == "might":
        return lowers_might(spec)
    if what == "controller":
        return does.kind == "set" and does.characteristic == "controller"
    if what == "tag":
        return does.kind == "remove" and does.characteristic == "tags" and parameter(op) == param
    if what == "keyword":
        return does.kind == "lose_all_abilities" or (
            does.kind == "lose_keywords" and any(k.name == param for k in op.keywords))
    if what == "ability":
        return does.kind == "lose_all_abilities"
    return False


def _describe(c: Condition) -> str:
    if c.kind == "mighty":
        return f"mighty {c.of}"
    parameter = {"status": c.status, "might_at_least": c.value, "has_keyword": c.keyword,
                 "controlled_by": c.player}[c.kind]
    return f"{c.kind} {parameter} of {c.of}"
