"""What a ground call costs as steps accumulate (the measurement behind the README, "How the
encoding runs"): gringo builds the index a rule body needs over the whole domain of
the predicate it looks up, every steps' atoms included, each time a program part is grounded
again. So a step whose rules read step-numbered predicates costs time proportional to all the
atoms those predicates hold so far, not to the atoms the step adds.

A chain p(X,t) :- p(X,t-1) over N objects, one ground call per step: the CPU time of the first
and of the last ten calls, and that time per atom already in the domain.

`--copies K` names the step-local predicates as riftasp/step_names.py does: K copies of the
step's part, p and q split by the step modulo K (`p__3(X,t)`), so a call's indices span one
step in K of those before it. `--copies 0` adds a part per step with names of its own (every
part added stays, and a call then pays for all of them instead: shown with `--rules 50`, a part
of some size).

    python bench/gringo_domains.py [--objects 1000] [--steps 100,200,400] [--copies K] [--rules N] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import clingo


STEP = "p{now}(X,t) :- p{before}(X,t-1). q{now}(X,t) :- p{now}(X,t), r(X)."


def measure(objects: int, steps: int, copies: int | None = None, rules: int = 0) -> dict:
    # `rules` more rules in the step's part, as a real encoding has hundreds (each reads q).
    step = STEP + "".join(f" z{i}{{now}}(X,t) :- q{{now}}(X,t), X < {i}." for i in range(rules))
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], f"p(1..{objects},0). r(1..{objects}).")
    if copies is None:
        ctl.add("step", ["t"], step.format(now="", before=""))
    elif copies > 0:
        ctl.add("base", [], "p__0(X,0) :- p(X,0).")
        for k in range(copies):
            ctl.add(f"step{k}", ["t"], step.format(now=f"__{k}", before=f"__{(k - 1) % copies}"))
    ctl.ground([("base", [])])
    times = []
    for t in range(1, steps + 1):
        start = time.process_time()
        if copies is None:
            ctl.ground([("step", [clingo.Number(t)])])
        elif copies > 0:
            ctl.ground([(f"step{t % copies}", [clingo.Number(t)])])
        else:
            ctl.add(f"step{t}", ["t"], step.format(now=f"__{t}", before=f"__{t - 1}" if t > 1 else ""))
            ctl.ground([(f"step{t}", [clingo.Number(t)])])
        times.append(time.process_time() - start)
    first, last = sum(times[:10]) / 10, sum(times[-10:]) / 10
    accumulated = 2 * objects * (steps - 5)  # p and q atoms when the last ten calls ran (middle)
    return {"objects": objects, "steps": steps, "first_call_ms": 1000 * first, "last_call_ms": 1000 * last,
            "growth_ns_per_accumulated_atom": 1e9 * (last - first) / accumulated}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--steps", default="100,200,400")
    parser.add_argument("--copies", type=int, default=None, help="name step-local predicates per step, K copies (0: a part per step)")
    parser.add_argument("--rules", type=int, default=0, help="more rules in the step's part")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(args.objects, int(s), args.copies, args.rules) for s in args.steps.split(",")]
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
