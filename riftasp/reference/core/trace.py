"""The trace of one application (docs/semantics.md §11): what it changed, from what to what, in
which layer, and why it applied when it did, in words."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...result import Application
from .instances import HELD, ONGOING, Instance
from .ruleset import Ruleset
from .state import ObjState, keyword_values


@dataclass(frozen=True)
class Why:
    """What the trace says about a pick besides its labels."""

    depends_on: tuple[str, ...]  # names it had a kept dependency on, applied before it
    dependents: tuple[str, ...]  # names that had a kept dependency on it in this step
    cycle: tuple[str, ...]  # the dependency cycle it is in, if any
    tied: tuple[str, ...]  # names in the pool with its timestamp that listing order put after it


def application_of(
    inst: Instance,
    oid: str,
    step: int,
    labels: set[str],
    why: Why,
    before_state: ObjState,
    after_state: ObjState,
    ruleset: Ruleset,
) -> Application:
    characteristic = inst.operator.reported
    before = reported_value(characteristic, before_state, ruleset)
    after = reported_value(characteristic, after_state, ruleset)
    layer, sublayer = ruleset.layer(inst.stage)
    reasons = ("timestamp", *sorted(labels))
    where = f"the {layer} layer" + (f" ({sublayer} sublayer)" if sublayer else "")
    change = _change(oid, characteristic, before, after)
    text = f"{describe(inst, oid, ruleset)} {change} in {where}"
    return Application(
        effect=inst.name,
        step=step,
        layer=layer,
        sublayer=sublayer,
        timestamp=inst.timestamp,
        why=f"{text}: {'; '.join(_reasons(inst, reasons, why))}.",
        reasons=reasons,
        depends_on=why.depends_on,
        characteristic=characteristic,
        before=before,
        after=after,
    )


def reported_value(characteristic: str, state: ObjState, ruleset: Ruleset) -> Any:
    """The JSON value an Application reports for `before` and `after`."""
    if characteristic == "keywords":
        return keyword_values(state.keywords, ruleset.rules)
    if characteristic == "abilities":
        return {
            "abilities": sorted(state.held),
            "keywords": keyword_values(state.keywords, ruleset.rules),
        }
    if characteristic == "copy":
        return state.root
    # A characteristic of the families (a set as a sorted list).
    if characteristic in state.numbers:
        return state.numbers[characteristic]
    if characteristic in state.values:
        return state.values[characteristic]
    return sorted(state.members[characteristic])


def describe(inst: Instance, oid: str, ruleset: Ruleset) -> str:
    if inst.kind == ONGOING:
        return f"Ongoing effect {inst.name}"
    if inst.kind != HELD:
        return ruleset.describe(inst, oid)
    if inst.origin == "effect_text":
        return f"Effect Text {inst.name} of {inst.supplier} (held by {inst.holder})"
    if inst.origin == "copied":
        return f"Copied ability {inst.name} held by {inst.holder}"
    return f"Ability {inst.name} of {inst.holder}"


def _change(oid: str, characteristic: str, before: Any, after: Any) -> str:
    if before == after:
        return f"leaves {oid}'s {characteristic} unchanged"
    if characteristic == "copy":
        return f"makes {oid} a copy of {after}"
    return f"changes {oid}'s {characteristic} from {json.dumps(before)} to {json.dumps(after)}"


def _reasons(inst: Instance, reasons: tuple[str, ...], why: Why) -> list[str]:
    parts = []
    if "immediately_after" in reasons:
        parts.append("it applies immediately after the effect it depends on")
    if why.depends_on:
        parts.append(f"it depends on {', '.join(why.depends_on)}, which applied first")
    if why.dependents:
        parts.append(f"{', '.join(why.dependents)} depend on it, so it goes first")
    if why.cycle:
        parts.append(f"{', '.join(why.cycle)} depend on each other, so timestamp order decides")
    if why.tied:
        parts.append(
            f"it shares timestamp {inst.timestamp} with {', '.join(why.tied)}; board listing "
            "order puts it first"
        )
    if "recheck" in reasons:
        parts.append("it became applicable after a later layer applied, so its layer is rechecked")
    if "became_applicable" in reasons:
        parts.append("it became applicable after a newer effect of its layer applied")
    if "waited" in reasons:
        parts.append("its conditions waited for effects that could change what they read")
    if "unblocked" in reasons:
        parts.append("conditions waiting on each other were checked against the current state")
    if not parts:
        parts.append("it has the earliest timestamp among the ready effects")
    return parts
