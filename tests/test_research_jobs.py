"""`--jobs` and `--scheduler` of the rules-research commands (issue 39, docs/campaigns.md):
`riftasp properties --generate` and `riftasp compare --generate` check their boards in fixed
groups on a runner (riftasp/campaign/pool.py), so one process, two worker processes and a Dask
cluster give the same report, failures and files; only the timing fields differ."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from budget import thorough_only
from conftest import ROOT
from riftasp.cli import app

runner = CliRunner()

# 100 Sorcery boards of seed 0: `unique` fails on 3 (two Sisters of Silence entering one after
# the other silence each other in either order), the other two hold; the reference engine keeps
# it fast (--engine auto would confirm on the ASP engine and shrink on both).
PROPERTIES = ("properties", "sorcery", "--generate", 100, "--seed", 0, "--property", "order-independent,unique,inert",
              "--engine", "reference", "--json")  # fmt: skip
# 120 boards, three chunks of fuzz's: riftbound and riftbound-timestamps (no dependency rule, R4)
# disagree on 13 of them, 7 distinct findings once shrunk (and knocked out).
COMPARE = ("compare", "riftbound", "riftbound-timestamps", "--generate", 120, "--seed", 0, "--engine", "reference",
           "--json")  # fmt: skip
TIMING = {"seconds"}


def untimed(data: Any) -> Any:
    """The report without its timing fields, anywhere in it."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in TIMING}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


def report(*args: object, code: int = 1) -> dict:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return untimed(json.loads(result.stdout))


def files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def test_properties_finds_the_same_failures_on_one_process_and_two_workers(tmp_path):
    one = report(*PROPERTIES, "--out", tmp_path, "--jobs", 1)
    written = files(tmp_path)
    two = report(*PROPERTIES, "--out", tmp_path, "--jobs", 2)
    assert two == one
    assert files(tmp_path) == written
    verdicts = {r["property"]: (r["verdict"], r["failing_boards"]) for r in one["results"]}
    assert verdicts == {"order-independent": ("holds", 0), "unique": ("fails", 3), "inert": ("holds", 0)}
    unique = one["results"][1]
    assert unique["failure"]["explanation"].startswith("2 distinct outcomes with no choice open")
    assert len(unique["board"]["objects"]) == 2  # shrunk
    assert list(written) == ["sorcery-unique.json"]


def test_compare_generate_finds_the_same_disagreements_on_one_process_and_two_workers(tmp_path):
    one = report(*COMPARE, "--out", tmp_path / "one", "--jobs", 1)
    two = report(*COMPARE, "--out", tmp_path / "two", "--jobs", 2)
    assert json.loads(json.dumps(two).replace(str(tmp_path / "two"), str(tmp_path / "one"))) == one
    written = {name: text.replace(str(tmp_path / "one"), str(tmp_path / "two")) for name, text in files(tmp_path / "one").items()}
    assert files(tmp_path / "two").keys() == written.keys()
    for name, text in files(tmp_path / "two").items():
        if name == "findings.json":  # the report, timing fields and all
            assert untimed(json.loads(text)) == untimed(json.loads(written[name]))
        else:
            assert text == written[name], name
    summary = one["summary"]
    assert (summary["generated"], summary["failing_boards"], summary["disagree"]) == (120, 13, 7)
    assert all(b["choice_points"] == ["R4"] and b["differences"] for b in one["boards"])


def test_a_variant_given_by_its_folder_is_known_to_the_workers(tmp_path):
    # In a process of its own (making a folder's rulesets known lasts for the process); the
    # worker processes learn the variant from its folder, named in each task.
    variant = tmp_path / "my-timestamps"
    variant.mkdir()
    (variant / "manifest.toml").write_text('name = "my-timestamps"\ndescription = "no dependency rule"\n'
                                           'extends = "riftbound"\n\n[readings]\ndependency = "none"\n',
                                           encoding="utf-8")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

    def run(jobs: int) -> dict:
        proc = subprocess.run([sys.executable, "-m", "riftasp.cli", "compare", "riftbound", str(variant), "--generate",
                               "50", "--engine", "reference", "--json", "--jobs", str(jobs)],
                              capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
        assert proc.returncode == 1, proc.stderr
        return untimed(json.loads(proc.stdout))

    one = run(1)
    assert run(2) == one
    assert one["summary"]["b"] == "my-timestamps" and one["summary"]["disagree"] > 0


def test_a_runner_that_cannot_be_made_is_one_line_and_exit_code_2():
    for args in (PROPERTIES, COMPARE):
        result = runner.invoke(app, [*map(str, args), "--scheduler", " "])
        assert result.exit_code == 2, result.output
        assert result.stderr.strip() == "--scheduler needs the address of a Dask scheduler, like tcp://HOST:8786"


@thorough_only  # (a cluster in the quick run: tests/test_campaigns.py, tests/test_pool.py)
def test_on_a_dask_cluster_both_report_what_one_process_does(tmp_path, dask_scheduler):
    for args in (COMPARE, PROPERTIES):
        here = report(*args, "--out", tmp_path, "--jobs", 1)
        assert report(*args, "--out", tmp_path, "--scheduler", dask_scheduler) == here


def _unit_board(might: int) -> dict:
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "active_player": "alice",
            "objects": [{"id": "u1", "name": "Unit", "type": "unit", "owner": "alice", "zone": "battlefield",
                         "might": might}]}  # fmt: skip


def test_auto_falls_back_to_asp_only_when_the_reference_engine_failed_on_every_group(monkeypatch):
    from riftasp.reference import resolve
    from riftasp.research import properties as P
    from riftasp.rulesets import ruleset

    monkeypatch.setattr(P, "GROUP", 2)  # three groups of the five boards below
    boards = [_unit_board(m) for m in (1, 2, 3, 4)] + [{"ruleset": "riftbound", "objects": "none"}]
    rules = ruleset("riftbound")

    def refusing(sources: set[str]):
        return lambda bs: ["Refused: no" if b.source in sources else resolve(b) for b in bs]

    # The reference engine fails on the boards of the first group alone: no fallback.
    monkeypatch.setitem(P.RESOLVERS, "reference", refusing({"<riftbound board 0>", "<riftbound board 1>"}))
    (result,) = P.run(rules, boards, ["rename"], "auto")
    assert (result.judged, list(result.skipped.items())) == (
        2, [("not a valid board", 1), ("the reference engine failed on it (Refused)", 2)])
    # It fails on every board: every group is checked on the ASP engine.
    monkeypatch.setitem(P.RESOLVERS, "reference", refusing({f"<riftbound board {i}>" for i in range(4)}))
    (result,) = P.run(rules, boards, ["rename"], "auto")
    assert (result.verdict, result.judged, dict(result.skipped)) == ("holds", 4, {"not a valid board": 1})
