"""Boards per second for the ASP resolver (board by board, and in batches with
riftasp.batch.resolve_all) and the reference engine on one generated corpus.

Both engines resolve the same boards in the same process run, interleaved board by board (so a
change in machine load affects both alike); the figure that travels between machines is the
ratio. Corpus: `riftasp.rulesets.riftbound.strategies.boards()` drawn with a fixed seed (the fuzzing corpus: 1-6
objects), or with `--blocks N` the benchmark boards of bench/boards.py with N objects each.

    python bench/engines.py [--boards 300] [--seed 0] [--blocks N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def strategy_corpus(count: int, seed: int) -> list[dict[str, Any]]:
    """`count` boards from the fuzzing strategy, the same ones for the same seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from riftasp.rulesets.riftbound.strategies import boards

    corpus: list[dict[str, Any]] = []

    @hypothesis_seed(seed)
    @settings(database=None, max_examples=count, phases=(Phase.generate,), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(boards())
    def collect(board: dict[str, Any]) -> None:
        corpus.append(board)

    from riftasp.fuzz import fixed_constants

    with fixed_constants():  # the same boards whatever else is imported
        collect()
    return corpus


def block_corpus(count: int, objects: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(HERE))
    from boards import generate

    return [generate(objects, seed=i) for i in range(count)]


def measure(corpus: list[dict[str, Any]]) -> dict[str, Any]:
    from riftasp.batch import resolve_all
    from riftasp.board_io import board_from_dict
    from riftasp.reference import resolve as reference
    from riftasp.resolve import resolve as asp

    boards = [board_from_dict(data, f"corpus[{i}]") for i, data in enumerate(corpus)]
    # Wall seconds, and this process's CPU seconds: on a loaded machine (other jobs on its cores)
    # the CPU figure moves much less between runs than the wall figure.
    seconds = {"asp": 0.0, "reference": 0.0}
    cpu = {"asp": 0.0, "reference": 0.0}
    for board in boards:
        for name, engine in (("asp", asp), ("reference", reference)):
            start, start_cpu = time.perf_counter(), time.process_time()
            engine(board)
            seconds[name] += time.perf_counter() - start
            cpu[name] += time.process_time() - start_cpu
    # The same boards in batches (riftasp.batch), timed on their own after the interleaved run.
    start, start_cpu = time.perf_counter(), time.process_time()
    resolve_all(boards)
    seconds["asp_batched"] = time.perf_counter() - start
    cpu["asp_batched"] = time.process_time() - start_cpu
    rate = {name: len(boards) / s for name, s in seconds.items()}
    return {
        "boards": len(boards),
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "boards_per_second": {k: round(v, 1) for k, v in rate.items()},
        "cpu_seconds": {k: round(v, 3) for k, v in cpu.items()},
        "boards_per_cpu_second": {k: round(len(boards) / v, 1) for k, v in cpu.items()},
        "reference_over_asp": round(rate["reference"] / rate["asp"], 1),
        "reference_over_asp_batched": round(rate["reference"] / rate["asp_batched"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300, help="corpus size")
    parser.add_argument("--seed", type=int, default=0, help="strategy corpus seed")
    parser.add_argument("--blocks", type=int, metavar="N", help="use bench/boards.py boards of N objects")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.blocks:
        corpus, what = block_corpus(args.boards, args.blocks), f"bench/boards.py boards of {args.blocks} objects"
    else:
        corpus, what = strategy_corpus(args.boards, args.seed), f"riftasp.rulesets.riftbound.strategies boards (seed {args.seed})"
    result = measure(corpus) | {"corpus": what}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    rate, cpu_rate = result["boards_per_second"], result["boards_per_cpu_second"]
    print(f"corpus: {result['boards']} {what}")
    for key, label in (("asp", "asp"), ("asp_batched", "asp batch"), ("reference", "reference")):
        print(f"{label:<10} {rate[key]:>9.1f} boards/s  ({result['seconds'][key]:.2f}s; "
              f"{cpu_rate[key]:.1f} boards per CPU second)")
    print(f"reference / asp: {result['reference_over_asp']}x, reference / asp batched: "
          f"{result['reference_over_asp_batched']}x")


if __name__ == "__main__":
    main()
