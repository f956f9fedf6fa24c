"""The library (issue 40): what `import riftasp` offers, documented with runnable examples in
docs/api.md. Each function takes a board in any of the forms a caller has at hand (a Board, a
dict in the board format, JSON text, a path) and validates it exactly as a board file is
validated: bad input raises a BoardError whose text is one line.

riftasp/__init__.py loads this module on first use of one of its names, so that `import
riftasp` (and `riftasp resolve`, bench/coldstart.py) pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from .failure import ResolveFailure
    from .model import Board
    from .result import Resolution
    from .transitions import Transition

# What the functions accept as a board: a Board, board data (a dict), JSON text or a file path.
BoardLike: TypeAlias = "Board | Mapping[str, Any] | str | Path"

ENGINES = ("asp", "reference")
FUZZ_EXTRA = "pip install 'riftasp[fuzz]'"


def load_board(board: BoardLike, source: str | None = None) -> Board:
    """A validated Board from a Board (returned as it is), board data (a dict), JSON text (a
    string starting with `{`) or a file path (.json, .yaml/.yml, .lp; `-` standard input).
    `source` names the board in error messages (default: the file, `<dict>` or `<text>`)."""
    from .board_io import board_from_dict, load_board as load_file, load_board_text
    from .model import Board

    if isinstance(board, Board):
        return board
    if isinstance(board, Mapping):
        return board_from_dict(dict(board), source or "<dict>")
    if isinstance(board, str) and board.lstrip().startswith("{"):
        return load_board_text(board, source or "<text>")
    if isinstance(board, str | Path):
        return load_file(board)
    raise TypeError(f"a board is a Board, a dict, JSON text or a path, not {type(board).__name__}")


def resolve(board: BoardLike, engine: str = "asp", time_limit: float | None = None) -> Resolution:
    """The board's resolution by `engine` ("asp", the ASP resolver, or "reference"), within
    `time_limit` seconds (None: no limit). Raises BoardError (bad board), TimeLimitExceeded,
    UnsupportedRuleset or EncodingError, as `riftasp resolve` fails with them."""
    from .commands import _resolved

    _check_engine(engine)
    return _resolved(load_board(board), engine, time_limit)


def resolve_many(boards: Iterable[BoardLike], engine: str = "asp",
                 time_limit: float | None = None) -> list[Resolution | ResolveFailure]:
    """Each board's Resolution, in order, or in the place of a board that could not be read or
    resolved a ResolveFailure (its `kind`, one-line `message` and `error()`); the ASP engine
    resolves the boards in batches (riftasp/batch.py), much faster than one by one.
    `time_limit` applies to each board."""
    from .commands import run_many
    from .failure import ResolveFailure

    _check_engine(engine)
    loaded: list[Board | ResolveFailure] = []
    for i, item in enumerate(boards):
        try:
            loaded.append(load_board(item, source=f"<board {i}>"))
        except Exception as err:  # noqa: BLE001 - the board's failure, in its place
            loaded.append(ResolveFailure.of(_source_of(item, i), err))
    outcomes = run_many([b for b in loaded if not isinstance(b, ResolveFailure)], engine, time_limit)
    return [item if isinstance(item, ResolveFailure) else next(outcomes) for item in loaded]


def diff(before: BoardLike | Resolution, after: BoardLike | Resolution) -> list[Transition]:
    """The real transitions from `before` to `after` (docs/semantics.md §9): what changed in the
    objects' final characteristics. Boards are resolved by the ASP engine first."""
    from .result import Resolution
    from .transitions import transitions

    def resolved(x: BoardLike | Resolution) -> Resolution:
        return x if isinstance(x, Resolution) else resolve(x)

    return transitions(resolved(before), resolved(after))


def generate(ruleset: str = "riftbound", seed: int = 0, n: int = 10) -> list[Board]:
    """`n` boards drawn from the ruleset's board generators (its plugin's `board_strategy`, as
    `riftasp fuzz` draws them): the same boards for the same arguments on every run. Needs
    hypothesis (`pip install 'riftasp[fuzz]'`): ImportError without it."""
    try:
        from .campaign.draw import drawn_boards
    except ImportError as err:
        raise ImportError(f"riftasp.generate needs hypothesis ({err}): {FUZZ_EXTRA}") from None
    from .board_io import board_from_dict
    from .profile import Profile
    from .rulesets import ruleset as ruleset_named

    strategy = ruleset_named(ruleset).board_strategy(Profile())
    if strategy is None:
        raise ValueError(f"no board generators for ruleset {ruleset!r}")
    drawn: list[dict[str, Any]] = []
    budget = n
    while len(drawn) < n:  # hypothesis may skip a draw it made before: ask for more then
        drawn = drawn_boards(strategy, seed, n, budget=budget)
        if budget > 10 * max(n, 10):
            break
        budget *= 2
    return [board_from_dict(d, f"<generated {ruleset} seed {seed} board {i}>") for i, d in enumerate(drawn)]


def board(players: Iterable[str], objects: Iterable[Mapping[str, Any]], effects: Iterable[Mapping[str, Any]] = (),
          ruleset: str | None = None, active_player: str | None = None,
          settings: Mapping[str, Any] | None = None) -> Board:
    """A validated Board from plain dicts in the board format (docs/board-format.md): the
    objects and ongoing effects as a board file writes them."""
    data: dict[str, Any] = {"players": list(players), "objects": [dict(o) for o in objects]}
    if effects:
        data["effects"] = [dict(e) for e in effects]
    if ruleset is not None:
        data["ruleset"] = ruleset
    if active_player is not None:
        data["active_player"] = active_player
    if settings is not None:
        data["settings"] = dict(settings)
    return load_board(data, source="<board>")


def edit(board: BoardLike, effect_id: str, **changes: Any) -> Board:
    """A new validated Board: `board` with the keys of effect `effect_id` (an ongoing effect, or
    one in an object's rules_text or effect_text) changed as `changes` says, in the board
    format's words (`target=`, `conditions=`, `timestamp=`, ...). `op=` a dict with an "op" key
    replaces the operation; without one it changes only the keys it names
    (`op={"amount": 2}`). A value None removes the key. The board itself is not changed."""
    def changed(effect: dict[str, Any]) -> dict[str, Any]:
        new = dict(effect)
        for key, value in changes.items():
            if key == "op" and isinstance(value, Mapping) and "op" not in value:
                value = {**new["op"], **value}
            if value is None:
                new.pop(key, None)
            else:
                new[key] = value
        return new

    return _with_changed_effect(load_board(board), effect_id, changed)


def with_effect(board: BoardLike, effect_id: str, effect: Mapping[str, Any]) -> Board:
    """A new validated Board: `board` with effect `effect_id` replaced by `effect` (board-format
    data; its "id" defaults to `effect_id`)."""
    return _with_changed_effect(load_board(board), effect_id, lambda _old: {"id": effect_id, **effect})


def _with_changed_effect(board: Board, effect_id: str, change: Any) -> Board:
    from .board_io import board_from_dict, board_to_dict

    data = board_to_dict(board)
    lists = [data.get("effects", [])]
    lists += [obj.get(key, []) for obj in data["objects"] for key in ("rules_text", "effect_text")]
    for effects in lists:
        for i, effect in enumerate(effects):
            if effect["id"] == effect_id:
                effects[i] = change(effect)
                return board_from_dict(data, board.source)
    printed = [o.id for o in board.objects if o.card is not None
               and any(e.id == effect_id for e in (*o.rules_text, *o.effect_text))]  # fmt: skip
    if printed:
        raise ValueError(f"effect {effect_id!r} is printed on the card of object {printed[0]!r}: "
                         "give the object its text on the board to change it")
    raise ValueError(f"no effect {effect_id!r} on the board")


def effect_ids(board: BoardLike) -> list[str]:
    """The ids of the board's effects that `edit` can change: the ongoing effects and those on
    the objects' own text (not an effect printed on a card object's card)."""
    b = load_board(board)
    texts = [e.id for o in b.objects if o.card is None for e in (*o.rules_text, *o.effect_text)]
    return [e.id for e in b.effects] + texts


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")


def _source_of(item: object, i: int) -> str:
    return str(item) if isinstance(item, Path) or (isinstance(item, str) and not item.lstrip().startswith("{")) \
        else f"<board {i}>"
