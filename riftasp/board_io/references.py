"""Reference checks, on the model and so the same for every file format: ids and players that
are unique, not reserved and exist; attachments; where `self` and `bearer` may be used; keyword
numbers; and the Might a board's arithmetic could reach (riftasp/limits.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..limits import REACH_MAX, arithmetic_reach
from ..listing import Slot, listed_effects
from ..model import SYMBOLIC_REFS, Board, Condition, GameObject, Keyword, Operation
from ..conditions import CONDITIONS
from ..filters import FILTERS
from ..operations import OPERATIONS
from ..specs import ObjectField
from ..ruleset_data import BoardVocabulary, KeywordRules
from ..rulesets import Ruleset
from ..terms import quote
from .errors import Invalid, item_path, key_path, shown
from .fields import ONGOING_ONLY, RESERVED_ID_CHARACTERS, RESERVED_PLAYERS, TEXT_KEYS, type_limited_keys

# How many known names an "unknown ..." message lists.
LISTED_NAMES = 10
# The largest grid a board may give its realm (a board is data: docs/board-format.md, Limits).
REALM_MAX = 1000


class JsonPaths:
    """Where things are in a JSON/YAML board."""

    def realm(self, key: str) -> str:
        return f"realm.{key}"

    def player(self, index: int, player: str) -> str:
        return f"players[{index}]"

    def object(self, index: int, obj: GameObject) -> str:
        return f"objects[{index}]"

    def effect(self, slot: Slot) -> str:
        if slot.obj is None:
            return f"effects[{slot.position}]"
        return f"objects[{slot.object_index}].{TEXT_KEYS[slot.part]}[{slot.position}]"


class FactPaths:
    """Where things are in an ASP board: the fact that declares them."""

    def realm(self, key: str) -> str:
        return "realm_size"

    def player(self, index: int, player: str) -> str:
        return f"player({quote(player)})"

    def object(self, index: int, obj: GameObject) -> str:
        return f"object({quote(obj.id)})"

    def effect(self, slot: Slot) -> str:
        if slot.obj is None:
            return f"ongoing({quote(slot.placed.id)})"
        return f"text({quote(slot.obj.id)},{quote(slot.placed.id)},{slot.part})"


@dataclass(frozen=True)
class _Names:
    """The ids a board defines, for reference checks."""

    players: tuple[str, ...]
    objects: dict[str, GameObject]
    player_set: frozenset[str]  # the players again, for look-ups
    ruleset: Ruleset
    # The operations (as the encoding's terms name them) and kinds of condition of the ruleset.
    operations: frozenset[str]
    conditions: frozenset[str]
    filters: frozenset[str]
    own: tuple[ObjectField, ...]  # the ruleset's own object keys
    words: BoardVocabulary | None  # the ruleset's card types, zones, statuses
    def player(self, player: str, path: str, allow_you: bool = False) -> None:
        if allow_you and player == "you":
            return
        if player not in self.player_set:
            known = ", ".join(shown(p) for p in self.players[:LISTED_NAMES])
            more = len(self.players) - LISTED_NAMES
            known += f" and {more:,} more" if more > 0 else ""
            suffix = f"; players are {known}" if known else "; the board has no players"
            raise Invalid(path, f"unknown player {shown(player)}{suffix}")

    def object(self, object_id: str, path: str) -> GameObject:
        if object_id not in self.objects:
            raise Invalid(path, f"unknown object {shown(object_id)}")
        return self.objects[object_id]


def check_board(board: Board, paths: JsonPaths | FactPaths) -> None:
    _check_players(board, paths)
    _check_realm(board, paths)
    objects = _check_object_ids(board, paths)
    names = _Names(board.players, objects, frozenset(board.players), board.ruleset,
                   frozenset(board.ruleset.operations), frozenset(board.ruleset.condition_kinds),
                   frozenset(board.ruleset.filter_kinds), board.ruleset.object_fields, board.ruleset.vocabulary)  # fmt: skip
    if board.active_player is not None:
        names.player(board.active_player, "active_player")
    rules = board.ruleset.keywords
    # A ruleset's own checks of an object (its plugin's `check_object(board, obj, path)`, raising
    # Invalid): Sorcery's places on the realm's grid.
    own_check = board.ruleset.value("check_object")
    for index, obj in enumerate(board.objects):
        _check_object(index, obj, names, paths.object(index, obj))
        _check_keyword_numbers(obj.keywords, key_path(paths.object(index, obj), "keywords"), rules)
        for f in names.own:
            if f.kind.name == "object_id" and getattr(obj, f.name) is not None:
                names.object(getattr(obj, f.name), key_path(paths.object(index, obj), f.key))
        if own_check is not None:
            own_check(board, obj, paths.object(index, obj))
    # Each effect where it stands (its slot's part: "rules", "effect" or "ongoing") and its path.
    placed = [(slot, paths.effect(slot)) for slot in listed_effects(board)]
    _check_effect_ids(placed)
    for slot, path in placed:
        _check_effect(slot, path, names, rules)
    _check_reach(board, paths)


def _check_realm(board: Board, paths: JsonPaths | FactPaths) -> None:
    """A board's own grid: only for a ruleset with one (its manifest's [realm]), each side from 1
    to REALM_MAX."""
    if board.realm is None:
        return
    if not board.ruleset.has_realm:
        raise Invalid(paths.realm("rows").split(".")[0], f"a {board.ruleset} board has no grid: 'realm' is for "
                      "a ruleset whose manifest has one ([realm], e.g. sorcery)")  # fmt: skip
    for key, n in zip(("rows", "columns"), board.realm):
        if not 1 <= n <= REALM_MAX:
            raise Invalid(paths.realm(key), f"must be from 1 to {REALM_MAX}, got {n}")


def _check_players(board: Board, paths: JsonPaths | FactPaths) -> None:
    seen: set[str] = set()
    for index, player in enumerate(board.players):
        path = paths.player(index, player)
        if player in RESERVED_PLAYERS:
            raise Invalid(path, f"{shown(player)} is reserved: conditions use it for the effect's controller")
        if player in seen:
            raise Invalid(path, f"duplicate player {shown(player)}")
        seen.add(player)


def _check_object_ids(board: Board, paths: JsonPaths | FactPaths) -> dict[str, GameObject]:
    objects: dict[str, GameObject] = {}
    for index, obj in enumerate(board.objects):
        path = key_path(paths.object(index, obj), "id")
        if obj.id in SYMBOLIC_REFS:
            raise Invalid(path, f"{shown(obj.id)} is reserved: effects use it to refer to an object")
        _check_id_characters(obj.id, path)
        if obj.id in objects:
            raise Invalid(path, f"duplicate object id {shown(obj.id)}")
        objects[obj.id] = obj
    return objects


def _check_id_characters(identifier: str, path: str) -> None:
    for char in RESERVED_ID_CHARACTERS:
        if char in identifier:
            raise Invalid(
                path, f"{shown(char)} is reserved in ids: riftasp names instances buff:<id>, bonus:<gear>, "
                f"keyword:<K>:<id> and <effect>@<holder> (got {shown(identifier)})",
            )


def _check_object(index: int, obj: GameObject, names: _Names, path: str) -> None:
    names.player(obj.owner, key_path(path, "owner"))
    names.player(obj.controller, key_path(path, "controller"))
    _check_unique(obj.tags, key_path(path, "tags"), "tag")
    # A keyword is named once: "Shield 2" and "Shield 1" in one list would leave the total to
    # the order of the list (docs/semantics.md §3); write "Shield 3".
    _check_unique(tuple(k.name for k in obj.keywords), key_path(path, "keywords"), "keyword")
    _check_unique(obj.status, key_path(path, "status"), "status")
    for group in names.words.exclusive_statuses if names.words else ():
        if set(group) <= set(obj.status):
            raise Invalid(key_path(path, "status"), f"{shown(obj.id)} cannot be {' and '.join(group)} at once")
    for f in names.own:
        if f.stamp and getattr(obj, f.stamp) is not None and not getattr(obj, f.name):
            raise Invalid(key_path(path, f.stamp), f'given without "{f.key}": true')
    _check_gear_fields(obj, path, names.ruleset)
    if obj.attached_since is not None and obj.attached_to is None:
        raise Invalid(key_path(path, "attached_since"), "given without 'attached_to'")
    if obj.attached_to is not None:
        where = key_path(path, "attached_to")
        _check_attachment(obj, names.object(obj.attached_to, where), where, names.words)


def _check_gear_fields(obj: GameObject, path: str, ruleset: Ruleset) -> None:
    """Keys only some types may have: Effect Text acts through an attachment, only gear has it
    (and Riftbound's Might Bonus)."""
    for types, key, attribute in type_limited_keys(ruleset):
        if obj.card_type not in types and getattr(obj, attribute) not in (None, ()):
            only = " or ".join(types)
            raise Invalid(key_path(path, key), f"only {only} has {key}; {shown(obj.id)} is a {obj.card_type}")


def _check_attachment(obj: GameObject, bearer: GameObject, where: str, words: BoardVocabulary | None) -> None:
    """Only the ruleset's attachable types are attached (Riftbound's gear), to one of its bearer
    types (a unit), both on the board (so no attachment chains or cycles)."""
    attachable = " or ".join(words.attachable) if words and words.attachable else "nothing"
    if bearer.id == obj.id:
        raise Invalid(where, f"an object cannot be attached to itself ({shown(obj.id)})")
    if words is None or obj.card_type not in words.attachable:
        raise Invalid(where, f"only {attachable} is attached; {shown(obj.id)} is a {obj.card_type}")
    if bearer.card_type not in words.bearers:
        raise Invalid(where, f"{attachable} is attached to a {words.bearers[0]}; {shown(bearer.id)} is a {bearer.card_type}")
    if not obj.on_board:
        raise Invalid(where, f"{shown(obj.id)} is in {obj.zone}; only objects on the board are attached")
    if not bearer.on_board:
        raise Invalid(where, f"{shown(bearer.id)} is not on the board (it is in {bearer.zone})")


def _check_keyword_numbers(keywords: Sequence[Keyword], path: str, rules: KeywordRules) -> None:
    # Only summing keywords carry a number (docs/semantics.md §3): "Ganking 2" means nothing.
    for index, keyword in enumerate(keywords):
        if keyword.value is not None and not rules.sums(keyword.name):
            summing = ", ".join(sorted(rules.summing))
            raise Invalid(
                item_path(path, index),
                f"{shown(keyword.name)} does not add up, so it takes no number (only {summing} do)",
            )


def _check_unique(values: Sequence[Any], path: str, what: str) -> None:
    # Facts are sets: a repeated value would vanish on the way to the solver.
    seen: set[Any] = set()
    for index, value in enumerate(values):
        if value in seen:
            named = f" {shown(value)}" if isinstance(value, str) else ""
            raise Invalid(item_path(path, index), f"duplicate {what}{named}")
        seen.add(value)


def _check_effect_ids(placed: list[tuple[Slot, str]]) -> None:
    # Effect ids are global: results and dependencies name effects by id alone.
    first: dict[str, str] = {}
    for slot, path in placed:
        effect_id = slot.placed.id
        _check_id_characters(effect_id, key_path(path, "id"))
        if effect_id in first:
            raise Invalid(key_path(path, "id"), f"duplicate effect id {shown(effect_id)} (also {first[effect_id]})")
        first[effect_id] = path


def _check_effect(slot: Slot, path: str, names: _Names, rules: KeywordRules) -> None:
    effect = slot.placed
    if slot.part == "ongoing":
        for key in ("timestamp", "controller"):
            if getattr(effect, key) is None:
                raise Invalid(path, f"missing required field {shown(key)}")
        assert effect.controller is not None  # refused just above
        names.player(effect.controller, key_path(path, "controller"))
        if effect.source is not None:
            names.object(effect.source, key_path(path, "source"))
    else:
        for key in ONGOING_ONLY:
            if getattr(effect, key) is not None:
                raise Invalid(key_path(path, key), f"only ongoing effects (the board's 'effects') have a {key}")
    _check_op(effect.op, key_path(path, "op"), names, rules)
    _check_target(slot, key_path(path, "target"), names)
    _check_unique(effect.conditions, key_path(path, "conditions"), "condition")
    for index, condition in enumerate(effect.conditions):
        _check_condition(condition, item_path(key_path(path, "conditions"), index), slot, names)


def _check_op(op: Operation, path: str, names: _Names, rules: KeywordRules) -> None:
    """An operation of the board's ruleset, and each parameter by its kind (the operations'
    registry): objects and players that exist, keywords named once and numbered only where they
    add up."""
    spec = OPERATIONS[op.name]
    if spec.functor not in names.operations:
        raise Invalid(key_path(path, "op"), f"{shown(op.name)} is not an operation of the {names.ruleset} ruleset")
    for param in spec.params:
        value, where = getattr(op, param.key), key_path(path, param.key)
        if param.kind.name == "object_id":
            names.object(value, where)
        elif param.kind.name == "player":
            names.player(value, where)
        elif param.kind.item is not None and param.kind.item.name in ("keyword", "keyword_name"):
            _check_unique(tuple(k.name for k in value), where, "keyword")
            _check_keyword_numbers(value, where, rules)


def _check_target(slot: Slot, path: str, names: _Names) -> None:
    target = slot.placed.target
    if target.kind in ("self", "bearer"):
        _check_ref(target.kind, path, slot, names)
    ids_path = key_path(path, "ids")
    _check_unique(target.ids, ids_path, "id")
    for index, object_id in enumerate(target.ids):
        names.object(object_id, item_path(ids_path, index))
    if target.filter is not None:
        for key, spec in FILTERS.items():
            if getattr(target.filter, spec.name) is not None and key not in names.filters:
                where = key_path(key_path(path, "filter"), key)
                raise Invalid(where, f"{shown(key)} is not a filter of the {names.ruleset} ruleset")


def _check_condition(condition: Condition, path: str, slot: Slot, names: _Names) -> None:
    spec = CONDITIONS[condition.kind]
    if condition.kind not in names.conditions:
        raise Invalid(path, f"{shown(condition.kind)} is not a condition of the {names.ruleset} ruleset")
    # A kind without a parameter names the object it reads under its own key.
    _check_ref(condition.of, key_path(path, condition.kind if spec.key is None else "of"), slot, names)
    if spec.parameter is not None and spec.parameter.name == "player_or_you":
        names.player(getattr(condition, spec.key or ""), key_path(path, condition.kind), allow_you=True)


def _check_ref(ref: str, path: str, slot: Slot, names: _Names) -> None:
    """`self` is the holder (ongoing: the source), `bearer` exists in Effect Text only."""
    if ref == "bearer" and slot.part != "effect":
        raise Invalid(path, "'bearer' is only meaningful in Effect Text (effect_text)")
    if ref == "self" and slot.part == "ongoing" and slot.placed.source is None:
        raise Invalid(path, "'self' in an ongoing effect needs the effect's 'source'")
    if ref not in SYMBOLIC_REFS:
        names.object(ref, path)


def _check_reach(board: Board, paths: JsonPaths | FactPaths) -> None:
    """Refuse a board whose arithmetic could leave clingo's 32-bit integers (limits.py)."""
    reach = arithmetic_reach(board)
    if reach is None or max(reach.number, reach.keywords) <= REACH_MAX:
        return
    obj = board.objects[reach.object_index]
    what, value = (reach.label, reach.number) if reach.number > REACH_MAX else ("keyword total", reach.keywords)
    amount = f"{value:,}" if value < 10**30 else "beyond 10^30"
    raise Invalid(
        paths.object(reach.object_index, obj),
        f"the effects that can apply to {shown(obj.id)} could take its {what} to {amount}, beyond "
        f"{REACH_MAX:,} (see Limits in docs/board-format.md)",
    )
