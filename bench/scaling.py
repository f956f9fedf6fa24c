"""Resolve time, ground program size and peak memory for generated boards of growing size.

Each size runs in a fresh process (so peak RSS belongs to that size alone), for the ASP
resolver and the reference engine on the same board. Figures are reported as ratios against
the smallest size measured in the same run, and reference/ASP speed as a ratio too.

    python bench/scaling.py [--sizes 10,100,1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(size: int, engine: str, repeat: int) -> dict:
    sys.path.insert(0, str(HERE))
    from boards import generate

    from riftasp.board_io import board_from_dict

    board = board_from_dict(generate(size), f"generated-{size}")
    best = float("inf")
    stats = None
    for _ in range(repeat):
        start = time.perf_counter()
        if engine == "asp":
            from riftasp.facts import board_facts
            from riftasp.resolve import resolve_facts

            _, stats = resolve_facts(board_facts(board), board.ruleset)
        else:
            from riftasp.reference import resolve

            resolve(board)
        best = min(best, time.perf_counter() - start)
    out = {"size": size, "engine": engine, "seconds": best,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    if stats is not None:
        out.update(atoms=stats.atoms, rules=stats.rules, steps=stats.steps, rounds=stats.rounds,
                   ground_seconds=stats.ground_seconds, solve_seconds=stats.solve_seconds)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", default="asp,reference")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        size, engine = args.child.split(":")
        print(json.dumps(measure(int(size), engine, args.repeat)))
        return
    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        for engine in args.engines.split(","):
            proc = subprocess.run([sys.executable, __file__, "--child", f"{size}:{engine}",
                                   "--repeat", str(args.repeat)], capture_output=True, text=True,
                                  check=True)
            rows.append(json.loads(proc.stdout))
    asp = [r for r in rows if r["engine"] == "asp"]
    ref = {r["size"]: r for r in rows if r["engine"] == "reference"}
    base = asp[0]
    print(f"{'objects':>8} {'asp s':>8} {'x base':>7} {'per obj':>8} {'atoms':>9} {'steps':>6} "
          f"{'rss MB':>7} {'ref s':>8} {'asp/ref':>8}")
    for r in asp:
        growth = r["seconds"] / base["seconds"]
        per_object = (r["seconds"] / r["size"]) / (base["seconds"] / base["size"])
        rr = ref.get(r["size"])
        print(f"{r['size']:>8} {r['seconds']:>8.3f} {growth:>7.1f} {per_object:>8.2f} "
              f"{r['atoms']:>9} {r['steps']:>6} {r['peak_rss_mb']:>7.0f} "
              f"{(rr['seconds'] if rr else float('nan')):>8.3f} "
              f"{(r['seconds'] / rr['seconds'] if rr else float('nan')):>8.1f}")
    print("x base: time / time of the smallest board; per obj: time per object relative to the "
          "smallest board (1.0 = linear); asp/ref: ASP time / reference engine time.")


if __name__ == "__main__":
    main()
