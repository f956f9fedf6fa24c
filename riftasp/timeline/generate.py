"""Random games for `riftasp fuzz --timelines`: a small starting board from the ruleset's own
board generators (its plugin's `board_strategy`), then 5 to 30 events drawn to reach the hard
classes of timelines (docs/semantics.md §14): objects entering, leaving the board and entering it
again; gear or artifacts attached and detached; conditions on `self` flipped by a status, a buff,
rest or a change of power; ongoing effects starting and ending; activated and triggered
abilities. The texts drawn conflict with each other in one layer (a keyword or an element gained
and lost, a number set to two values) and mostly change one of the oldest objects, so the order
of their timestamps shows.

Every game drawn replays: each event is drawn from the state so far and applied at once
(replay.py, boards read, nothing calculated); one that does not apply is not kept.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import strategies as st

from ..board_io import BoardError
from ..profile import Profile
from ..rulesets import ruleset as ruleset_named
from ..model import Board
from .log import timeline_from_dict
from .replay import State, apply, checked_board, start_state

MIN_EVENTS, MAX_EVENTS = 5, 30
START_OBJECTS = 3  # the starting board's objects at most (a game adds its own)
TRIES = 4  # draws per event kept, at most (most apply: this only ends a game that cannot go on)


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """What a ruleset's games are made of."""

    unit: str  # the type of what bears gear and holds conditional text
    gear: str
    on_board: str  # where objects enter and re-enter
    off_board: str  # where they leave to
    ops: tuple[dict[str, Any], ...]  # conflicting operations (texts and ongoing effects)
    conditions: tuple[dict[str, Any], ...]  # conditions on `self` that events flip
    flips: tuple[tuple[str, Any, Any], ...]  # (key, value that holds, value that does not)
    number: str  # the printed number of a unit
    grid: bool  # objects on the board stand on a square


VOCABULARIES = {
    "riftbound": Vocabulary(
        unit="unit", gear="gear", on_board="battlefield", off_board="trash",
        ops=({"op": "gain_keywords", "keywords": ["Ganking"]}, {"op": "lose_keywords", "keywords": ["Ganking"]},
             {"op": "set_might", "value": 5}, {"op": "set_might", "value": 1}),
        conditions=({"status": "defending", "of": "self"}, {"status": "attacking", "of": "self"}),
        flips=(("status", ["defending"], []), ("status", ["attacking"], []), ("buff", True, False)),
        number="might", grid=False),
    "sorcery": Vocabulary(
        unit="minion", gear="artifact", on_board="realm", off_board="cemetery",
        ops=({"op": "gain_affinity", "element": "water"}, {"op": "lose_affinity", "element": "water"},
             {"op": "set_power", "value": 4}, {"op": "set_power", "value": 1}),
        conditions=({"power_at_most": 2, "of": "self"},),
        flips=(("at_rest", True, False),),
        number="power", grid=True),
}  # fmt: skip


def vocabulary(name: str) -> Vocabulary:
    rules = ruleset_named(name)
    for family in (rules.name, *getattr(rules, "lineage", ())):
        if family in VOCABULARIES:
            return VOCABULARIES[family]
    raise ValueError(f"no timeline generator for the {name} ruleset (one of {', '.join(VOCABULARIES)})")


def timeline_strategy(ruleset: str, profile: Profile | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Games of `ruleset` (timeline dicts), their starting boards within `profile`."""
    profile = profile or Profile()
    small = dataclasses.replace(profile, max_objects=min(profile.max_objects, START_OBJECTS),
                                max_effects=min(profile.max_effects, 2))  # fmt: skip
    boards = ruleset_named(ruleset).board_strategy(small)
    if boards is None:
        raise ValueError(f"the {ruleset} ruleset has no board generators")
    words = vocabulary(ruleset)
    return boards.filter(lambda b: len(b.get("objects", [])) <= 2 * START_OBJECTS).flatmap(
        lambda start: _games(start, words))


def _games(start: dict[str, Any], words: Vocabulary) -> st.SearchStrategy[dict[str, Any]]:
    return st.composite(lambda draw: _game(draw, start, words))()


def _game(draw: st.DrawFn, start: dict[str, Any], words: Vocabulary) -> dict[str, Any]:
    timeline = timeline_from_dict({**start, "events": []}, "<generated>")
    state = start_state(timeline)
    game = _Game(state, checked_board(state.board_data(), timeline, None), words, start)
    wanted = draw(st.integers(MIN_EVENTS, MAX_EVENTS))
    for _ in range(TRIES * wanted):  # (an event that does not apply is drawn again)
        if len(game.events) >= wanted:
            break
        game.add(_event(draw, game))
    return {**start, "events": game.events}


@dataclasses.dataclass
class _Game:
    """The game so far: the events kept and the state after them."""

    state: State
    board: Board  # the board after the last event (objects' types and zones, cards read)
    words: Vocabulary
    start: dict[str, Any]
    events: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    made: int = 0  # objects and effects this game made (their ids: n1, x2, ...)

    def add(self, drawn: dict[str, Any] | list[dict[str, Any]] | None) -> bool:
        """Apply an event, or a run of them (kept when each makes sense at its moment and leaves a
        valid board; a run is kept whole or not at all)."""
        if not drawn:
            return False
        events = drawn if isinstance(drawn, list) else [drawn]
        state, board = self.state, self.board
        try:
            parsed = timeline_from_dict({**self.start, "events": [*self.events, *events]}, "<generated>")
            for event in parsed.events[len(self.events):]:
                state = dataclasses.replace(apply(state, event, parsed), together=None)
                board = checked_board(state.board_data(), parsed, event)
        except BoardError:
            return False
        self.state, self.board = state, board
        self.events += events
        return True

    def fresh(self, prefix: str) -> str:
        self.made += 1
        return f"{prefix}{self.made}"

    def ids(self, where: str, kind: str | None = None) -> list[str]:
        """Objects on the board (`on`), off it (`off`), of a type (`kind`), in the game's order."""
        zones = set(self.board.ruleset.vocabulary.board_zones)
        return [obj.id for obj in self.board.objects
                if (obj.zone in zones) == (where == "on") and (kind is None or obj.card_type == kind)]  # fmt: skip


KINDS = ("enter", "enter", "enter_gear", "leave", "return", "attach", "detach", "flip", "flip", "flip", "start",
         "activate", "end", "control", "renew", "renew")  # fmt: skip


def _event(draw: st.DrawFn, game: _Game) -> dict[str, Any] | list[dict[str, Any]] | None:
    kind = draw(st.sampled_from(KINDS))
    words = game.words
    on, off = game.ids("on"), game.ids("off")
    units = game.ids("on", words.unit)
    players = list(game.state.top.get("players") or ["alice", "bob"])
    if kind == "enter":
        return {"event": "enter", "object": _unit(draw, game, units or on, players)}
    if kind == "enter_gear":
        return {"event": "enter", "object": _gear(draw, game, players, units)}
    if kind == "leave" and on:
        return {"event": "move", "object": draw(st.sampled_from(on)), "to": words.off_board}
    if kind == "return" and off:
        return {"event": "move", "object": draw(st.sampled_from(off)), "to": words.on_board, **_square(draw, words)}
    if kind == "attach":
        gear = [g for g in game.ids("on", words.gear) if "attached_to" not in game.state.objects[g]]
        if gear and units:
            return {"event": "attach", "object": draw(st.sampled_from(gear)), "to": draw(st.sampled_from(units))}
    if kind == "detach":
        attached = [g for g, obj in game.state.objects.items() if obj.get("attached_to")]
        if attached:
            return {"event": "detach", "object": draw(st.sampled_from(attached))}
    if kind == "flip" and units:
        key, holds, not_holds = draw(st.sampled_from(words.flips))
        oid = draw(st.sampled_from(units))
        value = not_holds if game.state.objects[oid].get(key) else holds
        return {"event": "set", "object": oid, "field": key, "value": value}
    if kind in ("start", "activate") and on:
        effect = {"id": game.fresh("x"), "op": draw(st.sampled_from(words.ops)),
                  "target": {"ids": [_focus(draw, units or on)]}, "controller": draw(st.sampled_from(players))}
        if kind == "activate":
            effect["source"] = draw(st.sampled_from(on))
            kind = draw(st.sampled_from(("activate", "trigger")))
        return {"event": kind, "effect": effect}
    if kind == "end" and game.state.effects:
        return {"event": "end", "effect": draw(st.sampled_from(sorted(game.state.effects)))}
    if kind == "renew":
        return _renew(draw, game, players)
    if kind == "control" and on:
        return {"event": "control", "object": draw(st.sampled_from(on)), "player": draw(st.sampled_from(players))}
    return None


def _renew(draw: st.DrawFn, game: _Game, players: list[str]) -> list[dict[str, Any]] | None:
    """The hard class of a timeline: a text stops working (its object leaves the board, or its
    condition stops holding), an effect it conflicts with begins, and the text works again: it
    must date from then (seed 000), after the effect that began meanwhile."""
    words = game.words
    on = set(game.ids("on"))
    texts = [(oid, text) for oid, obj in game.state.objects.items() if oid in on
             for text in obj.get("rules_text") or [] if isinstance(text.get("target"), dict) and text["op"] in words.ops]
    if not texts:
        return None
    oid, text = draw(st.sampled_from(texts))
    other = words.ops[words.ops.index(text["op"]) ^ 1]  # its counterpart in the same layer
    effect = {"id": game.fresh("x"), "op": other, "target": text["target"], "controller": draw(st.sampled_from(players))}
    condition = (text.get("conditions") or [{}])[0]
    flips = [(k, holds, off) for k, holds, off in words.flips
             if k in condition or (k == "status" and holds == [condition.get("status")])]  # fmt: skip
    by_flip = bool(flips) and draw(st.booleans())
    if by_flip:
        key, holds, not_holds = flips[0]
        away = {"event": "set", "object": oid, "field": key, "value": not_holds}
        back = {"event": "set", "object": oid, "field": key, "value": holds}
    else:
        away = {"event": "move", "object": oid, "to": words.off_board}
        back = {"event": "move", "object": oid, "to": words.on_board, **_square(draw, words)}
    return [away, {"event": "start", "effect": effect}, back]


def _unit(draw: st.DrawFn, game: _Game, on: list[str], players: list[str]) -> dict[str, Any]:
    """A unit (minion) whose text changes itself or another object, often only while a condition
    on itself holds (a status, its power): what events then flip."""
    words = game.words
    oid = game.fresh("n")
    text: dict[str, Any] = {"id": f"{oid}-text", "op": draw(st.sampled_from(words.ops))}
    aimed = bool(on) and draw(st.integers(0, 3)) > 0
    if aimed:
        text["target"] = {"ids": [_focus(draw, on)]}
    if draw(st.integers(0, 2)):
        text["conditions"] = [draw(st.sampled_from(words.conditions))]
    return {"id": oid, "name": f"Unit {oid}", "type": words.unit, "owner": draw(st.sampled_from(players)),
            "zone": words.on_board, words.number: draw(st.integers(1, 4)), **_square(draw, words),
            "rules_text": [text]}  # fmt: skip


def _gear(draw: st.DrawFn, game: _Game, players: list[str], units: list[str]) -> dict[str, Any]:
    """Gear (an artifact) whose Effect Text changes what bears it: attached and detached later.
    On a grid a carried artifact stands at its bearer's square, so it enters carried there."""
    words = game.words
    oid = game.fresh("g")
    where = ({"attached_to": draw(st.sampled_from(units))} if units else _square(draw, words)) if words.grid else {}
    return {"id": oid, "name": f"Gear {oid}", "type": words.gear, "owner": draw(st.sampled_from(players)),
            "zone": words.on_board, **where,
            "effect_text": [{"id": f"{oid}-text", "op": draw(st.sampled_from(words.ops))}]}  # fmt: skip


def _focus(draw: st.DrawFn, on: list[str]) -> str:
    """What an effect changes: mostly one of the two oldest (units) on the board, so effects meet
    on one object and the order of their timestamps shows."""
    return draw(st.sampled_from(on[:2])) if draw(st.integers(0, 3)) else draw(st.sampled_from(on))


def _square(draw: st.DrawFn, words: Vocabulary) -> dict[str, Any]:
    return {"row": draw(st.integers(1, 3)), "column": draw(st.integers(1, 3))} if words.grid else {}
