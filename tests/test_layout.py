"""The checkout and an installed wheel have the same shape as far as riftasp can tell: every
package and data file is in the wheel, and the data is found in both places (issue 8)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from fnmatch import fnmatch

from conftest import ROOT
from riftasp.conditions import CONDITIONS
from riftasp.filters import FILTERS
from riftasp.operations import OPERATIONS
from riftasp.resources import encoding_files, layer_operations, manifest, missing_encodings, module_file, procedure, rulesets

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
DATA = {"riftasp.encodings": ROOT / "encodings", "riftasp.library": ROOT / "facts"}


def test_every_python_package_is_built_into_the_wheel():
    packages = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "riftasp").rglob("__init__.py")
    }
    assert packages <= set(PYPROJECT["packages"])


def test_every_data_file_is_carried_by_the_wheel():
    for package, folder in DATA.items():
        patterns = PYPROJECT["package-data"][package]
        for path in folder.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                name = path.relative_to(folder).as_posix()
                assert any(fnmatch(name, pattern) for pattern in patterns), f"{package}: {name}"


def test_each_ruleset_loads_exactly_the_files_its_manifest_lists():
    assert "riftbound" in rulesets()
    # A ruleset whose encoding is not written yet (Sorcery) is refused instead
    # (tests/test_sorcery_board.py).
    for name in [r for r in rulesets() if not missing_encodings(r)]:
        files = manifest(name)["encoding"]
        loaded = encoding_files(name)
        operations, conditions, filters = layer_operations(name), files.get("conditions", []), files.get("filters", [])
        listed = (len(files.get("core", [])) + len(operations) + len(conditions) + len(filters)
                  + len(procedure(name)["files"]) + len(files.get("own", [])))  # fmt: skip
        assert len(loaded) == listed
        assert all(path.is_file() for path in loaded)
        # One file per operation the layer table names and per kind of condition, named after it.
        assert [p.stem for p in loaded if p.parent.name == "operations"] == operations
        assert [p.stem for p in loaded if p.parent.name == "conditions"] == conditions
        assert [p.stem for p in loaded if p.parent.name == "filters"] == filters


def test_a_ruleset_s_own_module_file_comes_before_the_shared_one():
    own, shared = ROOT / "encodings" / "riftbound", ROOT / "encodings"
    assert module_file("riftbound", "operations", "set_might") == own / "operations" / "set_might.lp"
    assert module_file("riftbound", "operations", "plus") == shared / "operations" / "plus.lp"
    assert module_file("riftbound", "conditions", "mighty") == own / "conditions" / "mighty.lp"
    assert module_file("riftbound", "conditions", "status") == shared / "conditions" / "status.lp"
    assert module_file("riftbound", "filters", "tag") == own / "filters" / "tag.lp"
    assert module_file("riftbound", "filters", "zone") == shared / "filters" / "zone.lp"


def test_the_python_registries_and_the_encoding_modules_name_the_same_operations_conditions_and_filters():
    # Each operation the layer table names has a registry entry whose term it is, and each
    # kind of condition the manifest lists has one (riftasp/operations/, riftasp/conditions/).
    for name in rulesets():
        functors = {spec.functor for spec in OPERATIONS.values()}
        assert set(layer_operations(name)) <= functors
        assert set(manifest(name)["encoding"].get("conditions", [])) <= set(CONDITIONS)
        assert set(manifest(name)["encoding"].get("filters", [])) <= set(FILTERS)


def test_an_installed_shape_finds_its_data_inside_the_package(tmp_path):
    # A wheel's layout: riftasp/ with encodings/ and library/ inside, nothing beside it.
    site = tmp_path / "site"
    shutil.copytree(ROOT / "riftasp", site / "riftasp", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "encodings", site / "riftasp" / "encodings")
    shutil.copytree(ROOT / "facts", site / "riftasp" / "library")
    board = ROOT / "examples" / "riftbound" / "showcase.json"
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from riftasp.cli import app; app()", "resolve", str(board), "--json"],
        cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": ""}, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == board.with_name("showcase.expected.json").read_text(encoding="utf-8")


def test_riftasp_rulesets_lists_each_ruleset_with_its_procedure_and_files():
    from typer.testing import CliRunner

    from riftasp.cli import app

    result = CliRunner().invoke(app, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    import json

    listed = {r["name"]: r for r in json.loads(result.output)}
    assert listed["riftbound"]["procedure"] == "recheck"
    assert listed["riftbound"]["files"][0] == "core/instances.lp"
    assert "procedures/recheck/choose.lp" in listed["riftbound"]["files"]
    assert "riftbound/ruleset.lp" in listed["riftbound"]["files"]
