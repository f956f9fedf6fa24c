"""The realm's grid (docs/semantics-sorcery.md §7): where an object stands and the relations the
filter `near` names, from an effect's holder to a target."""

from __future__ import annotations

from collections.abc import Callable

from ....model import Board, GameObject

Square = tuple[int, int]


class Realm:
    """Where the objects of one board stand."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.objects = {obj.id: obj for obj in board.objects}
        self.first_player = board.players[0] if board.players else None

    def in_realm(self, oid: str) -> bool:
        obj = self.objects.get(oid)
        return obj is not None and obj.zone == "realm"

    def square(self, oid: str) -> Square | None:
        """An object's square: its own, or for an artifact carried, its bearer's."""
        obj = self.objects[oid]
        if obj.zone != "realm":
            return None
        if obj.attached_to is not None:
            return self.square(obj.attached_to)
        return (obj.row, obj.column)

    def beneath(self, oid: str) -> bool:
        obj = self.objects[oid]
        return bool(obj.burrowed or obj.submerged)

    def forward(self, player: str | None) -> int:
        """The row step "in front" for a player: the first player faces higher rows."""
        return 1 if player == self.first_player else -1

    def related(self, relation: str, holder: str, target: str, controller: str | None) -> bool:
        """Whether `target` stands in `relation` to `holder` (the holder's controller says which
        way is in front)."""
        here, there = self.square(holder), self.square(target)
        if here is None or there is None:
            return False
        return _RELATIONS[relation](self, holder, target, here, there, controller)


def _area(realm: Realm, holder: str, target: str, here: Square, there: Square, controller: str | None) -> bool:
    # An aura affects the 2 x 2 block of sites whose top-left square it names; anything else, its
    # own square.
    if realm.objects[holder].card_type != "aura":
        return here == there
    return there[0] - here[0] in (0, 1) and there[1] - here[1] in (0, 1)


def _in_front(steps: int | None) -> Callable[..., bool]:
    def related(realm: Realm, holder: str, target: str, here: Square, there: Square, controller: str | None) -> bool:
        if there[1] != here[1]:
            return False
        ahead = (there[0] - here[0]) * realm.forward(controller)
        return ahead == steps if steps is not None else ahead > 0

    return related


_RELATIONS: dict[str, Callable[..., bool]] = {
    "here": lambda realm, h, t, a, b, c: a == b,
    "adjacent": lambda realm, h, t, a, b, c: abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1,
    "nearby": lambda realm, h, t, a, b, c: max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1,
    "one_step_in_front": _in_front(1),
    "in_front": _in_front(None),
    "above": lambda realm, h, t, a, b, c: a == b and realm.beneath(h) and not realm.beneath(t),
    "area": _area,
}


def is_carried(obj: GameObject) -> bool:
    return obj.attached_to is not None
