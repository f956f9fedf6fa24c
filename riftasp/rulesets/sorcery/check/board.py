"""A Sorcery board as the checker reads it (docs/check.md, Sorcery): what each name in a trace
denotes, where its holder stands, which positions its operation allows, and what filters and
conditions mean — restated from docs/semantics-sorcery.md (§1, §3, §4, §7), not taken from
either engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ....model import Board, Effect, GameObject

# Operations that remove every ability (§3) and those an artifact's bearer ability applies to the
# bearer directly, being ability adding themselves (§3: not a grant of an ability).
REMOVING = ("silence", "disable", "lose_all_abilities")
DIRECT = ("gain_keywords", "gain_linked_printed")
# What each kind of condition reads, and so after which layer it is checked (§4).
READS = {"power_at_most": "power", "power_below": "power", "lacks_adjacent_ally_with": "keywords"}
# The characteristic each layer's operations change last (for READS): the layer of the last stage
# naming an operation that changes it.
CHANGES = {"power": ("set_power", "plus", "minus", "double"), "keywords": ("gain_keyword",),
           "controller": ("gain_control",)}  # fmt: skip
BEFORE, AFTER = "before", "after"
# The relations that reach at most one square from their holder's in each direction (§7; an
# aura's area is its 2 × 2 block from the square it names).
ONE_SQUARE = ("here", "adjacent", "nearby", "one_step_in_front", "above", "area")


@dataclass(frozen=True)
class Named:
    """What a trace name denotes: `effect` (its board text), of `kind` ongoing | ability | grant |
    direct (an artifact's ability-adding bearer ability, applying to the bearer), measured from
    `holder` (None: a board effect without a source in the realm); `supplier` the artifact of a
    grant or of an ability granted or linked."""

    name: str
    effect: Effect
    kind: str
    holder: str | None
    supplier: str | None = None


class SorceryBoard:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.objects: dict[str, GameObject] = {o.id: o for o in board.objects}
        self.index = {o.id: n for n, o in enumerate(board.objects)}
        # The objects in the realm, in listing order (a dict: asking whether one is there is asked
        # per row and per effect).
        self.in_realm: dict[str, None] = dict.fromkeys(o.id for o in board.objects if o.zone == "realm")
        self.effects = {e.id: e for e in board.effects}
        self.copies = [e for e in (*board.effects, *(t for o in board.objects for t in (*o.rules_text, *o.effect_text)))
                       if e.op.name == "copy" and e.op.of in self.objects]  # fmt: skip
        self.readings = board.readings_in_force
        # Lookups made once (each was a pass over the board per question: the check of a realm of
        # 1,000 objects spent most of its time in them).
        self.carried: dict[str, list[GameObject]] = {}
        for o in board.objects:
            if o.zone == "realm" and o.attached_to is not None:
                self.carried.setdefault(o.attached_to, []).append(o)
        self.text_of: dict[str, Named] = {}  # an ability's name -> the first holder's, as `named` finds it
        for oid in self.in_realm:
            obj = self.objects[oid]
            for e in obj.rules_text:
                self.text_of.setdefault(e.id, Named(e.id, e, "ability", oid))
            for e in obj.effect_text:
                if obj.attached_to in self.in_realm:
                    kind = "direct" if e.op.name in DIRECT else "grant"
                    self.text_of.setdefault(e.id, Named(e.id, e, kind, obj.attached_to, oid))
        self.standing: dict[tuple[int, int], list[str]] = {}  # square -> objects there, in listing order
        for oid in self.in_realm:
            square = self.square(oid)
            if square is not None:
                self.standing.setdefault(square, []).append(oid)
        stages = board.ruleset.layers
        self.layers: list[str] = []
        for stage in stages:
            if stage.layer not in self.layers:
                self.layers.append(stage.layer)
        self.stage_of: dict[str, tuple[str, str | None, int]] = {}  # op -> (layer, sublayer, rank)
        for stage in stages:
            for op in stage.operations:
                self.stage_of[op] = (stage.layer, stage.sublayer, stage.rank)
        self.stage_of["gain_keywords"] = self.stage_of.get("gain_keyword", ("ability_adding", None, 0))
        linked = self.stage_of.get("add_type", self.stage_of.get("gain_linked_printed"))
        if linked is not None:  # (a table with neither leaves it out, as it does any other operation)
            self.stage_of["gain_linked_printed"] = linked
        self.sublayers = {(s.layer, s.sublayer): s.rank for s in stages}
        self.adding_layer = self.number(self.stage_of["gain_keywords"][0])
        self.removing_layer = self.number(self.stage_of.get("silence", ("ability_removing",))[0])

    # -- layers and positions (§1) -----------------------------------------------------------------

    def number(self, layer: str) -> int:
        return self.layers.index(layer) + 1

    def layer_of(self, op: str) -> int:
        return self.number(self.stage_of[op][0])

    def reads_layer(self, kind: str) -> int:
        """The last layer that changes what a kind of condition reads."""
        changed = CHANGES[READS[kind]]
        return max(self.layer_of(op) for op in changed if op in self.stage_of)

    def position_key(self, layer: str, sublayer: str | None, op: str) -> tuple[int, int, int]:
        """A row's position in the pass's order: (layer, phase, rank); a `before` row is before
        the layer's removals (a removal) or its grants (anything else)."""
        n = self.number(layer)
        if sublayer == BEFORE:
            return (n, 0 if op in REMOVING else 1, 0)  # (a grant's `op` is "grant": `acts`)
        if sublayer == AFTER:
            return (n, 3, 0)
        return (n, 2, self.sublayers.get((layer, sublayer), 0))

    def allowed(self, named: Named) -> tuple[set[tuple[str, str | None]], str | None]:
        """The positions (layer, sublayer) a row of `named` may be at (not late), and the reason
        label a `before`/`after` one must carry."""
        op = named.effect.op.name
        if named.kind == "grant":
            granted = self.layer_of(op) if op in self.stage_of else self.adding_layer
            if granted < self.adding_layer:
                return {(self.layers[granted - 1], BEFORE)}, "before_layer"
            layer, sublayer, _ = self.stage_of["gain_keywords"]
            return {(layer, sublayer)}, None
        layer, sublayer, _ = self.stage_of[op]
        natural = self.number(layer)
        waits = [self.reads_layer(c.kind) for c in named.effect.conditions if c.kind in READS]
        if waits and max(waits) >= natural:
            return {(self.layers[max(waits) - 1], AFTER)}, "waited"
        out = {(layer, sublayer)}
        if op in REMOVING or op == "gain_linked_printed":
            # Removed or granted just before an earlier layer's ability applies (§3); a removal
            # also just before its own layer, where it removes a removal or a grant of one ([S]
            # "it does so before that ability's layer", older or newer).
            limit = self.removing_layer + 1 if op in REMOVING else natural
            out |= {(self.layers[n - 1], BEFORE) for n in range(1, limit)}
        return out, None

    def applies_in(self, named: Named) -> set[int]:
        """The layers an ability may apply in or just before (§3): its operation's; for Pallid
        Bust's `gain_linked_printed`, also those of the linked object's abilities before its own
        (it gives them just before the earliest of those)."""
        op = named.effect.op.name
        out = {self.layer_of(op)} if op in self.stage_of else set()
        if op == "gain_linked_printed" and named.supplier is not None:
            linked = self.objects.get(getattr(self.objects[named.supplier], "linked", None) or "")
            for e in linked.rules_text if linked is not None else ():
                if e.op.name in self.stage_of:
                    out.add(self.layer_of(e.op.name))
        return out

    def acts(self, named: Named) -> str:
        """What a row of `named` does to its object: a grant gives its bearer an ability, whatever
        that ability's operation (a bearer ability that silences others is no silence on the
        bearer: §3), so its rows are `grant` rows; any other row does its effect's operation."""
        return "grant" if named.kind == "grant" else named.effect.op.name

    # -- names (§3; docs/check.md) ---------------------------------------------------------------

    def named(self, name: str, holder_row: str) -> Named | None:
        """What the name of a row on object `holder_row` denotes (None: nothing on the board)."""
        if name in self.effects:
            e = self.effects[name]
            holder = e.source if e.source in self.in_realm else None
            return Named(name, e, "ongoing", holder)
        base, _, at = name.partition("@")
        if at:
            holding = self.objects.get(at)
            if holding is None or holding.zone != "realm":
                return None
            for art in self.carried_by(at):
                for e in art.effect_text:
                    if e.id == base:
                        return Named(name, e, "ability", at, art.id)
                linked = self.objects.get(getattr(art, "linked", None) or "")
                if linked is not None:
                    for e in linked.rules_text:
                        if e.id == base:
                            return Named(name, e, "ability", at, art.id)
            for copying in self.copies:  # the rules text of an object a copy effect copies
                for e in self.objects[copying.op.of].rules_text:
                    if e.id == base:
                        return Named(name, e, "ability", at)
            return None
        # The first object in the realm, in listing order, whose rules text has it, or whose
        # carried artifact's bearer text has it.
        return self.text_of.get(name)

    def carried_by(self, oid: str) -> list[GameObject]:
        return self.carried.get(oid, [])

    # -- the realm (§7) --------------------------------------------------------------------------

    def square(self, oid: str) -> tuple[int, int] | None:
        obj = self.objects[oid]
        if obj.zone != "realm":
            return None
        if obj.attached_to is not None:
            return self.square(obj.attached_to)
        return (obj.row, obj.column)

    def beneath(self, oid: str) -> bool:
        obj = self.objects[oid]
        return bool(getattr(obj, "burrowed", None) or getattr(obj, "submerged", None))

    def related(self, relation: str, holder: str, target: str, you: str | None) -> bool:
        a, b = self.square(holder), self.square(target)
        if a is None or b is None:
            return False
        dr, dc = b[0] - a[0], b[1] - a[1]
        forward = 1 if self.board.players and you == self.board.players[0] else -1
        if relation == "here":
            return a == b
        if relation == "adjacent":
            return abs(dr) + abs(dc) == 1
        if relation == "nearby":
            return max(abs(dr), abs(dc)) <= 1
        if relation == "one_step_in_front":
            return dc == 0 and dr * forward == 1
        if relation == "in_front":
            return dc == 0 and dr * forward > 0
        if relation == "above":
            return a == b and self.beneath(holder) and not self.beneath(target)
        if relation == "area":
            if self.objects[holder].card_type != "aura":
                return a == b
            return dr in (0, 1) and dc in (0, 1)
        raise ValueError(f"sorcery: unknown relation {relation!r}")

    # -- targets and conditions (§3, §4), in a state -----------------------------------------------

    def you(self, named: Named, state: Mapping[str, Any]) -> str | None:
        if named.kind == "ongoing" and named.effect.controller is not None:
            return named.effect.controller
        if named.holder is not None and named.holder in state:
            return state[named.holder]["controller"]
        return None

    def targets(self, named: Named, state: Mapping[str, Any]) -> list[str]:
        """The objects the effect names in `state`, in listing order (conditions aside)."""
        holder = named.holder
        if named.kind == "grant":
            return [holder] if holder is not None and holder in state else []
        target = named.effect.target
        if target.kind in ("self", "bearer"):
            return [holder] if holder is not None and holder in state else []
        if target.kind == "ids":
            return [o for o in self.in_realm if o in target.ids]
        you = self.you(named, state)
        return [o for o in self.near(named) if self.matches(named, o, state, you)]

    def near(self, named: Named) -> list[str]:
        """The objects a filter's `near` may reach from its holder, in listing order: those at
        the squares around the holder's (a whole column for "in front"), or every object in the
        realm for a filter without one (what `matches` then judges)."""
        near = named.effect.target.matching.near
        square = self.square(named.holder) if near is not None and named.holder is not None else None
        if near is None or square is None:
            return list(self.in_realm) if near is None else []
        row, column = square
        if near in ONE_SQUARE:
            squares = [(row + dr, column + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        elif near == "in_front":
            squares = [sq for sq in self.standing if sq[1] == column]
        else:  # (a relation `related` does not know: it says so)
            return list(self.in_realm)
        found = [o for sq in squares for o in self.standing.get(sq, ())]
        return sorted(found, key=self.index.__getitem__)

    def matches(self, named: Named, oid: str, state: Mapping[str, Any], you: str | None) -> bool:
        f = named.effect.target.matching
        s = state[oid]
        if f.of_type is not None and f.of_type not in s["types"]:
            return False
        if f.subtype is not None and f.subtype not in s["subtypes"]:
            return False
        if f.relation is not None and (s["controller"] == you) != (f.relation == "friendly"):
            return False
        if f.other and oid == named.holder:
            return False
        if f.at_rest and not getattr(self.objects[oid], "at_rest", None):
            return False
        if f.near is not None:
            return named.holder is not None and self.related(f.near, named.holder, oid, you)
        return True

    def holds(self, named: Named, target: str, state: Mapping[str, Any]) -> bool:
        """Every condition of the effect in `state` (a grant has none)."""
        if named.kind == "grant":
            return True
        for c in named.effect.conditions:
            ref = {"target": target, "self": named.holder, "bearer": named.holder}.get(c.of, c.of)
            if ref is None or ref not in state:
                return False
            if c.kind in ("power_at_most", "power_below"):
                power = state[ref]["power"]
                if power is None:
                    return False
                power = max(0, power)
                if (c.kind == "power_at_most" and power > c.value) or (c.kind == "power_below" and power >= c.value):
                    return False
            elif c.kind == "lacks_adjacent_ally_with":
                me = state[ref]
                # (Only itself and what stands at its square or next to it can answer.)
                row, column = self.square(ref) or (0, 0)
                around = ((row, column), (row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
                for other in (o for sq in around for o in self.standing.get(sq, ())):
                    s = state[other]
                    if s["controller"] != me["controller"] or c.keyword not in s["keywords"]:
                        continue
                    if other == ref or self.square(ref) == self.square(other) or self.related("adjacent", ref, other, None):
                        return False  # itself, at its square or next to it (§4, "un-disable itself")
            else:
                raise ValueError(f"sorcery: unknown condition kind {c.kind!r}")
        return True
