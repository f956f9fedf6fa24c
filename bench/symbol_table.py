"""How much of a big board's time is the solver's process-wide symbol table, not the encoding.

clingo interns every symbol a process makes (every atom, and every atom a rule body looks up,
found or not) in one table per process that is never emptied (libgringo/src/symbol.cc: a static
hash set per kind of symbol). Each lookup costs more as that table outgrows the caches, so the
same grounding work costs more in a process that has made more symbols.

This measures it on the generated Riftbound board of N objects (bench/boards.py: independent
blocks of ten, so its parts can be resolved apart with the same answers), cut into K parts of
equal size, each way in fresh processes:

- whole: the N objects as one board;
- one process: the K parts one after another in one process (the same encoding work as the
  parts apart, but one symbol table for all of them);
- apart: each part in a process of its own (the sum of their times);
- filled: the first part alone, after the process made as many other symbols as the whole
  board has atoms beyond that part's (the same work as its `apart` run, in a table the size of
  the whole board's).

`one process` close to `whole` and well above `apart`, and `filled` above the first part's
`apart` time, say the growth is the table's; the memory a process keeps after its Controls are
gone (`kept MB`) is mostly that table.

    python bench/symbol_table.py [--objects 10000] [--parts 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def parts_of(board: dict, count: int) -> list[dict]:
    """The board's objects cut into `count` runs of whole blocks, each with its effects."""
    objects = board["objects"]
    size = -(-len(objects) // count)
    size += -size % 10  # whole blocks of ten: a block's units read its leader
    cut = []
    for start in range(0, len(objects), size):
        chunk = objects[start:start + size]
        ids = {o["id"] for o in chunk}
        effects = [e for e in board["effects"] if set(e["target"]["ids"]) <= ids]
        cut.append(dict(board, objects=chunk, effects=effects))
    return cut


def child(objects: int, parts: int, which: str, fill: int = 0) -> dict:
    """In this process: resolve part `which` of the cut (an index), `all` of them one after
    another, or `whole` (the uncut board), after making `fill` symbols of no use (clingo keeps
    them); CPU seconds, atoms, memory kept afterwards."""
    import ctypes
    import gc
    import time

    sys.path.insert(0, str(HERE))
    from boards import generate

    from riftasp.board_io import board_from_dict
    from riftasp.facts import board_facts
    from riftasp.resolve import resolve_facts
    from riftasp.rulesets import ruleset

    board = generate(objects)
    chosen = [board] if which == "whole" else parts_of(board, parts)
    if which not in ("whole", "all"):
        chosen = [chosen[int(which)]]
    inputs = [board_facts(board_from_dict(b, f"part-{i}")) for i, b in enumerate(chosen)]
    trim = ctypes.CDLL(None).malloc_trim if sys.platform.startswith("linux") else (lambda _pad: 0)
    if fill:
        import clingo

        # (Symbols of three numbers, as many as the atoms it stands for; the list is dropped
        # at once, the table keeps them.)
        made = [clingo.Function("other", [clingo.Number(i), clingo.Number(i), clingo.Number(-i)])
                for i in range(fill)]
        del made

    def rss_mb() -> float:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4096 / 2**20

    gc.collect()
    trim(0)
    before = rss_mb()
    atoms = 0
    start = time.process_time()
    for facts in inputs:
        _, stats = resolve_facts(facts, ruleset("riftbound"))
        atoms += stats.atoms
    seconds = time.process_time() - start
    gc.collect()
    trim(0)
    return {"seconds": seconds, "atoms": atoms, "kept_mb": rss_mb() - before}


def run_child(objects: int, parts: int, which: str, fill: int = 0) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", which, "--objects", str(objects),
                          "--parts", str(parts), "--fill", str(fill)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=10_000)
    parser.add_argument("--parts", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--fill", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.objects, args.parts, args.child, args.fill)))
        return 0
    whole = run_child(args.objects, args.parts, "whole")
    together = run_child(args.objects, args.parts, "all")
    apart_runs = []
    for index in range(args.parts):
        apart_runs.append(run_child(args.objects, args.parts, str(index)))
        print(f"  part {index + 1}/{args.parts} apart: {apart_runs[-1]['seconds']:.2f} s", file=sys.stderr)
    apart = {"seconds": sum(r["seconds"] for r in apart_runs), "atoms": sum(r["atoms"] for r in apart_runs),
             "kept_mb": max(r["kept_mb"] for r in apart_runs)}
    filled = run_child(args.objects, args.parts, "0", fill=whole["atoms"] - apart_runs[0]["atoms"])
    rows = {"whole": whole, "one process": together, "apart": apart, "first apart": apart_runs[0],
            "first filled": filled}
    if args.json:
        print(json.dumps({"objects": args.objects, "parts": args.parts, "rows": rows}, indent=2))
        return 0
    print(f"{args.objects} generated objects, {args.parts} parts. CPU seconds; kept MB: what the process kept once "
          "its Controls were gone (apart: the most one kept); ratio: to apart (the first part's rows: to its own)")
    print(f"{'':13} {'seconds':>8} {'atoms':>11} {'kept MB':>8} {'ratio':>6}")
    for name, row in rows.items():
        # (The first part's two rows are compared with each other, the rest with `apart`.)
        base = apart_runs[0] if name.startswith("first") else apart
        print(f"{name:13} {row['seconds']:8.2f} {row['atoms']:11,d} {row['kept_mb']:8.0f} "
              f"{row['seconds'] / base['seconds']:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
