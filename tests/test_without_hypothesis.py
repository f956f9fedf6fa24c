"""Everything that does not generate boards works without hypothesis (issue 40: it is the `fuzz`
extra, not a dependency), and what does generate them says in one line how to install it.

Each command runs in a subprocess where hypothesis cannot be imported: a meta-path finder placed
first refuses it, whether or not it is installed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT

WITHOUT_HYPOTHESIS = """
import sys

class NoHypothesis:
    def find_spec(self, name, path=None, target=None):
        if name == "hypothesis" or name.startswith("hypothesis."):
            raise ImportError(f"No module named {name!r} (hidden by the test)", name=name)
        return None

sys.meta_path.insert(0, NoHypothesis())
sys.argv = ["riftasp", *sys.argv[1:]]
from riftasp.launch import main
main()
"""
INSTALL = "pip install 'riftasp[fuzz]'"


def riftasp(*argv: str, tmp_path=None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-c", WITHOUT_HYPOTHESIS, *argv], cwd=tmp_path or ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_resolve():
    done = riftasp("resolve", str(ROOT / "examples/riftbound/showcase.json"))
    assert done.returncode == 0, done.stderr
    assert "fiora" in done.stdout


def test_crosscheck_with_the_reference_engine():
    done = riftasp("crosscheck", "--engine", "reference", str(ROOT / "examples/riftbound/showcase.json"))
    assert done.returncode == 0, done.stderr
    assert "1 agree" in done.stdout


@pytest.mark.parametrize("argv", [
    ["fuzz", "--count", "3"],
    ["properties", "riftbound", "--generate", "3"],
    ["compare", "riftbound", "riftbound-immediate", "--generate", "3"],
])
def test_what_generates_boards_says_how_to_install_hypothesis(argv, tmp_path):
    done = riftasp(*argv, tmp_path=tmp_path)
    assert done.returncode == 2, done.stderr
    assert INSTALL in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_generate_says_how_to_install_hypothesis():
    code = WITHOUT_HYPOTHESIS.replace("from riftasp.launch import main\nmain()", """
import riftasp
assert riftasp.resolve("examples/riftbound/showcase.json").objects
try:
    riftasp.generate(n=1)
except ImportError as err:
    print(err)
""")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert INSTALL in done.stdout
