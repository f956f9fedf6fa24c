"""Shrinking a game on which riftasp and an engine disagree: the events after the first moment
they differ go at once, then events are dropped (runs of them, then one at a time), then the
starting board's objects and ongoing effects, while the game still replays and still shows a
difference of the same kinds (riftasp/campaign/shrink.py's `still_fails`). Dropping an `enter`
drops an entering object, and a later event naming it makes the candidate invalid: not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..board_io import BoardError
from ..campaign.shrink import primary, still_fails
from ..signature import kinds
from .crosscheck import TimelineOutcome
from .log import timeline_from_dict
from .valid import event_boards

Game = dict[str, Any]
# Candidates compared together (None: not comparable, or out of time).
Evaluate = Callable[[Sequence[Game]], Sequence[TimelineOutcome | None]]
MAX_CHECKS = 400  # candidate games per shrink


def valid(game: Game) -> bool:
    try:
        event_boards(timeline_from_dict(game, "<shrinking>"))
    except BoardError:
        return False
    return True


def shrink_game(game: Game, outcome: TimelineOutcome, evaluate: Evaluate) -> tuple[Game, TimelineOutcome]:
    """The smallest game found that still disagrees (no longer than `game`), with its outcome."""
    target = kinds(primary(outcome.found))
    checks = 0

    def fails(o: TimelineOutcome | None) -> bool:
        return o is not None and o.status == "compared" and still_fails(o.found, target)

    def first(candidates: list[Game]) -> tuple[Game, TimelineOutcome] | None:
        nonlocal checks
        kept = [c for c in candidates if valid(c)]
        if not kept or checks >= MAX_CHECKS:
            return None
        checks += len(kept)
        for candidate, result in zip(kept, evaluate(kept)):
            if result is not None and fails(result):
                return _cut(candidate, result), result
        return None

    game = _cut(game, outcome)
    changed = True
    while changed and checks < MAX_CHECKS:
        changed = False
        for edits in (_event_runs, _start_parts):
            size = max(1, len(game["events"]) // 2) if edits is _event_runs else 1
            while size >= 1:
                found = first(list(edits(game, size)))
                if found is not None:
                    game, outcome = found
                    changed = True
                    continue  # the same size again, on the smaller game
                size //= 2
    return game, outcome


def _cut(game: Game, outcome: TimelineOutcome) -> Game:
    """The game up to the first event after which the two differ (what follows changes nothing)."""
    if outcome.event is None:
        return game
    return {**game, "events": game["events"][: outcome.event + 1]}


def _event_runs(game: Game, size: int) -> list[Game]:
    events = game["events"]
    return [{**game, "events": events[:i] + events[i + size:]} for i in range(0, len(events), size)]


def _start_parts(game: Game, size: int) -> list[Game]:
    """The game without one of its starting board's objects or ongoing effects."""
    out = []
    for key in ("objects", "effects"):
        items = game.get(key) or []
        for i in range(len(items)):
            rest = items[:i] + items[i + 1:]
            out.append({**game, key: rest} if rest or key == "objects" else {k: v for k, v in game.items() if k != key})
    return out
