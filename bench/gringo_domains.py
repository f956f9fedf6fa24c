"""What a ground call costs as steps accumulate (the measurement behind docs/architecture.md,
"Where a step's time goes"): gringo builds the index a rule body needs over the whole domain of
the predicate it looks up, every steps' atoms included, each time a program part is grounded
again. So a step whose rules read step-numbered predicates costs time proportional to all the
atoms those predicates hold so far, not to the atoms the step adds.

A chain p(X,t) :- p(X,t-1) over N objects, one ground call per step: the CPU time of the first
and of the last ten calls, and that time per atom already in the domain.

    python bench/gringo_domains.py [--objects 1000] [--steps 100,200,400] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import clingo


def measure(objects: int, steps: int) -> dict:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], f"p(1..{objects},0). r(1..{objects}).")
    ctl.add("step", ["t"], "p(X,t) :- p(X,t-1). q(X,t) :- p(X,t), r(X).")
    ctl.ground([("base", [])])
    times = []
    for t in range(1, steps + 1):
        start = time.process_time()
        ctl.ground([("step", [clingo.Number(t)])])
        times.append(time.process_time() - start)
    first, last = sum(times[:10]) / 10, sum(times[-10:]) / 10
    accumulated = 2 * objects * (steps - 5)  # p and q atoms when the last ten calls ran (middle)
    return {"objects": objects, "steps": steps, "first_call_ms": 1000 * first, "last_call_ms": 1000 * last,
            "growth_ns_per_accumulated_atom": 1e9 * (last - first) / accumulated}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--steps", default="100,200,400")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(args.objects, int(s)) for s in args.steps.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'objects':>8} {'steps':>6} {'first call ms':>14} {'last call ms':>13} {'ns/accumulated atom':>20}")
    for r in rows:
        print(f"{r['objects']:>8} {r['steps']:>6} {r['first_call_ms']:>14.2f} {r['last_call_ms']:>13.2f} "
              f"{r['growth_ns_per_accumulated_atom']:>20.0f}")  # fmt: skip
    print("A call's cost grows with the atoms earlier calls left in the predicates it reads.")


if __name__ == "__main__":
    main()
