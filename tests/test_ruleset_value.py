"""A ruleset is a value built once and passed on (issue 37): below the places where a ruleset's
name is read — the command line, a board's own "ruleset" key, a finding's board — nothing looks a
ruleset up by its name again; everything reads what it needs from the value it is given."""

from __future__ import annotations

import ast
import pickle

from conftest import ROOT

from riftasp.board_io import load_board
from riftasp.rulesets import Ruleset, default_ruleset, ruleset

# The lookups by name (riftasp/rulesets/__init__.py, riftasp/resources.py, riftasp/ruleset_data.py).
BY_NAME = {"ruleset", "ruleset_named", "default_ruleset", "manifest", "lineage", "layer_table", "keyword_rules",
           "board_vocabulary", "characteristic_families", "layer_operations", "encoding_files",
           "encoding_statements", "card_library", "plugin_value", "own_plugin_value"}
# Where a name is read, so looked up: the registry and the files it reads, the command line, the
# readers of a board's "ruleset" key (JSON and .lp), a board made in Python with a name (the
# model's __post_init__), a finding's board (signature), and the library's defaults (a schema or
# a fuzz run asked for without a ruleset), the reader of a ruleset's choice points (a file of its
# folder, or its base's, as resources.py reads the manifest), the rules-research commands'
# arguments that name rulesets (riftasp compare A B, riftasp properties RULESET, the search library
# function, which takes names).
READ_HERE = {"riftasp/rulesets/__init__.py", "riftasp/resources.py", "riftasp/ruleset_data.py", "riftasp/cli.py",
             "riftasp/choice_points.py", "riftasp/research/compare.py", "riftasp/research/properties.py",
             "riftasp/research/search.py",
             "riftasp/board_io/shape.py", "riftasp/board_io/lp_shape.py", "riftasp/model.py",
             "riftasp/signature.py", "riftasp/schema.py", "riftasp/fuzz.py",
             # a campaign's task names its ruleset (it travels to the workers as data); the
             # shrink's simplifications read the board format's lists of the board's ruleset
             "riftasp/campaign/evaluate.py", "riftasp/campaign/simplify.py",
             # an answer's `ruleset` field, whose family is compared with the board's
             "riftasp/check/contract.py",
             # the library's functions that take a ruleset's name (riftasp.generate)
             "riftasp/api.py",
             # fuzz --timelines draws a game of the ruleset named on the command line
             "riftasp/timeline/generate.py"}


def _lookups(path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BY_NAME:
            found.append((node.lineno, node.func.id))
    return found


def test_nothing_below_the_readers_looks_a_ruleset_up_by_name():
    found = {}
    for path in sorted((ROOT / "riftasp").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        if where in READ_HERE:
            continue
        parts = path.relative_to(ROOT / "riftasp" / "rulesets").parts if where.startswith("riftasp/rulesets/") else ()
        for line, name in _lookups(path):
            # A ruleset's own package may name itself (its words, its generators' boards).
            if parts and name in ("ruleset", "manifest", "keyword_rules", "board_vocabulary"):
                source = path.read_text(encoding="utf-8").splitlines()[line - 1]
                if parts[0] in source or "NAME" in source or "_RULESET" in source:
                    continue
            found.setdefault(where, []).append(f"{line}: {name}(...)")
    assert found == {}


def test_the_board_holds_its_ruleset_as_a_value_built_once():
    board = load_board(ROOT / "examples" / "sorcery" / "two-kings.json")
    assert isinstance(board.ruleset, Ruleset)
    assert board.ruleset is ruleset("sorcery") and board.ruleset.name == "sorcery"
    assert str(board.ruleset) == "sorcery"  # as the facts and messages name it


def test_a_ruleset_travels_to_a_worker_as_its_name():
    value = ruleset(default_ruleset())
    assert pickle.loads(pickle.dumps(value)) is value
    assert len(pickle.dumps(value)) < 200  # its name, not its plugin's module


def test_entry_points_are_read_as_importlib_metadata_reads_them():
    import importlib.metadata

    from riftasp.rulesets import entry_points

    for group in ("riftasp.rulesets", "console_scripts", "pytest11"):
        expected: dict[str, str] = {}
        for point in importlib.metadata.entry_points(group=group):
            expected.setdefault(point.name, point.value)
        assert entry_points(group) == expected, group
    assert entry_points("riftasp.rulesets") == {"riftbound": "riftasp.rulesets.riftbound",
                                                "sorcery": "riftasp.rulesets.sorcery"}


def test_the_default_ruleset_is_the_one_its_manifest_names():
    assert default_ruleset() == "riftbound"
    assert ruleset("riftbound").manifest["default"] is True
