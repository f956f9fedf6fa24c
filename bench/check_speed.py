"""Checks per second of `riftasp.check.check` on generated boards (the fuzzing corpus).

The engines resolve every board first (not timed); then `check(board, resolution)` runs on each
answer, `--repeat` times, and only that is timed. `riftasp fuzz` calls the checker as a third voice
on every board, so it has to keep up with thousands of small boards per second.

    python bench/check_speed.py [--boards 500] [--seed 0] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500, help="corpus size (drawn)")
    parser.add_argument("--seed", type=int, default=0, help="strategy corpus seed")
    parser.add_argument("--repeat", type=int, default=3, help="times each answer is checked")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    sys.path.insert(0, str(HERE))
    from engines import strategy_corpus

    from riftasp.board_io import BoardError, board_from_dict
    from riftasp.check import check
    from riftasp.reference import resolve as reference
    from riftasp.resolve import resolve as asp

    pairs = []
    for i, data in enumerate(strategy_corpus(args.boards, args.seed)):
        try:
            board = board_from_dict(data, f"corpus[{i}]")
        except BoardError:
            continue
        for engine in (asp, reference):
            pairs.append((board, engine(board).to_json()))
    violations = 0
    start = time.perf_counter()
    for _ in range(args.repeat):
        for board, answer in pairs:
            violations += len(check(board, answer))
    seconds = time.perf_counter() - start
    checks = len(pairs) * args.repeat
    result = {
        "boards": len(pairs) // 2,
        "answers": len(pairs),
        "checks": checks,
        "seconds": round(seconds, 3),
        "checks_per_second": round(checks / seconds, 1),
        "ms_per_check": round(1000 * seconds / checks, 3),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"corpus: {result['boards']} riftasp.rulesets.riftbound.strategies boards (seed {args.seed}), both engines' answers")
    print(f"check: {result['checks_per_second']:.0f} checks/s ({result['ms_per_check']:.3f} ms each, "
          f"{checks} checks in {seconds:.2f}s)")


if __name__ == "__main__":
    main()
