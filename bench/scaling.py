"""Resolve time, ground program size and peak memory for generated boards of growing size.

Each size runs in a fresh process (so peak RSS belongs to that size alone), for the ASP
resolver and the reference engine on the same board. Figures are reported as ratios against
the smallest size measured in the same run, and reference/ASP speed as a ratio too.

    python bench/scaling.py [--ruleset riftbound|sorcery] [--sizes 10,100,1000] [--repeat 3]
                            [--max-exponent 1.2] [--clock wall|cpu] [--reference-max N] [--json]

`--ruleset` picks the generated boards (bench/boards.py: Riftbound's blocks of ten, or a Sorcery
realm on a grid big enough for it); `--clock cpu` measures CPU seconds (steadier than wall time
on a shared machine); `--reference-max` leaves the reference engine out above that many objects.

Each size's ASP answer is also checked once with `riftasp check` (its time in the table; any
violation of the ruleset's invariants makes it exit 1).

Between consecutive sizes it prints the growth exponent of the ASP resolver's time,
log(t2 / t1) / log(n2 / n1) (1.0: linear); between sizes of 1,000 objects and more, where fixed
costs no longer hide a grounding trap, an exponent above --max-exponent makes it exit 1.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(size: int, engine: str, repeat: int, ruleset: str = "riftbound", clock: str = "wall") -> dict:
    sys.path.insert(0, str(HERE))
    from boards import GENERATORS

    from riftasp.board_io import board_from_dict

    board = board_from_dict(GENERATORS[ruleset](size), f"generated-{size}")
    now = time.process_time if clock == "cpu" else time.perf_counter
    best = float("inf")
    stats = resolution = None
    for _ in range(repeat):
        start = now()
        if engine == "asp":
            from riftasp.facts import board_facts
            from riftasp.resolve import resolve_facts

            resolution, stats = resolve_facts(board_facts(board), board.ruleset)
        else:
            from riftasp.reference import resolve

            resolve(board)
        best = min(best, now() - start)
    out = {"size": size, "engine": engine, "seconds": best,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    if stats is not None:
        out.update(atoms=stats.atoms, rules=stats.rules, steps=stats.steps, rounds=stats.rounds,
                   ground_seconds=stats.ground_seconds, solve_seconds=stats.solve_seconds)
    if resolution is not None:
        # `riftasp check` of the answer against the ruleset's invariants, once (what a user runs
        # next on a big board; it has to grow with the board as the resolver does).
        from riftasp.check import check

        start = now()
        out["violations"] = len(check(board, resolution.to_json()))
        out["check_seconds"] = now() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="riftbound", help="whose generated boards (bench/boards.py)")
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--reference-max", type=int, default=None,
                        help="run the reference engine only on boards of at most this many objects")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", default="asp,reference")
    parser.add_argument("--max-exponent", type=float, default=1.2)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        size, engine = args.child.split(":")
        print(json.dumps(measure(int(size), engine, args.repeat, args.ruleset, args.clock)))
        return
    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        for engine in args.engines.split(","):
            if engine == "reference" and args.reference_max is not None and size > args.reference_max:
                continue
            proc = subprocess.run([sys.executable, __file__, "--child", f"{size}:{engine}",
                                   "--repeat", str(args.repeat), "--ruleset", args.ruleset,
                                   "--clock", args.clock], capture_output=True, text=True,
                                  check=True)
            rows.append(json.loads(proc.stdout))
    asp = [r for r in rows if r["engine"] == "asp"]
    ref = {r["size"]: r for r in rows if r["engine"] == "reference"}
    exponents = [
        {"from": a["size"], "to": b["size"],
         "exponent": math.log(b["seconds"] / a["seconds"]) / math.log(b["size"] / a["size"])}
        for a, b in zip(asp, asp[1:])
    ]  # fmt: skip
    checked = [e for e in exponents if e["from"] >= 1000]
    too_steep = [e for e in checked if e["exponent"] > args.max_exponent]
    if args.json:
        print(json.dumps({"rows": rows, "exponents": exponents, "max_exponent": args.max_exponent,
                          "too_steep": too_steep}, indent=2))  # fmt: skip
        sys.exit(1 if too_steep else 0)
    base = asp[0]
    print(f"{args.ruleset}: best of {args.repeat}, {args.clock} seconds")
    print(f"{'objects':>8} {'asp s':>8} {'x base':>7} {'per obj':>8} {'atoms':>9} {'steps':>6} "
          f"{'rss MB':>7} {'ref s':>8} {'asp/ref':>8} {'check s':>8}")
    for r in asp:
        growth = r["seconds"] / base["seconds"]
        per_object = (r["seconds"] / r["size"]) / (base["seconds"] / base["size"])
        rr = ref.get(r["size"])
        print(f"{r['size']:>8} {r['seconds']:>8.3f} {growth:>7.1f} {per_object:>8.2f} "
              f"{r['atoms']:>9} {r['steps']:>6} {r['peak_rss_mb']:>7.0f} "
              f"{(rr['seconds'] if rr else float('nan')):>8.3f} "
              f"{(r['seconds'] / rr['seconds'] if rr else float('nan')):>8.1f} {r['check_seconds']:>8.3f}")
    print("x base: time / time of the smallest board; per obj: time per object relative to the "
          "smallest board (1.0 = linear); asp/ref: ASP time / reference engine time; check s: "
          "riftasp check of the ASP answer (once).")
    for r in asp:
        if r["violations"]:
            print(f"FAIL: riftasp check found {r['violations']} violations in the answer for {r['size']:,} objects")
            sys.exit(1)
    for e in exponents:
        mark = "  (checked)" if e in checked else ""
        print(f"growth exponent {e['from']:,} -> {e['to']:,} objects: {e['exponent']:.2f}{mark}")
    if too_steep:
        print(f"FAIL: growth exponent above {args.max_exponent} between sizes of 1,000 objects or more")
        sys.exit(1)


if __name__ == "__main__":
    main()
