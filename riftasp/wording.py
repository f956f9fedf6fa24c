"""The words `explain` gives each application, the same for every engine (issue 40).

Each engine reports an application as data (riftasp/result.py `Application`: layer, sublayer,
timestamp, reasons, depends_on, characteristic, before, after) and as its own sentence
(`Application.why`, kept in the JSON). The explain text reads only the data, through this module,
so the two engines, given the same rows, say the same thing:

- where it applied (`position_words`): "in layer 4 (control)", "just before layer 3 (ability
  removing)", "just after layer 5 (ability adding)" (docs/semantics-sorcery.md §9: a Sorcery row's
  sublayer "before" or "after" is its position around the layer);
- why it came then (`reason_words`): the reasons' labels in words, naming what the rows and the
  resolution name (what it depends on, what depends on it, its cycle, its timestamp tie);
- what it changed (`change_words`, `changed_parts`): of a characteristic reported as several parts
  (Sorcery's abilities with keywords), only the parts that changed; a row that changed nothing is
  "no change: already …".
"""

from __future__ import annotations

import json
from typing import Any

from .result import Application, Resolution

DEFAULT_REASON = "it has the earliest timestamp among the effects due here"


def layer_number(res: Resolution, layer: str) -> int | None:
    """The layer's number (1 = applied first) in the ruleset's layer table, or None."""
    names = list(dict.fromkeys(stage.layer for stage in res.ruleset.layers))
    return names.index(layer) + 1 if layer in names else None


def layer_words(res: Resolution, layer: str, sublayer: str | None = None) -> str:
    """ "layer 6 (power, add sublayer)", or the layer's name where the table has no number."""
    name = layer.replace("_", " ")
    inner = name + (f", {sublayer} sublayer" if sublayer else "")
    number = layer_number(res, layer)
    return f"layer {number} ({inner})" if number is not None else f"the {inner} layer"


def position_words(res: Resolution, app: Application) -> str:
    """Where the application came: in a layer (a sublayer), or just before or after it."""
    if app.sublayer == "before":
        return f"just before {layer_words(res, app.layer)}"
    if app.sublayer == "after":
        return f"just after {layer_words(res, app.layer)}"
    return f"in {layer_words(res, app.layer, app.sublayer)}"


def _parts(value: Any) -> dict[str, Any]:
    """A reported value as named parts: a dict's own, or one unnamed part."""
    return dict(value) if isinstance(value, dict) and all(isinstance(v, (list, dict)) for v in value.values()) \
        and value and not _is_keyword_map(value) else {"": value}  # fmt: skip


def _is_keyword_map(value: dict) -> bool:
    return all(isinstance(v, int) for v in value.values())


def changed_parts(app: Application) -> list[tuple[str, Any, Any]]:
    """(characteristic, before, after) for each part the application changed: the row's
    characteristic itself, or of one reported as several parts (abilities with keywords) the
    parts that differ. Empty when it changed nothing."""
    before, after = _parts(app.before), _parts(app.after)
    if set(before) != set(after):
        return [] if app.before == app.after else [(app.characteristic, app.before, app.after)]
    return [(part or app.characteristic, before[part], after[part]) for part in before if before[part] != after[part]]


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(k if n == 1 else f"{k} {n}" for k, n in sorted(value.items())) or "none" \
            if _is_keyword_map(value) else json.dumps(value)  # fmt: skip
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _unchanged_words(oid: str, app: Application) -> str:
    parts = _parts(app.after)
    if len(parts) == 1:
        return f"no change: {oid}'s {app.characteristic} is already {_value(app.after)}"
    said = "; ".join(f"{name} {_value(value)}" for name, value in parts.items())
    return f"no change: {oid} already has {said}"


def change_words(oid: str, app: Application) -> str:
    """What the application did to `oid`, in words."""
    changed = changed_parts(app)
    if not changed:
        return _unchanged_words(oid, app)
    if app.characteristic == "copy" and len(changed) == 1:
        return f"makes {oid} a copy of {_value(app.after)}"
    return "; ".join(f"changes {oid}'s {name} from {_value(b)} to {_value(a)}" for name, b, a in changed)


def change_cells(app: Application) -> tuple[str, str]:
    """The explain table's "changes" and "before -> after" cells: the parts that changed, or
    "no change" and the value it already had."""
    changed = changed_parts(app)
    if not changed:
        return app.characteristic, f"no change: {_value_cell(app.after)}"
    return (", ".join(name for name, _, _ in changed),
            "; ".join(f"{_value(b)} -> {_value(a)}" for _, b, a in changed))


def _value_cell(value: Any) -> str:
    parts = _parts(value)
    if len(parts) == 1:
        return _value(value)
    return "; ".join(f"{name} {_value(v)}" for name, v in parts.items())


def _names(names: list[str] | tuple[str, ...]) -> str:
    return ", ".join(names)


def _dependents(res: Resolution, app: Application) -> list[str]:
    """The effects whose rows say they depend on this one."""
    return sorted({a.effect for apps in res.applied.values() for a in apps if app.effect in a.depends_on}
                  - {app.effect})


def reason_words(res: Resolution, app: Application) -> list[str]:
    """Why the application came when it did, in words: one phrase a reason."""
    tags = set(app.reasons)
    parts: list[str] = []
    if "before_layer" in tags:
        parts.append(_moved_words(res, app))
    if "waited" in tags:
        if app.sublayer == "after":
            parts.append(f"its condition reads what {layer_words(res, app.layer)} changes, so it waited until "
                         "just after that layer and was checked once")  # fmt: skip
        else:
            parts.append("its conditions waited for effects that could change what they read")
    if "late" in tags:
        parts.append("it became due after its position had passed, so it applies as soon as it can")
    if "immediately_after" in tags:
        parts.append("it applies immediately after the effect it depends on")
    if app.depends_on:
        parts.append(f"it depends on {_names(app.depends_on)}, which applied first")
    dependents = _dependents(res, app) if "dependency" in tags or "cycle" in tags else []
    if dependents:
        verb = "depends" if len(dependents) == 1 else "depend"
        parts.append(f"{_names(dependents)} {verb} on it, so it applies first, ignoring timestamp order")
    elif "dependency" in tags and not app.depends_on:
        parts.append("an effect due with it depends on it, so it applies first, ignoring timestamp order")
    if "cycle" in tags:
        cycle = next((c for c in res.dependency_cycles if app.effect in c), None)
        if cycle:
            parts.append(f"{_names(sorted(cycle))} depend on each other, so timestamp order decides")
        else:
            parts.append("it is in a dependency cycle, so timestamp order decides")
    if "at_rest" in tags:
        parts.append("it counts as older than the effects due with it whose holders are at rest: "
                     "its holder is not at rest")  # fmt: skip
    if "active_player" in tags:
        parts.append("it entered the realm together with other cards; the active player's cards count as entering first")
    if "choice" in tags:
        parts.append("it entered the realm together with other cards; the order among them is their player's "
                     "choice, taken as the board's listing order")  # fmt: skip
    if "tie" in tags:
        tied = sorted({e for t in res.timestamp_ties if app.effect in t for e in t} - {app.effect})
        parts.append(f"it shares timestamp {app.timestamp}" + (f" with {_names(tied)}" if tied else "")
                     + "; board listing order puts it first")
    if "recheck" in tags:
        parts.append("it became applicable after a later layer applied, so its layer is rechecked")
    if "became_applicable" in tags:
        parts.append("it became applicable after a newer effect of its layer applied")
    if "unblocked" in tags:
        parts.append("conditions waiting on each other were checked against the current state")
    known = {"timestamp", "before_layer", "waited", "late", "immediately_after", "dependency", "cycle", "at_rest",
             "active_player", "choice", "tie", "recheck", "became_applicable", "unblocked"}
    parts += [f"reason: {t}" for t in app.reasons if t not in known]
    return parts or [f"{DEFAULT_REASON} (timestamp {app.timestamp})"]


def _moved_words(res: Resolution, app: Application) -> str:
    """Why a row labelled before_layer came where it did (docs/semantics-sorcery.md §3)."""
    where = layer_words(res, app.layer)
    if app.sublayer != "before":
        return f"it adds types as well as abilities, so it applies in {where}"
    before, after = _parts(app.before), _parts(app.after)
    held_before, held_after = set(before.get("abilities") or ()), set(after.get("abilities") or ())
    if held_after < held_before:
        return f"it removes an ability that applies in {where}, so it applies just before that"
    if held_before < held_after:
        return f"it adds an ability that applies in {where}, so it applies just before that layer"
    return f"it removes or adds an ability that applies in {where}, so it applies just before that layer"


def why_words(res: Resolution, app: Application) -> str:
    """Where the application came and why then, in one sentence (explain's "why" column: the
    change has columns of its own, `change_cells`)."""
    return f"{position_words(res, app)}: {'; '.join(reason_words(res, app))}."


def sentence(res: Resolution, oid: str, app: Application) -> str:
    """One application to `oid` in one sentence: what it did, where, and why then."""
    return f"{change_words(oid, app)} {why_words(res, app)}"
