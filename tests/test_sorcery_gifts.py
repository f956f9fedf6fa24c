"""An ability given during the pass (docs/semantics-sorcery.md §9, "Where it looks"): the pass
looks at it when it is given, and — when its own position is past the next step's slot — when
the cursor comes to its layer, like every ability of that layer; between, it is not carried step
by step (`woken_ahead/2`). Abilities a copy or a Pallid Bust brings at layer 1 or 2 still apply
at their own later layers (control, layer 4; power, layer 6; a control that waits until after
layer 6), with other effects in the layers between, on both engines, and keep the invariants."""

from __future__ import annotations

from typing import Any

import pytest

from riftasp.board_io import board_from_dict
from riftasp.check import check
from riftasp.reference import resolve as reference
from riftasp.resolve import resolve


def card(oid: str, name: str, owner: str, row: int, column: int, since: int = 1) -> dict[str, Any]:
    return {"id": oid, "card": name, "owner": owner, "zone": "realm", "row": row, "column": column,
            "since": since}


def banished(oid: str, name: str) -> dict[str, Any]:
    return {"id": oid, "card": name, "owner": "bob", "zone": "banished"}


def copy_onto(target: str, of: str) -> list[dict[str, Any]]:
    return [{"id": "mirror", "op": {"op": "copy", "of": of}, "target": {"ids": [target]},
             "timestamp": 3, "controller": "alice"}]


# Effects in the layers between (a Flood's type change, the Sisters' silence) make the pass stop
# there, so the brought ability waits past those steps.
BETWEEN = [card("flood", "Flood", "bob", 4, 4, since=5), card("sis", "Sisters of Silence", "bob", 4, 5, since=4),
           card("far", "Foot Soldier", "bob", 4, 5)]

BOARDS = {
    # "You control all Mortals" and "other Mortals +1 power", brought by a Bust at layer 2.
    "bust-of-a-king": (
        [banished("king", "King of the Realm"), card("soldier", "Foot Soldier", "alice", 2, 2),
         {"id": "bust", "card": "Pallid Bust", "owner": "alice", "zone": "realm", "since": 2,
          "attached_to": "soldier", "linked": "king"},
         card("squire", "Foot Soldier", "bob", 3, 3), card("skel", "Skeleton", "bob", 2, 3)],
        [],
        {"far": ("alice", 2), "sis": ("alice", 3), "squire": ("alice", 2), "skel": ("bob", 1),
         "soldier": ("alice", 1)},
    ),
    # "Other nearby allies +1 power", brought by a copy at layer 1.
    "copy-of-a-bannerman": (
        [banished("arn", "House Arn Bannerman"), card("soldier", "Foot Soldier", "alice", 2, 2),
         card("ally", "Foot Soldier", "alice", 2, 3), card("foe", "Foot Soldier", "bob", 2, 1)],
        copy_onto("soldier", "arn"),
        {"ally": ("alice", 2), "foe": ("bob", 1), "far": ("bob", 1), "sis": ("bob", 2), "soldier": ("alice", 2)},
    ),
    # "You control all minions with 1 or less power" (after layer 6), brought by a copy.
    "copy-of-a-piper": (
        [banished("piper", "Pied Piper of Hameln"), card("soldier", "Foot Soldier", "alice", 2, 2),
         card("skel", "Skeleton", "bob", 2, 3), card("troll", "Bosk Troll", "bob", 3, 3)],
        copy_onto("soldier", "piper"),
        {"skel": ("alice", 1), "far": ("alice", 1), "troll": ("bob", 4), "sis": ("bob", 2), "soldier": ("alice", 2)},
    ),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_abilities_brought_early_apply_at_their_own_later_layers(name: str) -> None:
    objects, effects, expected = BOARDS[name]
    board = board_from_dict({"ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
                             "objects": objects + BETWEEN, "effects": effects}, name)
    for engine in (resolve, reference):
        resolution = engine(board)
        result = resolution.to_json()["objects"]
        assert {oid: (result[oid]["controller"], result[oid]["power"]) for oid in expected} == expected
        assert check(board, resolution.to_json()) == []


def test_the_brought_control_applies_before_the_brought_bonus():
    """The King's abilities a copy brings: control at layer 4 takes the other Mortal, then the
    bonus at layer 6 gives it +1 (rows and their order)."""
    board = board_from_dict({
        "ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
        "objects": [card("soldier", "Foot Soldier", "alice", 1, 1), card("squire", "Foot Soldier", "bob", 3, 3),
                    card("skel", "Skeleton", "bob", 2, 3), banished("king", "King of the Realm")] + BETWEEN,
        "effects": copy_onto("soldier", "king"),
    }, "gifts")
    for engine in (resolve, reference):
        result = engine(board).to_json()
        assert (result["objects"]["soldier"]["name"], result["objects"]["soldier"]["power"]) == ("King of the Realm", 3)
        squire = {a["effect"]: a for a in result["applied"]["squire"]}
        control = squire["king.mortals_control@soldier"]
        bonus = squire["king.mortals_power@soldier"]
        assert (control["layer"], control["before"], control["after"]) == ("control", "bob", "alice")
        assert (bonus["layer"], bonus["before"], bonus["after"]) == ("power", 1, 2)
        assert control["step"] < bonus["step"]
