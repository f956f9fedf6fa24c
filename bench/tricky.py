"""Growth where objects and effects interact (issue 36): loops of objects that read each other,
chains, stacks of effects that depend on each other — the boards the tool exists for, where a
step that re-examines everything costs a high power of the board's size.

    python bench/tricky.py [--families lords,copy-chain,stack,blocks] [--sizes small|large|N,N,..]
                           [--engines asp,reference] [--cap SECONDS] [--max-exponent F] [--json]

Families (each a generator of a Riftbound board of size n):

- `lords`: a loop of n units, Might 4, each "other friendly units on the battlefield get +1 while
  I'm Mighty", the first one buffed (+1): every unit reads every other.
- `copy-chain`: unit i is a copy of unit i+1 (n units): each object waits for the next.
- `stack`: one unit under n effects in turn: +1, -1, "+2 to a maximum of 10+i", "increase to
  3+i/4"; every tenth "while Might >= 2".
- `blocks`: blocks of 8 objects (n objects): a lord read by six followers and a gear ("Tank while
  the lord has Might >= 6"), limited increases on the lord, random statuses; the lord gives its
  block's other units +1 while Mighty (a tag filter) and its first follower gives the lord +1
  while Mighty (a loop in every block). The blocks read nothing outside themselves: the whole
  board should cost the sum of its blocks.

Each (family, size, engine) runs in a fresh process, capped at --cap seconds of wall time (a
capped run is shown as `> cap`): CPU seconds of the resolve call and the process's peak RSS.
Between consecutive sizes it prints each engine's growth exponent log(t2/t1)/log(n2/n1), and at
each size the ASP resolver's time as a multiple of the reference engine's (same run).
`--max-exponent` makes it exit 1 when an exponent between two measured sizes is above it (a
capped size counts as above). `--gate` (CI) measures the small sizes and exits 1 when a family's
growth from its smallest to its largest small size is above its bound in GATE, or a run peaks
above 1 GB.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

SIZES = {
    "small": {"lords": [8, 12, 16], "copy-chain": [25, 50, 100], "stack": [25, 50, 100], "blocks": [80, 160, 320]},
    "large": {"lords": [16, 32, 64], "copy-chain": [100, 300, 1000], "stack": [100, 400, 1000],
              "blocks": [1000, 3000]},
}


def unit(oid: str, might: int, **extra: object) -> dict:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield", "might": might,
            **extra}  # fmt: skip


def effect(eid: str, ts: int, op: dict, ids: list[str], *conditions: dict) -> dict:
    out = {"id": eid, "controller": "alice", "timestamp": ts, "op": op, "target": {"ids": ids}}
    return out | ({"conditions": list(conditions)} if conditions else {})


def lords(n: int) -> list:
    anthem = {"op": "plus", "amount": 1}
    others = {"filter": {"type": "unit", "relation": "friendly", "other": True, "zone": "battlefield"}}
    objects = [unit(f"l{i}", 4, rules_text=[{"id": f"l{i}-anthem", "op": anthem, "target": others,
                                             "conditions": [{"mighty": "self"}]}]) for i in range(n)]  # fmt: skip
    return [objects, [effect("buff", 1, {"op": "plus", "amount": 1}, ["l0"])]]


def copy_chain(n: int) -> list:
    objects = [unit(f"u{i}", i % 7 + 1) for i in range(n)]
    effects = [effect(f"c{i}", i + 1, {"op": "copy", "of": f"u{i + 1}"}, [f"u{i}"]) for i in range(n - 1)]
    return [objects, effects]


def stack(n: int) -> list:
    effects = []
    for i in range(n):
        op = [{"op": "plus", "amount": 1}, {"op": "minus", "amount": 1},
              {"op": "plus_max", "amount": 2, "max": 10 + i}, {"op": "increase_to", "value": 3 + i // 4}][i % 4]
        conditions = [{"might_at_least": 2, "of": "target"}] if i % 10 == 9 else []
        effects.append(effect(f"e{i}", i + 1, op, ["u"], *conditions))
    return [[unit("u", 3)], effects]


def blocks(n: int, seed: int = 0) -> list:
    rng = random.Random(seed)
    objects: list[dict] = []
    effects: list[dict] = []
    for b in range(n // 8):
        lord, tag = f"b{b}-lord", f"Block{b}"
        # The lord buffs its block's other units while it is Mighty (a tag filter: nothing on the
        # board changes tags, so it can target its block only), and its first follower buffs
        # the lord while that follower is Mighty: a loop in every block.
        block_buff = {"id": f"{lord}-buff", "op": {"op": "plus", "amount": 1}, "conditions": [{"mighty": "self"}],
                      "target": {"filter": {"type": "unit", "tag": tag, "relation": "friendly", "other": True}}}
        objects.append(unit(lord, rng.randint(2, 6), tags=[tag], status=rng.choice([[], ["attacking"]]),
                            rules_text=[block_buff]))  # fmt: skip
        effects.append(effect(f"{lord}-up", len(effects) + 1, {"op": "plus_max", "amount": 2, "max": 7}, [lord]))
        effects.append(effect(f"{lord}-up2", len(effects) + 1, {"op": "plus_max", "amount": 1, "max": 6}, [lord],
                              {"status": "attacking", "of": "target"}))  # fmt: skip
        for f in range(6):
            oid = f"b{b}-f{f}"
            text = [{"id": f"{oid}-tank", "op": {"op": "gain_keywords", "keywords": ["Tank"]},
                     "conditions": [{"might_at_least": 6, "of": lord}]}]
            if f == 0:
                text.append({"id": f"{oid}-back", "op": {"op": "plus", "amount": 1}, "target": {"ids": [lord]},
                             "conditions": [{"mighty": "self"}]})  # fmt: skip
            objects.append(unit(oid, rng.randint(1, 5), tags=[tag],
                                status=rng.choice([[], ["attacking"], ["defending"]]), rules_text=text))
        objects.append({"id": f"b{b}-gear", "name": "Boots", "type": "gear", "owner": "alice", "zone": "base",
                        "attached_to": f"b{b}-f0", "might_bonus": 1,
                        "effect_text": [{"id": f"b{b}-gear-ganking", "op": {"op": "gain_keywords", "keywords": ["Ganking"]},
                                         "conditions": [{"might_at_least": 6, "of": lord}]}]})  # fmt: skip
    return [objects, effects]


FAMILIES = {"lords": lords, "copy-chain": copy_chain, "stack": stack, "blocks": blocks}


def board(family: str, n: int) -> dict:
    objects, effects = FAMILIES[family](n)
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "active_player": "alice", "objects": objects,
            "effects": effects}  # fmt: skip


def measure(family: str, n: int, engine: str) -> dict:
    """In this process: one resolve, CPU seconds and peak RSS."""
    from riftasp.board_io import board_from_dict

    b = board_from_dict(board(family, n), f"{family}-{n}")
    if engine == "asp":
        from riftasp.resolve import resolve
    else:
        from riftasp.reference import resolve
    start = time.process_time()
    resolve(b)
    return {"seconds": time.process_time() - start, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run(family: str, n: int, engine: str, cap: float) -> dict:
    cmd = [sys.executable, __file__, "--measure", family, str(n), engine]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=cap, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"family": family, "size": n, "engine": engine, "seconds": None, "capped": cap}
    if out.returncode != 0:
        raise SystemExit(f"{family} {n} {engine}: {out.stderr.strip().splitlines()[-1:]}")
    return {"family": family, "size": n, "engine": engine, **json.loads(out.stdout)}


# CI's gate (--gate, the small sizes): the growth exponent from the smallest to the largest small
# size, per family and engine, may not exceed these. They are today's exponents plus a margin for
# a noisy host (about 0.6; the reference engine's loop starts at ~0.1 s, so more there), so a
# change that makes a family steeper fails; issue 36's targets are lower (loops <= 2.2, chains
# <= 1.3, stacks <= 2.0, blocks <= 1.3) and only the blocks meet
# theirs so far (docs/performance.md). Times under GATE_FLOOR seconds count as GATE_FLOOR: the
# reference engine's smallest runs take milliseconds, whose ratios are noise.
GATE = {
    "lords": {"asp": 2.9, "reference": 4.2},  # (reference: 2.8 since it keeps dependency pairs)
    "copy-chain": {"asp": 1.6, "reference": 2.5},
    "stack": {"asp": 2.3, "reference": 3.3},
    "blocks": {"asp": 1.3, "reference": 1.3},
}
GATE_FLOOR = 0.05
GATE_MEMORY_MB = 1024


def gate_failures(rows: list[dict]) -> list[str]:
    """What the gate finds too steep or too big in `rows` (the small sizes of every family)."""
    failures = []
    for family, bounds in GATE.items():
        for engine, bound in bounds.items():
            measured = sorted((r for r in rows if r["family"] == family and r["engine"] == engine),
                              key=lambda r: r["size"])  # fmt: skip
            if len(measured) < 2:
                continue
            first, last = measured[0], measured[-1]
            if last["seconds"] is None:
                failures.append(f"{family} {engine}: n={last['size']} reached the cap")
                continue
            floor = {**first, "seconds": max(first["seconds"], GATE_FLOOR)}
            e = exponent(floor, {**last, "seconds": max(last["seconds"], GATE_FLOOR)})
            if e is not None and e > bound:
                failures.append(f"{family} {engine}: n^{e:.2f} from {first['size']} to {last['size']}, above n^{bound}")
            for r in measured:
                if r.get("peak_rss_mb", 0) > GATE_MEMORY_MB:
                    failures.append(f"{family} {engine}: n={r['size']} peaked at {r['peak_rss_mb']:.0f} MB")
    return failures


def exponent(a: dict, b: dict) -> float | None:
    if a["seconds"] is None or b["seconds"] is None:
        return None
    return math.log(max(b["seconds"], 1e-3) / max(a["seconds"], 1e-3)) / math.log(b["size"] / a["size"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--sizes", default="small", help="small, large, or sizes for every family (N,N,...)")
    parser.add_argument("--engines", default="asp,reference")
    parser.add_argument("--cap", type=float, default=120.0, help="wall seconds a run may take")
    parser.add_argument("--max-exponent", type=float, default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--gate", action="store_true",
                        help="the small sizes; exit 1 when a family grows faster than GATE allows (CI)")
    args = parser.parse_args()
    if args.measure:
        family, n, engine = args.measure
        print(json.dumps(measure(family, int(n), engine)))
        return
    if args.gate:
        args.sizes = "small"
    families = args.families.split(",")
    engines = args.engines.split(",")
    rows: list[dict] = []
    too_steep: list[str] = []
    for family in families:
        sizes = SIZES[args.sizes][family] if args.sizes in SIZES else [int(s) for s in args.sizes.split(",")]
        by_engine: dict[str, list[dict]] = {e: [] for e in engines}
        for n in sizes:
            for engine in engines:
                row = run(family, n, engine, args.cap)
                by_engine[engine].append(row)
                rows.append(row)
                if not args.json:
                    shown = f"> {args.cap:g} s" if row["seconds"] is None else f"{row['seconds']:.2f} s, {row['peak_rss_mb']:.0f} MB"
                    print(f"{family:10} n={n:5} {engine:9} {shown}", flush=True)
        for engine, measured in by_engine.items():
            for a, b in zip(measured, measured[1:]):
                e = exponent(a, b)
                b["exponent"] = e
                steep = e is None or (args.max_exponent is not None and e > args.max_exponent)
                if steep and a["seconds"] is not None:
                    too_steep.append(f"{family} {engine} {a['size']}->{b['size']}")
                if not args.json:
                    print(f"{family:10} {engine:9} growth {a['size']}->{b['size']}: "
                          + ("capped" if e is None else f"n^{e:.2f}"))  # fmt: skip
        if "asp" in by_engine and "reference" in by_engine and not args.json:
            for a, r in zip(by_engine["asp"], by_engine["reference"]):
                if a["seconds"] is not None and r["seconds"]:
                    print(f"{family:10} n={a['size']:5} asp / reference = {a['seconds'] / r['seconds']:.1f}")
    if args.json:
        print(json.dumps({"rows": rows, "too_steep": too_steep}, indent=2))
    if args.gate:
        failures = gate_failures(rows)
        print("gate: " + ("; ".join(failures) if failures else "every family within its bound"), file=sys.stderr)
        if failures:
            sys.exit(1)
    if args.max_exponent is not None and too_steep:
        print("growth above --max-exponent: " + "; ".join(too_steep), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
