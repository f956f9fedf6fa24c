"""The reference engine is split like the encoding (issue 8): a ruleset-neutral core and
procedures that name no ruleset's characteristics, rulesets and procedures registered by name,
and no encoding file read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import riftasp.reference
from riftasp.conditions import CONDITIONS
from riftasp.model import Board
from riftasp.operations import OPERATIONS
from riftasp.reference.registry import PROCEDURES, resolve, rules_of as ruleset
from riftasp.rulesets import all_rulesets, ruleset as named
from riftasp.resources import layer_operations, manifest

REFERENCE = Path(riftasp.reference.__file__).parent
NEUTRAL = [REFERENCE / "core", REFERENCE / "procedures"]
RIFTBOUND_WORDS = re.compile(r"might|mighty|shield|assault|buff|gear", re.IGNORECASE)


def test_the_core_and_the_procedures_name_nothing_of_riftbound():
    found = [
        f"{path.relative_to(REFERENCE)}:{n}: {line.strip()}"
        for folder in NEUTRAL
        for path in sorted(folder.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if RIFTBOUND_WORDS.search(line)
    ]
    assert found == []


def test_the_reference_engine_reads_no_encoding_file():
    for path in REFERENCE.rglob("*.py"):
        assert ".lp" not in path.read_text(encoding="utf-8"), path


def test_each_registered_ruleset_is_its_manifests_with_a_registered_procedure():
    for value in all_rulesets():
        if value.value("reference_ruleset") is None:
            continue
        rules = ruleset(value)
        assert rules.name == value.name
        assert rules.procedure == manifest(value.name)["procedure"]
        assert rules.procedure in PROCEDURES


def test_riftbound_gives_every_operation_and_condition_of_the_board_model():
    # Every one its layer table and manifest name (the registries also hold Sorcery's).
    rules = ruleset(named("riftbound"))
    listed = set(layer_operations("riftbound"))
    assert set(rules.operators) == {name for name, spec in OPERATIONS.items() if spec.functor in listed}
    assert set(rules.conditions) == set(manifest("riftbound")["encoding"]["conditions"])
    assert set(manifest("riftbound")["encoding"]["conditions"]) < set(CONDITIONS)


def test_a_ruleset_the_reference_engine_does_not_have_is_an_error():
    # (A board names its ruleset: one riftasp does not know is refused when the board is made.)
    with pytest.raises(ValueError, match="unknown ruleset 'unknown'"):
        resolve(Board(players=("alice",), active_player="alice", objects=(), ruleset="unknown"))
