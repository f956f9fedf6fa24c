"""The timeline mode of the engine protocol and `riftasp crosscheck` on timelines
(docs/crosscheck.md). The engine is tests/fixtures/timeline_engine.py: the reference engine with
bookkeeping of its own, and with `--only forgets-renew` a planted defect (text active again takes
back its old timestamp)."""

from __future__ import annotations

import json
from pathlib import Path
import shlex
import sys

import pytest
from typer.testing import CliRunner

from riftasp.campaign.evaluate import Sides
from riftasp.cli import app
from riftasp.engines import CallableEngine, EngineError, Unsupported, make_engine
from riftasp.timeline.crosscheck import compare_timeline, engine_moments, replay_answer
from riftasp.timeline.log import load_timeline, timeline_to_dict
from riftasp.timeline.valid import event_boards

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
import timeline_engine  # noqa: E402

runner = CliRunner()
PYTHON = shlex.quote(sys.executable)
FIXTURE = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'timeline_engine.py'))}"
PARTIAL = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'partial_engine.py'))}"
TIMELINES = ROOT / "examples" / "timelines"
CHANGING = TIMELINES / "changing-condition.json"
RETURNING = TIMELINES / "returning-text.json"


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def answering(function) -> CallableEngine:
    return CallableEngine("fake", lambda board: {}, timelines=function)


def test_a_good_answer_has_a_moment_per_event():
    timeline = load_timeline(CHANGING)
    moments = engine_moments(make_engine("reference"), timeline, event_boards(timeline))
    assert len(moments) == len(timeline.events)


def test_unsupported_and_engines_without_a_timeline_mode():
    timeline = load_timeline(CHANGING)
    boards = event_boards(timeline)
    with pytest.raises(Unsupported, match="no events here"):
        engine_moments(answering(lambda data: {"unsupported": "no events here"}), timeline, boards)
    with pytest.raises(Unsupported, match="timelines"):
        engine_moments(CallableEngine("boards only", lambda board: {}), timeline, boards)


@pytest.mark.parametrize("answer, said", [
    ({"moments": []}, "output moments: 0 moments for 5 events"),
    ({"objects": {}}, "output moments: missing"),
    ([], "output top level: expected an object"),
    ({"error": "boom"}, "reported an error on"),
])  # fmt: skip
def test_wrong_answers_are_one_line_engine_errors(answer, said):
    timeline = load_timeline(CHANGING)
    with pytest.raises(EngineError, match=said) as err:
        engine_moments(answering(lambda data: answer), timeline, event_boards(timeline))
    assert "\n" not in str(err.value) and "fake" in str(err.value) and str(CHANGING) in str(err.value)


def test_a_moment_with_other_objects_is_an_engine_error():
    timeline = load_timeline(CHANGING)
    good = replay_answer(timeline_to_dict(timeline))
    del good["moments"][2]["objects"]["trainer"]
    with pytest.raises(EngineError, match=r"moments\[2\]: answer has no entry for object 'trainer'"):
        engine_moments(answering(lambda data: good), timeline, event_boards(timeline))


def test_the_defect_shows_at_the_event_where_the_text_returns():
    for path, event in ((CHANGING, 4), (RETURNING, 3)):
        timeline_engine.ONLY.add("forgets-renew")
        try:
            fixture = answering(lambda data: timeline_engine.answer(json.dumps(data)))
            outcome = compare_timeline(Sides(fixture, "reference"), load_timeline(path))
        finally:
            timeline_engine.ONLY.clear()
        assert outcome.status == "compared" and outcome.event == event, (path, outcome)
        assert outcome.found and outcome.board is not None
        assert outcome.transitions == ("renewed",) or "renewed" in outcome.transitions


def test_crosscheck_timelines_agree_with_the_sound_fixture():
    result = cli("crosscheck", "--engine", f"{FIXTURE} --persistent", "--persistent", "--no-check", TIMELINES)
    assert result.exit_code == 0, result.output
    n = len(list(Path(TIMELINES).glob("*.json")))
    assert f"{n} boards: {n} agree, 0 disagree" in result.output


def test_crosscheck_names_the_event_and_writes_the_moment(tmp_path):
    result = cli("crosscheck", "--engine", f"{FIXTURE} --only forgets-renew", "--no-check", "--json",
                 "--out", tmp_path, CHANGING, RETURNING)  # fmt: skip
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["disagree"] == 2
    events = {t["timeline"]: t["event"] for t in report["timelines"]}
    assert events == {str(CHANGING): 4, str(RETURNING): 3}
    written = tmp_path / "changing-condition-event4.json"
    assert cli("resolve", written).exit_code == 0  # a board file
    fields = {(d["object"], d["field"]) for d in report["disagreements"]}
    assert ("u1", "keywords") in fields and ("u1", "might") in fields


def test_an_engine_without_timelines_counts_them_unsupported():
    result = cli("crosscheck", "--engine", PARTIAL, "--no-check", CHANGING)
    assert result.exit_code == 0, result.output
    assert "1 unsupported (timelines: 1)" in result.output


def test_a_bad_log_stops_crosscheck_with_one_line(tmp_path):
    bad = json.loads(CHANGING.read_text())
    bad["events"].append({"event": "move", "object": "nobody", "to": "trash"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    result = cli("crosscheck", "--engine", "reference", path)
    assert result.exit_code == 2
    assert "events[5].object: no object 'nobody'" in result.output
