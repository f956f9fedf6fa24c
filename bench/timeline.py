"""A whole game as a timeline (issue 41): how long `riftasp timeline` takes to replay a generated
game of N events, on both engines in one run, and how the time per event grows with the game's
length (it should not: an event costs what it touches, not the game before it).

    python bench/timeline.py [--events 200] [--lengths 50,100,200,400] [--ruleset riftbound|sorcery|both]
                             [--seed 0] [--json] [--gate]

The games are seeded and interact: lords that give the others +1 while Mighty, buffs given and
spent (their conditions flip), units that leave the board and come back (their text gains a new
timestamp), gear attached and detached, ongoing effects beginning and ending (Riftbound); minions
that read each other's power, resting and waking, sites and auras coming and going, activated
abilities (Sorcery). `--gate` exits 1 when the N-event game takes more than 10 s on the ASP
engine or 2 s on the reference engine (issue 41's bounds).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from riftasp.timeline.log import timeline_from_dict  # noqa: E402
from riftasp.timeline.run import replay  # noqa: E402

# Ongoing effects alive at once: a spell's effect ends with its turn, so a game's board stays
# the size of a turn's, whatever the game's length.
LIVE_EFFECTS = 4
BOUNDS = {"asp": 10.0, "reference": 2.0}  # seconds for the --events game (issue 41)


def riftbound_game(events: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    units = [f"u{i}" for i in range(8)]
    places = ["left", "right"]
    gear = ["boots", "banner"]

    def unit(oid: str) -> dict[str, Any]:
        place = places[int(oid[1:]) % 2]
        obj: dict[str, Any] = {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice",
                               "zone": "battlefield", "location": place, "might": rng.randint(2, 5)}
        if int(oid[1:]) % 4 < 2:  # a lord of its battlefield: the others there +1 while I'm Mighty
            obj["rules_text"] = [{"id": f"{oid}-lord", "op": {"op": "plus", "amount": 1},
                                  "target": {"filter": {"type": "unit", "relation": "friendly", "other": True,
                                                        "location": place}},
                                  "conditions": [{"mighty": "self"}]}]
        else:  # a guard: loses Ganking while defending
            obj["keywords"] = ["Ganking"]
            obj["rules_text"] = [{"id": f"{oid}-guard", "op": {"op": "gain_keywords", "keywords": ["Shield 2"]},
                                  "conditions": [{"status": "defending", "of": "self"}]}]
        return obj

    start = {"ruleset": "riftbound", "players": ["alice", "bob"], "active_player": "alice",
             "objects": [unit(u) for u in units[:6]]
             + [{"id": g, "name": g.title(), "type": "gear", "owner": "alice", "zone": "base", "might_bonus": 1,
                 "effect_text": [{"id": f"{g}-text", "op": {"op": "gain_keywords", "keywords": ["Assault"]}}]}
                for g in gear]}
    present = set(units[:6])
    on_board = set(units[:6])
    buffed: set[str] = set()
    defending: set[str] = set()
    attached: dict[str, str] = {}
    effects: list[str] = []
    log: list[dict[str, Any]] = []
    n = 0
    while len(log) < events:
        roll = rng.random()
        if roll < 0.08 and len(present) < len(units):
            new = next(u for u in units if u not in present)
            present.add(new)
            on_board.add(new)
            log.append({"event": "enter", "object": unit(new)})
        elif roll < 0.25 and on_board:
            u = rng.choice(sorted(on_board))
            log.append({"event": "set", "object": u, "field": "buff", "value": u not in buffed})
            buffed ^= {u}
        elif roll < 0.40 and on_board:
            u = rng.choice(sorted(on_board))
            log.append({"event": "set", "object": u, "field": "status",
                        "value": [] if u in defending else ["defending"]})
            defending ^= {u}
        elif roll < 0.52 and on_board:
            u = rng.choice(sorted(on_board))  # leaves the board (and later comes back)
            log.append({"event": "move", "object": u, "to": "trash"})
            on_board.discard(u)
            buffed.discard(u)
            for g in [g for g, b in attached.items() if b == u]:
                del attached[g]
        elif roll < 0.62 and present - on_board:
            u = rng.choice(sorted(present - on_board))
            log.append({"event": "move", "object": u, "to": "battlefield", "location": places[int(u[1:]) % 2]})
            on_board.add(u)
        elif roll < 0.74 and on_board:
            g = rng.choice(gear)
            if g in attached:
                log.append({"event": "detach", "object": g})
                del attached[g]
            else:
                b = rng.choice(sorted(on_board))
                log.append({"event": "attach", "object": g, "to": b})
                attached[g] = b
        elif roll < 0.90 and on_board and len(effects) < LIVE_EFFECTS:
            n += 1
            target = rng.choice(sorted(on_board))
            op = rng.choice([{"op": "plus", "amount": 2}, {"op": "minus", "amount": 1},
                             {"op": "lose_keywords", "keywords": ["Ganking"]}, {"op": "set_might", "value": 4}])
            log.append({"event": "start", "effect": {"id": f"e{n}", "controller": "alice", "op": op,
                                                     "target": {"ids": [target]}}})
            effects.append(f"e{n}")
        elif effects:
            e = effects.pop(rng.randrange(len(effects)))
            log.append({"event": "end", "effect": e})
    # Gear stays in base until attached: attaching needs it on the board.
    for g in gear:
        for obj in start["objects"]:
            if obj["id"] == g:
                obj["zone"] = "battlefield"
    return start | {"events": log}


def sorcery_game(events: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    minions = [f"m{i}" for i in range(8)]

    def square(i: int) -> tuple[int, int]:  # three columns of four rows, two squares apart
        return 1 + (i // 3) % 4 * 2, 1 + 2 * (i % 3)

    def minion(oid: str) -> dict[str, Any]:
        i = int(oid[1:])
        obj: dict[str, Any] = {"id": oid, "name": oid.upper(), "type": "minion", "owner": "alice" if i % 2 else "bob",
                               "zone": "realm", "row": square(i)[0], "column": square(i)[1],
                               "power": rng.randint(1, 4)}
        if i % 2 == 0:  # weak ones nearby get +1 while I'm at most 2 power
            obj["rules_text"] = [{"id": f"{oid}-rally", "op": {"op": "plus", "amount": 1},
                                  "target": {"filter": {"near": "nearby", "other": True}},
                                  "conditions": [{"power_at_most": 2, "of": "self"}]}]
        else:
            obj["rules_text"] = [{"id": f"{oid}-flight", "op": {"op": "gain_keywords", "keywords": ["Airborne"]},
                                  "conditions": [{"power_below": 3, "of": "self"}]}]
        return obj

    start = {"ruleset": "sorcery", "players": ["alice", "bob"], "active_player": "alice",
             "realm": {"rows": 8, "columns": 5}, "objects": [minion(m) for m in minions[:6]]}
    present = set(minions[:6])
    in_realm = set(minions[:6])
    resting: set[str] = set()
    effects: list[str] = []
    log: list[dict[str, Any]] = []
    n = 0
    while len(log) < events:
        roll = rng.random()
        if roll < 0.08 and len(present) < len(minions):
            new = next(m for m in minions if m not in present)
            present.add(new)
            in_realm.add(new)
            log.append({"event": "enter", "object": minion(new)})
        elif roll < 0.28 and in_realm:
            m = rng.choice(sorted(in_realm))
            log.append({"event": "set", "object": m, "field": "at_rest", "value": m not in resting})
            resting ^= {m}
        elif roll < 0.40 and in_realm:
            m = rng.choice(sorted(in_realm))
            log.append({"event": "move", "object": m, "to": "cemetery"})
            in_realm.discard(m)
            resting.discard(m)
        elif roll < 0.52 and present - in_realm:
            m = rng.choice(sorted(present - in_realm))
            i = int(m[1:])
            log.append({"event": "move", "object": m, "to": "realm", "row": square(i)[0], "column": square(i)[1]})
            in_realm.add(m)
        elif roll < 0.80 and in_realm and len(effects) < LIVE_EFFECTS:
            n += 1
            target = rng.choice(sorted(in_realm))
            op = rng.choice([{"op": "plus", "amount": 2}, {"op": "minus", "amount": 1}, {"op": "silence"},
                             {"op": "set_power", "value": 2}])
            kind = rng.choice(["start", "activate"])
            effect = {"id": f"e{n}", "controller": "alice", "op": op, "target": {"ids": [target]}}
            if kind == "activate":
                effect["source"] = target
            log.append({"event": kind, "effect": effect})
            effects.append(f"e{n}")
        elif effects:
            e = effects.pop(rng.randrange(len(effects)))
            log.append({"event": "end", "effect": e})
    return start | {"events": log}


GAMES = {"riftbound": riftbound_game, "sorcery": sorcery_game}


def measure(ruleset: str, events: int, seed: int, engine: str) -> dict[str, Any]:
    timeline = timeline_from_dict(GAMES[ruleset](events, seed), f"<{ruleset} game>")
    began = time.perf_counter()
    calculations = 0
    for moment in replay(timeline, engine):
        calculations += moment.calculations
    seconds = time.perf_counter() - began
    return {"ruleset": ruleset, "events": events, "engine": engine, "seconds": round(seconds, 3),
            "per_event_ms": round(1000 * seconds / max(events, 1), 2), "calculations": calculations}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--lengths", default="", help="also these lengths, to show the time per event stays flat")
    parser.add_argument("--ruleset", default="both", choices=["riftbound", "sorcery", "both"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--gate", action="store_true")
    args = parser.parse_args()
    rulesets = list(GAMES) if args.ruleset == "both" else [args.ruleset]
    lengths = sorted({args.events, *(int(x) for x in args.lengths.split(",") if x)})
    rows = []
    for ruleset in rulesets:
        for length in lengths:
            runs = {e: measure(ruleset, length, args.seed, e) for e in ("asp", "reference")}
            rows += runs.values()
            if not args.json:
                a, r = runs["asp"], runs["reference"]
                print(f"{ruleset:9} {length:4} events  asp {a['seconds']:6.2f} s ({a['per_event_ms']:6.1f} ms/event, "
                      f"{a['calculations']} calculations)  reference {r['seconds']:5.2f} s "
                      f"({r['per_event_ms']:5.1f} ms/event)  asp/reference {a['seconds'] / max(r['seconds'], 1e-9):.1f}x",
                      flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    if args.gate:
        over = [r for r in rows if r["events"] == args.events and r["seconds"] > BOUNDS[r["engine"]]]
        for r in over:
            print(f"over the bound: {r['ruleset']} {r['events']} events on {r['engine']}: {r['seconds']} s "
                  f"> {BOUNDS[r['engine']]} s", file=sys.stderr)
        return 1 if over else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
