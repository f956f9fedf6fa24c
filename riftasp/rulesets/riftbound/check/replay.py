"""Invariant 2, trace replay (docs/semantics.md §13): the `applied` trace read as a history.

Per object, from the printed values:
- each row's `before` is the previous `after` of its characteristic (the printed value at first;
  after a copy row, the printed values of what the copy took: see `root`);
- each row's `after` is its operation applied to its `before`, and the operations replayed in
  trace order give the final characteristics (and, when reported, the final abilities);
- no instance applies twice; the row's layer is its instance's stage (§1) and its timestamp the
  one §2 gives it; a stage lower than an earlier row's appears only on a row labelled `recheck`
  (and `recheck` only there, §6); an application after a newer one of its stage says why (§11);
- an application exists when it is applied (an ability is held or retained by its holder, a
  keyword bonus's keyword instance is held by its object).

With the reading `dependency = none` (timestamp order only, docs/semantics.md §6) no dependency
orders anything: `dependency`, `immediately_after` and `cycle` neither justify an application
after a newer one nor appear at all, no row names what it depends on and no dependency cycle is
reported (`dependency_reading`).

A copy row's `before` and `after` are copiable roots (§11): what the copier was a copy of, and
the root of the copied object X at that moment (§3: copies of copies): X itself, unless the trace
shows a copy applied to X at an earlier step, and then that row's `after`. The rows after a
copy row are checked against that root's printed values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....check.contract import REASONS, Row, _is_int, is_counts, is_names
from .view import View
from .index import BoardIndex, Inst
from .operations import INCREASE, LAYER_OF_STAGE, MIGHT, might_after as arithmetic_after, parameter, spec_of
from ....check.report import TRACE, Violation, show

# §11: what an application applied after a newer one of its stage on its object may cite.
JUSTIFYING = frozenset({"dependency", "became_applicable", "waited", "tie", "unblocked", "recheck", "cycle"})
# The labels only the dependency rule gives (§6 steps 6-9): none with the reading dependency = none.
DEPENDENCY_LABELS = ("dependency", "immediately_after", "cycle")
NO_DEPENDENCY = "no dependency orders anything (reading dependency = none: timestamp order only)"


@dataclass
class State:
    """An object's replayed state: values plus the keyword instances and held abilities behind them."""

    name: str
    types: frozenset[str]
    might: int | None
    controller: str | None
    tags: frozenset[str]
    kws: list[tuple[str, int, str | None, int]]  # (keyword, value, brought by (None: printed), timestamp)
    held: dict[str, int | None]  # ability name -> timestamp (None: the board decides it)
    retained: set[str] = field(default_factory=set)


@dataclass
class Replayed:
    """What the replay learnt, for the final-consistency checks."""

    states: dict[str, State]  # final replayed state of every object with a trace (on the board)
    lost: set[str]  # objects whose replay could not be completed (values unknown)


class Replay:
    def __init__(self, index: BoardIndex, view: View, out: list[Violation]) -> None:
        self.ix = index
        self.view = view
        self.out = out
        self.checked = 0
        # Reading rechecked_set = keeps (docs/semantics.md §6): a set or copied Might keeps on top
        # what arithmetic added to the object before it; `added` counts that, object by object.
        self.keeps = index.board.reading("rechecked_set") == "keeps"
        self.added: dict[str, int] = {}
        # Reading dependency = none: an older application after a newer one of its stage is
        # justified only by what is not a dependency (conditions, rechecks, ties, unblocking).
        self.dependency_rule = dependency_rule(index)
        self.justifying = JUSTIFYING if self.dependency_rule else JUSTIFYING - set(DEPENDENCY_LABELS)
        applied = view.applied or {}
        self.rows = applied
        self.copy_rows: dict[str, list[Row]] = {
            oid: sorted((r for r in rows if _is_copy(index, r)), key=lambda r: r.step)
            for oid, rows in applied.items()
        }
        self.first_step: dict[str, int] = {}
        for rows in applied.values():
            for r in rows:
                self.first_step[r.effect] = min(self.first_step.get(r.effect, r.step), r.step)
        # Held-or-retained abilities of each object after each of its rows: (step, names).
        self.snapshots: dict[str, list[tuple[int, frozenset[str]]]] = {}

    def fail(self, oid: str, check: str, expected: Any, found: Any, effect: str | None = None,
             decisions: tuple[str, ...] = ()) -> None:
        v = Violation(oid, TRACE, check, show(expected), show(found), effect)
        self.out.append(v.on_decision(*decisions) if decisions else v)

    # -- copiable roots ------------------------------------------------------------------------

    def root(self, x: str, step: int) -> str | None:
        """X's copiable root just before `step`, as the trace tells it (None: not an object):
        X itself off the board or before any copy to it, else the `after` of its last copy row."""
        if x not in self.ix.objects:
            return None
        if x not in self.ix.on_board:
            return x
        earlier = [r for r in self.copy_rows.get(x, ()) if r.step < step]
        if not earlier:
            return x
        last = earlier[-1].after
        return last if isinstance(last, str) and last in self.ix.objects else None

    # -- the replay ----------------------------------------------------------------------------

    def initial(self, oid: str) -> State:
        p = self.ix.printed[oid]
        return State(
            name=p.name, types=p.types, might=p.might, controller=p.controller, tags=p.tags,
            kws=[(k, v, None, self.ix.objects[oid].since) for k, v in p.keywords],
            held={name: None for name in self.ix.initially_held(oid)},
        )

    def run(self) -> Replayed:
        states: dict[str, State] = {}
        lost: set[str] = set()
        for oid in self.ix.order:
            rows = self.rows.get(oid, [])
            if oid not in self.ix.on_board:
                if not rows:
                    continue
                self.checked += 1
                self.fail(oid, "off-board", "no applications (objects off the board are not calculated)",
                          f"{len(rows)} applications", rows[0].effect)
                continue
            state, ok = self.object(oid, rows)
            states[oid] = state
            if not ok:
                lost.add(oid)
        self.cross_checks()
        return Replayed(states, lost)

    def object(self, oid: str, rows: list[Row]) -> tuple[State, bool]:
        ix = self.ix
        state = self.initial(oid)
        p = ix.printed[oid]
        # The chain: the previous `after` of each characteristic (printed values at first).
        chain: dict[str, Any] = {
            "might": p.might, "controller": p.controller, "tags": sorted(p.tags),
            "keywords": ix.aggregate(state.kws), "abilities": sorted(state.held),
        }
        seen: set[str] = set()
        highest = 0  # the highest stage applied so far
        earlier: list[tuple[Row, Inst | None]] = []
        ok = True
        snaps: list[tuple[int, frozenset[str]]] = []
        previous_step: int | None = None
        for row in rows:
            inst = ix.instance(row.effect)
            self.checked += 6
            if previous_step is not None and row.step <= previous_step:
                self.fail(oid, "step-order", f"a step after {previous_step}", row.step, row.effect)
            previous_step = row.step
            if row.effect in seen:
                self.fail(oid, "twice", "each instance applied at most once to an object",
                          "applied again", row.effect)
            seen.add(row.effect)
            self.labels(oid, row)
            if inst is None:
                # Reported by the final-consistency check; its values cannot be replayed.
                ok = False
                earlier.append((row, None))
                continue
            stage = inst.stage
            if (row.layer, row.sublayer) != LAYER_OF_STAGE[stage]:
                layer, sub = LAYER_OF_STAGE[stage]
                self.fail(oid, "stage", f"{layer}/{sub or '-'} (stage {stage})",
                          f"{row.layer}/{row.sublayer or '-'}", row.effect, decisions=_double(inst))
            if row.characteristic != inst.characteristic:
                self.fail(oid, "characteristic", inst.characteristic, row.characteristic, row.effect)
            lower = stage < highest
            if lower != ("recheck" in row.reasons):
                if lower:
                    self.fail(oid, "recheck", "'recheck' (stage goes down after a later stage applied)",
                              f"stage {stage} after stage {highest}, reasons {', '.join(row.reasons)}", row.effect)
                else:
                    self.fail(oid, "recheck", f"no 'recheck' (no stage above {stage} applied before)",
                              "'recheck'", row.effect)
            highest = max(highest, stage)
            for q, q_inst in earlier:
                if q_inst is not None and q_inst.stage == stage and q.timestamp > row.timestamp:
                    after_it = self.dependency_rule and "immediately_after" in q.reasons
                    if not (self.justifying & set(row.reasons)) and not after_it:
                        why = f"a reason ({', '.join(sorted(self.justifying))})"
                        if self.dependency_rule:
                            why += f" or 'immediately_after' on {q.effect}"
                        self.fail(oid, "newer-first", why,
                                  f"after {q.effect} (timestamp {q.timestamp}) with reasons {', '.join(row.reasons)}",
                                  row.effect)
                        break
            earlier.append((row, inst))
            self.timestamp(oid, row, inst, state)
            self.exists_now(oid, row, inst, state)
            if not self.values(oid, row, inst, state, chain):
                ok = False
            if inst.is_ability and inst.holder == oid and _does(inst).kind in ("copy", "lose_all_abilities"):
                if row.effect not in state.held:
                    state.retained.add(row.effect)  # an effect does not remove itself (§4)
            snaps.append((row.step, frozenset(state.held) | frozenset(state.retained)))
        self.snapshots[oid] = snaps
        return state, ok

    def labels(self, oid: str, row: Row) -> None:
        if not row.reasons or row.reasons[0] != "timestamp" or not set(row.reasons) <= REASONS:
            self.fail(oid, "reasons", "'timestamp' first, then labels of §11", ", ".join(row.reasons) or "none",
                      row.effect)
        # `dependency` also marks an application a kept dependency held back at an earlier step,
        # whose blocker may never have applied (§11): depends_on may then be empty.
        if row.depends_on and "dependency" not in row.reasons:
            self.fail(oid, "depends-on", "'dependency' whenever depends_on names applications",
                      f"reasons {', '.join(row.reasons)}; depends_on [{', '.join(row.depends_on)}]", row.effect)
        if not self.dependency_rule:
            labels = [r for r in row.reasons if r in DEPENDENCY_LABELS]
            if labels or row.depends_on:
                found = [f"reasons {', '.join(labels)}"] if labels else []
                found += [f"depends_on [{', '.join(row.depends_on)}]"] if row.depends_on else []
                self.fail(oid, "no-dependency", NO_DEPENDENCY, "; ".join(found), row.effect)
        for dep in row.depends_on:
            first = self.first_step.get(dep)
            if first is None or first >= row.step:
                self.fail(oid, "depends-on", f"{dep} applied before step {row.step}",
                          "not applied" if first is None else f"first applied at step {first}", row.effect)

    def timestamp(self, oid: str, row: Row, inst: Inst, state: State) -> None:
        expected = self.ix.fixed_timestamp(inst)
        if inst.kind == "copied":
            # The copy application that brought it: the last copy applied to its holder before.
            copies = [r for r in self.copy_rows.get(inst.holder or "", ()) if r.step < row.step]
            expected = copies[-1].timestamp if copies else None
        elif inst.kind == "keyword" and inst.brought_by is not None:
            found = [t for k, _, s, t in state.kws if k == inst.keyword and s == inst.brought_by]
            expected = found[0] if found else None
        if expected is not None and row.timestamp != expected:
            self.fail(oid, "timestamp", expected, row.timestamp, row.effect)

    def exists_now(self, oid: str, row: Row, inst: Inst, state: State) -> None:
        """An application exists when it is applied (§6 step 1). Abilities held by another object
        are checked in `cross_checks`, once every object's history is known."""
        if inst.kind == "keyword":
            if inst.fixed != oid or not any(k == inst.keyword and s == inst.brought_by for k, _, s, _ in state.kws):
                self.fail(oid, "exists-when-applied", f"{oid} holds that {inst.keyword} instance",
                          f"{oid}'s {inst.keyword} instances: "
                          + (", ".join(self.ix.keyword_name(k, oid, s) for k, _, s, _ in state.kws
                                       if k == inst.keyword) or "none"), row.effect)
        elif inst.is_ability and inst.holder == oid:
            if row.effect not in state.held and row.effect not in state.retained:
                self.fail(oid, "exists-when-applied", f"{oid} holds {row.effect}",
                          sorted(state.held), row.effect)

    def cross_checks(self) -> None:
        # §6: the objects of a loop are one calculation, one application per step.
        for loop in self.view.object_loops:
            members = sorted(set(loop) & self.ix.on_board)
            by_step: dict[int, str] = {}
            self.checked += 1
            for oid in members:
                for row in self.rows.get(oid, ()):
                    other = by_step.setdefault(row.step, f"{row.effect} on {oid}")
                    if other != f"{row.effect} on {oid}":
                        self.fail(",".join(members), "loop-steps",
                                  "one application per step in an object loop (one calculation)",
                                  f"step {row.step}: {other} and {row.effect} on {oid}", row.effect)
        for oid, rows in self.rows.items():
            for row in rows:
                inst = self.ix.instance(row.effect)
                if inst is None or not inst.is_ability or inst.holder == oid:
                    continue
                holder = inst.holder
                self.checked += 1
                if holder is None or holder not in self.ix.on_board:
                    continue  # reported by the final-consistency check (it does not exist)
                snaps = [s for step, s in self.snapshots.get(holder, ()) if step < row.step]
                held = snaps[-1] if snaps else frozenset(self.ix.initially_held(holder))
                if row.effect not in held:
                    self.fail(oid, "exists-when-applied", f"{holder} holds {row.effect} at step {row.step}",
                              sorted(held), row.effect)

    # -- values --------------------------------------------------------------------------------

    def values(self, oid: str, row: Row, inst: Inst, state: State, chain: dict[str, Any]) -> bool:
        """Check `before` and `after` of one row, and apply it to the replayed state. False when the
        replay cannot go on (a copy row whose `after` is not an object)."""
        ix = self.ix
        op = inst.effect.op if inst.effect is not None else None
        char = inst.characteristic  # a wrong label is reported by the "characteristic" check
        # What the operation does (its registry entry, operations.py); None: a buff, a bonus.
        does = spec_of(op).does if op is not None else None
        kind = does.kind if does is not None else None
        sets_might = does is not None and does.kind == "set" and does.characteristic == MIGHT

        if inst.characteristic == "copy":
            # before/after are copiable roots (docs/semantics.md §11): the copier's before, and
            # after the root of what it copies (`of`) at that moment.
            assert op is not None  # (a copy is an effect)
            was = self.root(oid, row.step)
            if row.before != was:
                self.fail(oid, "before", was, row.before, row.effect)
            root = self.root(op.of, row.step)
            if root is None:
                self.fail(oid, "after", f"the root of {op.of}", row.after, row.effect)
                return False
            if row.after != root:
                self.fail(oid, "after", root, row.after, row.effect)
            rp = ix.printed[root]
            source = None if root == oid else row.effect
            kept_text = {n: t for n, t in state.held.items() if n in ix.effect_text_of(oid)}
            state.name, state.types, state.might, state.tags = rp.name, rp.types, rp.might, rp.tags
            if self.keeps and state.might is not None:
                state.might += self.added.get(oid, 0)
            state.kws = [(k, v, source, ix.objects[oid].since if source is None else row.timestamp)
                         for k, v in rp.keywords]
            copied = {}
            for e in ix.objects[root].rules_text:
                n = ix.copied_name(e.id, oid)
                copied[n] = None if n == e.id else row.timestamp
            state.held = copied | kept_text
            chain.update(might=state.might, tags=sorted(state.tags), keywords=ix.aggregate(state.kws),
                         abilities=sorted(state.held))
            return True

        before = row.before
        if char == "abilities" and isinstance(before, dict) and "keywords" in before:
            self.compare(oid, row, "before", {"abilities": chain["abilities"], "keywords": chain["keywords"]}
                         if "abilities" in before else chain["keywords"],
                         before if "abilities" in before else before["keywords"])
        elif char == "abilities":
            self.compare(oid, row, "before", chain["keywords"], before)
        else:
            self.compare(oid, row, "before", chain.get(char) if char is not None else None, before)

        if inst.stage >= INCREASE or sets_might:
            if inst.kind == "keyword" and not any(
                k == inst.keyword and s == inst.brought_by for k, _, s, _ in state.kws
            ):
                # Its keyword instance is not there (reported as exists-when-applied): the amount
                # it adds is unknown, so the replay takes the row's word for it.
                if row.after is None or _is_int(row.after):
                    delta = row.after - before if _is_int(row.after) and _is_int(before) else 0
                    state.might = None if state.might is None else state.might + delta
                    chain["might"] = row.after
                    return True
                return False
            expected_after = self.might_after(oid, row, inst, state, before)
            might_was = state.might
            state.might = self.might_after(oid, row, inst, state, state.might)
            if not sets_might and _is_int(might_was) and _is_int(state.might):
                self.added[oid] = self.added.get(oid, 0) + state.might - might_was
            # (Where the row's own before is a Might, or none: what it found instead may be a
            # Decision's other reading.)
            decisions = _might_decisions(expected_after, row.after) if before is None or _is_int(before) else ()
            if _is_int(before) and before < 0:
                decisions = decisions or _double(inst)
            self.compare(oid, row, "after", expected_after, row.after, decisions)
            chain["might"] = row.after if row.after is None or _is_int(row.after) else expected_after
            return True
        if does is None or op is None:  # (a buff's, a bonus's or a keyword's: arithmetic, above)
            return True
        if kind == "set" and does.characteristic == "controller":
            player = parameter(op)
            assert player is None or isinstance(player, str)  # (a player, as the board format reads it)
            state.controller = player
            self.compare(oid, row, "after", player, row.after)
            chain["controller"] = row.after if isinstance(row.after, str) else player
            return True
        if kind in ("add", "remove") and does.characteristic == "tags":
            tag = parameter(op)
            assert isinstance(tag, str)  # (a tag, as the board format reads it)
            state.tags = state.tags | {tag} if kind == "add" else state.tags - {tag}
            base = set(before) if is_names(before) else set()
            tags_after = sorted(base | {tag} if kind == "add" else base - {tag})
            self.compare(oid, row, "after", tags_after, row.after)
            chain["tags"] = row.after if is_names(row.after) else tags_after
            return True
        if kind in ("gain_keywords", "lose_keywords"):
            counts: dict[str, int] = dict(before) if is_counts(before) else {}
            if kind == "gain_keywords":
                for kw in op.keywords:
                    v = 1 if kw.value is None else kw.value
                    state.kws.append((kw.name, v, row.effect, row.timestamp))
                    counts[kw.name] = counts.get(kw.name, 0) + v if kw.name in ix.summing else 1
            else:
                lost = {kw.name for kw in op.keywords}
                state.kws = [i for i in state.kws if i[0] not in lost]
                counts = {k: v for k, v in counts.items() if k not in lost}
            keywords_after = dict(sorted(counts.items()))
            self.compare(oid, row, "after", keywords_after, row.after)
            chain["keywords"] = row.after if is_counts(row.after) else keywords_after
            return True
        if kind == "lose_all_abilities":
            state.kws, state.held = [], {}
            after = row.after
            if isinstance(after, dict) and "keywords" in after:
                expected: Any = {"abilities": [], "keywords": {}} if "abilities" in after else {}
                self.compare(oid, row, "after", expected, after if "abilities" in after else after["keywords"])
            else:
                self.compare(oid, row, "after", {}, after)
            chain.update(keywords={}, abilities=[])
            return True
        return True

    def might_after(self, oid: str, row: Row, inst: Inst, state: State, might: Any) -> int | None:
        """Might after applying the instance to an object whose Might is `might` (§3)."""
        if might is None or not _is_int(might):
            return None
        op = inst.effect.op if inst.effect is not None else None
        if op is not None and spec_of(op).does.kind == "set":  # set Might
            value = parameter(op)
            assert isinstance(value, int)  # (a number, as the board format reads it)
            return value + (self.added.get(oid, 0) if self.keeps else 0)
        if inst.kind == "buff":
            return might + 1
        if inst.kind == "bonus":
            assert inst.gear is not None  # (a bonus is its gear's)
            bonus = self.ix.objects[inst.gear].might_bonus
            return might + (bonus or 0)
        if inst.kind == "keyword":
            values = [v for k, v, s, _ in state.kws if k == inst.keyword and s == inst.brought_by]
            return might + (values[0] if values else 0)
        assert op is not None  # (the other instances are effects)
        return arithmetic_after(op, might)

    def compare(self, oid: str, row: Row, which: str, expected: Any, found: Any, decisions: tuple[str, ...] = ()) -> None:
        if _norm(expected) != _norm(found):
            self.fail(oid, which, expected, found, row.effect, decisions)


def _double(inst: Inst) -> tuple[str, ...]:
    """Decision R6 ("Double Might" is an increase that adds max(0, Might)) for a `double`."""
    return ("R6",) if inst.effect is not None and inst.effect.op.name == "double" else ()


def _might_decisions(expected: Any, found: Any) -> tuple[str, ...]:
    """The Decisions a Might found instead of the one expected rests on: R7 (not clamped) when 0
    is found for a Might below 0; R8 (no Might stays none) when a number is found for none."""
    if _is_int(expected) and expected < 0 and found == 0 and _is_int(found):
        return ("R7",)
    if expected is None and _is_int(found):
        return ("R8",)
    return ()


def dependency_rule(index: BoardIndex) -> bool:
    """Whether the board's reading applies the dependency rule (`dependency = result`, §6)."""
    return index.board.reading("dependency") != "none"


def dependency_reading(index: BoardIndex, view: View, out: list[Violation]) -> int:
    """With the reading dependency = none, no dependency cycle is reported (there is no dependency
    to form one); the trace's labels are checked row by row (`Replay.labels`). Returns the checks
    made."""
    if dependency_rule(index):
        return 0
    for cycle in view.dependency_cycles:
        out.append(Violation("-", TRACE, "no-dependency", show(NO_DEPENDENCY),
                             show(f"dependency cycle {', '.join(cycle)}")))
    return 1


def final_checks(index: BoardIndex, view: View, replayed: Replayed, out: list[Violation]) -> int:
    """The replayed values against the reported final characteristics. Returns the checks made."""
    checked = 0
    for oid, state in replayed.states.items():
        if oid in replayed.lost:
            continue
        final = view.objects[oid]
        pairs = [
            ("name", state.name, final.name),
            ("types", sorted(state.types), sorted(final.types)),
            ("might", state.might, final.might),
            ("controller", state.controller, final.controller),
            ("tags", sorted(state.tags), sorted(final.tags)),
            ("keywords", index.aggregate(state.kws), dict(sorted(final.keywords.items()))),
        ]
        if final.abilities is not None:
            pairs.append(("abilities", sorted(state.held), sorted(final.abilities)))
        for what, replayed_value, reported in pairs:
            checked += 1
            if replayed_value != reported:
                v = Violation(oid, TRACE, f"final-{what}", show(replayed_value), show(reported))
                decisions = _might_decisions(replayed_value, reported) if what == "might" else ()
                out.append(v.on_decision(*decisions) if decisions else v)
    return checked


def _is_copy(index: BoardIndex, row: Row) -> bool:
    inst = index.instance(row.effect)
    return inst is not None and inst.effect is not None and _does(inst).kind == "copy"


def _does(inst: Inst):
    assert inst.effect is not None
    return spec_of(inst.effect.op).does


def _norm(value: Any) -> Any:
    """Values compared as the contract means them: lists of names as sets, dicts by content."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted(value, key=str) if all(isinstance(v, str) for v in value) else value
    return value
