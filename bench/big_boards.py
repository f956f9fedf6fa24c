"""Load and resolve times of large and costly boards, for both engines, each under a time limit.

Boards: bench/aura-100.json (100 units that each give "other friendly units +1": every unit
reads every other) and a generated board of --objects objects (bench/boards.py, 100,000 by
default) written as JSON and as `.lp` facts. For each: the load time (reading and checking), then
the resolve time of the ASP resolver and of the reference engine, each in a fresh process stopped
at --time-limit seconds and --memory-limit GB (so the script always finishes and exits cleanly: the
time limit is checked between ground calls, and one ground call of a large board can take all
the memory of the machine).

    python bench/big_boards.py [--objects 100000] [--time-limit 300] [--memory-limit 8] [--skip-large]
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINES = ("asp", "reference")


def child(path: str, engine: str | None, time_limit: float, memory_gb: float) -> dict:
    """In a fresh process: load the board, then (with an engine) resolve it under the limits."""
    from riftasp.board_io import BoardError, load_board
    from riftasp.limits import TimeLimitExceeded

    limit = int(memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))  # fails an allocation, not the machine
    start = time.perf_counter()
    try:
        board = load_board(path)
    except BoardError as err:
        return {"load_s": time.perf_counter() - start, "refused": str(err)}
    out: dict = {"load_s": time.perf_counter() - start, "objects": len(board.objects)}
    if engine is None:
        return out | {"rss_mb": _rss_mb()}
    start = time.perf_counter()
    try:
        _resolve(board, engine, time_limit)
        out["resolve_s"] = time.perf_counter() - start
    except TimeLimitExceeded:
        out["stopped_s"] = time.perf_counter() - start
    except (MemoryError, RuntimeError) as err:  # clingo reports std::bad_alloc as a RuntimeError
        out["out_of_memory_s"] = time.perf_counter() - start
        out["error"] = (str(err).strip().splitlines() or [type(err).__name__])[0][:120]
    return out | {"rss_mb": _rss_mb()}


def _resolve(board, engine: str, time_limit: float) -> None:
    from riftasp.limits import TimeLimitExceeded

    if engine == "asp":
        from riftasp.resolve import resolve

        resolve(board, time_limit=time_limit)
        return
    from riftasp.reference import resolve

    def ring(_signal: int, _frame: object) -> None:
        raise TimeLimitExceeded(time_limit)

    signal.signal(signal.SIGALRM, ring)  # the reference engine is plain Python: a signal stops it
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        resolve(board)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _rss_mb() -> float:
    """Peak resident memory of this process since it started. VmHWM, where there is one:
    ru_maxrss keeps the peak of the parent a child was forked from (here, the one that
    generated the large board)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kilobytes = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(kilobytes) / 1024


def measure(path: Path, engine: str | None, time_limit: float, memory_gb: float) -> dict:
    """Run `child` in a fresh process; a process that outlives the limit by far is killed."""
    command = [sys.executable, __file__, "--child", str(path), "--engine", engine or "-",
               "--time-limit", str(time_limit), "--memory-limit", str(memory_gb)]  # fmt: skip
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=time_limit * 2 + 600)
    except subprocess.TimeoutExpired:
        return {"killed": True}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or [""])[-1]
        signal_name = f" (signal {-proc.returncode}: killed, out of memory?)" if proc.returncode < 0 else ""
        return {"failed": f"exit code {proc.returncode}{signal_name} {last}".strip()}
    return json.loads(proc.stdout)


def write_boards(folder: Path, objects: int, skip_large: bool) -> list[Path]:
    sys.path.insert(0, str(HERE))
    from boards import generate

    from riftasp.board_io import board_from_dict
    from riftasp.facts import board_facts

    paths = [HERE / "aura-100.json"]
    if skip_large:
        return paths
    data = generate(objects)
    large = folder / f"generated-{objects}.json"
    large.write_text(json.dumps(data))
    facts = folder / f"generated-{objects}.lp"
    facts.write_text(board_facts(board_from_dict(data, str(large))))
    return paths + [large, facts]


def show(path: Path, engine: str | None, result: dict) -> str:
    size = f"{path.stat().st_size / 2**20:7.1f} MB"
    label = f"{path.name:<24} {size} {engine or 'load':<9}"
    if "refused" in result:
        return f"{label} refused after {result['load_s']:.1f}s: {result['refused'].split(': ', 1)[-1]}"
    if "killed" in result or "failed" in result:
        return f"{label} {'killed' if 'killed' in result else 'failed: ' + result['failed']}"
    load = f"load {result['load_s']:7.2f}s"
    if engine is None:
        return f"{label} {load}  ({result['objects']:,} objects, peak {result['rss_mb']:.0f} MB)"
    if "resolve_s" in result:
        return f"{label} {load}  resolve {result['resolve_s']:8.2f}s  (peak {result['rss_mb']:.0f} MB)"
    if "out_of_memory_s" in result:
        return f"{label} {load}  out of memory after {result['out_of_memory_s']:.1f}s: {result['error']}"
    stopped = f"stopped at the time limit after {result['stopped_s']:.1f}s"
    return f"{label} {load}  {stopped} (peak {result['rss_mb']:.0f} MB)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=100_000, help="size of the generated board")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds per resolve")
    parser.add_argument("--memory-limit", type=float, default=8.0, help="GB of address space per process")
    parser.add_argument("--skip-large", action="store_true", help="only the 100-aura board")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine = None if args.engine == "-" else args.engine
        print(json.dumps(child(args.child, engine, args.time_limit, args.memory_limit)))
        return
    with tempfile.TemporaryDirectory() as folder:
        for path in write_boards(Path(folder), args.objects, args.skip_large):
            loaded = measure(path, None, args.time_limit, args.memory_limit)
            print(show(path, None, loaded), flush=True)
            if "objects" not in loaded:
                continue
            for engine in ENGINES:
                print(show(path, engine, measure(path, engine, args.time_limit, args.memory_limit)), flush=True)
    print(f"resolve: each engine in a fresh process (load time included above it), stopped at "
          f"{args.time_limit:g}s or {args.memory_limit:g} GB; peak: the process's peak resident memory.")


if __name__ == "__main__":
    main()
