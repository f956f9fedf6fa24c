"""Riftbound's own kinds of instance (docs/semantics.md §2), all +N increases to one object:

- the buff counter on O: `buff:O`, +1 Might;
- gear G's Might Bonus, added to the unit it is attached to: `bonus:G`;
- a keyword bonus: one per keyword instance of a bonus keyword (the manifest's
  `[keywords.bonus]`: Assault while attacking, Shield while defending) that O holds while it has
  that status, adding the instance's value: `keyword:K:O`, or `keyword:K:O:S` for one that S
  brought. It exists while O holds that keyword instance (a core keyword-borne instance).

Each has a slot per object in listing order (riftasp/listing.py, whose parts are named as the
kinds here): buff, bonus, then one per bonus keyword by name.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....model import Operation
from ....reference.core.instances import BORNE, Instance
from ....reference.core.layout import Layout, attached_timestamp
from ....reference.core.operators import Operator
from ....reference.core.state import KeywordInstance

BUFF = "buff"
BONUS = "bonus"
KEYWORD_BONUS = "keyword"
# Its own slots of an object, in listing order after the object's text (riftasp/listing.py).
OWN_PARTS = (BUFF, BONUS)


def _adding(amount: int, plus: Operator) -> dict:
    """The operation of an instance that adds `amount`, as every one of these kinds does."""
    return {"op": Operation("plus", amount=amount), "operator": plus, "stage": plus.stage}


def own_instances(layout: Layout, plus: Operator) -> Iterator[tuple[str, Instance]]:
    """The buffs and Might Bonuses on the board, with the object each applies to."""
    for oid in layout.on_board:
        obj = layout.objects[oid]
        if obj.buffed:
            ts = obj.buff_since if obj.buff_since is not None else obj.since
            yield oid, Instance(
                **_adding(1, plus), name=f"buff:{oid}", kind=BUFF, timestamp=ts,
                key=(ts, layout.slot[(oid, BUFF, None)], 0, 0, 0), obj=oid,
            )  # fmt: skip
    for gear in layout.board.objects:
        bearer = layout.bearer[gear.id]
        if bearer is not None and gear.might_bonus is not None:
            ts = attached_timestamp(gear)
            yield bearer, Instance(
                **_adding(gear.might_bonus, plus), name=f"bonus:{gear.id}", kind=BONUS,
                timestamp=ts, key=(ts, layout.slot[(gear.id, BONUS, None)], 0, 0, 0), obj=bearer,
                supplier=gear.id,
            )  # fmt: skip


def keyword_bonus(layout: Layout, oid: str, kw: KeywordInstance, plus: Operator) -> Instance:
    """The keyword bonus of one keyword instance of a bonus keyword."""
    slot = layout.slot[(oid, KEYWORD_BONUS, kw.keyword)]
    s = kw.source
    if s is None:
        ts = layout.objects[oid].since
        name = f"keyword:{kw.keyword}:{oid}"
        order = (ts, slot, 0, 0, 0)
    else:
        ts = s.timestamp
        name = f"keyword:{kw.keyword}:{oid}:{s.name}"
        order = (ts, slot, 1 + s.a, s.b, s.h)
    return Instance(
        **_adding(kw.value, plus),
        name=name,
        kind=BORNE,
        timestamp=ts,
        key=order,
        obj=oid,
        keyword=kw.keyword,
        kw_source=kw.source_name,
    )


def describe(inst: Instance, oid: str) -> str:
    if inst.kind == BUFF:
        return f"The buff on {oid}"
    if inst.kind == BONUS:
        return f"The Might Bonus of {inst.supplier}"
    return f"The {inst.keyword} bonus of {oid}"
