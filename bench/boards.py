"""Deterministic generated boards for benchmarks: ~5 effects per object, in blocks of ten.

Each block has a leader and nine units whose passives read the leader (object order depth 2),
buffs, conditional keyword grants, Might-setting and limited increases (dependencies and
mutual dependencies), numbered keywords, and one piece of equipment.
"""

from __future__ import annotations

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
