"""Reading boards: docs/board-format.md, what it accepts and the exact error for what it rejects."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

from budget import budget
from hypothesis import strategies as st

from riftasp.board_io import (
    BoardError,
    board_from_dict,
    board_from_facts,
    board_to_dict,
    load_board,
    load_board_text,
)
from riftasp.cards import library
from riftasp.facts import board_facts
from riftasp.limits import REACH_MAX, VALUE_MAX, VALUE_MIN, arithmetic_reach
from riftasp.operations import OPERATIONS
from riftasp.rulesets import ruleset as named
from riftasp.model import (
    Board,
    Condition,
    Effect,
    Filter,
    GameObject,
    Keyword,
    Operation,
    Settings,
    Target,
)
from riftasp.resources import layer_operations, lineage, rulesets
from riftasp.ruleset_data import keyword_rules
from riftasp.schema import board_schema

SPEC_EXAMPLE = {
    "ruleset": "riftbound",
    "settings": {"condition_timing": "as_able"},
    "players": ["alice", "bob"],
    "active_player": "alice",
    "objects": [
        {"id": "fiora", "card": "Fiora, Victorious", "owner": "alice", "zone": "battlefield",
         "status": ["defending"], "buff": True},
        {"id": "u2", "name": "Sentry", "type": "unit", "owner": "bob", "controller": "bob",
         "zone": "base", "might": 3, "tags": ["Mech"], "keywords": ["Shield 2", "Ganking"], "since": 4,
         "rules_text": [
             {"id": "u2-aura", "op": {"op": "plus", "amount": 1},
              "target": {"filter": {"type": "unit", "relation": "friendly", "other": True}},
              "conditions": [{"mighty": "self"}]}
         ]},
        {"id": "boots", "card": "Boots of Swiftness", "owner": "alice", "zone": "battlefield",
         "attached_to": "fiora", "attached_since": 6},
    ],
    "effects": [
        {"id": "e1", "controller": "bob", "source": "u2", "timestamp": 9,
         "op": {"op": "set_might", "value": 4}, "target": {"ids": ["fiora"]}}
    ],
}  # fmt: skip

# The default ruleset's words (its manifest's [board]).
_WORDS = named("riftbound").vocabulary
BOARD_ZONES, CARD_TYPES, STATUSES, ZONES = _WORDS.board_zones, _WORDS.card_types, _WORDS.statuses, _WORDS.zones


def small_board() -> dict[str, Any]:
    """A valid board that the error cases below break in one place each."""
    return {
        "players": ["alice", "bob"],
        "objects": [
            {"id": "u1", "name": "Sentry", "type": "unit", "owner": "alice", "zone": "base", "might": 3,
             "rules_text": [{"id": "r1", "op": {"op": "plus", "amount": 1}}]},
            {"id": "g1", "name": "Blade", "type": "gear", "owner": "alice", "zone": "base",
             "attached_to": "u1", "effect_text": [{"id": "t1", "op": {"op": "plus", "amount": 2}}]},
            {"id": "g2", "name": "Shield", "type": "gear", "owner": "bob", "zone": "battlefield"},
        ],
        "effects": [
            {"id": "e1", "controller": "bob", "timestamp": 1, "op": {"op": "minus", "amount": 1},
             "target": {"ids": ["u1"]}}
        ],
    }  # fmt: skip


def read_error(data: Any) -> str:
    with pytest.raises(BoardError) as caught:
        board_from_dict(data, "board.json")
    return str(caught.value)


def schema_errors(data: Any) -> list[str]:
    """What the JSON Schema says of `data`; the calling test is skipped without jsonschema
    (a dev convenience, not a dependency), so schema checks live in tests of their own."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(board_schema())
    return [error.message for error in validator.iter_errors(data)]


# ---- valid boards ------------------------------------------------------------------------------


def test_the_spec_example_reads_and_fills_card_objects_from_the_library():
    board = board_from_dict(SPEC_EXAMPLE, "board.json")
    fiora, sentry, boots = board.objects
    assert fiora == GameObject(
        id="fiora", name="Fiora, Victorious", card_type="unit", owner="alice", controller="alice",
        zone="battlefield", might=4, status=("defending",), buffed=True, card="Fiora, Victorious",
        rules_text=library(named("riftbound"))["Fiora, Victorious"].instantiate("fiora", "rules"),
    )  # fmt: skip
    assert sentry.keywords == (Keyword("Shield", 2), Keyword("Ganking"))
    assert sentry.rules_text[0].target == Target("filter", filter=Filter(card_type="unit", relation="friendly", other=True))
    assert (boots.might_bonus, boots.attached_to, boots.attached_since) == (2, "fiora", 6)
    assert [e.id for e in boots.effect_text] == ["boots.ganking"]
    assert board.effects[0] == Effect(
        "e1", Operation("set_might", value=4), Target("ids", ids=("fiora",)), timestamp=9, controller="bob", source="u2"
    )
    assert board.source == "board.json"


def test_library_cards_fiora_and_boots_instantiate_with_object_scoped_effect_ids():
    cards = library(named("riftbound"))
    fiora, boots = cards["Fiora, Victorious"], cards["Boots of Swiftness"]
    assert (fiora.card_type, fiora.might, fiora.keywords, fiora.might_bonus) == ("unit", 4, (), None)
    assert fiora.instantiate("f", "rules") == (
        Effect(
            "f.mighty_keywords",
            Operation("gain_keywords", keywords=(Keyword("Deflect"), Keyword("Ganking"), Keyword("Shield"))),
            Target("self"),
            conditions=(Condition("mighty", of="self"),),
        ),
    )
    assert fiora.instantiate("f", "effect") == ()
    assert (boots.card_type, boots.might, boots.keywords, boots.might_bonus) == ("gear", None, (Keyword("Equip"),), 2)
    assert boots.instantiate("b", "rules") == ()
    assert boots.instantiate("b", "effect") == (
        Effect("b.ganking", Operation("gain_keywords", keywords=(Keyword("Ganking"),)), Target("bearer")),
    )


def test_defaults_controller_is_owner_and_text_targets_self_or_bearer():
    board = board_from_dict(small_board(), "board.json")
    u1, g1, _ = board.objects
    assert u1.controller == "alice" and u1.since == 0
    assert u1.rules_text[0].target == Target("self")
    assert g1.effect_text[0].target == Target("bearer")
    assert board.ruleset.name == "riftbound" and board.settings == Settings() and board.reading("condition_timing") == "as_able"


def board_with_default_stamps() -> dict[str, Any]:
    data = small_board()
    data["objects"][0] |= {"since": 3, "buff": True, "buff_since": 3}
    data["objects"][1] |= {"since": 2, "attached_since": 2}
    return data


def test_a_buff_or_attachment_stamp_equal_to_since_is_the_default():
    u1, g1, _ = board_from_dict(board_with_default_stamps(), "board.json").objects
    assert (u1.buff_since, g1.attached_since) == (None, None)


def board_with_conditions() -> dict[str, Any]:
    data = small_board()
    data["effects"][0]["conditions"] = [
        {"controlled_by": "you", "of": "target"},
        {"might_at_least": 5, "of": "g2"},
        {"has_keyword": "Shield", "of": "target"},
        {"status": "defending", "of": "u1"},
    ]
    return data


def test_a_condition_may_name_you_an_object_or_target():
    conditions = board_from_dict(board_with_conditions(), "board.json").effects[0].conditions
    assert conditions == (
        Condition("controlled_by", of="target", player="you"),
        Condition("might_at_least", of="g2", value=5),
        Condition("has_keyword", of="target", keyword="Shield"),
        Condition("status", of="u1", status="defending"),
    )


def board_with_sourced_self() -> dict[str, Any]:
    data = small_board()
    data["effects"][0] |= {"source": "g2", "target": "self", "conditions": [{"mighty": "self"}, {"status": "attacking"}]}
    return data


def test_an_ongoing_effect_with_a_source_may_say_self():
    effect = board_from_dict(board_with_sourced_self(), "board.json").effects[0]
    assert effect.target == Target("self") and effect.conditions[1] == Condition("status", status="attacking")


def board_with_bearer() -> dict[str, Any]:
    data = small_board()
    data["objects"][1]["effect_text"][0] |= {"target": "bearer", "conditions": [{"mighty": "bearer"}]}
    return data


def test_bearer_may_be_used_in_effect_text():
    effect = board_from_dict(board_with_bearer(), "board.json").objects[1].effect_text[0]
    assert effect.conditions == (Condition("mighty", "bearer"),)


def board_with_forward_attachment() -> dict[str, Any]:
    data = small_board()
    data["objects"][2]["attached_to"] = "u1"
    data["objects"][0]["zone"] = "battlefield"
    return data


def test_a_gear_may_be_attached_to_a_later_object():
    assert board_from_dict(board_with_forward_attachment(), "board.json").objects[2].attached_to == "u1"


VALID_BOARDS: dict[str, Callable[[], dict[str, Any]]] = {
    "spec example": lambda: copy.deepcopy(SPEC_EXAMPLE),
    "small board": small_board,
    "default stamps": board_with_default_stamps,
    "conditions": board_with_conditions,
    "sourced self": board_with_sourced_self,
    "bearer": board_with_bearer,
    "forward attachment": board_with_forward_attachment,
}


@pytest.mark.parametrize("build", list(VALID_BOARDS.values()), ids=list(VALID_BOARDS))
def test_every_valid_board_here_fits_the_schema(build: Callable[[], dict[str, Any]]):
    data = build()
    board_from_dict(data, "board.json")
    assert schema_errors(data) == []


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(board_schema())


# ---- errors: one line, FILE: PATH: message -------------------------------------------------------

# (name, how to break small_board(), the exact error, whether the JSON Schema rejects it too:
# shape errors yes; references (ids, players, cycles) are beyond a schema)
Break = Callable[[dict], None]
ERRORS: list[tuple[str, Break, str, bool]] = [
    ("unknown object in attached_to",
     lambda b: b["objects"][1].update(attached_to="u9"),
     "board.json: objects[1].attached_to: unknown object 'u9'", False),
    ("copy of an unknown object",
     lambda b: b["effects"][0].update(op={"op": "copy", "of": "ghost"}),
     "board.json: effects[0].op.of: unknown object 'ghost'", False),
    ("target id unknown",
     lambda b: b["effects"][0].update(target={"ids": ["u1", "u9"]}),
     "board.json: effects[0].target.ids[1]: unknown object 'u9'", False),
    ("condition reads an unknown object",
     lambda b: b["objects"][0]["rules_text"][0].update(conditions=[{"mighty": "u9"}]),
     "board.json: objects[0].rules_text[0].conditions[0].mighty: unknown object 'u9'", False),
    ("condition of an unknown object",
     lambda b: b["effects"][0].update(conditions=[{"status": "defending", "of": "u9"}]),
     "board.json: effects[0].conditions[0].of: unknown object 'u9'", False),
    ("source is an unknown object",
     lambda b: b["effects"][0].update(source="u9"),
     "board.json: effects[0].source: unknown object 'u9'", False),
    ("unknown player as owner",
     lambda b: b["objects"][0].update(owner="carol"),
     "board.json: objects[0].owner: unknown player 'carol'; players are 'alice', 'bob'", False),
    ("unknown player as controller",
     lambda b: b["objects"][2].update(controller="carol"),
     "board.json: objects[2].controller: unknown player 'carol'; players are 'alice', 'bob'", False),
    ("unknown active player",
     lambda b: b.update(active_player="carol"),
     "board.json: active_player: unknown player 'carol'; players are 'alice', 'bob'", False),
    ("unknown effect controller",
     lambda b: b["effects"][0].update(controller="carol"),
     "board.json: effects[0].controller: unknown player 'carol'; players are 'alice', 'bob'", False),
    ("set_controller to an unknown player",
     lambda b: b["effects"][0].update(op={"op": "set_controller", "player": "you"}),
     "board.json: effects[0].op.player: unknown player 'you'; players are 'alice', 'bob'", False),
    ("controlled_by an unknown player",
     lambda b: b["effects"][0].update(conditions=[{"controlled_by": "carol", "of": "u1"}]),
     "board.json: effects[0].conditions[0].controlled_by: unknown player 'carol'; players are 'alice', 'bob'",
     False),
    ("unknown operation",
     lambda b: b["effects"][0].update(op={"op": "grow", "amount": 1}),
     "board.json: effects[0].op.op: unknown operation 'grow'; expected one of plus, minus, increase_to, "
     "plus_max, minus_min, double, gain_keywords, set_controller, add_tag, remove_tag, lose_keywords, "
     "lose_all_abilities, copy, set_might", True),
    ("operation field of another operation",
     lambda b: b["effects"][0].update(op={"op": "plus", "amount": 1, "max": 5}),
     "board.json: effects[0].op: unknown key 'max'", True),
    ("operation field missing",
     lambda b: b["effects"][0].update(op={"op": "plus_max", "amount": 1}),
     "board.json: effects[0].op: missing required field 'max'", True),
    ("missing zone",
     lambda b: b["objects"][0].pop("zone"),
     "board.json: objects[0]: missing required field 'zone'", True),
    ("missing name without a card",
     lambda b: b["objects"][0].pop("name"),
     "board.json: objects[0]: missing required field 'name' (or give a 'card')", True),
    ("missing players",
     lambda b: b.pop("players"),
     "board.json: top level: missing required field 'players'", True),
    ("ongoing effect without timestamp",
     lambda b: b["effects"][0].pop("timestamp"),
     "board.json: effects[0]: missing required field 'timestamp'", True),
    ("ongoing effect without controller",
     lambda b: b["effects"][0].pop("controller"),
     "board.json: effects[0]: missing required field 'controller'", True),
    ("ongoing effect without target",
     lambda b: b["effects"][0].pop("target"),
     "board.json: effects[0]: missing required field 'target'", True),
    ("Might as a string",
     lambda b: b["objects"][0].update(might="3"),
     "board.json: objects[0].might: expected an integer, got a string", True),
    ("a boolean is not an integer",
     lambda b: b["objects"][0].update(since=True),
     "board.json: objects[0].since: expected an integer, got a boolean", True),
    ("a fraction is not an integer",
     lambda b: b["effects"][0].update(timestamp=1.5),
     "board.json: effects[0].timestamp: expected an integer, got a number", True),
    ("buff as a number",
     lambda b: b["objects"][0].update(buff=1),
     "board.json: objects[0].buff: expected a boolean (true or false), got an integer", True),
    ("players as a string",
     lambda b: b.update(players="alice"),
     "board.json: players: expected an array, got a string", True),
    ("an object that is not an object",
     lambda b: b["objects"].append("u3"),
     "board.json: objects[3]: expected an object, got a string", True),
    ("null where a string goes",
     lambda b: b["objects"][0].update(location=None),
     "board.json: objects[0].location: expected a string, got null", True),
    ("empty id",
     lambda b: b["objects"][0].update(id=""),
     "board.json: objects[0].id: must not be empty", True),
    ("negative amount",
     lambda b: b["effects"][0].update(op={"op": "minus", "amount": -1}),
     "board.json: effects[0].op.amount: must be at least 0, got -1", True),
    ("integer beyond the limit",
     lambda b: b["objects"][0].update(might=VALUE_MAX + 1),
     "board.json: objects[0].might: must be at most 1000000 (see Limits in docs/board-format.md), got 1000001", True),
    ("gear attached to a gear",
     lambda b: (b["objects"][1].update(attached_to="g2"), b["objects"][2].update(attached_to="g1", zone="base")),
     "board.json: objects[1].attached_to: gear is attached to a unit; 'g2' is a gear", False),
    ("attached to itself",
     lambda b: b["objects"][1].update(attached_to="g1"),
     "board.json: objects[1].attached_to: an object cannot be attached to itself ('g1')", False),
    ("attached to an object not on the board",
     lambda b: b["objects"][0].update(zone="hand"),
     "board.json: objects[1].attached_to: 'u1' is not on the board (it is in hand)", False),
    ("attached while not on the board",
     lambda b: b["objects"][1].update(zone="trash"),
     "board.json: objects[1].attached_to: 'g1' is in trash; only objects on the board are attached", False),
    ("attached_since without attached_to",
     lambda b: b["objects"][2].update(attached_since=3),
     "board.json: objects[2].attached_since: given without 'attached_to'", True),
    ("buff_since without a buff",
     lambda b: b["objects"][0].update(buff_since=3),
     "board.json: objects[0].buff_since: given without \"buff\": true", True),
    ("unknown card",
     lambda b: b["objects"][0].update(card="Fiora"),
     "board.json: objects[0].card: unknown card 'Fiora'; the riftbound library has 'Boots of Swiftness', "
     "'Fiora, Victorious'", True),
    ("card object repeating a printed field",
     lambda b: b["objects"][0].update(card="Fiora, Victorious"),
     "board.json: objects[0].name: printed by card 'Fiora, Victorious'; a card object does not give it", True),
    ("unknown key",
     lambda b: b["objects"][0].update(colour="red"),
     "board.json: objects[0]: unknown key 'colour'", True),
    ("misspelt key",
     lambda b: b["objects"][0].update(mite=3),
     "board.json: objects[0]: unknown key 'mite'; did you mean 'might'?", True),
    ("unknown top-level key",
     lambda b: b.update(turn=3),
     "board.json: top level: unknown key 'turn'", True),
    ("unknown setting",
     lambda b: b.update(settings={"timing": "settled"}),
     "board.json: settings: unknown setting 'timing'", True),
    ("unknown condition timing",
     lambda b: b.update(settings={"condition_timing": "eventually"}),
     "board.json: settings.condition_timing: unknown condition timing 'eventually'; expected one of "
     "settled, immediate, as_able", True),
    ("unknown ruleset",
     lambda b: b.update(ruleset="mtg"),
     f"board.json: ruleset: unknown ruleset 'mtg'; known rulesets: {', '.join(rulesets())}", True),
    ("unknown zone",
     lambda b: b["objects"][0].update(zone="graveyard"),
     "board.json: objects[0].zone: unknown zone 'graveyard'; expected one of base, battlefield, hand, deck, "
     "trash, banishment", True),
    ("unknown type",
     lambda b: b["objects"][0].update(type="creature"),
     "board.json: objects[0].type: unknown type 'creature'; expected one of unit, gear, spell, rune, legend, "
     "battlefield, token", True),
    ("unknown status",
     lambda b: b["objects"][0].update(status=["tapped"]),
     "board.json: objects[0].status[0]: unknown status 'tapped'; expected one of attacking, defending", True),
    ("unknown filter field",
     lambda b: b["effects"][0].update(target={"filter": {"colour": "red"}}),
     "board.json: effects[0].target.filter: unknown filter field 'colour'", True),
    ("unknown relation",
     lambda b: b["effects"][0].update(target={"filter": {"relation": "ally"}}),
     "board.json: effects[0].target.filter.relation: unknown relation 'ally'; expected one of friendly, enemy",
     True),
    ("target with ids and filter",
     lambda b: b["effects"][0].update(target={"ids": ["u1"], "filter": {}}),
     "board.json: effects[0].target: expected exactly one of 'ids' or 'filter'", True),
    ("unknown condition",
     lambda b: b["effects"][0].update(conditions=[{"mightyy": "u1"}]),
     "board.json: effects[0].conditions[0]: unknown condition 'mightyy'; expected one of status, has_keyword, "
     "controlled_by, mighty, might_at_least", True),
    ("condition with two kinds",
     lambda b: b["effects"][0].update(conditions=[{"mighty": "u1", "status": "defending"}]),
     "board.json: effects[0].conditions[0]: a condition has one kind, got 'mighty' and 'status'", True),
    ("mighty with of",
     lambda b: b["effects"][0].update(conditions=[{"mighty": "u1", "of": "u1"}]),
     "board.json: effects[0].conditions[0].of: 'mighty' names its object itself: {\"mighty\": \"u1\"}", True),
    ("duplicate object ids",
     lambda b: b["objects"][2].update(id="u1"),
     "board.json: objects[2].id: duplicate object id 'u1'", False),
    ("duplicate effect ids across rules text and ongoing effects",
     lambda b: b["effects"][0].update(id="r1"),
     "board.json: effects[0].id: duplicate effect id 'r1' (also objects[0].rules_text[0])", False),
    ("a card's effect id is taken",
     lambda b: (b["objects"][2].update(id="fiora"), b["objects"][2].pop("name"), b["objects"][2].pop("type"),
                b["objects"][2].update(card="Fiora, Victorious"), b["effects"][0].update(id="fiora.mighty_keywords")),
     "board.json: effects[0].id: duplicate effect id 'fiora.mighty_keywords' (also objects[2].rules_text[0])", False),
    ("duplicate player",
     lambda b: b["players"].append("alice"),
     "board.json: players[2]: duplicate player 'alice'", True),
    ("player called you",
     lambda b: b["players"].append("you"),
     "board.json: players[2]: 'you' is reserved: conditions use it for the effect's controller", True),
    ("object called self",
     lambda b: b["objects"][2].update(id="self"),
     "board.json: objects[2].id: 'self' is reserved: effects use it to refer to an object", True),
    ("duplicate tag",
     lambda b: b["objects"][0].update(tags=["Mech", "Mech"]),
     "board.json: objects[0].tags[1]: duplicate tag 'Mech'", True),
    ("keyword with a word for a number",
     lambda b: b["objects"][0].update(keywords=["Shield x"]),
     "board.json: objects[0].keywords[0]: invalid keyword 'Shield x'; expected a name and an optional number from 1 to "
     "1000000, e.g. 'Shield 2' or 'Ganking'", True),
    ("keyword with number 0",
     lambda b: b["objects"][0].update(keywords=["Shield 0"]),
     "board.json: objects[0].keywords[0]: invalid keyword 'Shield 0'; expected a name and an optional number from 1 to "
     "1000000, e.g. 'Shield 2' or 'Ganking'", True),
    ("losing a keyword with a number",
     lambda b: b["effects"][0].update(op={"op": "lose_keywords", "keywords": ["Shield 2"]}),
     "board.json: effects[0].op.keywords[0]: invalid keyword name 'Shield 2'; expected a name without a number, "
     "e.g. 'Shield'", True),
    ("gaining no keywords",
     lambda b: b["effects"][0].update(op={"op": "gain_keywords", "keywords": []}),
     "board.json: effects[0].op.keywords: expected at least one keyword", True),
    ("bearer in rules text",
     lambda b: b["objects"][0]["rules_text"][0].update(target="bearer"),
     "board.json: objects[0].rules_text[0].target: 'bearer' is only meaningful in Effect Text (effect_text)", True),
    ("bearer in an ongoing effect's condition",
     lambda b: b["effects"][0].update(conditions=[{"has_keyword": "Shield", "of": "bearer"}]),
     "board.json: effects[0].conditions[0].of: 'bearer' is only meaningful in Effect Text (effect_text)", True),
    ("target as a target",
     lambda b: b["effects"][0].update(target="target"),
     "board.json: effects[0].target: 'target' names the affected object in conditions only", True),
    ("self in an ongoing effect without a source",
     lambda b: b["effects"][0].update(target="self"),
     "board.json: effects[0].target: 'self' in an ongoing effect needs the effect's 'source'", True),
    ("a condition's default self in an ongoing effect without a source",
     lambda b: b["effects"][0].update(conditions=[{"status": "defending"}]),
     "board.json: effects[0].conditions[0].of: 'self' in an ongoing effect needs the effect's 'source'", True),
    ("text with a controller",
     lambda b: b["objects"][0]["rules_text"][0].update(controller="bob"),
     "board.json: objects[0].rules_text[0].controller: only ongoing effects (the board's 'effects') have a "
     "controller", True),
    ("duplicate condition",
     lambda b: b["objects"][0]["rules_text"][0].update(conditions=[{"mighty": "self"}, {"mighty": "self"}]),
     "board.json: objects[0].rules_text[0].conditions[1]: duplicate condition", True),
    ("NUL in a string",
     lambda b: b["objects"][0].update(name="a\x00b"),
     "board.json: objects[0].name: must not contain a NUL character", True),
    ("object id like riftasp's name for a buff",
     lambda b: b["objects"][2].update(id="buff:u1"),
     "board.json: objects[2].id: ':' is reserved in ids: riftasp names instances buff:<id>, bonus:<gear>, "
     "keyword:<K>:<id> and <effect>@<holder> (got 'buff:u1')", True),
    ("effect id like a copied ability",
     lambda b: b["effects"][0].update(id="r1@u1"),
     "board.json: effects[0].id: '@' is reserved in ids: riftasp names instances buff:<id>, bonus:<gear>, "
     "keyword:<K>:<id> and <effect>@<holder> (got 'r1@u1')", True),
    ("attacking and defending",
     lambda b: b["objects"][0].update(status=["attacking", "defending"]),
     "board.json: objects[0].status: 'u1' cannot be attacking and defending at once", True),
    ("Effect Text on a unit",
     lambda b: b["objects"][0].update(effect_text=[{"id": "t2", "op": {"op": "double"}}]),
     "board.json: objects[0].effect_text: only gear has effect_text; 'u1' is a unit", True),
    ("Might Bonus on a unit",
     lambda b: b["objects"][0].update(might_bonus=1),
     "board.json: objects[0].might_bonus: only gear has might_bonus; 'u1' is a unit", True),
    ("a unit attached to a gear",
     lambda b: b["objects"][0].update(attached_to="g2", zone="battlefield"),
     "board.json: objects[0].attached_to: only gear is attached; 'u1' is a unit", False),
    ("arithmetic beyond the bound",
     lambda b: b["effects"].extend({"id": f"d{i}", "controller": "bob", "timestamp": 2, "op": {"op": "double"},
                                    "target": {"ids": ["u1"]}} for i in range(28)),
     "board.json: objects[0]: the effects that can apply to 'u1' could take its Might to 1,610,612,736, beyond "
     "500,000,000 (see Limits in docs/board-format.md)", False),
]  # fmt: skip


@pytest.mark.parametrize(("break_board", "message"), [(b, m) for _, b, m, _ in ERRORS], ids=[n for n, *_ in ERRORS])
def test_bad_input_is_one_exact_error_line(break_board: Break, message: str):
    data = small_board()
    break_board(data)
    assert read_error(data) == message
    assert "\n" not in message


SHAPE_ERRORS = [(name, b) for name, b, _, shape in ERRORS if shape]


@pytest.mark.parametrize("break_board", [b for _, b in SHAPE_ERRORS], ids=[n for n, _ in SHAPE_ERRORS])
def test_the_schema_rejects_the_same_shape_errors(break_board: Break):
    data = small_board()
    break_board(data)
    assert schema_errors(data) != []


def test_duplicate_keys_in_json_are_an_error_not_the_last_value():
    text = '{"players": ["a"], "objects": [{"id": "u1", "name": "X", "type": "unit", "owner": "a",\n' \
           ' "zone": "base", "might": 3, "might": 4}]}'  # fmt: skip
    with pytest.raises(BoardError, match=r"^board\.json: objects\[0\]: duplicate key 'might'$"):
        load_board_text(text, "board.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{\n  "players": ["alice"],\n  "objects": [,]\n}', "board.json: line 3 column 15: invalid JSON: Expecting value"),
        ('{"players": ["a"] "objects": []}', "board.json: line 1 column 19: invalid JSON: Expecting ',' delimiter"),
        ("", "board.json: line 1 column 1: invalid JSON: Expecting value"),
        ("[]", "board.json: top level: expected an object, got an array"),
    ],
)
def test_malformed_json_names_line_and_column(text: str, message: str):
    with pytest.raises(BoardError) as caught:
        load_board_text(text, "board.json")
    assert str(caught.value) == message


def test_an_error_stays_on_one_line_whatever_the_ids_contain():
    data = small_board()
    data["objects"][1]["attached_to"] = "line\nbreak"
    assert read_error(data) == "board.json: objects[1].attached_to: unknown object 'line\\nbreak'"


# ---- files -------------------------------------------------------------------------------------


def test_load_board_reads_json_by_suffix(tmp_path: Path):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(SPEC_EXAMPLE))
    assert load_board(path) == board_from_dict(SPEC_EXAMPLE, str(path))


def test_a_missing_file_is_a_board_error(tmp_path: Path):
    path = tmp_path / "nope.json"
    with pytest.raises(BoardError) as caught:
        load_board(path)
    assert str(caught.value) == f"{path}: no such file or folder"


def test_an_unknown_suffix_is_a_board_error(tmp_path: Path):
    path = tmp_path / "board.txt"
    path.write_text("{}")
    with pytest.raises(BoardError) as caught:
        load_board(path)
    assert str(caught.value) == f"{path}: file: unknown board format '.txt'; expected .json, .yaml, .yml or .lp"


def test_yaml_boards_read_like_json(tmp_path: Path):
    yaml = pytest.importorskip("yaml")
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(SPEC_EXAMPLE, allow_unicode=True))
    assert load_board(path) == board_from_dict(SPEC_EXAMPLE, str(path))


def test_yaml_errors_name_line_and_column_and_duplicate_keys(tmp_path: Path):
    pytest.importorskip("yaml")
    broken = tmp_path / "broken.yml"
    broken.write_text("players: [alice\nobjects: []\n")
    with pytest.raises(BoardError, match=r"broken\.yml: line 2 column 8: invalid YAML: expected ',' or ']'"):
        load_board(broken)
    twice = tmp_path / "twice.yml"
    twice.write_text("players: [alice]\nplayers: [bob]\nobjects: []\n")
    with pytest.raises(BoardError) as caught:
        load_board(twice)
    assert str(caught.value) == f"{twice}: top level: duplicate key 'players'"


def test_yaml_without_pyyaml_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "yaml", None)  # makes `import yaml` fail
    path = tmp_path / "board.yaml"
    path.write_text("players: []\nobjects: []\n")
    with pytest.raises(BoardError) as caught:
        load_board(path)
    assert str(caught.value) == f"{path}: file: reading YAML boards needs PyYAML: pip install riftasp[yaml]"


def test_lp_boards_read_by_suffix(tmp_path: Path):
    board = board_from_dict(SPEC_EXAMPLE, "x")
    path = tmp_path / "board.lp"
    path.write_text(board_facts(board))
    assert load_board(path) == replace(board, source=str(path))


# ---- .lp boards -------------------------------------------------------------------------------


def spec_facts() -> str:
    return board_facts(board_from_dict(SPEC_EXAMPLE, "board.json"))


def test_facts_of_the_spec_example_read_back_equal_including_cards():
    board = board_from_dict(SPEC_EXAMPLE, "board.lp")
    assert board_from_facts(board_facts(board), "board.lp") == board


def test_an_object_that_differs_from_its_card_is_not_read_as_the_card():
    text = spec_facts().replace('printed_might("fiora",4).', 'printed_might("fiora",5).')
    fiora = board_from_facts(text, "board.lp").objects[0]
    assert (fiora.card, fiora.might) == (None, 5)


LP_ERRORS = [
    ("syntax error", lambda t: 'player("alice").\nplayer("carol"\n',
     "board.lp: line 3 column 1: invalid ASP: syntax error, unexpected EOF, expecting ) or ;"),
    ("variable", lambda t: 'player("alice").\nplayer(X).\n',
     "board.lp: line 2 column 8: variables are not allowed: a board file holds ground facts only"),
    ("not a fact", lambda t: 'player("alice").\n{ player("carol") }.\n',
     "board.lp: line 2 column 1: choices, disjunctions and aggregates are not allowed: a board file holds ground "
     "facts only"),
    ("unknown predicate", lambda t: t + 'colour("u2",red).\n',
     'board.lp: colour("u2",red): unknown predicate colour/2; see riftasp/facts.py'),
    ("missing fact", lambda t: t.replace('zone("u2",base).\n', ""),
     'board.lp: object("u2"): missing fact zone/2'),
    ("a second single fact", lambda t: t + 'zone("u2",hand).\n',
     "board.lp: zone(\"u2\",hand): a second zone fact for object 'u2'"),
    ("fact about an undeclared object", lambda t: t + 'zone("u9",base).\n',
     "board.lp: zone(\"u9\",base): unknown object 'u9' (no object(\"u9\") fact)"),
    ("unknown zone", lambda t: t.replace('zone("u2",base)', 'zone("u2",graveyard)'),
     'board.lp: zone("u2",graveyard): the zone must be one of base, battlefield, hand, deck, trash, banishment'),
    ("id as a constant", lambda t: t.replace('owner("u2","bob")', 'owner("u2",bob)'),
     'board.lp: owner("u2",bob): the owner must be a string, e.g. "x"'),
    ("unknown object in attached", lambda t: t.replace('attached("boots","fiora",6)', 'attached("boots","u9",6)'),
     "board.lp: object(\"boots\").attached_to: unknown object 'u9'"),
    ("unknown player", lambda t: t.replace('owner("u2","bob")', 'owner("u2","carol")'),
     "board.lp: object(\"u2\").owner: unknown player 'carol'; players are 'alice', 'bob'"),
    ("copy of an unknown object", lambda t: t.replace("set_might(4)", 'copy("ghost")'),
     "board.lp: ongoing(\"e1\").op.of: unknown object 'ghost'"),
    ("effect fact of an undeclared effect", lambda t: t + 'effect_op("e9",plus(1)).\n',
     "board.lp: effect_op(\"e9\",plus(1)): unknown effect 'e9' (declared by neither text/4 nor ongoing/2)"),
    ("unknown operation", lambda t: t.replace("set_might(4)", "grow(4)"),
     'board.lp: effect_op("e1",grow(4)): unknown operation grow(4); expected one of plus/1, minus/1, '
     "increase_to/1, plus_max/2, minus_min/2, double/0, gain_keyword/2, set_controller/1, add_tag/1, "
     "remove_tag/1, lose_keyword/1, lose_all_abilities/0, copy/1, set_might/1"),
    ("two operations", lambda t: t + 'effect_op("e1",plus(1)).\n',
     'board.lp: effect_op("e1",plus(1)): an effect has one operation (several facts only for gain_keyword or '
     "lose_keyword)"),
    ("negative amount", lambda t: t.replace("plus(1)", "plus(-1)"),
     'board.lp: plus(-1): argument 1 of plus must be an integer ≥ 0'),
    ("ongoing effect without controller", lambda t: t.replace('effect_controller("e1","bob").\n', ""),
     'board.lp: ongoing("e1",(3,0,0,0)): missing fact effect_controller/2'),
    ("text with a controller", lambda t: t + 'effect_controller("u2-aura","bob").\n',
     'board.lp: effect_controller("u2-aura","bob"): only ongoing effects have a controller or a source'),
    ("listing out of board order", lambda t: t.replace('ongoing("e1",(3,0,0,0))', 'ongoing("e1",(0,0,0,0))'),
     'board.lp: ongoing("e1",(0,0,0,0)): the listing should be (3,0,0,0), from the board order (see riftasp/facts.py)'),
    ("object indices with a gap", lambda t: t.replace('object_index("boots",2)', 'object_index("boots",5)'),
     'board.lp: object_index("boots",5): object indices must number the objects 0..2, each once'),
    ("a unit attached to a gear", lambda t: t + 'attached("fiora","boots",0).\n',
     "board.lp: object(\"fiora\").attached_to: only gear is attached; 'fiora' is a unit"),
    ("bearer in rules text", lambda t: t.replace('effect_target("u2-aura",filter)', 'effect_target("u2-aura",bearer)')
     .replace('effect_filter("u2-aura",type(unit)).\n', "").replace('effect_filter("u2-aura",relation(friendly)).\n', "")
     .replace('effect_filter("u2-aura",other).\n', ""),
     'board.lp: text("u2","u2-aura",rules).target: \'bearer\' is only meaningful in Effect Text (effect_text)'),
    ("unknown ruleset", lambda t: t.replace("ruleset(riftbound)", "ruleset(mtg)"),
     f"board.lp: ruleset(mtg): the ruleset must be one of {', '.join(rulesets())}"),
    ("excluded facts are not board facts", lambda t: t + 'excluded("e1","u2").\n',
     'board.lp: excluded("e1","u2"): unknown predicate excluded/2; see riftasp/facts.py'),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), [(c, m) for _, c, m in LP_ERRORS], ids=[n for n, *_ in LP_ERRORS])
def test_bad_lp_boards_are_one_exact_error_line(change: Callable[[str], str], message: str):
    text = spec_facts()
    with pytest.raises(BoardError) as caught:
        board_from_facts(change(text), "board.lp")
    assert str(caught.value) == message


def test_lp_boards_may_omit_ruleset_and_settings():
    text = "\n".join(line for line in spec_facts().splitlines() if not line.startswith(("ruleset(", "setting(")))
    # (The spec example states the default condition_timing; without setting/2 the ruleset's
    # reading is in force, the same one.)
    read = board_from_facts(text, "board.lp")
    assert read.readings_in_force == board_from_dict(SPEC_EXAMPLE, "board.lp").readings_in_force
    assert read == replace(board_from_dict(SPEC_EXAMPLE, "board.lp"), settings=Settings())


# ---- round trips, over generated boards -------------------------------------------------------

# Ids that exercise quoting: quotes, backslashes, newlines, commas, non-ASCII.
ID_CHARS = "abcuxyz019_-. ,\"\\\n'é✓"
TEXT = st.text(alphabet=ID_CHARS, min_size=1, max_size=5)
PLAYER = TEXT.filter(lambda s: s != "you")
OBJECT_ID = TEXT.filter(lambda s: s not in ("self", "bearer", "target"))
# No dot: card text ids are `<object>.<key>`, so a generated id cannot collide with one.
EFFECT_ID = st.text(alphabet=ID_CHARS.replace(".", ""), min_size=1, max_size=5)
INT = st.integers(VALUE_MIN, VALUE_MAX)
SMALL = st.integers(-3, 12)
NUMBER = st.one_of(SMALL, INT)
KEYWORD_NAME = st.sampled_from(["Shield", "Ganking", "Deflect", "Assault", "Tank"])
# Only keywords that add up take a number (docs/semantics.md §3).
KEYWORD = KEYWORD_NAME.flatmap(lambda name: st.builds(
    Keyword, st.just(name),
    (st.none() | st.integers(1, VALUE_MAX)) if keyword_rules("riftbound").sums(name) else st.none()))


RIFTBOUND_OPERATIONS = set(layer_operations("riftbound"))


@st.composite
def operations(draw, objects: list[str], players: list[str]) -> Operation:
    # Riftbound's operations (the registry holds every ruleset's; the boards below are Riftbound's).
    names = [n for n, spec in OPERATIONS.items() if spec.functor in RIFTBOUND_OPERATIONS and (n != "copy" or objects)]
    name = draw(st.sampled_from(names))
    fields = {
        "of": lambda: draw(st.sampled_from(objects)),
        "value": lambda: draw(NUMBER),
        "player": lambda: draw(st.sampled_from(players)),
        "tag": lambda: draw(TEXT),
        "keywords": lambda: tuple(
            draw(st.lists(KEYWORD if name == "gain_keywords" else st.builds(Keyword, KEYWORD_NAME),
                          min_size=1, max_size=3, unique_by=lambda k: k.name))
        ),  # fmt: skip
        "amount": lambda: draw(st.integers(0, 1000) | st.just(VALUE_MAX)),
        "max": lambda: draw(NUMBER),
        "min": lambda: draw(NUMBER),
    }
    return Operation(name, **{f: fields[f]() for f in OPERATIONS[name].keys})


def filters() -> st.SearchStrategy[Filter]:
    maybe = st.none
    return st.builds(
        Filter,
        card_type=maybe() | st.sampled_from(CARD_TYPES),
        relation=maybe() | st.sampled_from(["friendly", "enemy"]),
        tag=maybe() | TEXT,
        zone=maybe() | st.sampled_from(ZONES),
        location=maybe() | TEXT,
        other=st.booleans(),
    )


def conditions(refs: list[str], players: list[str]) -> st.SearchStrategy[Condition]:
    ref = st.sampled_from(refs)
    return st.one_of(
        st.builds(Condition, st.just("mighty"), of=ref),
        st.builds(Condition, st.just("status"), of=ref, status=st.sampled_from(STATUSES)),
        st.builds(Condition, st.just("might_at_least"), of=ref, value=NUMBER),
        st.builds(Condition, st.just("has_keyword"), of=ref, keyword=KEYWORD_NAME),
        st.builds(Condition, st.just("controlled_by"), of=ref, player=st.sampled_from([*players, "you"])),
    )


@st.composite
def effects(draw, effect_id: str, context: str, objects: list[str], players: list[str]) -> Effect:
    ongoing = context == "ongoing"
    source = draw(st.none() | st.sampled_from(objects)) if ongoing and objects else None
    symbols = ["target"] + (["self"] if not ongoing or source else []) + (["bearer"] if context == "effect" else [])
    kinds = [k for k in ("self", "bearer") if k in symbols]
    target = draw(
        st.one_of(
            *[st.just(Target(k)) for k in kinds],
            st.builds(lambda ids: Target("ids", ids=tuple(ids)), st.lists(st.sampled_from(objects), unique=True))
            if objects else st.just(Target("ids")),
            st.builds(lambda f: Target("filter", filter=f), filters()),
        )
    )  # fmt: skip
    return Effect(
        id=effect_id,
        op=draw(operations(objects, players)),
        target=target,
        conditions=tuple(draw(st.lists(conditions(symbols + objects, players), max_size=3, unique=True))),
        timestamp=draw(NUMBER) if ongoing else draw(st.none() | NUMBER),
        controller=draw(st.sampled_from(players)) if ongoing else None,
        source=source,
    )


def stamp_other_than(draw, since: int) -> int | None:
    """An explicit stamp, or None for the default; one equal to `since` is spelt None."""
    stamp = draw(st.none() | NUMBER)
    return None if stamp == since else stamp


@st.composite
def boards(draw) -> Board:
    # The rulesets whose objects are Riftbound's (tests/test_sorcery_board.py reads Sorcery's).
    ruleset = named(draw(st.sampled_from([r for r in rulesets() if "riftbound" in lineage(r)])))
    cards = library(ruleset)
    players = draw(st.lists(PLAYER, min_size=1, max_size=3, unique=True))
    object_ids = draw(st.lists(OBJECT_ID, max_size=5, unique=True))
    effect_ids = iter(draw(st.lists(EFFECT_ID, min_size=30, max_size=30, unique=True)))

    def text(part: str) -> tuple[Effect, ...]:
        count = draw(st.integers(0, 2))
        return tuple(draw(effects(next(effect_ids), part, object_ids, players)) for _ in range(count))

    objects: list[GameObject] = []
    for object_id in object_ids:
        since = draw(NUMBER)
        zone = draw(st.sampled_from(ZONES))
        card = draw(st.none() | st.sampled_from(sorted(cards))) if cards else None
        card_type = cards[card].card_type if card is not None else draw(st.sampled_from(CARD_TYPES))
        gear = card_type == "gear"
        # Gear is attached to an earlier unit, both on the board.
        bearers = [o.id for o in objects if o.on_board and o.card_type in ("unit", "token")]
        attached_to = draw(st.none() | st.sampled_from(bearers)) if bearers and gear and zone in BOARD_ZONES else None
        buffed = draw(st.booleans())
        obj = GameObject(
            id=object_id,
            name=draw(TEXT),
            card_type=card_type,
            owner=draw(st.sampled_from(players)),
            controller=draw(st.sampled_from(players)),
            zone=zone,
            since=since,
            might=draw(st.none() | NUMBER),
            tags=tuple(draw(st.lists(TEXT, max_size=2, unique=True))),
            keywords=tuple(draw(st.lists(KEYWORD, max_size=2, unique_by=lambda k: k.name))),
            status=tuple(draw(st.lists(st.sampled_from(STATUSES), max_size=1))),  # not both at once
            location=draw(st.none() | TEXT),
            attached_to=attached_to,
            attached_since=stamp_other_than(draw, since) if attached_to else None,
            buffed=buffed,
            buff_since=stamp_other_than(draw, since) if buffed else None,
            might_bonus=draw(st.none() | NUMBER) if gear else None,
            rules_text=text("rules"),
            effect_text=text("effect") if gear else (),
        )
        if card is not None:
            definition = cards[card]
            obj = replace(
                obj, card=card, name=card, card_type=definition.card_type, might=definition.might,
                tags=definition.tags, keywords=definition.keywords, might_bonus=definition.might_bonus,
                rules_text=definition.instantiate(object_id, "rules"),
                effect_text=definition.instantiate(object_id, "effect"),
            )  # fmt: skip
        objects.append(obj)
    ongoing = tuple(
        draw(effects(next(effect_ids), "ongoing", object_ids, players)) for _ in range(draw(st.integers(0, 3)))
    )
    board = Board(
        players=tuple(players),
        active_player=draw(st.none() | st.sampled_from(players)),
        objects=tuple(objects),
        effects=ongoing,
        ruleset=ruleset,
        settings=Settings(draw(st.sampled_from(["as_able", "settled", "immediate"]))),
        source="generated",
    )
    reach = arithmetic_reach(board)
    assume(reach is None or max(reach.number, reach.keywords) <= REACH_MAX)  # rarely: many doubles
    return board


ROUND_TRIPS = settings(max_examples=budget(12, 150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.thorough
@ROUND_TRIPS
@given(boards())
def test_facts_read_back_into_the_same_board(board: Board):
    assert board_from_facts(board_facts(board), "generated") == board


@pytest.mark.thorough
@ROUND_TRIPS
@given(boards())
def test_json_reads_back_into_the_same_board(board: Board):
    data = board_to_dict(board)
    assert board_from_dict(data, "generated") == board
    assert load_board_text(json.dumps(data), "generated") == board


@pytest.mark.thorough
@ROUND_TRIPS
@given(boards())
def test_generated_boards_fit_the_schema(board: Board):
    assert schema_errors(board_to_dict(board)) == []


# ---- no input escapes as anything but a BoardError ----------------------------------------------

ODD_VALUES = [None, True, 0, -1, 2**40, 1.5, "", "x", "self", "bearer", "target", "you", "u1", "alice",
              "Shield x", "plus", "base", [], {}, ["u1"], {"op": "plus"}]  # fmt: skip


def paths_in(data: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths_in(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths_in(value, (*path, index))
    return found


@st.composite
def mutated_boards(draw) -> Any:
    data = copy.deepcopy(board_to_dict(draw(boards())) if draw(st.booleans()) else small_board())
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths_in(data)))
        if not path:
            continue
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][draw(st.sampled_from(["extra", "id", "of", "op", "ids"]))] = "u1"
    return data


FUZZ = settings(max_examples=budget(30, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reads(data: Any) -> bool:
    """Whether the reader accepts `data`; any failure must be a one-line BoardError."""
    try:
        board_from_dict(data, "board.json")
    except BoardError as error:
        assert "\n" not in str(error)
        return False
    return True


@pytest.mark.thorough
@FUZZ
@given(mutated_boards())
def test_any_mutated_board_reads_or_fails_with_a_board_error(data: Any):
    reads(data)


@pytest.mark.thorough
@FUZZ
@given(mutated_boards())
def test_the_schema_accepts_every_mutated_board_the_reader_accepts(data: Any):
    # The schema is never stricter than the reader (it is looser only where it cannot see ids).
    if reads(data):
        assert schema_errors(data) == []


@pytest.mark.thorough
@settings(max_examples=budget(30, 200), deadline=None)
@given(st.data())
def test_any_mutated_lp_board_reads_or_fails_with_a_board_error(data: st.DataObject):
    lines = spec_facts().splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    replacement = data.draw(
        st.sampled_from(["", "p.", 'object("z").', "zone(\"u2\",1).", "text(\"u2\",\"x\",rules,(1,0,1,0)).",
                         'effect_op("e1",gain_keyword("A",0)).', 'effect_target("e1",self).', "x(", "#const a=1."])
    )  # fmt: skip
    lines[index] = replacement
    try:
        board_from_facts("\n".join(lines), "board.lp")
    except BoardError as error:
        assert "\n" not in str(error)
