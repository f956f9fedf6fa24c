"""Campaigns (issue 39): a finding per defect whatever board it was found on, a baseline of known
defects, the same findings on one core, two worker processes or a Dask cluster, a run resumed
after an interruption, hostile engines counted per board, and progress records with file and
time. The engine under test is tests/fixtures/partial_engine.py (`--only double`: one planted
defect, Double ignored)."""

from __future__ import annotations

import copy
import json
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riftasp.campaign.identity import canonical, identity
from riftasp.cli import app
from riftasp.compare import Disagreement
from riftasp.engines import CallableEngine, Unsupported, board_json
from riftasp.fuzz import fuzz
from riftasp.profile import Profile
from riftasp.reference import resolve as reference

from budget import budget, thorough_only, thorough_param
from conftest import EXAMPLES, ROOT

sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
import partial_engine  # noqa: E402

runner = CliRunner()
PYTHON = shlex.quote(sys.executable)
PARTIAL = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'partial_engine.py'))}"
ONE_DEFECT = f"{PARTIAL} --persistent --only double"
HOSTILE = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'hostile_engine.py'))}"


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def only_double(board) -> dict:
    """The one-defect engine in this process (what `ONE_DEFECT` answers)."""
    saved = set(partial_engine.ONLY)
    partial_engine.ONLY.intersection_update({"double"})
    try:
        out = partial_engine.answer(board_json(board))
    finally:
        partial_engine.ONLY.update(saved)
    if "unsupported" in out:
        raise Unsupported(out["unsupported"])
    return out


ENGINE = CallableEngine("only-double", only_double)


# ---- identity: the canonical form --------------------------------------------------------------


def unit(oid: str, might: int = 3, **fields) -> dict:
    return {"id": oid, "name": f"Unit {oid}", "type": "unit", "owner": "alice", "zone": "base", "might": might} | fields


def board_of(*objects, effects=()) -> dict:
    data = {"players": ["alice", "bob"], "objects": list(objects)}
    if effects:
        data["effects"] = list(effects)
    return data


def plus(eid: str, target: str, amount: int, timestamp: int) -> dict:
    return {"id": eid, "op": {"op": "plus", "amount": amount}, "target": {"ids": [target]},
            "timestamp": timestamp, "controller": "alice"}  # fmt: skip


def test_identity_ignores_names_times_and_listing_order():
    first = board_of(unit("u1"), unit("u2", 4), effects=[plus("a", "u1", 1, 2), plus("b", "u2", 2, 5)])
    # The same board: other ids, every time shifted, objects and effects listed the other way round.
    second = board_of(unit("x9", 4), unit("k3"), effects=[plus("q", "x9", 2, 11), plus("z", "k3", 1, 7)])
    found_first = [Disagreement("b", "u2", "might", 6, 4)]
    found_second = [Disagreement("b", "x9", "might", 6, 4)]
    assert canonical(first) == canonical(second)
    assert identity(first, found_first) == identity(second, found_second)
    # The other object differing is another finding; so is another field, or another time order.
    assert identity(first, [Disagreement("b", "u1", "might", 4, 3)]) != identity(first, found_first)
    assert identity(first, [Disagreement("b", "u2", "tags", [], ["X"])]) != identity(first, found_first)
    later = copy.deepcopy(first)
    later["effects"][0]["timestamp"] = 9
    assert identity(later, found_first) != identity(first, found_first)


def test_identity_is_the_same_in_every_run():
    # A fixed board, a fixed identity: a baseline file stays valid across runs and machines.
    data = board_of(unit("u1", 1, rules_text=[{"id": "e1", "op": {"op": "double"}}]))
    assert identity(data, [Disagreement("b", "u1", "might", 2, 1)]) == "a68eec674c9e"


# ---- one finding per defect --------------------------------------------------------------------


def test_a_planted_defect_is_one_finding_however_many_boards_show_it():
    count = budget(150, 1000)
    report = fuzz(ENGINE, seed=0, count=count, riftasp=reference, profile=Profile(frozenset({"copy"})))
    assert report.generated == count and report.failing_boards >= 5
    (finding,) = report.counterexamples
    assert finding.count == report.failing_boards
    assert finding.signature is not None and finding.signature.ops == ("double",)
    assert finding.board["objects"][0]["might"] == 1 and len(finding.board["objects"]) == 1


@thorough_only  # (in the quick run: the four planted defects, tests/test_findings.py)
def test_two_defects_of_one_operation_are_two_findings():
    # plus_max read as a plain plus (the planted defect) and, in this engine, also ignored when
    # its object is in base: both change Might with plus_max, on different minimal boards.
    def two(board):
        out = partial_engine.answer(board_json(board))
        if "unsupported" in out:
            raise Unsupported(out["unsupported"])
        return out

    report = fuzz(CallableEngine("partial", two), seed=0, count=200, riftasp=reference,
                  profile=Profile(frozenset({"copy"})))  # fmt: skip
    fields = sorted(c.signature.text() for c in report.counterexamples if c.signature)
    assert fields == ["controller with set_controller", "might with double", "might with plus_max",
                      "tags with add_tag"]  # fmt: skip


def test_a_baseline_reports_the_known_defect_as_known(tmp_path):
    first = cli("fuzz", "--engine", ONE_DEFECT, "--persistent", "--without", "copy", "--count", 60, "--seed", 0,
                "--jobs", 1, "--no-check", "--riftasp-engine", "reference", "--out", tmp_path / "a", "--json")
    assert first.exit_code == 1, first.output
    found = json.loads(first.stdout)["counterexamples"]
    assert len(found) == 1 and not found[0]["known"] and found[0]["confirmed"] is True
    again = cli("fuzz", "--engine", ONE_DEFECT, "--persistent", "--without", "copy", "--count", 60, "--seed", 0,
                "--jobs", 1, "--no-check", "--riftasp-engine", "reference", "--out", tmp_path / "b",
                "--baseline", tmp_path / "a" / "findings.json")  # fmt: skip
    assert again.exit_code == 0, again.output  # nothing new
    assert f"known (in the baseline): {found[0]['identity']}" in again.stdout and "0 new findings, 1 known" in again.stdout
    bad = cli("fuzz", "--engine", "reference", "--count", 1, "--out", tmp_path / "c", "--baseline", EXAMPLES / "showcase.json")
    assert bad.exit_code == 2 and "not a findings file" in bad.stderr and "Traceback" not in bad.output


# ---- every core, and a cluster: the same findings ----------------------------------------------


def _findings(result) -> list[tuple[str, int]]:
    assert result.exit_code == 1, result.output
    return [(c["identity"], c["count"]) for c in json.loads(result.stdout)["counterexamples"]]


def test_the_same_findings_for_any_number_of_jobs(tmp_path):
    runs = {}
    for jobs in (1, 2):
        runs[jobs] = _findings(cli("fuzz", "--engine", f"{PARTIAL} --persistent", "--persistent", "--without", "copy",
                                   "--count", 60, "--seed", 3, "--jobs", jobs, "--riftasp-engine", "reference",
                                   "--no-check", "--out", tmp_path / str(jobs), "--json"))  # fmt: skip
    assert runs[1] and runs[1] == runs[2]


def test_the_same_findings_on_a_dask_cluster(tmp_path, dask_scheduler):
    args = ["fuzz", "--engine", ONE_DEFECT, "--persistent", "--without", "copy", "--count", 60, "--seed", 1,
            "--riftasp-engine", "reference", "--no-check", "--json"]  # fmt: skip
    local = _findings(cli(*args, "--jobs", 2, "--out", tmp_path / "local"))
    cluster = _findings(cli(*args, "--scheduler", dask_scheduler, "--out", tmp_path / "cluster"))
    assert local and cluster == local
    crosscheck = cli("crosscheck", "--engine", "reference", "--scheduler", dask_scheduler, "--json", EXAMPLES)
    assert crosscheck.exit_code == 0, crosscheck.output
    assert json.loads(crosscheck.stdout)["agree"] == json.loads(crosscheck.stdout)["boards"]


# ---- resuming ----------------------------------------------------------------------------------


def test_a_resumed_run_repeats_no_finished_work_and_finds_the_same(tmp_path):
    args = ["fuzz", "--engine", ONE_DEFECT, "--persistent", "--without", "copy", "--count", 101, "--seed", 4,
            "--jobs", 1, "--riftasp-engine", "reference", "--no-check", "--json"]  # fmt: skip
    whole = json.loads(cli(*args, "--out", tmp_path / "whole").stdout)
    # An interruption: the run got through two chunks, and its last line was cut short.
    out = tmp_path / "cut"
    cli(*args, "--out", out)
    lines = (out / "chunks.jsonl").read_text().splitlines()
    (out / "chunks.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])
    (out / "shrunk.jsonl").write_text("")
    resumed = json.loads(cli(*args, "--out", out, "--resume").stdout)
    assert resumed["resumed_chunks"] == 2
    strip = ("seconds", "resumed_chunks", "counterexamples", "shrink_runs")
    assert {k: v for k, v in resumed.items() if k not in strip} == {k: v for k, v in whole.items() if k not in strip}
    assert [(c["identity"], c["count"]) for c in resumed["counterexamples"]] == \
        [(c["identity"], c["count"]) for c in whole["counterexamples"]]  # fmt: skip
    # Resumed once more, everything is on file: nothing is compared again.
    again = json.loads(cli(*args, "--out", out, "--resume").stdout)
    assert again["resumed_chunks"] == 3 and again["shrink_runs"] <= len(again["counterexamples"])
    # Other parameters are another campaign.
    other = cli(*[a if a != 4 else 5 for a in args], "--out", out, "--resume")
    assert other.exit_code == 2 and "the campaign had other parameters (seed: 4 then, 5 now)" in other.stderr


# ---- hostile engines: counted per board, never a traceback -------------------------------------

# Each kind's message: tests/test_hostile_engines.py; here, that crosscheck goes on past it.
HOSTILE_KINDS = ["not-utf8", "nested", "huge-int", "big-int", "extra-id", "missing-id", "empty-line", "not-json",
                 "not-object", "error-object", "crash-on-one", "bad-keywords", "bad-tags", "bad-applied"]  # fmt: skip
QUICK_KINDS = ["not-utf8", "huge-int", "missing-id", "crash-on-one"]


@pytest.mark.parametrize("kind", [k if k in QUICK_KINDS else thorough_param(k) for k in HOSTILE_KINDS])
def test_a_hostile_engine_is_an_engine_error_per_board_and_the_run_goes_on(kind, tmp_path):
    # The fixture is hostile on boards of one object only; the others it answers right.
    boards = [EXAMPLES / "showcase.json", EXAMPLES / "copy.json", tmp_path / "one.json"]
    boards[2].write_text(json.dumps(board_of(unit("u1"))))
    result = cli("crosscheck", "--engine", f"{HOSTILE} {kind}", "--json", *boards)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    report = json.loads(result.stdout)
    assert report["agree"] == 2 and [e["board"] for e in report["engine_errors"]] == [str(boards[2])]
    (line,) = [r for r in result.stderr.splitlines() if '"engine_error"' in r]
    assert str(boards[2]) in json.loads(line)["text"]


def test_two_answers_for_one_board_in_persistent_mode_shift_no_answer(tmp_path):
    boards = [tmp_path / "one.json", EXAMPLES / "showcase.json", EXAMPLES / "copy.json"]
    boards[0].write_text(json.dumps(board_of(unit("u1"))))
    result = cli("crosscheck", "--engine", f"{HOSTILE} two-answers --persistent", "--persistent", "--jobs", 1, "--json",
                 *boards)  # fmt: skip
    assert "Traceback" not in result.output
    report = json.loads(result.stdout)
    assert report["disagree"] == 0 and len(report["engine_errors"]) == 1, report
    assert "more than once" in report["engine_errors"][0]["error"]


def test_fuzz_counts_engine_errors_and_stops_at_the_maximum(tmp_path):
    result = cli("fuzz", "--engine", f"{HOSTILE} crash-on-one", "--count", 60, "--seed", 0, "--jobs", 1,
                 "--max-engine-errors", 3, "--no-check", "--out", tmp_path, "--json")  # fmt: skip
    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    assert report["engine_errors"] == 3 and report["generated"] < 60
    assert report["stopped"] == "--max-engine-errors 3 reached"
    assert len(list(tmp_path.glob("fuzz-seed0-engine-error-*.json"))) == 3


def test_a_missing_engine_command_is_one_line(tmp_path):
    result = cli("fuzz", "--engine", "no-such-engine-anywhere", "--count", 5, "--out", tmp_path)
    assert result.exit_code == 2 and result.stderr.strip() == \
        "engine no-such-engine-anywhere: cannot start: no such command 'no-such-engine-anywhere'"  # fmt: skip


# ---- progress --------------------------------------------------------------------------------


def test_progress_records_carry_the_file_and_the_time(tmp_path, monkeypatch):
    monkeypatch.setattr("riftasp.progress.INTERVAL", 0.0)
    result = cli("crosscheck", "--engine", "reference", "--json", "--jobs", 1, EXAMPLES / "showcase.json",
                 EXAMPLES / "copy.json")  # fmt: skip
    records = [json.loads(line) for line in result.stderr.splitlines()]
    assert all("time" in r for r in records)
    assert {r.get("file") for r in records} >= {str(EXAMPLES / "showcase.json"), str(EXAMPLES / "copy.json")}


@thorough_only
def test_riftasp_s_two_engines_find_the_same_on_a_longer_run(tmp_path):
    # The reference engine as riftasp's side gives the findings the ASP resolver gives.
    args = ["fuzz", "--engine", f"{PARTIAL} --persistent", "--persistent", "--without", "copy", "--count", 300,
            "--seed", 6, "--no-check", "--json"]  # fmt: skip
    asp = _findings(cli(*args, "--riftasp-engine", "asp", "--out", tmp_path / "asp"))
    ref = _findings(cli(*args, "--riftasp-engine", "reference", "--out", tmp_path / "ref"))
    assert asp == ref


def test_out_folder_paths(tmp_path: Path):
    # A run that finds nothing leaves only its progress; findings.json appears with findings.
    result = cli("fuzz", "--engine", "reference", "--count", 3, "--out", tmp_path / "o", "--jobs", 1)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["campaign.json", "chunks.jsonl", "shrunk.jsonl"]


def test_resolving_many_boards_on_every_core_answers_as_one_process(tmp_path):
    # From 400 boards on, `resolve` spreads them over worker processes; the answers, in order,
    # and the line of the board that cannot be read, are the same as in one process.
    folder = tmp_path / "boards"
    folder.mkdir()
    for n in range(410):
        data = board_of(unit("u1", n % 7), unit("u2", 2), effects=[plus("p", "u1", n % 3 + 1, n % 5)])
        (folder / f"b{n:03d}.json").write_text(json.dumps(data))
    (folder / "b200.json").write_text("{ not json")
    results = {jobs: cli("resolve", folder, "--json", "--jobs", jobs) for jobs in (1, 2)}
    for result in results.values():
        assert result.exit_code == 2 and "b200.json" in result.stderr and "Traceback" not in result.output
    assert results[1].stdout == results[2].stdout
    lines = [json.loads(line) for line in results[2].stdout.splitlines()]
    assert len(lines) == 410 and "error" in lines[200] and all("objects" in line for line in lines[:200])
