"""Applying one instance to one object's state (the table in docs/semantics.md §3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model import Effect, GameObject
from ..ruleset_data import KeywordRules
from .instances import Instance, Lookup, amount, copied_object, root_of
from .state import (
    Brought,
    HeldAbility,
    KeywordInstance,
    ObjState,
    changed,
    frozen,
    keyword_values,
    printed_keywords,
)


@dataclass(frozen=True)
class Board:
    """What applying an operation needs to know about the board besides the states."""

    objects: Mapping[str, GameObject]
    text_pos: Mapping[str, int]  # effect id -> its slot (§2, order key)
    rules: KeywordRules


def brought_by(inst: Instance) -> Brought:
    ts, a, b, _c, h = inst.key
    return Brought(inst.name, ts, a, b, h)


def own_ability(effect: Effect, obj: GameObject, pos: int) -> HeldAbility:
    ts = effect.timestamp if effect.timestamp is not None else obj.since
    return HeldAbility(effect.id, effect, "own", ts, pos, 0)


def apply_instance(inst: Instance, state: ObjState, lookup: Lookup, board: Board) -> ObjState:
    """The state after applying `inst` to `state`. Pure: `state` is left as it was."""
    new = _apply(inst, state, lookup, board)
    # §3: after applying ability E held by H to H itself, if H no longer holds E, E is retained.
    if (
        inst.kind == "ability"
        and inst.holder == state.id
        and inst.name in state.held
        and inst.name not in new.held
        and inst.name not in new.retained
    ):
        retained = dict(new.retained)
        retained[inst.name] = state.held[inst.name]
        new = changed(new, retained=frozen(retained))
    return new


def _apply(inst: Instance, state: ObjState, lookup: Lookup, board: Board) -> ObjState:
    op = inst.op
    name = op.name
    if inst.stage >= 4:
        n = amount(inst, state)
        if n is None:  # no Might: arithmetic does nothing
            return state
        assert state.might is not None
        return changed(state, might=state.might + n if inst.stage == 4 else state.might - n)
    if name == "copy":
        return _copy(inst, state, lookup, board)
    if name == "set_might":
        return state if state.might is None else changed(state, might=op.value)
    if name == "set_controller":
        return changed(state, controller=op.player)
    if name == "add_tag":
        return changed(state, tags=state.tags | {op.tag})
    if name == "remove_tag":
        return changed(state, tags=state.tags - {op.tag})
    if name == "gain_keywords":
        source = brought_by(inst)
        gained = tuple(KeywordInstance(k.name, k.value or 1, source) for k in op.keywords)
        return changed(state, keywords=state.keywords + gained)
    if name == "lose_keywords":
        lost = {k.name for k in op.keywords}
        return changed(state, keywords=tuple(k for k in state.keywords if k.keyword not in lost))
    if name == "lose_all_abilities":
        return changed(state, keywords=(), held=frozen({}))
    raise ValueError(f"unknown operation {name!r}")


def _copy(inst: Instance, state: ObjState, lookup: Lookup, board: Board) -> ObjState:
    x = copied_object(inst, state.id)
    if x is None:
        return state  # a copy of nothing
    root = root_of(x, lookup)
    r = board.objects[root]
    own = root == state.id
    held: dict[str, HeldAbility] = {}
    c = brought_by(inst)
    for effect in r.rules_text:
        pos = board.text_pos[effect.id]
        if own:
            held[effect.id] = own_ability(effect, r, pos)
        else:
            # A copied ability takes the timestamp and `a` of the copy that brought it (§2).
            hid = f"{effect.id}@{state.id}"
            held[hid] = HeldAbility(hid, effect, "copied", c.timestamp, c.a, 1 + pos)
    # Copies keep the Effect Text the copier holds now (§3, class E).
    for hid, ability in state.held.items():
        if ability.origin == "effect_text":
            held[hid] = ability
    return changed(
        state,
        name=r.name,
        types=(r.card_type,),
        might=r.might,
        tags=frozenset(r.tags),
        keywords=printed_keywords(r, None if own else c),
        held=frozen(held),
        root=root,
    )


def characteristic_of(inst: Instance) -> str:
    """The characteristic an Application reports as changed."""
    if inst.stage >= 4:
        return "might"
    return {
        "copy": "copy",
        "set_might": "might",
        "set_controller": "controller",
        "add_tag": "tags",
        "remove_tag": "tags",
        "gain_keywords": "keywords",
        "lose_keywords": "keywords",
        "lose_all_abilities": "abilities",
    }[inst.op.name]


def characteristic_value(characteristic: str, state: ObjState, rules: KeywordRules) -> Any:
    """The JSON value an Application reports for `before` and `after`."""
    if characteristic == "might":
        return state.might
    if characteristic == "controller":
        return state.controller
    if characteristic == "tags":
        return sorted(state.tags)
    if characteristic == "keywords":
        return keyword_values(state.keywords, rules)
    if characteristic == "abilities":
        return {"abilities": sorted(state.held), "keywords": keyword_values(state.keywords, rules)}
    if characteristic == "copy":
        return state.root
    raise ValueError(characteristic)
