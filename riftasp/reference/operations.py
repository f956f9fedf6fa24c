"""Applying one instance to one object's state (the table in semantics.md section 3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .instances import CHARACTERISTIC, Instance, Lookup, amount, resolve_ref
from .state import HeldAbility, ObjState, frozen_map, gain_keywords


def apply_instance(inst: Instance, state: ObjState, lookup: Lookup) -> ObjState:
    """The state after applying `inst` to `state`. Pure: `state` is left as it was."""
    op = inst.op
    name = op.name
    if inst.stage >= 4:
        n = amount(inst, state)
        if n is None:  # no Might: arithmetic does nothing
            return state
        assert state.might is not None
        return replace(state, might=state.might + n if inst.stage == 4 else state.might - n)
    if name == "copy":
        return _copy(inst, state, lookup)
    if name == "set_might":
        return state if state.might is None else replace(state, might=op.value)
    if name == "set_controller":
        return replace(state, controller=op.player)
    if name == "add_tag":
        return replace(state, tags=state.tags | {op.tag})
    if name == "remove_tag":
        return replace(state, tags=state.tags - {op.tag})
    if name == "gain_keywords":
        return replace(state, keywords=frozen_map(gain_keywords(state.keywords, op.keywords)))
    if name == "lose_keywords":
        lost = {kw.name for kw in op.keywords}
        kept = {k: v for k, v in state.keywords.items() if k not in lost}
        return replace(state, keywords=frozen_map(kept))
    if name == "lose_all_abilities":
        return replace(state, keywords=frozen_map({}), held=frozen_map({}))
    raise ValueError(f"unknown operation {name!r}")


def _copy(inst: Instance, state: ObjState, lookup: Lookup) -> ObjState:
    source_id = resolve_ref(inst.op.of or "", inst, state.id)
    source = lookup(source_id) if source_id is not None else None
    if source is None:
        return state
    values = source.copiable
    held: dict[str, HeldAbility] = {}
    for i, effect in enumerate(values.abilities):
        if effect.id in state.own_text:
            held[effect.id] = state.own_text[effect.id]
            continue
        hid = f"{effect.id}@{state.id}"
        # Copied text takes the copy's timestamp and sorts right after the copy (section 2).
        held[hid] = HeldAbility(hid, effect, inst.timestamp, inst.listing + (i + 1,), "copied")
    # Section 3 as written: *all* held abilities become the copied ones, Effect Text included
    # (held from the start, section 3). Arguably [L] puts Equipment text after copy; reported.
    return replace(
        state,
        name=values.name,
        types=values.types,
        might=values.might,
        tags=values.tags,
        keywords=frozen_map(dict(values.keywords)),
        held=frozen_map(held),
        copiable=values,
        copying=source_id,
    )


def characteristic_value(characteristic: str, state: ObjState) -> Any:
    """The JSON value an Application reports for `before` and `after`."""
    if characteristic == "might":
        return state.might
    if characteristic == "controller":
        return state.controller
    if characteristic == "tags":
        return sorted(state.tags)
    if characteristic == "keywords":
        return dict(sorted(state.keywords.items()))
    if characteristic == "abilities":
        return {"abilities": sorted(state.held), "keywords": dict(sorted(state.keywords.items()))}
    if characteristic == "copy":
        return state.copying
    raise ValueError(characteristic)


def characteristic_of(inst: Instance) -> str:
    return "might" if inst.stage >= 4 else CHARACTERISTIC[inst.op.name]
