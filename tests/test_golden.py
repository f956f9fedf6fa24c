"""Golden outputs: every example's full `--json` output, from both engines, stored beside it.

`examples/<ruleset>/NAME.expected.json` is the ASP resolver's output and
`NAME.reference.expected.json` the reference engine's, byte for byte as `riftasp resolve --json`
prints them (traces included). A change to the code that changes any of them is a change of
behaviour and must be made on purpose: `RIFTASP_UPDATE_GOLDEN=1 python -m pytest
tests/test_golden.py` rewrites them, and the diff is reviewed like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import ROOT, run
from riftasp.board_io import load_board
from riftasp.crosscheck import is_stored_output
from riftasp.resources import missing_encodings

UPDATE = os.environ.get("RIFTASP_UPDATE_GOLDEN") == "1"
# (examples/timelines/ holds games, not boards: tests/test_timeline.py replays them.)
BOARDS = sorted(p for p in (ROOT / "examples").glob("*/*.json") if not is_stored_output(p) and p.parent.name != "timelines")
SUFFIX = {"asp": ".expected.json", "reference": ".reference.expected.json"}


def engines_for(board: Path) -> tuple[str, ...]:
    """The engines that resolve the board's ruleset (its folder's name)."""
    return tuple(e for e in SUFFIX if e != "asp" or not missing_encodings(board.parent.name))


def golden_path(board: Path, engine: str) -> Path:
    return board.with_name(board.stem + SUFFIX[engine])


def rendered(board: Path, engine: str) -> str:
    # Exactly what `riftasp resolve --json` prints (cli.emit_json).
    return json.dumps(run(load_board(board), engine).to_json(), indent=2, sort_keys=False) + "\n"


@pytest.mark.parametrize(("board", "engine"), [(b, e) for b in BOARDS for e in engines_for(b)],
                         ids=lambda p: p if isinstance(p, str) else f"{p.parent.name}/{p.stem}")
def test_output_is_the_stored_golden_output(board, engine):
    path = golden_path(board, engine)
    out = rendered(board, engine)
    if UPDATE:
        path.write_text(out, encoding="utf-8")
    assert path.exists(), f"{path} missing: RIFTASP_UPDATE_GOLDEN=1 writes it"
    assert out == path.read_text(encoding="utf-8")


def test_every_stored_output_has_its_board():
    stored = {p for p in (ROOT / "examples").glob("*/*.json") if is_stored_output(p)}
    expected = {golden_path(b, e) for b in BOARDS for e in engines_for(b)}
    assert stored == expected
