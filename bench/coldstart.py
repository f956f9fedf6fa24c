"""Cold-start wall time of the `riftasp` commands, each run as a new process (issue 9: `riftasp
resolve` of one board within 0.25 s on a quiet machine).

The commands are the entry points beside this interpreter (`.venv/bin/riftasp`, …), run with this
checkout first on PYTHONPATH, so an editable install of another checkout is not what is timed.
One untimed run of each command comes first (it writes bytecode and fills the file cache). With
PYTHONDONTWRITEBYTECODE set, riftasp's own modules compile from source in every run (~+30 ms).
Exits 1 when the median of `resolve` exceeds --limit.

    .venv/bin/python bench/coldstart.py [BOARD] [--runs 15] [--limit 0.25] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # not resolved: a venv's python is often a link


def timed(argv: list[str], runs: int, stdin: Path | None) -> list[float]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    seconds = []
    for _ in range(runs + 1):
        with open(stdin or os.devnull, "rb") as data:
            start = time.perf_counter()
            done = subprocess.run(argv, stdin=data, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
            seconds.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr.decode(errors='replace')}")
    return seconds[1:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", type=Path, default=ROOT / "examples/riftbound/showcase.json")
    parser.add_argument("--runs", type=int, default=15, help="processes per command (default 15)")
    parser.add_argument("--limit", type=float, default=0.25, help="seconds allowed for resolve's median")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args()

    riftasp, reference = BIN / "riftasp", BIN / "riftasp-reference"
    if not riftasp.exists():
        sys.exit(f"{riftasp}: not found (install riftasp into this interpreter's environment)")
    commands: list[tuple[str, list[str], Path | None]] = [
        ("riftasp resolve", [str(riftasp), "resolve", str(args.board)], None),
        ("riftasp --help", [str(riftasp), "--help"], None),
        ("python -c pass", [sys.executable, "-c", "pass"], None),  # the interpreter alone
    ]
    if reference.exists():
        commands.insert(2, ("riftasp-reference", [str(reference)], args.board))
    rows = []
    for name, argv, stdin in commands:
        seconds = timed(argv, args.runs, stdin)
        rows.append({"command": name, "median": statistics.median(seconds), "min": min(seconds), "runs": args.runs})
    resolve = rows[0]["median"]
    ok = resolve <= args.limit
    bytecode = not os.environ.get("PYTHONDONTWRITEBYTECODE")
    if args.json:
        print(json.dumps({"board": str(args.board), "limit": args.limit, "bytecode": bytecode, "ok": ok,
                          "commands": rows}, indent=2))  # fmt: skip
    else:
        mode = "bytecode cached" if bytecode else "PYTHONDONTWRITEBYTECODE set"
        print(f"{'command':<20} {'median':>8} {'min':>8}   ({args.runs} runs each, {args.board.name}, {mode})")
        for row in rows:
            print(f"{row['command']:<20} {row['median']:>7.3f}s {row['min']:>7.3f}s")
        print(f"resolve median {resolve:.3f}s {'<=' if ok else '>'} limit {args.limit:.3f}s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
