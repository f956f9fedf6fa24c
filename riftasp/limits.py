"""What a board may ask of riftasp: its size, its numbers, and the number its effects can reach (Riftbound's Might).

clingo computes with 32-bit integers and wraps silently beyond them, so every number a board
holds is bounded (VALUE_MAX), and `arithmetic_reach` bounds what the board's arithmetic can build
from those numbers on any one object: an overflow is refused before anything is grounded rather
than printed as a wrong answer. docs/board-format.md ("Limits") states the bounds and why.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass

from .model import Board, Effect, GameObject, Operation
from .operations import OPERATIONS
from .specs import Does, ObjectField

# Every integer in a board: Might, amounts, values, bonuses, keyword numbers, timestamps.
VALUE_MAX = 1_000_000
VALUE_MIN = -VALUE_MAX
# The largest |Might| or keyword total the board's arithmetic may reach on one object. The
# encoding's formulas add or subtract up to four such numbers in one expression (e.g.
# `plus_max`: N+X-M-|N-X+M|), and 4 × 500,000,000 < 2^31 - 1, clingo's largest integer.
REACH_MAX = 500_000_000
# A board file larger than this is refused before it is read (64 MiB: ~200,000 objects).
MAX_BOARD_BYTES = 64 * 2**20



# A product of factors this large takes any number past REACH_MAX: multiplying further is not counted.
_SCALE_MAX = 2**64


def _does(op: Operation) -> Does | None:
    """What an operation does (its registry entry's `Does`), None for a name riftasp does not know."""
    spec = OPERATIONS.get(op.name)
    return None if spec is None else spec.does


def _reach(op: Operation) -> str | None:
    """How an operation can move the arithmetic number (the registry's `reach`)."""
    does = _does(op)
    return None if does is None else does.reach


def _reached(op: Operation) -> int:
    """The parameter an "adds", "subtracts" or "starts" reach reads (Does.reach_key)."""
    does = _does(op)
    assert does is not None and does.reach_key is not None
    return getattr(op, does.reach_key) or 0


@dataclass
class _Sum:
    """What can reach one object (or, for `broad`, every object): increases, decreases,
    keyword gains, each counted once per instance that may apply, and the product of the
    factors that multiply it (doublings: 2)."""

    up: int = 0
    down: int = 0
    keywords: int = 0
    scale: int = 1

    def add(self, effect: Effect, times: int) -> None:
        op = effect.op
        does = _does(op)
        reach = None if does is None else does.reach
        if reach == "adds":
            self.up += _reached(op) * times
        elif reach == "subtracts":
            self.down += _reached(op) * times
        elif reach in ("doubles", "multiplies"):
            assert does is not None  # (a reach is its entry's)
            factor = does.factor if reach == "multiplies" and does.factor is not None else 2
            self.multiply(factor ** min(times, 64))
        elif does is not None and does.kind == "gain_keywords":
            self.keywords += sum(k.value or 1 for k in op.keywords) * times

    def multiply(self, factor: int) -> None:
        self.scale = min(self.scale * factor, _SCALE_MAX)


@dataclass(frozen=True)
class Reach:
    """The worst case on one object: the largest |number| and keyword total effects can build."""

    object_index: int
    number: int  # the ruleset's arithmetic number (Riftbound's Might, Sorcery's power)
    keywords: int
    label: str = "the number"  # what messages call it (its printed key's label)


def arithmetic_reach(board: Board) -> Reach | None:
    """The object whose arithmetic number (Riftbound's Might, Sorcery's power) or keyword total the
    board's effects could take furthest from 0.

    An upper bound, computed in one pass: every instance that could apply to an object is
    assumed to apply, increases before doublings, every value starts at the largest one on the
    board. Only objects on the board are calculated (None: none is).
    """
    on_board = [i for i, obj in enumerate(board.objects) if obj.on_board]
    if not on_board:
        return None
    roles = _roles(board)
    broad, narrow = _sums(board, roles)
    start = _largest_start(board, roles)
    printed_keywords = max(sum(k.value or 1 for k in obj.keywords) for obj in board.objects)
    worst: Reach | None = None
    for index in on_board:
        total = _Sum(broad.up, broad.down, broad.keywords, broad.scale)
        own = narrow.get(board.objects[index].id)
        if own is not None:
            total = _Sum(total.up + own.up, total.down + own.down, total.keywords + own.keywords, total.scale)
            total.multiply(own.scale)
        keywords = printed_keywords + total.keywords
        # Multiplying only grows a positive number; decreases only lower it: the two ends.
        up = (start + total.up + keywords) * total.scale
        number = max(up, start + total.down)
        if worst is None or (number, keywords) > (worst.number, worst.keywords):
            worst = Reach(index, number, keywords, roles["start"][0].label if roles["start"] else "the number")
    return worst


def _roles(board: Board) -> dict[str, list[ObjectField]]:
    """The ruleset's own object keys by what they mean for its arithmetic (ObjectField.reach)."""
    roles: dict[str, list[ObjectField]] = {"start": [], "bearer": [], "plus_one": []}
    for f in board.ruleset.object_fields:
        if f.reach:
            roles[f.reach].append(f)
    return roles


def _numbers(obj: GameObject, fields: list[ObjectField]) -> list[int]:
    return [value for f in fields if (value := getattr(obj, f.name)) is not None]


def _largest_start(board: Board, roles: dict[str, list[ObjectField]]) -> int:
    values = [abs(v) for obj in board.objects for v in _numbers(obj, roles["start"])]
    values += [abs(_reached(e.op)) for e in _all_effects(board) if _reach(e.op) == "starts"]
    return max(values, default=0)


def _all_effects(board: Board) -> list[Effect]:
    return [e for obj in board.objects for e in (*obj.rules_text, *obj.effect_text)] + list(board.effects)


def _sums(board: Board, roles: dict[str, list[ObjectField]]) -> tuple[_Sum, dict[str, _Sum]]:
    """What reaches every object (`broad`), and what reaches only named objects (`narrow`)."""
    broad = _Sum()
    narrow: dict[str, _Sum] = defaultdict(_Sum)
    copied, sources = _copied_holders(board), _copy_sources(board)
    by_id = {obj.id: obj for obj in board.objects}
    for obj in board.objects:
        # Rules text of an object others may copy is also held by each copy (`<effect>@<holder>`).
        holders = copied if obj.id in sources else 1
        for effect in obj.rules_text:
            _place(effect, obj.id, holders, broad, narrow)
        bearer = by_id.get(obj.attached_to) if obj.attached_to is not None else None
        if bearer is not None:
            for effect in obj.effect_text:
                _place(effect, bearer.id, 1, broad, narrow)
            for bonus in _numbers(obj, roles["bearer"]):
                own = narrow[bearer.id]
                own.up, own.down = own.up + max(bonus, 0), own.down + max(-bonus, 0)
        counters = sum(1 for f in roles["plus_one"] if getattr(obj, f.name))
        if counters:
            narrow[obj.id].up += counters
    for effect in board.effects:
        _place(effect, effect.source, 1, broad, narrow)
    return broad, narrow


def _place(effect: Effect, holder: str | None, holders: int, broad: _Sum, narrow: dict[str, _Sum]) -> None:
    """Count `effect` (held by `holders` objects) on the objects it can target."""
    target = effect.target
    if target.kind in ("self", "bearer"):
        if holders > 1:
            broad.add(effect, 1)  # each copy targets itself: once on any one object
        elif holder is not None:
            narrow[holder].add(effect, 1)
    elif target.kind == "ids":
        for object_id in target.ids:
            narrow[object_id].add(effect, holders)
    else:
        broad.add(effect, holders)


def _copy_sources(board: Board) -> frozenset[str]:
    """Objects a copy effect names: only their rules text can be copied (a copy of a copy
    copies the original, which a copy effect names too)."""
    return frozenset(e.op.of for e in _all_effects(board) if _is_copy(e.op))


def _copied_holders(board: Board) -> int:
    """How many objects may hold one copiable ability: its holder and every possible copy."""
    copies = 0
    for effect in _all_effects(board):
        if _is_copy(effect.op):
            target = effect.target
            if target.kind == "ids":
                copies += len(target.ids)
            else:  # self/bearer: one object per holder; a filter: any object
                copies += 1 if target.kind in ("self", "bearer") else len(board.objects)
    return min(len(board.objects), 1 + copies)


def _is_copy(op: Operation) -> bool:
    does = _does(op)
    return does is not None and does.kind == "copy"


class TimeLimitExceeded(Exception):
    """A calculation passed the caller's time limit (`riftasp resolve --time-limit`); `board`:
    the board that was stopped (its source), where the caller resolved several."""

    def __init__(self, seconds: float, board: str | None = None) -> None:
        where = f" on {board}" if board else ""
        super().__init__(f"stopped at the time limit of {seconds:g} s{where}")
        self.seconds = seconds
        self.board = board

    def __reduce__(self) -> tuple:  # (raised in a worker process, riftasp/watchdog.py)
        return TimeLimitExceeded, (self.seconds, self.board)


class Deadline:
    """When a time limit runs out (None: never); `check` between steps of a calculation."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else time.monotonic() + seconds

    def check(self) -> None:
        if self.at is not None and self.seconds is not None and time.monotonic() >= self.at:
            raise TimeLimitExceeded(self.seconds)
