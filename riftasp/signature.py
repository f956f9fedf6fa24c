"""Signatures of findings: which disagreements are the same defect, found again.

A finding's *signature* is what its shrunk board shows: the kinds of characteristic that differ
(`might` — Mighty counts as Might —, `keywords`, `controller`, `tags`, `types`, `object`, or
`check:<invariant>@<side>` for a rules checker's violation) and the kinds of operations left on
the board (card text included). `riftasp fuzz` reports each signature once, with the number of
generated boards it was found on.

Two helpers keep the search cheap and the findings apart:
- `knock_out(board, ops)` deletes every effect doing one of `ops` (and any library card whose
  text does). A failing board that agrees once a known signature's operations are knocked out
  is a repeat of that signature, counted without shrinking it again.
- The same knock-out on a shrunk board's operations, one kind at a time, uncovers a second
  defect hiding on the same board (two Might defects on one board are two findings).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .board_io import BoardError, board_from_dict
from .compare import field_group
from .reduce import without_object


@dataclass(frozen=True, order=True)
class Signature:
    fields: tuple[str, ...]  # kinds of characteristic that differ, sorted
    ops: tuple[str, ...]  # kinds of operation on the shrunk board, sorted

    def text(self) -> str:
        return f"{', '.join(self.fields)} with {', '.join(self.ops) or 'no effects'}"

    def to_json(self) -> dict[str, Any]:
        return {"fields": list(self.fields), "ops": list(self.ops)}


def finding_kind(found: Any) -> str:
    """The kind of one disagreement (or checker violation) in a signature."""
    side = getattr(found, "side", None)
    return f"{field_group(found.field)}@{side}" if side else field_group(found.field)


def kinds(found: Iterable[Any]) -> frozenset[str]:
    return frozenset(finding_kind(f) for f in found)


def board_ops(data: dict[str, Any]) -> frozenset[str]:
    """Every operation kind on a board, card text included."""
    board = board_from_dict(data)
    effects = [*board.effects]
    for obj in board.objects:
        effects += [*obj.rules_text, *obj.effect_text]
    return frozenset(e.op.name for e in effects)


def signature(data: dict[str, Any], found: Iterable[Any]) -> Signature:
    return Signature(tuple(sorted(kinds(found))), tuple(sorted(board_ops(data))))


def knock_out(data: dict[str, Any], ops: Iterable[str]) -> dict[str, Any] | None:
    """The board without the effects doing any of `ops` (library cards whose text does one go,
    with everything that names them); None when nothing was removed or the rest is not a board."""
    ops = set(ops)
    out = copy.deepcopy(data)
    removed = False
    for obj in out["objects"]:
        for key in ("rules_text", "effect_text"):
            if key in obj:
                kept = [e for e in obj[key] if e["op"]["op"] not in ops]
                removed |= len(kept) < len(obj[key])
                if kept:
                    obj[key] = kept
                else:
                    del obj[key]
    if "effects" in out:
        kept = [e for e in out["effects"] if e["op"]["op"] not in ops]
        removed |= len(kept) < len(out["effects"])
        if kept:
            out["effects"] = kept
        else:
            del out["effects"]
    cards = [o["id"] for o in out["objects"] if "card" in o and _card_ops(out, o["id"]) & ops]
    for oid in cards:
        if len(out["objects"]) == 1:
            return None
        out = without_object(out, oid)
        removed = True
    if not removed:
        return None
    try:
        board_from_dict(out)
    except BoardError:
        return None
    return out


def _card_ops(data: dict[str, Any], oid: str) -> set[str]:
    from .cards import library
    from .rulesets import default_ruleset, ruleset

    obj = next(o for o in data["objects"] if o["id"] == oid)
    card = library(ruleset(data.get("ruleset") or default_ruleset())).get(obj.get("card"))
    return set() if card is None else {e.op.name for _, e in (*card.rules_text, *card.effect_text)}


def size(data: dict[str, Any]) -> int:
    """How big a board is, to keep the smaller of two boards with one signature."""
    return len(json.dumps(data, sort_keys=True))
