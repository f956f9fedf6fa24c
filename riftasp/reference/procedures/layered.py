"""The scheduling procedure "layered" (Sorcery's, docs/semantics-sorcery.md §9): one global pass,
layer by layer, position by position.

For each position in order (before a layer for the abilities removed, before it for the
abilities granted, the layer itself with its sublayers, after it for the conditions that waited),
repeatedly: the effects not yet applied that exist now and whose position, judged now, is this one
or an earlier one are due; the ruleset picks one (timestamps, simultaneous entry, dependency, the
at-rest rule); it applies to every object its target names now whose conditions hold now, in
listing order, even if it removes its own ability on the way; it is then done. Nothing is
rechecked or withdrawn.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...model import Board
from ...result import Application, Resolution

# The rules a ruleset gives this procedure (`rules`: riftasp/rulesets/sorcery/reference/ is one):
# its layer names and stages, `world(board)` (the calculation's state: the instances that exist
# now, each one's position judged now, which one of those due is picked, its targets, whether
# it holds on one, and `apply(inst, oid)`), and each object's output. Its instances and world
# are its own; this module reads them only through those names.
Instance = Any
World = Any

# Phases of a layer (docs/semantics-sorcery.md §1, Positions).
BEFORE_REMOVING, BEFORE_GRANTING, IN, AFTER = 0, 1, 2, 3


@dataclass(frozen=True)
class Position:
    layer: int
    phase: int
    rank: int = 0  # the stage within the layer (layer 6's sublayers)

    def __lt__(self, other: Position) -> bool:
        return (self.layer, self.phase, self.rank) < (other.layer, other.phase, other.rank)

    def __le__(self, other: Position) -> bool:
        return (self.layer, self.phase, self.rank) <= (other.layer, other.phase, other.rank)

PHASE_WORDS = {BEFORE_REMOVING: "before", BEFORE_GRANTING: "before", AFTER: "after"}


def positions(rules: Any) -> list[Position]:
    """Every position, in order."""
    out = []
    for number, layer in enumerate(rules.layer_names, start=1):
        out += [Position(number, BEFORE_REMOVING), Position(number, BEFORE_GRANTING)]
        out += [Position(number, IN, stage.rank) for stage in rules.stages if stage.layer == layer]
        out.append(Position(number, AFTER))
    return out


def resolve(board: Board, rules: Any) -> Resolution:
    world: World = rules.world(board)
    done: set[tuple] = set()
    applied: dict[str, list[Application]] = {}
    cycles: set[tuple[str, ...]] = set()
    ties: set[tuple[str, ...]] = set()
    step = 0
    for slot in positions(rules):
        while True:
            due: list[tuple[Instance, Position, list[str], set[str]]] = []
            for inst in world.instances():
                if inst.uid in done:
                    continue
                pos, notes, labels = world.position(inst)
                if pos <= slot:
                    due.append((inst, pos, notes, labels))
            if not due:
                break
            # The earliest position first (a removal just before another removal's position).
            earliest = min(d[1] for d in due)
            due = [d for d in due if d[1] == earliest]
            pick = world.choose([d[0] for d in due])
            inst = pick.inst
            _, pos, notes, labels = next(d for d in due if d[0] is inst)
            done.add(inst.uid)
            if pick.cycle:
                cycles.add(pick.cycle)
            ties.update(tuple(sorted(t)) for t in pick.ties)
            labels = labels | pick.labels
            notes = notes + pick.notes
            if pos < slot:
                labels.add("late")
                notes.append("it became due after its position had passed, so it applies as soon as it can")
            # Its targets are chosen once, now; each is checked against its conditions now.
            for oid in world.targets(inst):
                if not world.holds(inst, oid):
                    continue
                step += 1
                world.note_applied(inst.uid)
                characteristic, before, after, said = world.apply(inst, oid)
                applied.setdefault(oid, []).append(
                    _application(rules, world, inst, oid, slot, step, labels, notes, pick.depends_on,
                                 characteristic, before, after, said)
                )  # fmt: skip
    objects = {obj.id: rules.characteristics(obj, world.state.get(obj.id)) for obj in board.objects}
    return Resolution(
        ruleset=board.ruleset,
        objects=objects,
        applied=applied,
        dependency_cycles=[list(c) for c in sorted(cycles)],
        timestamp_ties=[list(t) for t in sorted(ties)],
        engine="reference",
    )


def _application(rules: Any, world: World, inst: Instance, oid: str, slot: Position, step: int, labels: set[str],
                 notes: list[str], depends_on: tuple[str, ...], characteristic: str, before: Any, after: Any,
                 said: str) -> Application:  # fmt: skip
    layer = rules.layer_names[slot.layer - 1]
    sublayer = PHASE_WORDS.get(slot.phase) or rules.sublayer(slot.rank)
    name = rules.layer_name(slot.layer)
    if slot.phase in (BEFORE_REMOVING, BEFORE_GRANTING):
        where = f"just before layer {slot.layer} ({name})"
    elif slot.phase == AFTER:
        where = f"just after layer {slot.layer} ({name})"
    else:
        where = f"in layer {slot.layer} ({name}" + (f", {sublayer} sublayer)" if sublayer else ")")
    if said:
        change = said
    elif before == after:
        change = f"leaves {oid}'s {characteristic} unchanged"
    else:
        change = f"changes {oid}'s {characteristic} from {json.dumps(before)} to {json.dumps(after)}"
    reasons = list(dict.fromkeys(notes)) or ["it has the earliest timestamp among the effects due here"]
    return Application(
        effect=inst.name,
        step=step,
        layer=layer,
        sublayer=sublayer,
        timestamp=inst.timestamp,
        why=f"{_describe(inst)} {change} {where}: {'; '.join(reasons)}.",
        reasons=("timestamp", *sorted(labels)),
        depends_on=depends_on,
        characteristic=characteristic,
        before=before,
        after=after,
    )


def _describe(inst: Instance) -> str:
    if inst.kind == "ongoing":
        return f"Ongoing effect {inst.name}" + (f" (from {inst.holder})" if inst.holder else "")
    if inst.kind == "grant":
        return f"Bearer ability {inst.name} of {inst.supplier} (carried by {inst.holder})"
    if inst.origin == "granted":
        return f"Ability {inst.name} (granted by {inst.supplier})"
    return f"Ability {inst.name} of {inst.holder}"
