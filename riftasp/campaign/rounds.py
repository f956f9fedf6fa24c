"""A round's failing boards made findings: what `riftasp fuzz` and `riftasp compare --generate`
do alike after each round of chunks (riftasp/fuzz.py, riftasp/research/compare.py).

Every failing board is shrunk and its identity read off the shrunk board
(riftasp/campaign/identity.py): a known identity is counted, a new one is added. Then each new
finding's operations are knocked out of its failing board one kind at a time; a failure that
survives (of the same nature and kinds) is another defect on the same board, shrunk and added
when its identity is new — down to `depth` levels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from ..signature import Signature, kinds, knock_out
from .identity import identity
from .shrink import primary, still_fails

Board = dict[str, Any]
Found = list[Any]


class Finding(Protocol):
    count: int
    signature: Signature | None


def settle_round(
    failing: Sequence[tuple[str, Board, Found]],
    *,
    findings: Mapping[str, Finding],
    shrunk: Callable[[Sequence[tuple[Board, Found]]], list[tuple[Board, Found]]],
    evaluate: Callable[[Sequence[Board]], Sequence[Found | None]],
    add: Callable[[Board, Found, str, str], Finding],
    depth: int,
    expired: Callable[[], bool],
) -> None:
    """Count or add the findings of a round's failing boards (source, board, findings), in order.

    `findings` are the known ones by identity (`add` records a new one there); `shrunk` shrinks
    boards, `evaluate` compares boards (None: not comparable)."""
    new: list[tuple[Board, Found, Finding]] = []
    for (source, data, found), (board, board_found) in zip(failing, shrunk([(d, f) for _, d, f in failing])):
        ident = identity(board, primary(board_found))
        finding = findings.get(ident)
        if finding is not None:
            finding.count += 1
            continue
        new.append((data, found, add(board, board_found, ident, source)))
    level = 1
    while new and level < depth and not expired():
        children = [(rest, found) for data, found, finding in new
                    for op in (finding.signature.ops if finding.signature else ())
                    if (rest := knock_out(data, {op})) is not None]  # fmt: skip
        results = evaluate([rest for rest, _ in children])
        still = [(rest, left) for (rest, found), left in zip(children, results)
                 if left is not None and still_fails(left, kinds(primary(found)))]  # fmt: skip
        new = []
        for (rest, left), (board, board_found) in zip(still, shrunk(still)):
            ident = identity(board, primary(board_found))
            if ident not in findings:
                new.append((rest, left, add(board, board_found, ident, "")))
        level += 1
