"""Bad input as data: every file in tests/bad_boards is refused with exit code 2 and exactly the
line given for it in tests/bad_boards/expected-first-lines.txt (as `riftasp resolve NAME` prints
it from inside that folder), and nothing else: no traceback, no abort, no hang.

To add a case: drop the file in the folder and its line in the manifest (sorted by name).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riftasp.cli import app

BAD = Path(__file__).resolve().parent / "bad_boards"
MANIFEST = BAD / "expected-first-lines.txt"
EXPECTED = {line.split(": ", 1)[0]: line for line in MANIFEST.read_text(encoding="utf-8").splitlines()}
FILES = sorted(p.name for p in BAD.iterdir() if p != MANIFEST)
# A few through a real process: an abort (clingo's PANIC) or a hang shows only there.
IN_A_PROCESS = ["invalid-utf8-byte.lp", "non-ascii-outside-string.lp", "include-urandom.lp", "runaway-rule.lp",
                "script-python.lp", "integer-5000-digits.json", "billion-laughs.yaml"]  # fmt: skip


def test_every_bad_board_has_its_line_and_every_format_is_covered():
    assert sorted(EXPECTED) == FILES
    suffixes = [Path(name).suffix for name in FILES]
    assert len(FILES) >= 100 and min(suffixes.count(s) for s in (".json", ".yaml", ".lp")) >= 30


@pytest.mark.parametrize("name", FILES)
def test_a_bad_board_is_one_exact_line_and_exit_2(name: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(BAD)
    result = CliRunner().invoke(app, ["resolve", name])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [EXPECTED[name]]


@pytest.mark.parametrize("name", IN_A_PROCESS)
def test_a_bad_board_in_a_real_process(name: str):
    proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "resolve", name], cwd=BAD,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [EXPECTED[name]]
