"""A research loop with the library (docs/api.md): generate boards, change one effect on each,
resolve both lists in batches and count what the change did — all in memory, no files.

    python examples/research_loop.py [--boards 1000] [--seed 0] [--ruleset riftbound]

Needs hypothesis for the boards (`pip install 'riftasp[fuzz]'`). The edit: the first effect with
an `amount` gets amount + 1; else the first with an integer `value` gets value + 1; else the
first effect becomes `plus 1`. A board whose effects are all printed on cards is left as it is.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

import riftasp


def changed_effect(board: riftasp.Board) -> tuple[riftasp.Board, str]:
    """The board with one effect changed, and what the change was ("none": nothing to change)."""
    from riftasp.board_io import board_to_dict

    ids = set(riftasp.effect_ids(board))
    if not ids:
        return board, "none"
    data = board_to_dict(board)
    effects: list[dict[str, Any]] = list(data.get("effects", []))
    effects += [e for o in data["objects"] for key in ("rules_text", "effect_text") for e in o.get(key, [])]
    effects = [e for e in effects if e["id"] in ids]
    for key in ("amount", "value"):
        for effect in effects:
            if isinstance(effect["op"].get(key), int):
                edited = riftasp.edit(board, effect["id"], op={key: effect["op"][key] + 1})
                return edited, f"{effect['op']['op']} {key} + 1"
    try:
        return riftasp.edit(board, effects[0]["id"], op={"op": "plus", "amount": 1}), f"{effects[0]['op']['op']} -> plus 1"
    except riftasp.BoardError:
        return board, "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000, help="how many boards to generate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", default="riftbound")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    try:
        before = riftasp.generate(args.ruleset, seed=args.seed, n=args.boards)
    except ImportError as err:
        print(err, file=sys.stderr)
        return 2
    generated = time.perf_counter()
    pairs = [changed_effect(b) for b in before]
    after = [b for b, _ in pairs]
    edits = Counter(kind for _, kind in pairs)
    edited = time.perf_counter()

    resolved_before = riftasp.resolve_many(before)
    resolved_after = riftasp.resolve_many(after)
    resolved = time.perf_counter()

    boards_changed = 0
    by_kind: Counter[str] = Counter()  # characteristic -> boards where it changed
    failed = 0
    for b, a in zip(resolved_before, resolved_after):
        if isinstance(b, riftasp.ResolveFailure) or isinstance(a, riftasp.ResolveFailure):
            failed += 1
            continue
        found = riftasp.diff(b, a)
        boards_changed += bool(found)
        by_kind.update({t.kind for t in found})
    done = time.perf_counter()

    n = len(before)
    print(f"{n} boards ({args.ruleset}, seed {args.seed}); one effect changed on {n - edits['none']}")
    for kind, count in edits.most_common():
        print(f"  edit {kind}: {count}")
    print(f"{boards_changed} boards changed, {failed} failed to resolve")
    for kind, count in by_kind.most_common():
        print(f"  {kind}: {count} boards")
    print(f"time: generate {generated - start:.1f}s, edit {edited - generated:.1f}s, "
          f"resolve {resolved - edited:.1f}s, diff {done - resolved:.1f}s, total {done - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
