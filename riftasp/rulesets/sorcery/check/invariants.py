"""Sorcery's invariants (docs/check.md, "Sorcery"), checked on a resolution by replaying its own
trace, row by row in step order, from the printed state: never by running the procedure.

- `trace` (one global pass): steps 1..N once each; each name denotes an effect of the board and
  applies at most once to an object; an effect's rows are consecutive steps in listing order (it
  is picked once and applied to its targets then); each row is at a position its operation allows
  (its layer and stage; just before an earlier layer for an ability removed or granted, or just
  before layer 3 itself for a removal of a removal, with `before_layer`; just after the layer its
  condition reads, with `waited`; a grant's row is judged as a grant, `SorceryBoard.acts`, never
  as what the ability it gives does); positions never go
  back (but for a `late` row); among the effects picked at one position, an older one is not
  passed over unless a reason says why (dependency, at rest, a removal of its ability, or it came
  into being later); what it depends on was applied first, and, unless the reading
  dependency_layers is "all", only control effects depend on each other.
- `final-consistency` (as Sorcery defines it: conditions checked once, no recheck): each row's
  `before` is the object's state then and its `after` is what its operation makes of it; the
  objects an effect applied to are exactly those its target named when it was picked whose
  conditions held when their turn came (read in the replayed state, not the final one); the final
  characteristics are the replay's, flags follow the silencing and disabling rows, power is never
  below 0, objects outside the realm keep their printed values; every board effect naming objects
  by id without conditions, every unconditional ability on its holder and every bearer ability of
  an artifact still holding it reached its object; nothing is withdrawn, looped or a paradox.
"""

from __future__ import annotations

import copy
from collections import ChainMap
from typing import Any

from ....graph import strongly_connected_components
from ....check.contract import Row, _is_int, is_names
from ....check.report import FINAL, TRACE, Report, Violation, show
from .board import AFTER, BEFORE, DIRECT, REMOVING, Named, SorceryBoard
from .view import View

ELEMENTS = ("air", "earth", "fire", "water")
# The operations whose effect `Checker.apply` restates, by name (docs/semantics-sorcery.md §3): a
# board with another is not judged (check/__init__.py).
JUDGED = frozenset({
    "gain_control", "set_power", "plus", "minus", "double", "add_type", "add_subtype", "remove_subtype",
    "gain_affinity", "lose_affinity", *REMOVING, "copy", *DIRECT,
})  # fmt: skip
EXCUSES = {"dependency", "at_rest", "cycle", "late"}


def _plain(value: Any) -> Any:
    """A value with its sets as sorted lists (for the report)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def printed(sb: SorceryBoard, oid: str) -> dict[str, Any]:
    obj = sb.objects[oid]
    return {
        "name": obj.name,
        "controller": obj.controller,
        "power": getattr(obj, "power", None),
        "types": {obj.card_type},
        "subtypes": set(obj.tags),
        "affinity": {e: getattr(obj, e) for e in ELEMENTS if getattr(obj, e, None)},
        "keywords": {k.name for k in obj.keywords},
        "abilities": {e.id for e in (*obj.rules_text, *obj.effect_text)},
        "lost": False,
    }


def words(affinity: dict[str, int]) -> list[str]:
    return sorted(f"{e} {n}" for e, n in affinity.items() if n > 0)


def parts(row: Row, value: Any) -> dict[str, Any] | None:
    """The state parts a row's `before`/`after` shows, by name (None: a shape it cannot have)."""
    ch = row.characteristic
    if ch in ("controller", "power"):
        found = {ch: value}
    elif ch == "copy":
        found = {"name": value}
    elif isinstance(value, dict):
        keys = {"types": ("types", "subtypes", "abilities"), "abilities": ("abilities", "keywords")}.get(ch)
        if keys is None or set(value) != set(keys):
            return None
        found = {k: value[k] for k in keys}
    elif ch in ("types", "subtypes", "affinity", "keywords", "abilities"):
        found = {ch: value}
    else:
        return None
    # (Each part as the output contract writes it: a value of another type is a violation, not a
    # value the replay computes with.)
    return found if all(_shaped(k, v) for k, v in found.items()) else None


def _shaped(key: str, value: Any) -> bool:
    if key == "power":
        return value is None or _is_int(value)
    if key in ("controller", "name"):
        return value is None or isinstance(value, str)
    if not is_names(value):
        return False
    # affinity: "element N", N a whole number
    return key != "affinity" or all(len(w.split()) == 2 and is_count(w.split()[1]) for w in value)


def is_count(text: str) -> bool:
    """An affinity's count as the output contract writes it: ASCII digits, a 64-bit number."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def shown(state: dict[str, Any], key: str) -> Any:
    value = state[key]
    if key == "affinity":
        return words(value)
    if isinstance(value, set):
        return sorted(value)
    return value


class Checker:
    def __init__(self, sb: SorceryBoard, view: View, report: Report) -> None:
        self.sb, self.view, self.report = sb, view, report
        self.out = report.violations
        self.regain = bool(sb.readings.get("regain_after_loss", False))
        self.each_change = sb.readings.get("power_floor", "read") == "each_change"
        self.everywhere = sb.readings.get("dependency_layers", "control") == "all"

    def violation(self, oid: str, invariant: str, check: str, expected: Any, found: Any, effect: str | None = None,
                  decisions: tuple[str, ...] = ()) -> None:
        v = Violation(oid, invariant, check, show(_plain(expected)), show(_plain(found)), effect)
        self.out.append(v.on_decision(*decisions) if decisions else v)

    def count(self, n: int = 1) -> None:
        self.report.checked += n

    # -- the whole check ---------------------------------------------------------------------------

    def run(self) -> None:
        sb, view = self.sb, self.view
        self.reports()
        for oid in sb.objects:
            if oid not in sb.in_realm:
                self.outside(oid)
        if view.applied is None:
            self.report.skipped.append("trace replay: the resolution has no 'applied' trace")
            return
        rows = sorted((r for rs in view.applied.values() for r in rs), key=lambda r: (r.step, r.object))
        self.steps(rows)
        state = {oid: printed(sb, oid) for oid in sb.in_realm}
        self.replay(rows, state)
        self.finals(state, rows)
        self.completeness(rows)

    def reports(self) -> None:
        for key, value in self.view.reports.items():
            self.count()
            if value:
                self.violation("-", FINAL, f"no-{key}", "nothing (one pass: nothing withdrawn, looped or rechecked)", value)

    def outside(self, oid: str) -> None:
        f, p = self.view.objects[oid], printed(self.sb, oid)
        self.count()
        if (f.controller, f.power, set(f.types), set(f.subtypes), set(f.affinity)) != \
                (p["controller"], p["power"], p["types"], p["subtypes"], set(words(p["affinity"]))):  # fmt: skip
            self.violation(oid, FINAL, "printed", "its printed values (outside the realm)", "other values")
        if self.view.applied and self.view.applied.get(oid):
            self.violation(oid, FINAL, "printed", "no applications (outside the realm)", len(self.view.applied[oid]))

    # -- the trace's shape -------------------------------------------------------------------------

    def steps(self, rows: list[Row]) -> None:
        steps = [r.step for r in rows]
        self.count()
        if steps != list(range(1, len(rows) + 1)):
            self.violation("-", TRACE, "steps", f"steps 1..{len(rows)}, each once", steps)
        seen: set[tuple[str, str]] = set()
        for r in rows:
            self.count()
            if (r.object, r.effect) in seen:
                self.violation(r.object, TRACE, "once", "an effect applies once to an object", "twice", r.effect)
            seen.add((r.object, r.effect))
        # An effect's rows: consecutive steps, objects in listing order.
        by_effect: dict[str, list[Row]] = {}
        for r in rows:
            by_effect.setdefault(r.effect, []).append(r)
        for name, rs in by_effect.items():
            self.count()
            consecutive = [r.step for r in rs] == list(range(rs[0].step, rs[0].step + len(rs)))
            ordered = [self.sb.index[r.object] for r in rs] == sorted(self.sb.index[r.object] for r in rs)
            if not (consecutive and ordered):
                self.violation(rs[0].object, TRACE, "together", "its rows at consecutive steps, in listing order",
                               [(r.step, r.object) for r in rs], name)  # fmt: skip

    # -- the replay --------------------------------------------------------------------------------

    def replay(self, rows: list[Row], state: dict[str, Any]) -> None:
        sb = self.sb
        last_key: tuple[int, int, int] | None = None
        # The picks so far by position: (first row, named) of each (only those at a row's own
        # position can have been passed over for it).
        picks: dict[tuple[int, int, int], list[tuple[Row, Named]]] = {}
        # The effect being applied: its name, rows, targets at its pick, and what each row replaced
        # (object, its state before the row).
        current: tuple[str, list[Row], list[str], list[tuple[str, Any]]] | None = None
        applied_at: dict[str, int] = {}  # effect -> step of its first row
        named_at: dict[str, Named] = {}  # effect -> what its first row's name denotes
        gained_at: dict[tuple[str, str], int] = {}  # (object, ability) -> step it was gained
        for r in rows:
            named = sb.named(r.effect, r.object)
            self.count()
            if named is None:
                self.violation(r.object, TRACE, "known", "an effect of the board", "nothing of that name", r.effect)
                continue
            if r.object not in state:
                self.violation(r.object, TRACE, "known", "an object in the realm", "not in the realm", r.effect)
                continue
            first = r.effect not in applied_at
            if first:
                if current is not None:
                    self.targets_check(*current, state)
                applied_at[r.effect] = r.step
                current = (r.effect, [], sb.targets(named, state), [])
                named_at[r.effect] = named
                self.dependencies(r, named, applied_at, named_at)
            late = "late" in r.reasons
            key = None
            if r.layer not in sb.layers:
                self.violation(r.object, TRACE, "position", f"a layer of {', '.join(sb.layers)}", r.layer, r.effect)
            else:
                key = sb.position_key(r.layer, r.sublayer, sb.acts(named))
                if not late:
                    self.position(r, named)
                    self.count()
                    if last_key is not None and key < last_key:
                        self.violation(r.object, TRACE, "one-pass", "no position earlier than the one before",
                                       f"{r.layer} {r.sublayer or ''}".strip(), r.effect)  # fmt: skip
                    last_key = key
                if first and not late:
                    self.order(picks.get(key, []), r, named, gained_at, rows, state)
                    picks.setdefault(key, []).append((r, named))
                    if r.sublayer == BEFORE and sb.acts(named) in REMOVING:
                        assert current is not None  # set at this effect's first row, above
                        self.moved_removal(r, named, current[2], state)
            # Conditions hold now (checked once, at its position).
            self.count()
            if not sb.holds(named, r.object, state):
                self.violation(r.object, FINAL, "conditions", "its conditions hold when it applies", "they do not", r.effect)
            assert current is not None
            current[3].append((r.object, state[r.object]))
            self.apply(r, named, state, gained_at)
            current[1].append(r)
        if current is not None:
            self.targets_check(*current, state)

    def dependencies(self, r: Row, named: Named, applied_at: dict[str, int], named_at: dict[str, Named]) -> None:
        """What it depends on applied before it; and where the reading dependency_layers is
        "control" (§5: [S]'s rule, for control effects only), only a control effect depends on
        another or is in a dependency cycle, and only on control effects ("all": any effect)."""
        for d in r.depends_on:
            self.count()
            if d not in applied_at or applied_at[d] >= r.step:
                self.violation(r.object, TRACE, "depends-on", f"{d} applied before it", "not before", r.effect)
        if self.everywhere or not (r.depends_on or "cycle" in r.reasons):
            return
        control = [named] + [named_at[d] for d in r.depends_on if d in named_at]
        self.count()
        if any(n.effect.op.name != "gain_control" for n in control):
            self.violation(r.object, TRACE, "dependency-layers", "a dependency among control effects only "
                           "(dependency_layers = control)", f"{', '.join(r.depends_on) or 'a cycle'} for {r.effect}",
                           r.effect)  # fmt: skip

    def position(self, r: Row, named: Named) -> None:
        allowed, label = self.sb.allowed(named)
        self.count()
        if (r.layer, r.sublayer) not in allowed:
            self.violation(r.object, TRACE, "position", " or ".join(sorted(f"{layer} {s or ''}".strip() for layer, s in allowed)),
                           f"{r.layer} {r.sublayer or ''}".strip(), r.effect)  # fmt: skip
        if r.sublayer in (BEFORE, AFTER):
            need = "before_layer" if r.sublayer == BEFORE else "waited"
            self.count()
            if need not in r.reasons:
                self.violation(r.object, TRACE, "position", f"reason {need}", list(r.reasons), r.effect)

    def moved_removal(self, r: Row, named: Named, targets: list[str], state: dict[str, Any]) -> None:
        """A removal applies just before layer L only when an object it names holds, when it is
        picked, an ability that applies in layer L (or just before it: a Pallid Bust's giving an
        ability of that layer), or a removal (moved before it in turn, §3)."""
        sb = self.sb
        layer = sb.number(r.layer)
        self.count()
        for t in targets:
            for ability in state[t]["abilities"]:
                held = sb.named(ability, t)
                if held is None or held.name == named.name:
                    continue
                if held.effect.op.name in REMOVING or layer in sb.applies_in(held):
                    return
        self.violation(r.object, TRACE, "position", f"an ability of layer {r.layer} held by what it removes",
                       f"{r.layer} before, with none", r.effect)  # fmt: skip

    def order(self, picks: list, r: Row, named: Named, gained_at: dict, rows: list[Row], state: dict[str, Any]) -> None:
        """No older effect due at this position (`picks`: those picked at it before) was passed
        over without a reason."""
        for a, named_a in picks:
            if a.timestamp <= r.timestamp:
                continue
            self.count()
            if EXCUSES & (set(a.reasons) | set(r.reasons)):
                continue
            if gained_at.get((named.holder, r.effect), 0) > a.step:
                continue  # it came into being after that pick
            if self.sb.acts(named_a) in REMOVING and named.holder in {x.object for x in rows if x.effect == a.effect}:
                continue  # a removal of its holder's abilities, moved just before it (§3)
            if self.sb.acts(named_a) in REMOVING and self.broke_ring(a, named, rows, state):
                continue  # it took a removal that removed each other with this one: judged again, earlier
            self.violation(r.object, TRACE, "timestamp-order", f"applied before {a.effect} (timestamp {a.timestamp})",
                           f"after it (timestamp {r.timestamp})", r.effect)  # fmt: skip

    def broke_ring(self, a: Row, named: Named, rows: list[Row], state: dict[str, Any]) -> bool:
        """Whether removal `a` took a removal in this one's ring: the removals that, directly or
        through others, remove an ability of each other's holders go together (§3, [S] "If two
        abilities would try to remove each other, use timestamp order"), and a removal of a member
        goes just before that place, so before this one, older or not; with that member gone,
        this one is judged again. (The ring is read in the state before `a` applied: what it took
        put back.)"""
        sb = self.sb
        taken: dict[tuple[str, str | None], Named] = {}  # (removal, its holder) -> it
        for x in rows:
            if x.effect != a.effect or not isinstance(x.before, dict):
                continue
            for ability in x.before.get("abilities", []):
                held = sb.named(ability, x.object)
                if held is not None and held.name != named.name and sb.acts(held) in REMOVING:
                    taken[(held.name, x.object)] = held
        if not taken:
            return False
        removals = dict(taken)
        for oid, st in state.items():
            for ability in st.get("abilities", []) if isinstance(st, dict) else ():
                held = sb.named(ability, oid)
                if held is not None and sb.acts(held) in REMOVING:
                    removals[(held.name, oid)] = held
        me = (named.name, named.holder)
        removals[me] = named
        self.count()
        names = {key: set(sb.targets(held, state)) for key, held in removals.items()}
        edges = {key: [k for k in removals if k != key and k[1] in names[key]] for key in removals}
        ring = next(set(c) for c in strongly_connected_components(list(removals), edges) if me in c)
        return any(key in ring for key in taken)

    def targets_check(self, name: str, rows: list[Row], targets: list[str], replaced: list[tuple[str, Any]],
                      state: dict[str, Any]) -> None:  # fmt: skip
        """The objects it applied to: those its target named at the pick whose conditions held when
        their turn came, in listing order. (`state`: after its rows; `replaced`: what each row
        replaced, from which the state after its first k rows is made.)"""
        sb = self.sb
        named = sb.named(name, rows[0].object)
        if named is None:
            return
        got = [r.object for r in rows]
        self.count()
        if not set(got) <= set(targets):
            self.violation(rows[0].object, FINAL, "targets", f"only objects it named when picked: {targets}", got, name)
            return
        for t in targets:
            if t in got:
                continue
            # Its turn came after the rows of the targets listed before it.
            before = sum(1 for g in got if sb.index[g] < sb.index[t])
            self.count()
            if sb.holds(named, t, _undone(state, replaced[before:])):
                self.violation(t, FINAL, "targets", f"{name} applied (named when picked, its conditions held)",
                               "not applied", name)  # fmt: skip

    def apply(self, r: Row, named: Named, state: dict[str, Any], gained_at: dict) -> None:
        """Check the row against the replayed state, then take the state it shows."""
        s = state[r.object]
        before, after = parts(r, r.before), parts(r, r.after)
        self.count()
        if before is None or after is None:
            self.violation(r.object, FINAL, "chain", f"a {r.characteristic} value", r.before, r.effect)
            return
        for k, v in before.items():
            if v != shown(s, k):
                self.violation(r.object, FINAL, "chain", {k: shown(s, k)}, {k: v}, r.effect)
        expected = self.expected(r, named, state)
        decisions = self.decisions(r, named, s)
        for k, v in after.items():
            self.count()
            if expected is not None and v != shown(expected, k):
                self.violation(r.object, FINAL, "operation", {k: shown(expected, k)}, {k: v}, r.effect, decisions)
        new = expected if expected is not None else copy.deepcopy(s)
        for k, v in after.items():
            if k == "affinity":
                new[k] = {w.split()[0]: int(w.split()[1]) for w in v}
            elif isinstance(v, list):
                new[k] = set(v)
            else:
                new[k] = v
        for ability in new["abilities"] - s["abilities"]:
            gained_at[(r.object, ability)] = r.step
        state[r.object] = new

    def decisions(self, r: Row, named: Named, s: dict[str, Any]) -> tuple[str, ...]:
        """The Decisions what a row's operation makes rests on: a copy takes the original's printed
        values (S18); an object that lost its abilities gains none (S4, regain_after_loss = false)."""
        if named.kind != "grant" and named.effect.op.name == "copy":
            return ("S18",)
        gains = named.kind == "grant" or named.effect.op.name in ("gain_keywords", "gain_linked_printed")
        return ("S4",) if gains and s["lost"] and not self.regain else ()

    def expected(self, r: Row, named: Named, state: dict[str, Any]) -> dict[str, Any] | None:
        """What the row's operation makes of its object (None: nothing to compare)."""
        sb = self.sb
        s = copy.deepcopy(state[r.object])
        op = named.effect.op
        blocked = s["lost"] and not self.regain
        if named.kind == "grant":
            if not blocked:
                s["abilities"].add(f"{named.name}@{r.object}")
            return s
        name = op.name
        if name == "gain_control":
            you = sb.you(named, state)
            if you is None:
                return None
            s["controller"] = you
        elif name in ("set_power", "plus", "minus", "double"):
            p = s["power"]
            if p is None and name != "set_power":
                return s
            p = {"set_power": lambda: op.value, "plus": lambda: p + op.amount, "minus": lambda: p - op.amount,
                 "double": lambda: 2 * max(0, p)}[name]()  # fmt: skip
            s["power"] = max(0, p) if self.each_change else p
        elif name == "add_type":
            s["types"].add(op.type)
        elif name == "add_subtype":
            s["subtypes"].add(op.subtype)
        elif name == "remove_subtype":
            s["subtypes"].discard(op.subtype)
        elif name == "gain_affinity":
            s["affinity"][op.element] = max(s["affinity"].get(op.element, 0), 1)
        elif name == "lose_affinity":
            s["affinity"].pop(op.element, None)
        elif name in REMOVING:
            s["abilities"], s["keywords"], s["lost"] = set(), set(), True
        elif name == "copy":
            # The original's printed values and rules text (as E@O); the controller, the lost flag
            # and the abilities its artifacts granted it stay (§3, §8).
            original = printed(sb, op.of)
            granted = {a for a in s["abilities"] if a.partition("@")[0] in self.granted_entries(r.object)}
            s.update({k: original[k] for k in ("name", "power", "types", "subtypes", "affinity", "keywords")})
            s["abilities"] = granted | {f"{e.id}@{r.object}" for e in sb.objects[op.of].rules_text}
        elif name == "gain_keywords":
            if not blocked:
                s["keywords"] |= {k.name for k in op.keywords}
        elif name == "gain_linked_printed":
            linked = sb.objects.get(getattr(sb.objects[named.supplier], "linked", None) or "") if named.supplier else None
            if linked is not None:
                s["types"].add(linked.card_type)
                s["subtypes"] |= set(linked.tags)
                if not blocked:
                    s["keywords"] |= {k.name for k in linked.keywords}
                    s["abilities"] |= {f"{e.id}@{r.object}" for e in linked.rules_text}
        else:
            return None
        return s

    def granted_entries(self, oid: str) -> set[str]:
        """The bearer abilities (entry ids) of the artifacts carried by `oid` that grant it one."""
        return {e.id for art in self.sb.carried_by(oid) for e in art.effect_text if e.op.name not in DIRECT}

    # -- the end -----------------------------------------------------------------------------------

    def finals(self, state: dict[str, Any], rows: list[Row]) -> None:
        ops: dict[str, set[str]] = {}
        for r in rows:
            named = self.sb.named(r.effect, r.object)
            if named is not None:
                ops.setdefault(r.object, set()).add(self.sb.acts(named))
        for oid in self.sb.in_realm:
            f, s = self.view.objects[oid], state[oid]
            power = None if s["power"] is None else max(0, s["power"])
            pairs = [("name", f.name, s["name"]), ("controller", f.controller, s["controller"]), ("power", f.power, power),
                     ("types", set(f.types), s["types"]), ("subtypes", set(f.subtypes), s["subtypes"]),
                     ("affinity", set(f.affinity), set(words(s["affinity"]))),
                     ("keywords", set(f.keywords), s["keywords"])]  # fmt: skip
            if f.abilities is not None:
                pairs.append(("abilities", set(f.abilities), s["abilities"]))
            for key, found, replayed in pairs:
                self.count()
                if found != replayed:
                    self.violation(oid, FINAL, "final-values", {key: replayed}, {key: found})
            for flag in ("silenced", "disabled"):
                self.count()
                op = "silence" if flag == "silenced" else "disable"
                if getattr(f, flag) != (op in ops.get(oid, ())):
                    self.violation(oid, FINAL, "flags", f"{flag} exactly when a {op} applied to it", getattr(f, flag))
            self.count()
            if f.power is not None and f.power < 0:
                self.violation(oid, FINAL, "power", "power 0 or more", f.power)

    def completeness(self, rows: list[Row]) -> None:
        sb = self.sb
        got = {(r.object, r.effect) for r in rows}
        for e in sb.board.effects:
            if e.target.kind == "ids" and not e.conditions:
                for oid in e.target.ids:
                    if oid in sb.in_realm:
                        self.count()
                        if (oid, e.id) not in got:
                            self.violation(oid, FINAL, "not-applied", f"{e.id} applied (a board effect always exists)",
                                           "not applied", e.id)  # fmt: skip
        for oid in sb.in_realm:
            obj, f = sb.objects[oid], self.view.objects[oid]
            if f.abilities is None:
                continue
            for e in obj.rules_text:
                if e.id in f.abilities and e.target.kind == "self" and not e.conditions:
                    self.count()
                    if (oid, e.id) not in got:
                        self.violation(oid, FINAL, "not-applied", f"{e.id} applied (it held it throughout)",
                                       "not applied", e.id)  # fmt: skip
            bearer = obj.attached_to
            if bearer in sb.in_realm:
                for e in obj.effect_text:
                    if e.id in f.abilities and not e.conditions:
                        self.count()
                        if (bearer, e.id) not in got:
                            self.violation(bearer, FINAL, "not-applied",
                                           f"{e.id} of {oid} applied (it held it throughout)", "not applied", e.id)


def check_sorcery(board: Any, view: View, report: Report) -> None:
    Checker(SorceryBoard(board), view, report).run()


def _undone(state: dict[str, Any], replaced: list[tuple[str, Any]]) -> ChainMap[str, Any]:
    """`state` as it was before the rows that replaced `replaced` (object, its state before the
    row): each object as the earliest of them left it. (An `apply` replaces an object's state and
    never changes it in place, so only the objects those rows changed differ; a copy of the whole
    state at every row made the check quadratic in the realm: 92 s at 1,000 generated objects.)"""
    before: dict[str, Any] = {}
    for oid, old in reversed(replaced):
        before[oid] = old
    return ChainMap(before, state)
