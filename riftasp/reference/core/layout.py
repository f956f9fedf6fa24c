"""What the board says before any rule applies: objects by id and board index, which are on the
board, what each is attached to, every object's printed state, and the slots of the order key
(docs/semantics.md §2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...model import Board, Effect, GameObject
from .ruleset import Ruleset
from .state import EMPTY, HeldAbility, ObjState


@dataclass
class Layout:
    board: Board
    ruleset: Ruleset
    objects: dict[str, GameObject]
    index: dict[str, int]  # board position of every object
    on_board: list[str]  # board order
    on_board_set: set[str]
    bearer: dict[str, str | None]  # object -> the on-board object it is attached to
    text_pos: dict[str, int]  # rules text and Effect Text: effect id -> its slot
    ongoing_pos: dict[str, int]  # ongoing effect id -> its slot
    # The slots of the ruleset's own kinds: (object, part, keyword or None) -> its slot.
    slot: dict[tuple[str, str, str | None], int]
    _bound: dict[int, dict] = field(default_factory=dict)

    def bind(self, effect: Effect) -> dict:
        """An effect's fields as its instances hold them (Ruleset.bind), made once per effect:
        an effect has an instance per holder and per key it is held with."""
        key = id(effect)  # the board, and so every effect, lives as long as the layout
        found = self._bound.get(key)
        if found is None:
            found = self._bound[key] = self.ruleset.bind(effect)
        return found

    def printed(self, oid: str, held: Mapping[str, HeldAbility] = EMPTY) -> ObjState:
        """An object's printed values, holding `held` (made when asked: copies are rare)."""
        obj = self.objects[oid]
        return self.ruleset.families.printed(obj, self.ruleset.printed_values(obj), held)


def lay_out(board: Board, ruleset: Ruleset) -> Layout:
    objects = {obj.id: obj for obj in board.objects}
    on_board = [obj.id for obj in board.objects if obj.on_board]
    on_board_set = set(on_board)
    bearer: dict[str, str | None] = {}
    for obj in board.objects:
        b = obj.attached_to
        bearer[obj.id] = b if b in on_board_set and obj.on_board else None
    # §2: number every slot, used or not, in listing order.
    text_pos: dict[str, int] = {}
    ongoing_pos: dict[str, int] = {}
    slot: dict[tuple[str, str, str | None], int] = {}
    for pos, s in enumerate(ruleset.listing(board)):
        if s.effect is None:
            assert s.obj is not None  # a slot without an effect is one of an object's own kinds
            slot[(s.obj.id, s.part, s.keyword)] = pos
        elif s.obj is None:
            ongoing_pos[s.effect.id] = pos
        else:
            text_pos[s.effect.id] = pos
    return Layout(
        board=board,
        ruleset=ruleset,
        objects=objects,
        index={obj.id: i for i, obj in enumerate(board.objects)},
        on_board=on_board,
        on_board_set=on_board_set,
        bearer=bearer,
        text_pos=text_pos,
        ongoing_pos=ongoing_pos,
        slot=slot,
    )


def attached_timestamp(obj: GameObject) -> int:
    """When an attached object's Effect Text began to apply: when it was attached, else when it
    entered play."""
    return obj.attached_since if obj.attached_since is not None else obj.since
