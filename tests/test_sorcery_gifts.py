"""An ability given during the pass (docs/semantics-sorcery.md §9): the pass looks at it when it
is given, and — when its own position is past the cursor — when the cursor comes to its layer,
like every ability of that layer; between, it is not carried step by step. A copy of King of the
Realm brings "you control all Mortals" (layer 4) and "other Mortals +1 power" (layer 6) at layer
1: both still apply, at their own layers, on both engines."""

from __future__ import annotations

from typing import Any

from riftasp.board_io import board_from_dict
from riftasp.reference import resolve as reference
from riftasp.resolve import resolve


def card(oid: str, name: str, owner: str, row: int, column: int, since: int) -> dict[str, Any]:
    return {"id": oid, "card": name, "owner": owner, "zone": "realm", "row": row, "column": column,
            "since": since}


def test_abilities_a_copy_brings_apply_at_their_own_later_layers():
    board = board_from_dict({
        "ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
        "objects": [
            card("soldier", "Foot Soldier", "alice", 1, 1, 1),
            card("squire", "Foot Soldier", "bob", 3, 3, 1),
            card("skeleton", "Skeleton", "bob", 2, 3, 1),
            {"id": "king", "card": "King of the Realm", "owner": "bob", "zone": "banished"},
        ],
        "effects": [{"id": "mirror", "op": {"op": "copy", "of": "king"}, "target": {"ids": ["soldier"]},
                     "timestamp": 3, "controller": "alice"}],
    }, "gifts")
    for engine in (resolve, reference):
        result = engine(board).to_json()
        objects = result["objects"]
        assert (objects["soldier"]["name"], objects["soldier"]["controller"], objects["soldier"]["power"]) \
            == ("King of the Realm", "alice", 3)
        # The brought control ability took the other Mortal (layer 4), the brought bonus then gave
        # it +1 (layer 6); the Skeleton is no Mortal.
        assert (objects["squire"]["controller"], objects["squire"]["power"]) == ("alice", 2)
        assert (objects["skeleton"]["controller"], objects["skeleton"]["power"]) == ("bob", 1)
        squire = {a["effect"]: a for a in result["applied"]["squire"]}
        control = squire["king.mortals_control@soldier"]
        bonus = squire["king.mortals_power@soldier"]
        assert (control["layer"], control["before"], control["after"]) == ("control", "bob", "alice")
        assert (bonus["layer"], bonus["before"], bonus["after"]) == ("power", 1, 2)
        assert control["step"] < bonus["step"]
