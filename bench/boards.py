"""Deterministic generated boards for benchmarks.

Riftbound (`generate`): ~5 effects per object, in blocks of ten. Each block has a leader and nine units whose passives read the leader (object order depth 2),
buffs, conditional keyword grants, Might-setting and limited increases (dependencies and
mutual dependencies), numbered keywords, and one piece of equipment.

Sorcery (`sorcery`): a realm of sites, minions, carried artifacts and auras on a grid big enough
for them, with a few control effects.
"""

from __future__ import annotations

import math
import random


def generate(n_objects: int, seed: int = 0) -> dict:
    rng = random.Random(seed)
    objects: list[dict] = []
    effects: list[dict] = []
    stamp = 0

    def next_stamp() -> int:
        nonlocal stamp
        stamp += 1
        return stamp

    for i in range(n_objects):
        oid = f"u{i}"
        block_leader = f"u{i - i % 10}"
        if i % 10 == 9:  # a gear attached to the unit before it
            objects.append({
                "id": oid, "name": "Boots", "type": "gear", "owner": "alice", "zone": "base",
                "attached_to": f"u{i - 1}", "attached_since": next_stamp(), "might_bonus": 1,
                "effect_text": [{"id": f"{oid}-ganking",
                                 "op": {"op": "gain_keywords", "keywords": ["Ganking"]}}],
            })
            continue
        text = [
            {"id": f"{oid}-reach", "op": {"op": "increase_to", "value": 5}},
            {"id": f"{oid}-mighty", "op": {"op": "gain_keywords", "keywords": ["Shield"]},
             "conditions": [{"mighty": "self"}]},
        ]
        if oid != block_leader:
            text.append({"id": f"{oid}-follow", "op": {"op": "plus", "amount": 1},
                         "conditions": [{"mighty": block_leader}]})
        objects.append({
            "id": oid, "name": f"Unit {i}", "type": "unit", "owner": rng.choice(["alice", "bob"]),
            "zone": rng.choice(["base", "battlefield"]), "might": rng.randint(2, 6),
            "keywords": rng.choice([[], ["Assault 2"], ["Shield 1"]]),
            "status": rng.choice([[], ["attacking"], ["defending"]]),
            "buff": rng.random() < 0.5, "since": next_stamp(), "rules_text": text,
        })
        effects.append({"id": f"{oid}-spell", "controller": "alice", "timestamp": next_stamp(),
                        "target": {"ids": [oid]},
                        "op": rng.choice([{"op": "plus", "amount": 2},
                                          {"op": "plus_max", "amount": 2, "max": 5},
                                          {"op": "minus_min", "amount": 2, "min": 1},
                                          {"op": "set_might", "value": rng.randint(1, 5)}])})
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "active_player": "alice",
            "objects": objects, "effects": effects}


def auras(n_units: int = 100) -> dict:
    """`n_units` units that each give "other friendly units +1": every unit reads every other.

    The board of issue 10 (bench/aura-100.json is this with 100 units): its calculation grows
    much faster than its size, so it is the yardstick for the resolvers' worst case.
    """
    aura = {"op": {"op": "plus", "amount": 1},
            "target": {"filter": {"type": "unit", "relation": "friendly", "other": True}}}
    objects = [{"id": f"u{i}", "name": f"Captain {i}", "type": "unit", "owner": "alice",
                "zone": "battlefield", "might": 1, "since": i,
                "rules_text": [{"id": f"u{i}-aura"} | aura]} for i in range(n_units)]
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "active_player": "alice", "objects": objects}


# Sorcery: the cards of the library (facts/cards/sorcery.lp) a generated realm draws from.
_SITES = ["Floodplain"] * 6 + ["Smokestacks of Gnaak", "Fields of Phyxis", "Infusion Factory"]
_MINIONS = (["Foot Soldier"] * 3 + ["Skeleton"] * 2 + ["Bosk Troll"] * 2 + ["House Arn Bannerman"] * 2
            + ["Sisters of Silence", "Bound Spirit", "Root Spider", "Hillock Basilisk", "Stone-gaze Gorgons"])
_ARTIFACTS = ["Sword and Shield"] * 3 + ["Eerie Coral"] * 2 + ["Plate of the Whale", "Pallid Bust"]
_AURAS = ["Flood", "Drought", "Acid Rain", "Silence"]
_SPELLS = [{"op": "plus", "amount": 2}, {"op": "set_power", "value": 0}, {"op": "double"},
           {"op": "gain_keywords", "keywords": ["Airborne"]}]


def sorcery(n_objects: int, seed: int = 0) -> dict:
    """A Sorcery realm of `n_objects` objects on a grid big enough for them (the board's `realm`):
    a site on every square, one or two minions on it (some at rest, Root Spiders burrowed), an
    artifact carried by one minion in three (a Land Deed now and then), an aura every ninth
    square, a spell on one minion in twenty (plus, set, double, a keyword), and a constant few
    control effects (two Kings of the Realm, a Pied Piper, two Mesmerisms); Pallid Busts bring a
    banished House Arn Bannerman's ability. Timestamps grow
    with the listing, with one card in eight entering together with the one before."""
    rng = random.Random(seed)
    squares = max(4, round(n_objects / 3.4))
    columns = max(5, math.ceil(math.sqrt(squares)))
    rows = max(4, math.ceil(squares / columns))
    # The minion the Pallid Busts banished (its "other nearby allies +1 power" goes to their bearers).
    objects: list[dict] = [{"id": "banished", "card": "House Arn Bannerman", "owner": "bob", "zone": "banished"}]
    minions: list[str] = []
    stamp = 0

    def since() -> int:
        nonlocal stamp
        if rng.random() >= 0.125:
            stamp += 1
        return stamp

    def add(obj: dict) -> bool:
        if len(objects) >= n_objects:
            return False
        objects.append({"owner": rng.choice(["alice", "bob"]), "zone": "realm", "since": since()} | obj)
        return True

    specials = ["King of the Realm", "King of the Realm", "Pied Piper of Hameln"]
    square = 0
    while len(objects) < n_objects:
        row, column = square // columns % rows + 1, square % columns + 1
        where = {"row": row, "column": column}
        if square < rows * columns:
            add({"id": f"s{square}", "card": rng.choice(_SITES)} | where)
        for k in range(rng.choice([1, 2, 2])):
            card = specials.pop() if specials and square % 7 == 3 else rng.choice(_MINIONS)
            mid = f"m{square}_{k}"
            minion = {"id": mid, "card": card} | where
            if card == "Root Spider":
                minion["burrowed"] = True
            elif card in ("Hillock Basilisk", "Stone-gaze Gorgons", "Bosk Troll") and rng.random() < 0.5:
                minion["at_rest"] = True
            if not add(minion):
                break
            minions.append(mid)
            if rng.random() < 1 / 3:
                art = "Land Deed" if rng.random() < 0.05 else rng.choice(_ARTIFACTS)
                artifact = {"id": f"a{square}_{k}", "card": art, "attached_to": mid}
                if art == "Pallid Bust":
                    artifact["linked"] = "banished"
                add(artifact)
        if square % 9 == 4:
            add({"id": f"x{square}", "card": rng.choice(_AURAS)} | where)
        square += 1
    effects = [{"id": f"spell{i}", "op": rng.choice(_SPELLS), "target": {"ids": [mid]},
                "controller": rng.choice(["alice", "bob"]), "timestamp": stamp + 1 + i}
               for i, mid in enumerate(m for m in minions if rng.random() < 0.05)]  # fmt: skip
    effects += [{"id": f"mesmerism{i}", "op": {"op": "gain_control"}, "target": {"ids": [mid]},
                 "controller": "alice", "timestamp": stamp + 1 + len(effects) + i}
                for i, mid in enumerate(minions[1::max(1, len(minions) // 2)][:2])]  # fmt: skip
    return {"ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
            "realm": {"rows": rows, "columns": columns}, "objects": objects, "effects": effects}


# The generated boards of each ruleset, by name (bench/scaling.py --ruleset).
GENERATORS = {"riftbound": generate, "sorcery": sorcery}
