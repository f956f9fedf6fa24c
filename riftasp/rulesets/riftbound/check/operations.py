"""What the checker knows of an operation: docs/semantics.md §1 (its stage) and §3 (what it does),
read from its registry entry's declarative description (`Does`, riftasp/specs.py), never from its
name. The checker restates the rules apart from the engines: it reads what an operation *does*
(copy, set or add or remove one characteristic, gain or lose keywords, lose all abilities,
arithmetic with an amount and a sign) and applies §1 and §3 to that, as the rules say them; the
engines' encodings and operators are not consulted.

An operation it cannot restate — one that sets a characteristic other than Might or the
controller, adds or removes members of a set other than tags — and a layer table that does not
order the operations as §1 does (a variant's) are *not judged*: `not_judged` says why, and the
check is skipped with that reason rather than judged wrongly.
"""

from __future__ import annotations

from itertools import pairwise

from ....model import Board, Operation
from ....operations import OPERATIONS, by_functor
from ....rulesets import Ruleset
from ....specs import OperationSpec

# §1: the stages in order, and the layer / sublayer a trace row names for each.
COPY, TRAITS, ABILITIES, INCREASE, DECREASE = 1, 2, 3, 4, 5
LAYER_OF_STAGE = {
    COPY: ("copy", None), TRAITS: ("traits", None), ABILITIES: ("abilities", None),
    INCREASE: ("arithmetic", "increase"), DECREASE: ("arithmetic", "decrease"),
}  # fmt: skip
STAGE_OF_LAYER = {v: k for k, v in LAYER_OF_STAGE.items()}
STAGE_NAMES = {COPY: "copy", TRAITS: "traits", ABILITIES: "abilities", INCREASE: "increase", DECREASE: "decrease"}
# The number arithmetic changes (§3), and what else an operation of the traits stage may set or
# add to: the characteristics this checker replays.
MIGHT = "might"
SET = (MIGHT, "controller")
MEMBERS = ("tags",)


def spec_of(op: Operation) -> OperationSpec:
    """The registry entry of a board's operation (the board reader accepts no other name)."""
    return OPERATIONS[op.name]


def stage(spec: OperationSpec) -> int | None:
    """§1: copies first, then changes to traits (set, add, remove), then to abilities, then
    arithmetic, increases before decreases. None: none of these."""
    d = spec.does
    if d.kind == "copy":
        return COPY
    if d.kind in ("set", "add", "remove"):
        return TRAITS
    if d.kind in ("gain_keywords", "lose_keywords", "lose_all_abilities"):
        return ABILITIES
    if d.kind == "arithmetic":
        return INCREASE if d.sign > 0 else DECREASE
    return None


def characteristic(spec: OperationSpec) -> str | None:
    """The characteristic a trace row names for an application of it (riftasp/result.py)."""
    d = spec.does
    if d.kind == "copy":
        return "copy"
    if d.kind in ("set", "add", "remove"):
        return d.characteristic
    if d.kind in ("gain_keywords", "lose_keywords"):
        return "keywords"
    if d.kind == "lose_all_abilities":
        return "abilities"
    return MIGHT  # arithmetic


def unjudged(spec: OperationSpec) -> str | None:
    """Why the checker cannot restate what the operation does, or None."""
    d = spec.does
    what = f"operation {spec.name!r} ({d.kind}{' ' + d.characteristic if d.characteristic else ''})"
    if d.kind == "set" and (d.characteristic not in SET or d.key is None):
        return f"{what}: the checker replays set Might and set controller to a parameter only"
    if d.kind in ("add", "remove") and (d.characteristic not in MEMBERS or d.key is None):
        return f"{what}: the checker replays adding and removing a tag only"
    if d.kind in ("gain_keywords", "lose_keywords") and "keywords" not in spec.keys:
        return f"{what}: the checker reads the keywords from the key 'keywords'"
    if d.kind == "copy" and "of" not in spec.keys:
        return f"{what}: the checker reads what is copied from the key 'of'"
    return None


def raises_might(spec: OperationSpec) -> bool:
    """Whether applying it can raise Might: an increase, or setting Might."""
    d = spec.does
    return (d.kind == "arithmetic" and d.sign > 0) or sets_might(spec)


def lowers_might(spec: OperationSpec) -> bool:
    """Whether applying it can lower Might: a decrease, or setting Might (a copy too, §8: see
    the callers)."""
    d = spec.does
    return (d.kind == "arithmetic" and d.sign < 0) or sets_might(spec)


def sets_might(spec: OperationSpec) -> bool:
    return spec.does.kind == "set" and spec.does.characteristic == MIGHT


def parameter(op: Operation) -> object:
    """The value a set, add or remove operation sets, adds or removes (its `Does.key`)."""
    key = spec_of(op).does.key
    assert key is not None
    return getattr(op, key)


def might_after(op: Operation, might: int) -> int:
    """Might after an arithmetic operation applies to `might` (§3): its amount, added or
    subtracted (the amount as the registry entry states it, Does.amount)."""
    d = spec_of(op).does
    assert d.kind == "arithmetic" and d.amount is not None
    return might + d.sign * d.amount(op, might)


def layer_table_differs(ruleset: Ruleset) -> str | None:
    """Why the ruleset's layer table is not §1 as this checker restates it, or None: an
    operation in another layer than its stage's, or stages in another order."""
    placed: list[tuple[int, int, str]] = []  # (rank in the table, §1 stage, operation)
    for row in ruleset.layers:
        for functor in row.operations:
            spec = by_functor(functor)
            s = stage(spec) if spec is not None else None
            if s is None:
                continue
            if LAYER_OF_STAGE[s] != (row.layer, row.sublayer):
                layer, sub = LAYER_OF_STAGE[s]
                return (f"the {ruleset} ruleset's layer table puts {functor} in {row.layer}/{row.sublayer or '-'}, "
                        f"where docs/semantics.md §1 puts it in {layer}/{sub or '-'}")
            placed.append((row.rank, s, functor))
    placed.sort(key=lambda p: p[0])  # by rank, each row in its listed order
    for (rank_a, a, op_a), (rank_b, b, op_b) in pairwise(placed):
        if b < a or (rank_a == rank_b and a != b):
            return (f"the {ruleset} ruleset's layer table applies {op_a} ({STAGE_NAMES[a]}) before {op_b} "
                    f"({STAGE_NAMES[b]}), unlike docs/semantics.md §1")
    return None


def not_judged(board: Board) -> str | None:
    """Why the checker does not judge this board, or None: its ruleset's layer table is not §1's,
    or one of its effects has an operation the checker cannot restate."""
    differs = layer_table_differs(board.ruleset)
    if differs is not None:
        return differs
    effects = [e for o in board.objects for e in (*o.rules_text, *o.effect_text)] + list(board.effects)
    for name in dict.fromkeys(e.op.name for e in effects):
        why = unjudged(OPERATIONS[name])
        if why is not None:
            return why
    return None
