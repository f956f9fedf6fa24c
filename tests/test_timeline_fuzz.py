"""`riftasp fuzz --timelines` (docs/crosscheck.md): generated games always replay, a planted
bookkeeping defect (tests/fixtures/timeline_engine.py `--only forgets-renew`) is one finding
whatever game shows it, a sound engine gives none, and shrinking keeps the disagreement."""

from __future__ import annotations

import json
import shlex
import sys

import pytest
from typer.testing import CliRunner

from riftasp.campaign.draw import drawn_boards
from riftasp.campaign.evaluate import EngineSpec, Sides, chunk_seed
from riftasp.cli import app
from riftasp.timeline.crosscheck import compare_timeline
from riftasp.timeline.fuzz import fuzz_timelines
from riftasp.timeline.generate import timeline_strategy
from riftasp.timeline.log import timeline_from_dict
from riftasp.timeline.run import replay
from riftasp.timeline.shrink import shrink_game

from budget import budget, thorough_only
from conftest import ROOT

runner = CliRunner()
PYTHON = shlex.quote(sys.executable)
FIXTURE = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'timeline_engine.py'))} --persistent"
DEFECT = f"{FIXTURE} --only forgets-renew"


@pytest.mark.parametrize("ruleset", ["riftbound", "sorcery"])
def test_generated_games_replay(ruleset):
    games = drawn_boards(timeline_strategy(ruleset), chunk_seed(3, 0), budget(6, 60))
    kinds = set()
    for game in games:
        assert 5 <= len(game["events"]) <= 30
        moments = list(replay(timeline_from_dict(game), "reference"))  # raises on an invalid game
        assert len(moments) == len(game["events"]) + 1
        kinds |= {e["event"] for e in game["events"]}
    assert {"enter", "move", "set", "start"} <= kinds, kinds


def test_the_planted_defect_is_one_finding_and_a_sound_engine_none(tmp_path):
    out = tmp_path / "found"
    result = runner.invoke(app, ["fuzz", "--timelines", "--engine", DEFECT, "--persistent", "--count", "20",
                                 "--riftasp-engine", "reference", "--jobs", "1", "--out", str(out), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["failing_boards"] >= 2 and report["new"] == 1, report
    finding = report["counterexamples"][0]
    assert finding["count"] == report["failing_boards"]
    game = out / f"fuzz-{finding['identity']}.json"
    assert runner.invoke(app, ["timeline", str(game)]).exit_code == 0
    again = runner.invoke(app, ["crosscheck", "--engine", DEFECT, "--persistent", "--no-check", str(game)])
    assert again.exit_code == 1, again.output
    sound = runner.invoke(app, ["fuzz", "--timelines", "--engine", FIXTURE, "--persistent", "--count", "10",
                                "--riftasp-engine", "reference", "--jobs", "1", "--out", str(tmp_path / "none")])
    assert sound.exit_code == 0, sound.output
    assert "0 new findings" in sound.output


def test_shrinking_keeps_the_disagreement_and_never_grows():
    engine = EngineSpec(DEFECT, persistent=True)
    sides = Sides(engine, "reference")
    games = drawn_boards(timeline_strategy("riftbound"), chunk_seed(0, 0), 10)
    failing = [(g, o) for g in games if (o := compare_timeline(sides, timeline_from_dict(g))).found]
    assert failing
    game, outcome = failing[0]

    def evaluate(candidates):
        return [compare_timeline(sides, timeline_from_dict(c)) for c in candidates]

    shrunk, last = shrink_game(game, outcome, evaluate)
    assert len(shrunk["events"]) <= len(game["events"]) and len(shrunk["objects"]) <= len(game["objects"])
    assert compare_timeline(sides, timeline_from_dict(shrunk)).found and last.found


@thorough_only
@pytest.mark.parametrize("ruleset", ["riftbound"])
def test_one_finding_on_the_asp_resolver(ruleset):
    # Riftbound's: Sorcery's ASP engine takes ~0.2 s a calculation and shrinking replays a game
    # dozens of times (docs/performance.md, "Timelines"); the campaign's machinery is the same for
    # both sides, and test_timeline.py holds Sorcery's ASP replays equal to the reference's.
    report = fuzz_timelines(EngineSpec(DEFECT, persistent=True), ruleset=ruleset, count=16, riftasp="asp")
    assert report.failing_boards >= 2 and len(report.new_findings) == 1, report.to_json()
