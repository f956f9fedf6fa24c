"""A ruleset shipped as a distribution of its own (issue 37): riftasp finds it through the entry
points of group `riftasp.rulesets`, and it touches nothing outside its own folder and package.

The test builds, in a temporary folder, an installed distribution `riftasp_tinyrules` without pip:
its package (the plugin, riftasp_tinyrules/__init__.py, and its encoding folder,
riftasp_tinyrules/encodings/tinyrules/) and its `.dist-info` folder (METADATA and
entry_points.txt). A `.dist-info` folder on sys.path is an installed distribution for
importlib.metadata, so putting the folder on PYTHONPATH installs it. The ruleset "tinyrules"
extends none: the shared core files, the procedure "recheck", shared operations, conditions and
filters, one operation of its own (set_strength), one number of its own (Strength, a key of its
objects) and its own ruleset for the reference engine. Both engines resolve its board to the same
values and `riftasp crosscheck` agrees; the checkout's `git status` is what it was.

docs/adding-a-ruleset.md describes the same distribution."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = "riftasp_tinyrules"

# The plugin: where its encodings are, the key its objects have, its one operation, and its
# ruleset for the reference engine (a small subclass of the core's).
PLUGIN = '''
"""tinyrules, a ruleset shipped on its own (riftasp's tests/test_outside_ruleset.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from riftasp.kinds import INTEGER
from riftasp.specs import Does, ObjectField, OperationSpec, Param

# The folder holding tinyrules/manifest.toml (the registry adds it to the ruleset folders).
ENCODINGS = Path(__file__).parent / "encodings"

# Printed Strength: the number its arithmetic changes.
OBJECT_FIELDS = (
    ObjectField("strength", INTEGER, "printed_strength", "Strength", printed=True, shown="Strength {}",
                reach="start"),
)

# Its own operation; the encoding is encodings/tinyrules/operations/set_strength.lp.
OPERATIONS = (
    OperationSpec("set_strength", (Param("value", INTEGER, draw=(0, 5)),),
                  Does("set", "strength", "value", reach="starts"), "{has} base Strength {value}"),
)


def reference_ruleset(ruleset: Any) -> Any:
    """Its ruleset for the reference engine (imported here: riftasp loads plugins while it
    builds its registries, before the reference engine's modules)."""
    from .reference import TinyRules

    return TinyRules(ruleset)
'''

REFERENCE = '''
"""tinyrules for riftasp's reference engine: its printed values and its output; no kinds of
instance of its own, no keyword-borne ones."""

from __future__ import annotations

from riftasp.listing import listed_effects
from riftasp.reference.core.conditions import CORE_CONDITIONS
from riftasp.reference.core.ruleset import Ruleset
from riftasp.reference.core.state import keyword_values
from riftasp.result import Characteristics


class TinyRules(Ruleset):
    conditions = {k: v for k, v in CORE_CONDITIONS.items() if k in ("status", "controlled_by")}
    filter_members = ()

    def __init__(self, ruleset):
        super().__init__(ruleset)
        self.output_fields = ruleset.output_fields

    def listing(self, board):
        return listed_effects(board)

    def printed_values(self, obj):
        return {"controller": obj.controller, "name": obj.name, "strength": obj.strength,
                "tags": frozenset(obj.tags), "types": frozenset((obj.card_type,))}

    def own_instances(self, layout):
        return ()

    def borne_keywords(self, obj):
        return ()

    def characteristics(self, obj, state):
        abilities = sorted(state.held) if obj.on_board else [e.id for e in obj.rules_text]
        return Characteristics(
            self.output_fields, name=state.values["name"], controller=state.controller,
            strength=state.numbers["strength"], tags=sorted(state.members["tags"]),
            types=sorted(state.members["types"]), keywords=keyword_values(state.keywords, self.rules),
            zone=obj.zone, abilities=abilities,
        )
'''

# The manifest states what differs from encodings/core/defaults.toml (which gives the core files
# and the inputs every ruleset shares).
MANIFEST = '''
name = "tinyrules"
description = "Traits, then Strength arithmetic by timestamp (a ruleset shipped on its own)"
procedure = "recheck"

[encoding]
own = ["tinyrules/tinyrules.lp"]
conditions = ["status", "controlled_by"]
filters = ["relation", "zone", "other"]
input_own = [
    "location/2", "printed_strength/2", "status/2", "summing_keyword/1", "bonus_keyword/2",
    "excluded/2", "paradox_record/4", "in_scope/2",
]

[[layers]]
stage = "traits"
layer = "traits"
operations = ["set_strength", "set_controller", "add_tag", "remove_tag"]

[[layers]]
stage = "arithmetic"
layer = "arithmetic"
operations = ["plus", "minus"]

[characteristics]
single_valued = ["controller", "name"]
numeric = ["strength"]
set_valued = ["tags", "types"]
copiable = ["name", "strength", "tags", "types"]
arithmetic = "strength"

[board]
card_types = ["unit", "token"]
zones = ["base", "hand"]
board_zones = ["base"]
statuses = ["ready", "exhausted"]
exclusive_statuses = [["ready", "exhausted"]]
'''

OWN_LP = '''
% tinyrules.lp (tinyrules) — its printed values and the zone on the board.
%
% Expects:  the board facts (the manifest's input).
% Provides: board_zone/1, printed_member/3, printed_value/3.

#defined printed_strength/2.

printed_value(O,strength,S)   :- printed_strength(O,S).
printed_value(O,controller,C) :- printed_controller(O,C).
printed_value(O,name,N)       :- name(O,N).
printed_member(O,tags,T)      :- printed_tag(O,T).
printed_member(O,types,T)     :- printed_type(O,T).
board_zone(base).
'''

SET_STRENGTH_LP = '''
% set_strength.lp (tinyrules) — the operation set_strength(N): set Strength to N.
%
% Expects:  the board facts (the manifest's input).
% Provides: op_name/2, op_sets/3.

#program base.
op_name(set_strength(N),set_strength) :- effect_op(_,set_strength(N)).
op_sets(set_strength(N),strength,N) :- effect_op(_,set_strength(N)).
'''

ENTRY_POINTS = "[riftasp.rulesets]\ntinyrules = riftasp_tinyrules\n"


def install_tinyrules(root: Path) -> Path:
    """Write the distribution into `root` (a folder for PYTHONPATH) and return `root`."""
    package = root / PACKAGE
    files = {
        package / "__init__.py": PLUGIN,
        package / "reference.py": REFERENCE,
        package / "encodings" / "tinyrules" / "manifest.toml": MANIFEST,
        package / "encodings" / "tinyrules" / "tinyrules.lp": OWN_LP,
        package / "encodings" / "tinyrules" / "operations" / "set_strength.lp": SET_STRENGTH_LP,
        root / f"{PACKAGE}-0.1.dist-info" / "METADATA": f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: 0.1\n",
        root / f"{PACKAGE}-0.1.dist-info" / "entry_points.txt": ENTRY_POINTS,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


# alice's u1 (Strength 2, Mech) becomes bob's ("give", friendly objects of alice); "mark" tags
# alice's enemies, u1 among them once it is bob's; "grow" (+3 while u1 is bob's, the earliest
# timestamp) waits for the arithmetic stage, after the traits. bob's u2 (Strength 5, ready) is
# set to 4 in the traits stage, then loses 1 while ready. Off the board, h1 keeps its printed
# values. Its statuses are its own: the shared condition "status" takes its values from every
# ruleset's manifest, an installed one's included (riftasp/rulesets/__init__.py, `words_of_rulesets_listing`).
BOARD = {
    "ruleset": "tinyrules",
    "players": ["alice", "bob"],
    "objects": [
        {"id": "u1", "name": "U", "type": "unit", "owner": "alice", "zone": "base", "tags": ["Mech"], "strength": 2},
        {"id": "u2", "name": "V", "type": "unit", "owner": "bob", "zone": "base", "strength": 5, "status": ["ready"]},
        {"id": "h1", "name": "W", "type": "token", "owner": "alice", "zone": "hand", "strength": 1},
    ],
    "effects": [
        {"id": "grow", "op": {"op": "plus", "amount": 3}, "target": {"ids": ["u1"]}, "timestamp": 1,
         "controller": "alice", "conditions": [{"controlled_by": "bob", "of": "u1"}]},
        {"id": "give", "op": {"op": "set_controller", "player": "bob"}, "target": {"filter": {"relation": "friendly"}},
         "timestamp": 2, "controller": "alice"},
        {"id": "mark", "op": {"op": "add_tag", "tag": "Marked"}, "target": {"filter": {"relation": "enemy"}},
         "timestamp": 3, "controller": "alice"},
        {"id": "shrink", "op": {"op": "minus", "amount": 1}, "target": {"ids": ["u2"]}, "timestamp": 4,
         "controller": "alice", "conditions": [{"status": "ready", "of": "u2"}]},
        {"id": "reset", "op": {"op": "set_strength", "value": 4}, "target": {"ids": ["u2"]}, "timestamp": 5,
         "controller": "bob"},
    ],
}  # fmt: skip

EXPECTED = {
    "u1": {"controller": "bob", "name": "U", "strength": 5, "tags": ["Marked", "Mech"], "types": ["unit"],
           "keywords": {}, "zone": "base", "abilities": []},
    "u2": {"controller": "bob", "name": "V", "strength": 3, "tags": ["Marked"], "types": ["unit"],
           "keywords": {}, "zone": "base", "abilities": []},
    "h1": {"controller": "alice", "name": "W", "strength": 1, "tags": [], "types": ["token"],
           "keywords": {}, "zone": "hand", "abilities": []},
}  # fmt: skip


def git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout  # fmt: skip


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The folder the distribution is installed in, and the board's file (beside it)."""
    root = install_tinyrules(tmp_path_factory.mktemp("tinyrules") / "site")
    board = root.parent / "board.json"
    board.write_text(json.dumps(BOARD), encoding="utf-8")
    return root, board


def installed_env(site: Path, folders: str = "") -> dict[str, str]:
    """The environment of a process with the distribution installed (riftasp itself importable
    from this checkout), RIFTASP_RULESETS naming `folders` only, and a disk cache of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("RIFTASP_RULESETS", "PYTHONPATH")}
    env |= {"PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "RIFTASP_CACHE": str(site.parent / "cache")}
    return env | ({"RIFTASP_RULESETS": folders} if folders else {})


def riftasp(site: Path, *args: str | Path, folders: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m riftasp.cli ARGS` with the distribution installed, run outside the checkout."""
    return subprocess.run([sys.executable, "-m", "riftasp.cli", *map(str, args)], env=installed_env(site, folders),
                          cwd=site.parent, capture_output=True, text=True, timeout=120)  # fmt: skip


def test_the_installed_ruleset_is_listed_with_its_own_files_and_the_shared_ones(installed):
    site, _ = installed
    out = riftasp(site, "rulesets", "--json")
    assert out.returncode == 0, out.stderr
    listed = {r["name"]: r for r in json.loads(out.stdout)}
    assert {"riftbound", "sorcery", "tinyrules"} <= set(listed)
    tiny = listed["tinyrules"]
    assert tiny["extends"] is None and tiny["procedure"] == "recheck"
    own = site / PACKAGE / "encodings" / "tinyrules"
    assert str(own / "operations" / "set_strength.lp") in tiny["files"]
    assert str(own / "tinyrules.lp") in tiny["files"]
    assert {"core/state.lp", "operations/plus.lp", "operations/minus.lp", "conditions/controlled_by.lp",
            "filters/relation.lp", "procedures/recheck/settle.lp"} <= set(tiny["files"])  # fmt: skip
    # Every file outside riftasp's encodings is the distribution's own.
    outside = [Path(f) for f in tiny["files"] if Path(f).is_absolute()]
    assert outside and all(f.is_relative_to(site) for f in outside)


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_both_engines_resolve_its_board(installed, engine):
    site, board = installed
    out = riftasp(site, "resolve", board, "--json", "--engine", engine)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["objects"] == EXPECTED
    steps = {o: [(a["effect"], a["before"], a["after"]) for a in applied] for o, applied in result["applied"].items()}
    assert steps == {
        "u1": [("give", "alice", "bob"), ("mark", ["Mech"], ["Marked", "Mech"]), ("grow", 2, 5)],
        "u2": [("mark", [], ["Marked"]), ("reset", 5, 4), ("shrink", 4, 3)],
    }


@pytest.mark.parametrize("engine", ["reference", f"{sys.executable} -m riftasp.reference"])
def test_crosscheck_against_the_reference_engine_agrees(installed, engine):
    # The reference engine in riftasp's process, and as a command of its own (the engine
    # protocol: its process finds the installed plugin the same way). tinyrules has no invariant
    # checker: the engines are compared alone.
    site, board = installed
    out = riftasp(site, "crosscheck", "--engine", engine, board, "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert (report["boards"], report["supported"], report["agree"], report["disagree"]) == (1, 1, 1, 0), report


def test_the_ruleset_needs_nothing_in_the_checkout(tmp_path):
    # Its files are all under the temporary folder (the listing above); building, listing and
    # resolving it again leaves the checkout as it was.
    before = git_status()
    site = install_tinyrules(tmp_path / "site")
    (tmp_path / "board.json").write_text(json.dumps(BOARD), encoding="utf-8")
    assert riftasp(site, "rulesets").returncode == 0
    assert riftasp(site, "resolve", tmp_path / "board.json").returncode == 0
    assert git_status() == before


def test_an_installed_plugin_and_a_folder_plugin_at_once(installed):
    # tests/fixtures/rulesets/ by RIFTASP_RULESETS (halving's plugin.py) beside the installed
    # tinyrules: each ruleset has its own operation, and a board of one may not use the other's.
    site, board = installed
    folders = str(ROOT / "tests" / "fixtures" / "rulesets")
    listed = {r["name"] for r in json.loads(riftasp(site, "rulesets", "--json", folders=folders).stdout)}
    assert {"tinyrules", "halving", "tiny", "narrow", "riftbound", "sorcery"} <= listed
    out = riftasp(site, "resolve", board, "--json", folders=folders)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["objects"] == EXPECTED
    halving = riftasp(site, "resolve", ROOT / "tests" / "fixtures" / "rulesets" / "halving" / "boards" / "order.json",
                      "--json", "--engine", "reference", folders=folders)  # fmt: skip
    assert halving.returncode == 0, halving.stderr
    assert {o: c["might"] for o, c in json.loads(halving.stdout)["objects"].items()} == {"u1": 5, "u2": 5, "u3": 2}
    mixed = dict(BOARD, effects=[*BOARD["effects"], {"id": "h", "op": {"op": "halve"}, "target": {"ids": ["u1"]},
                                                      "timestamp": 9, "controller": "alice"}])  # fmt: skip
    path = site.parent / "mixed.json"
    path.write_text(json.dumps(mixed), encoding="utf-8")
    refused = riftasp(site, "resolve", path, folders=folders)
    assert refused.returncode == 2
    assert refused.stderr.endswith("effects[5].op.op: 'halve' is not an operation of the tinyrules ruleset\n")


def test_its_files_pass_the_encoding_interface_and_contract_checks(installed):
    # tests/test_encoding_interface.py and tests/test_engine_contract.py check every ruleset
    # riftasp knows; run with the distribution installed, they check tinyrules' files (their
    # headers, its manifest's inputs, what its program shows) as they check riftasp's own.
    site, _ = installed
    out = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                          "-k", "tinyrules", str(ROOT / "tests" / "test_encoding_interface.py"),
                          str(ROOT / "tests" / "test_engine_contract.py")],
                         cwd=ROOT, env=installed_env(site), capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:]
    # Two checks of its files' interfaces, three of the engine contract.
    assert "5 passed" in out.stdout
