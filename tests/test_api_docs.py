"""docs/api.md's examples run as they stand (issue 40): every ```python block, each in a fresh
namespace with the repository's root as the working directory; and the research loop example
(examples/research_loop.py) on a few boards."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

import riftasp

BLOCKS = re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), re.S | re.M)


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_an_example_of_the_guide_runs(number, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(BLOCKS[number], f"docs/api.md block {number + 1}", "exec"), {"__name__": "__api_doc__"})


def test_the_library_s_names():
    assert set(riftasp.__all__) <= set(dir(riftasp))
    assert callable(riftasp.resolve) and riftasp.__version__
    module = importlib.import_module("riftasp.resolve")  # the module does not hide the function
    assert callable(module.resolve) and module.resolve is not riftasp.resolve
    assert callable(riftasp.resolve) and not isinstance(riftasp.resolve, type(riftasp))
    with pytest.raises(AttributeError):
        riftasp.no_such_name  # noqa: B018


def test_an_edit_is_validated_like_a_file():
    scout = riftasp.board(players=["alice"], objects=[
        {"id": "u1", "name": "Scout", "type": "unit", "owner": "alice", "zone": "base", "might": 2}],
        effects=[{"id": "e1", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u1"]}, "timestamp": 1,
                  "controller": "alice"}])
    with pytest.raises(riftasp.BoardError) as err:
        riftasp.edit(scout, "e1", target={"ids": ["nobody"]})
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="no effect 'e9'"):
        riftasp.edit(scout, "e9", timestamp=2)
    with pytest.raises(ValueError, match="unknown engine"):
        riftasp.resolve(scout, engine="nope")


def test_the_research_loop_runs():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "examples/research_loop.py", "--boards", "60"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "60 boards (riftbound, seed 0)" in done.stdout
    assert "boards changed" in done.stdout
