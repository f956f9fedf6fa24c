"""bench/symbol_table.py compares a generated Riftbound board resolved whole with its parts
resolved apart; that comparison means something only if the parts are the same calculation.
The generated board is made of blocks of ten that read nothing outside themselves (a block's
units read its leader), so cutting it between blocks must leave every answer as it was."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from boards import generate  # noqa: E402 - bench/ is not a package
from budget import thorough_only  # noqa: E402
from symbol_table import parts_of  # noqa: E402

from riftasp.board_io import board_from_dict  # noqa: E402
from riftasp.resolve import resolve  # noqa: E402


def test_the_parts_are_whole_blocks_covering_the_board_once() -> None:
    board = generate(95)
    parts = parts_of(board, 3)
    ids = [o["id"] for part in parts for o in part["objects"]]
    assert ids == [o["id"] for o in board["objects"]]
    # Each part starts at a block's leader (u0, u40, u80: 95 objects in 3 parts of 4 blocks).
    assert [part["objects"][0]["id"] for part in parts] == ["u0", "u40", "u80"]
    assert sorted(e["id"] for part in parts for e in part["effects"]) == sorted(e["id"] for e in board["effects"])


@thorough_only  # (four resolves of a 30-object board; a benchmark's premise, not a rule)
def test_each_part_resolves_as_it_does_in_the_whole_board() -> None:
    board = generate(30)  # three blocks of ten, a part each
    whole = resolve(board_from_dict(board, "whole")).to_json()
    for index, part in enumerate(parts_of(board, 3)):
        alone = resolve(board_from_dict(part, f"part-{index}")).to_json()
        assert alone["objects"] == {oid: whole["objects"][oid] for oid in alone["objects"]}
        assert alone["applied"] == {oid: whole["applied"][oid] for oid in alone["applied"]}
