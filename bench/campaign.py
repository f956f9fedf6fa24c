"""Boards per second of a fuzz campaign on one core, on two worker processes and on a local Dask
cluster of two workers, and whether the three find the same (issue 39).

Two campaigns: against riftasp's reference engine (`--engine reference`, the issue's figure: no
findings, the boards' comparisons alone), and against tests/fixtures/partial_engine.py
(persistent, one planted defect: Double ignored), so a run has findings to agree on and shrinking
is part of the time. riftasp's side is the ASP resolver (`--riftasp-engine reference` for the
faster side). Each runner is started (and the cluster's
workers registered) before its run is timed, since a long campaign pays that once. Wall-clock
seconds: the point of more workers is the time a person waits.

    python bench/campaign.py [--count 600] [--seed 0] [--riftasp-engine asp] [--no-cluster]
                             [--gate] [--min-speedup 1.7] [--cluster-tolerance 0.2] [--json]

With --gate it exits 1 when, against the reference engine, two processes are not `--min-speedup`
times as fast as one or the cluster is more than `--cluster-tolerance` slower than two processes,
or when the findings of any campaign differ between runners.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ENGINE = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'partial_engine.py'))}"


def run(runner: Any, count: int, seed: int, riftasp: str, engine: str, persistent: bool = True) -> tuple[float, dict[str, Any]]:
    from riftasp.campaign.evaluate import EngineSpec
    from riftasp.fuzz import fuzz
    from riftasp.profile import Profile
    from riftasp.rulesets import ruleset

    start = time.perf_counter()
    report = fuzz(EngineSpec(engine, persistent=persistent), seed=seed, count=count, riftasp=riftasp, runner=runner,
                  profile=Profile(frozenset({"copy"})), ruleset=ruleset("riftbound"), max_found=1000)  # fmt: skip
    seconds = time.perf_counter() - start
    return seconds, {"generated": report.generated, "failing_boards": report.failing_boards,
                     "findings": [(c.identity, c.count) for c in report.counterexamples]}  # fmt: skip


def measure(args: argparse.Namespace, engine: str, persistent: bool) -> list[dict[str, Any]]:
    """One campaign on each runner: seconds, boards per second, speed-up over one process."""
    from riftasp.campaign.pool import make_runner

    rows: list[dict[str, Any]] = []
    setups: list[tuple[str, dict[str, Any]]] = [("jobs 1", {"jobs": 1}), ("jobs 2", {"jobs": 2})]
    if not args.no_cluster:
        setups.append(("dask, 2 workers", {"scheduler": None}))
    for name, options in setups:
        with ExitStack() as stack:
            if "scheduler" in options:
                from cluster import local_cluster

                options = {"scheduler": stack.enter_context(local_cluster(workers=2))}
            runner = stack.enter_context(make_runner(**options))
            list(runner.map(abs, [1, 2, 3, 4]))  # workers up before the clock starts
            seconds, found = run(runner, args.count, args.seed, args.riftasp_engine, engine, persistent)
        rows.append({"runner": name, "seconds": round(seconds, 2), "boards_per_second": round(found["generated"] / seconds, 1),
                     **found})  # fmt: skip
        print(f"{engine.split('/')[-1]}, {name}: {found['generated']} boards in {seconds:.1f} s", file=sys.stderr)
    for row in rows:
        row["speedup"] = round(rows[0]["seconds"] / row["seconds"], 2)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--riftasp-engine", default="asp", choices=("asp", "reference"))
    parser.add_argument("--defect", default="double", help="the one planted defect (partial_engine.py --only)")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask cluster")
    parser.add_argument("--gate", action="store_true")
    parser.add_argument("--min-speedup", type=float, default=1.7)
    parser.add_argument("--cluster-tolerance", type=float, default=0.2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))  # tests/cluster.py: a real scheduler and workers on 127.0.0.1

    campaigns = [("reference engine", "reference", False),
                  (f"partial_engine.py --only {args.defect}", f"{ENGINE} --persistent --only {args.defect}", True)]
    results: list[dict[str, Any]] = []
    problems: list[str] = []
    for title, engine, persistent in campaigns:
        rows = measure(args, engine, persistent)
        same = all(row["findings"] == rows[0]["findings"] for row in rows)
        results.append({"engine": title, "rows": rows, "same_findings": same})
        if not same:
            problems.append(f"{title}: the findings differ between runners")
        if engine == "reference":
            if rows[1]["speedup"] < args.min_speedup:
                problems.append(f"{title}: jobs 2 is {rows[1]['speedup']}x jobs 1 (at least {args.min_speedup}x wanted)")
            if len(rows) > 2 and rows[2]["seconds"] > rows[1]["seconds"] * (1 + args.cluster_tolerance):
                problems.append(f"{title}: the cluster took {rows[2]['seconds']} s, more than "
                                f"{1 + args.cluster_tolerance:g}x jobs 2's {rows[1]['seconds']} s")  # fmt: skip
    if args.json:
        print(json.dumps({"count": args.count, "seed": args.seed, "riftasp_engine": args.riftasp_engine,
                          "campaigns": results, "problems": problems}, indent=2))  # fmt: skip
    else:
        for result in results:
            print(f"fuzz of {args.count} boards against {result['engine']} (seed {args.seed}, riftasp side "
                  f"{args.riftasp_engine})")  # fmt: skip
            print(f"  {'runner':<18}{'seconds':>9}{'boards/s':>10}{'speedup':>9}  findings")
            for row in result["rows"]:
                print(f"  {row['runner']:<18}{row['seconds']:>9.1f}{row['boards_per_second']:>10.1f}"
                      f"{row['speedup']:>8.2f}x  {len(row['findings'])} ({row['failing_boards']} failing boards)")
            print("  findings identical across runners" if result["same_findings"] else "  FINDINGS DIFFER")
        for problem in problems:
            print(f"problem: {problem}")
    return 1 if args.gate and problems else 0


if __name__ == "__main__":
    sys.exit(main())
