"""Effects per object: one unit under a stack of N ongoing effects, for the ASP resolver and the
reference engine in the same run, with the growth exponent of each between stack sizes.

Kinds of stack: "plain" (+1 each), "limited" (+1 to at most a cap, an amount computed from the
value it applies to), "conditional" (+1 while the unit has at least 1 Might). Each size runs in
this process, best of --repeat.

    python bench/stacks.py [--sizes 10,100,1000] [--kinds plain,limited,conditional] [--repeat 1]
                           [--reference-max 300] [--json]

The reference engine asks every pair of a stack at every step (~30 s for 300 conditional +1s,
hours for 1,000), so by default it runs only on stacks of at most 300 effects.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from typing import Any

from riftasp.board_io import board_from_dict
from riftasp.model import Board


def stack(size: int, kind: str) -> Board:
    ops = {
        "plain": {"op": "plus", "amount": 1},
        "limited": {"op": "plus_max", "amount": 1, "max": size // 2},
        "conditional": {"op": "plus", "amount": 1},
    }
    effects = [
        {"id": f"e{i}", "op": ops[kind], "target": {"ids": ["u"]}, "timestamp": i, "controller": "alice"}
        | ({"conditions": [{"might_at_least": 1, "of": "u"}]} if kind == "conditional" else {})
        for i in range(size)
    ]  # fmt: skip
    data = {"players": ["alice"], "objects": [{"id": "u", "name": "U", "type": "unit", "owner": "alice",
                                                "zone": "base", "might": 1}], "effects": effects}  # fmt: skip
    return board_from_dict(data, f"stack-{kind}-{size}")


def best(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--kinds", default="plain,limited,conditional")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--reference-max", type=int, default=300,
                        help="run the reference engine only on stacks of at most this many effects")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from riftasp.reference import resolve as reference
    from riftasp.resolve import resolve

    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    for kind in args.kinds.split(","):
        for size in sizes:
            board = stack(size, kind)
            asp = best(lambda: resolve(board), args.repeat)
            ref = best(lambda: reference(board), args.repeat) if size <= args.reference_max else None
            rows.append({"kind": kind, "effects": size, "asp_seconds": asp, "reference_seconds": ref})
    for a, b in zip(rows, rows[1:]):
        if a["kind"] == b["kind"]:
            b["exponent"] = math.log(b["asp_seconds"] / a["asp_seconds"]) / math.log(b["effects"] / a["effects"])
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'stack':<12} {'effects':>8} {'asp s':>9} {'ref s':>9} {'asp/ref':>8} {'exponent':>9}")
    for r in rows:
        exponent = f"{r['exponent']:.2f}" if "exponent" in r else "-"
        ref = r["reference_seconds"]
        ref_s, ratio = (f"{ref:>9.4f}", f"{r['asp_seconds'] / ref:>8.2f}") if ref is not None else (f"{'-':>9}", f"{'-':>8}")
        print(f"{r['kind']:<12} {r['effects']:>8} {r['asp_seconds']:>9.3f} {ref_s} {ratio} {exponent:>9}")
    print("exponent: growth of the ASP time from the previous size, log(t2/t1)/log(n2/n1) (1.0: linear).")


if __name__ == "__main__":
    main()
