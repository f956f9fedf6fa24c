"""The reference engine keeps what a step worked out when nothing it read has changed (issue 36):
dependency pairs, hypothetical applications and targeting answers. A kept answer must be the one
asked afresh: on the boards where keeping pays (loops of objects that read each other, chains,
stacks, blocks with loops inside), every kept dependency answer is compared with every pair tried
again (RIFTASP_REFERENCE_CHECK's mode), and the whole resolution with the one calculated keeping
nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import tricky  # noqa: E402 - bench/ is not a package

from riftasp.board_io import board_from_dict  # noqa: E402
from riftasp.reference import resolve  # noqa: E402
from riftasp.reference.core import dependency  # noqa: E402
from riftasp.reference.procedures import recheck  # noqa: E402

FAMILIES = [("lords", 7), ("copy-chain", 12), ("stack", 30), ("blocks", 48)]


@pytest.mark.parametrize("family,size", FAMILIES)
def test_a_dependency_kept_from_the_step_before_is_the_one_tried_afresh(family, size, monkeypatch):
    board = board_from_dict(tricky.board(family, size), f"{family}-{size}")
    monkeypatch.setattr(dependency, "CHECK_MODE", True)  # asserts inside every step
    kept = json.dumps(resolve(board).to_json(), sort_keys=True)
    monkeypatch.setattr(dependency, "CHECK_MODE", False)
    monkeypatch.setattr(recheck, "KEEP", False)
    afresh = json.dumps(resolve(board).to_json(), sort_keys=True)
    assert kept == afresh


def test_a_loop_of_lords_asks_each_pair_again_only_where_an_object_it_reads_changed(monkeypatch):
    """In a loop of k lords a step changes one lord: the pairs asked again are those of the
    anthems that read it, not all k^3 (counted: fewer than a third of asking everything)."""
    board = board_from_dict(tricky.board("lords", 10), "lords-10")
    calls = {"n": 0}
    original = dependency._Test.depends

    def counted(self, *args, **kwargs):
        calls["n"] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(dependency._Test, "depends", counted)
    resolve(board)
    kept = calls["n"]
    calls["n"] = 0
    monkeypatch.setattr(recheck, "KEEP", False)
    resolve(board)
    assert kept * 3 < calls["n"]
