"""What the checker knows about a board before reading any resolution: its objects, where each
effect is written, and the instances a name can denote (docs/semantics.md §1, §2).

Nothing here comes from an engine: the stage table is §1's (an operation's stage follows from what
its registry entry says it does: operations.py), the instance names are §2's, and the keyword
rules are the ruleset data (`ruleset_data.keyword_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ....model import Board, Effect, GameObject
from .operations import INCREASE, characteristic, spec_of, stage

# §1: each operation's stage, and the characteristic a trace row names for it, follow from what
# its registry entry says it does (operations.py, with the layer / sublayer of each stage).
MIGHTY = 5


@dataclass(frozen=True)
class Inst:
    """An instance as its name denotes it (§2)."""

    name: str
    kind: str  # "ongoing" | "rules" | "effect" | "copied" | "buff" | "bonus" | "keyword"
    stage: int
    effect: Effect | None = None  # ongoing effects and abilities
    holder: str | None = None  # abilities: who holds it (Effect Text: the bearer); ongoing: its source
    fixed: str | None = None  # buff, Might Bonus, keyword bonus: the one object it applies to
    gear: str | None = None  # Might Bonus and Effect Text: the gear
    keyword: str | None = None  # keyword bonus: the keyword
    brought_by: str | None = None  # keyword bonus: the instance that brought it (None: printed)

    @property
    def is_ability(self) -> bool:
        return self.kind in ("rules", "effect", "copied")

    @property
    def characteristic(self) -> str | None:
        """The characteristic its trace rows name (None: one of the families no row names)."""
        if self.effect is None:
            return "might"
        return characteristic(spec_of(self.effect.op))


@dataclass(frozen=True)
class Printed:
    name: str
    types: frozenset[str]
    might: int | None
    tags: frozenset[str]
    keywords: tuple[tuple[str, int], ...]  # printed keyword instances (a missing number is 1)
    controller: str


class BoardIndex:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.objects: dict[str, GameObject] = {o.id: o for o in board.objects}
        self.order = [o.id for o in board.objects]
        self.on_board = frozenset(o.id for o in board.objects if o.on_board)
        rules = board.ruleset.keywords
        self.summing = rules.summing
        self.bonus = dict(rules.bonus)  # keyword -> status
        # Conditions are judged again in the final state unless the board's reading judges them
        # only when an effect applies (`immediate`, docs/semantics.md §6).
        self.conditions_at_end = board.reading("condition_timing") != "immediate"
        # Attachments: gear -> bearer (both on the board, validated), bearer -> its gear.
        self.bearer: dict[str, str] = {}
        self.gear_on: dict[str, list[str]] = {}
        for o in board.objects:
            if o.attached_to is not None and o.on_board and o.attached_to in self.on_board:
                self.bearer[o.id] = o.attached_to
                self.gear_on.setdefault(o.attached_to, []).append(o.id)
        # Where each effect is written: ("ongoing", None), ("rules", printer), ("effect", gear).
        self.place: dict[str, tuple[str, str | None]] = {}
        self.effects: dict[str, Effect] = {}
        for o in board.objects:
            for e in o.rules_text:
                self.place[e.id], self.effects[e.id] = ("rules", o.id), e
            for e in o.effect_text:
                self.place[e.id], self.effects[e.id] = ("effect", o.id), e
        for e in board.effects:
            self.place[e.id], self.effects[e.id] = ("ongoing", None), e
        self.printed = {o.id: _printed(o) for o in board.objects}
        self._instances: dict[str, Inst | None] = {}

    # -- keyword values (§3) -------------------------------------------------------------------

    def aggregate(self, instances) -> dict[str, int]:
        """The keyword values of a list of keyword instances (keyword, value, ...)."""
        out: dict[str, int] = {}
        for inst in instances:
            k, v = inst[0], inst[1]
            out[k] = out.get(k, 0) + v if k in self.summing else 1
        return dict(sorted(out.items()))

    # -- held abilities at the start (§3) ------------------------------------------------------

    def initially_held(self, oid: str) -> list[str]:
        """What an object on the board holds before any application: its printed rules text
        (unless it is attached gear, RB 135.4) and the Effect Text of the gear attached to it."""
        obj = self.objects[oid]
        held = [] if oid in self.bearer else [e.id for e in obj.rules_text]
        for gear in self.gear_on.get(oid, ()):
            held.extend(e.id for e in self.objects[gear].effect_text)
        return held

    def effect_text_of(self, oid: str) -> frozenset[str]:
        return frozenset(e.id for g in self.gear_on.get(oid, ()) for e in self.objects[g].effect_text)

    def copied_name(self, effect_id: str, holder: str) -> str:
        """The name of rules text E when a copy makes `holder` hold it (§2): E if printed on it."""
        if self.place.get(effect_id) == ("rules", holder):
            return effect_id
        return f"{effect_id}@{holder}"

    # -- timestamps (§2) -----------------------------------------------------------------------

    def gear_timestamp(self, gear: str) -> int:
        g = self.objects[gear]
        return g.attached_since if g.attached_since is not None else g.since

    def fixed_timestamp(self, inst: Inst) -> int | None:
        """The timestamp §2 gives an instance, when the board alone decides it. (Each kind has
        the fields Inst names for it: the asserts say so.)"""
        if inst.kind in ("ongoing", "rules", "effect"):
            e = inst.effect
            assert e is not None
            if inst.kind == "ongoing" or e.timestamp is not None:
                return e.timestamp
            if inst.kind == "rules":
                printer = self.place[e.id][1]
                assert printer is not None
                return self.objects[printer].since
            assert inst.gear is not None
            return self.gear_timestamp(inst.gear)
        if inst.kind == "buff":
            assert inst.fixed is not None
            o = self.objects[inst.fixed]
            return o.buff_since if o.buff_since is not None else o.since
        if inst.kind == "bonus":
            assert inst.gear is not None
            return self.gear_timestamp(inst.gear)
        if inst.kind == "keyword" and inst.brought_by is None:
            assert inst.fixed is not None
            return self.objects[inst.fixed].since
        return None  # copied abilities and brought keywords: the application that brought them

    # -- names (§2) ----------------------------------------------------------------------------

    def instance(self, name: str) -> Inst | None:
        """The instance a name denotes, or None when the board has no such instance."""
        if name not in self._instances:
            self._instances[name] = self._parse(name)
        return self._instances[name]

    def _parse(self, name: str) -> Inst | None:
        if name in self.place:
            kind, where = self.place[name]
            e = self.effects[name]
            stage = _stage(e)
            if kind == "ongoing":
                return Inst(name, "ongoing", stage, e, holder=e.source)
            if kind == "rules":
                return Inst(name, "rules", stage, e, holder=where)
            assert where is not None  # Effect Text: written on its gear
            return Inst(name, "effect", stage, e, holder=self.bearer.get(where), gear=where)
        if name.startswith("buff:"):
            oid = name[5:]
            return Inst(name, "buff", INCREASE, fixed=oid) if oid in self.objects else None
        if name.startswith("bonus:"):
            gear = name[6:]
            if gear not in self.objects:
                return None
            return Inst(name, "bonus", INCREASE, fixed=self.bearer.get(gear), gear=gear)
        if name.startswith("keyword:"):
            return self._parse_keyword(name)
        if "@" in name:
            effect_id, holder = name.rsplit("@", 1)
            if holder in self.objects and self.place.get(effect_id, ("",))[0] == "rules":
                e = self.effects[effect_id]
                return Inst(name, "copied", _stage(e), e, holder=holder)
        return None

    def _parse_keyword(self, name: str) -> Inst | None:
        for keyword in self.bonus:
            prefix = f"keyword:{keyword}:"
            if not name.startswith(prefix):
                continue
            rest = name[len(prefix):]
            if rest in self.objects:
                return Inst(name, "keyword", INCREASE, fixed=rest, keyword=keyword)
            # keyword:K:O:S — the longest object id that fits, S the instance that brought it: the
            # prefixes of `rest` ending before a colon, longest first (not a pass over every object
            # per name, which made the check quadratic in the board).
            cut = len(rest) - 1
            while (cut := rest.rfind(":", 0, cut)) > 0:
                if rest[:cut] in self.objects:
                    return Inst(name, "keyword", INCREASE, fixed=rest[:cut], keyword=keyword, brought_by=rest[cut + 1:])
        return None

    def keyword_name(self, keyword: str, oid: str, source: str | None) -> str:
        return f"keyword:{keyword}:{oid}" if source is None else f"keyword:{keyword}:{oid}:{source}"

    @cached_property
    def all_rules_effects(self) -> frozenset[str]:
        return frozenset(i for i, (k, _) in self.place.items() if k == "rules")


def _stage(e: Effect) -> int:
    s = stage(spec_of(e.op))
    assert s is not None  # every kind of operation has a stage; check_report judges no other
    return s


def _printed(o: GameObject) -> Printed:
    return Printed(
        name=o.name,
        types=frozenset((o.card_type,)),
        might=o.might,
        tags=frozenset(o.tags),
        keywords=tuple((k.name, 1 if k.value is None else k.value) for k in o.keywords),
        controller=o.controller,
    )


def condition_object(ref: str, holder: str | None, kind: str, target: str) -> str | None:
    """The object a condition's reference names (§4): `self` the holder (an ongoing effect's
    source), `bearer` the holder of Effect Text, `target` the object it applies to, else an id."""
    if ref == "self":
        return holder
    if ref == "bearer":
        return holder if kind == "effect" else None
    if ref == "target":
        return target
    return ref
