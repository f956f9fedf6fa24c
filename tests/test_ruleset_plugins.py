"""A ruleset's Python side is its plugin (riftasp/rulesets/): the keys its objects have besides
every ruleset's, its own operations and conditions. The board format's shared modules name none
of Riftbound's: its keys come from the plugin, in the board, the facts, the `.lp` reader, the
schema and the card library alike."""

from __future__ import annotations

import ast
import re

from conftest import ROOT

from riftasp.board_io import board_from_facts, board_to_dict, load_board
from riftasp.board_io.fields import object_part, printed_keys
from riftasp.facts import board_facts
from riftasp.rulesets import riftbound, ruleset
from riftasp.schema import board_schema

RIFTBOUND_WORDS = re.compile(r"\b(might|might_bonus|buff|buffed|buff_since|printed_might)\b")
SHARED = ["riftasp/board_io/fields.py", "riftasp/board_io/shape.py", "riftasp/board_io/writing.py",
          "riftasp/board_io/lp_shape.py", "riftasp/board_io/card_lookup.py", "riftasp/model.py",
          "riftasp/schema.py", "riftasp/facts.py", "riftasp/cards.py"]  # fmt: skip


def test_riftbound_s_object_keys_come_from_its_plugin():
    assert ruleset("riftbound").object_fields == riftbound.OBJECT_FIELDS
    keys = list(object_part(ruleset("riftbound")).fields)
    assert keys[-4:] == ["might", "buff", "buff_since", "might_bonus"]
    assert {"might", "might_bonus"} <= set(printed_keys(ruleset("riftbound"))) and "buff" not in printed_keys(ruleset("riftbound"))


def _code_words(path) -> set[str]:
    """The names, attributes, keyword arguments and strings of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}  # fmt: skip
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            words.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.update(re.findall(r"[a-z_]+", node.value))
    return words


def test_the_shared_board_modules_name_no_riftbound_key_in_code():
    for name in SHARED:
        found = {w for w in _code_words(ROOT / name) if RIFTBOUND_WORDS.fullmatch(w)}
        assert found == set(), name


def test_a_board_s_own_keys_go_through_json_facts_and_back():
    board = load_board(ROOT / "examples" / "riftbound" / "showcase.json")
    again = board_from_facts(board_facts(board), "again.lp")
    assert again.objects == board.objects
    written = board_to_dict(board)["objects"]
    fiora = next(o for o in written if o["id"] == "fiora")
    assert fiora["buff"] is True and "might" not in fiora  # a card prints its Might
    facts = board_facts(board)
    assert 'buff("fiora",0).' in facts


def test_the_schema_lists_the_plugin_s_keys_and_their_rules():
    schema = board_schema(ruleset("riftbound"))["$defs"]["object"]
    assert {"might", "buff", "buff_since", "might_bonus"} <= set(schema["properties"])
    assert schema["dependentRequired"]["buff_since"] == ["buff"]
    limited = [rule["then"]["not"]["anyOf"] for rule in schema["allOf"]]
    assert [{"required": ["might_bonus"]}] in limited
