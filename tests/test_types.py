"""The package's annotations hold (issue 37): mypy, as pyproject.toml's [tool.mypy] configures it,
finds no error in riftasp. CI also runs it as a step of its own (.ci/run), before the tests."""

from __future__ import annotations

import pytest

from budget import thorough_only
from conftest import ROOT

api = pytest.importorskip("mypy.api", reason="mypy comes with the test extra: pip install -e '.[test]'")


@thorough_only
def test_mypy_finds_no_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # [tool.mypy] names the package; mypy finds it (and its cache) here
    # ~7-9 s from a cold cache (.mypy_cache): in the thorough run, not the README's (which must
    # stay within 2 minutes); CI also runs mypy as a step of its own before the tests.
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, out + err


def test_the_wheel_says_the_package_is_typed():
    # PEP 561: an empty py.typed in the package, carried by the wheel, so that a project using
    # riftasp type-checks against its annotations.
    import tomllib

    assert (ROOT / "riftasp" / "py.typed").is_file()
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "py.typed" in setuptools["package-data"]["riftasp"]
