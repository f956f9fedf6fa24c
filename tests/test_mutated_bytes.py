"""The bundled boards with their bytes mutated (examples/*.json, their YAML versions and
facts/boards/*.lp): every result is exit code 0 or 2, one error line naming the file for 2, never a
traceback, an abort or a hang. Most inputs run in process (an abort would take the test run with
it); a sample runs in a process of its own with a timeout (a hang shows there)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from budget import budget
from conftest import EXAMPLE_BOARDS, ROOT
from riftasp.cli import app


def corpus() -> list[tuple[str, bytes]]:
    """(suffix, bytes) of every bundled board, JSON boards also as YAML."""
    boards = [(".json", p.read_bytes()) for p in EXAMPLE_BOARDS]
    boards += [(".yaml", yaml.safe_dump(yaml.safe_load(data), sort_keys=False).encode()) for _, data in boards]
    boards += [(".lp", p.read_bytes()) for p in sorted((ROOT / "facts" / "boards").glob("*.lp"))]
    return boards


CORPUS = corpus()
# Bytes that break things: partial UTF-8, NUL, directives, rules, runaway numbers, YAML aliases,
# comment and string openers, reserved id characters, control characters.
INSERTS = [b"\xc3", b"\xff", "é".encode(), b"\x00", b"\x1b", b'#include "/dev/zero".', b"#script (python)",
           b"n(0). n(X+1) :- n(X).", b"n(1..300000000).", b"9" * 60, b"2147483648", b"-", b'"', b"\\", b"[",
           b"{", b"]", b"}", b",", b":", b"@", b"*a", b"&a ", b"%*", b"%", b".", b"\n", b"\t", b"1e999",
           b"double", b"true", b"null", b" X", b"-p(1).", b"'"]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    suffix, data = draw(st.sampled_from(CORPUS))
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["flip", "insert", "delete", "repeat", "truncate"]))
        if kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(INSERTS) | st.binary(min_size=1, max_size=4))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 40))] * draw(st.integers(2, 20))
        elif kind == "truncate":
            del data[at:]
    return suffix, bytes(data)


def check(code: int, stdout: str, stderr: str, path: Path) -> None:
    assert code in (0, 2), f"exit code {code}: {stderr[-2000:]}"
    assert "Traceback" not in stderr and "PANIC" not in stderr
    if code == 2:
        assert stdout == ""
        lines = stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{path}: "), stderr[-2000:]


@pytest.mark.thorough
@settings(max_examples=budget(20, 1000), deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated(), st.sampled_from(["asp", "reference"]))
def test_a_mutated_board_is_answered_or_refused_in_one_line(board: tuple[str, bytes], engine: str):
    suffix, data = board
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"board{suffix}"
        path.write_bytes(data)
        result = CliRunner().invoke(app, ["resolve", str(path), "--engine", engine, "--time-limit", "60"])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        check(result.exit_code, result.stdout, result.stderr, path)


@pytest.mark.thorough
@settings(max_examples=budget(3, 40), deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_a_mutated_board_in_a_process_of_its_own(board: tuple[str, bytes]):
    suffix, data = board
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"board{suffix}"
        path.write_bytes(data)
        proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "resolve", str(path), "--time-limit", "60"],
                              capture_output=True, text=True, errors="replace", timeout=120)  # fmt: skip
        check(proc.returncode, proc.stdout, proc.stderr, path)
