"""Cross-checking a real (partial) engine: unsupported answers, fuzzing the engine's subset,
distinct findings by signature, cards sent expanded, progress, and the smaller frictions of
issue 11. The engine is tests/fixtures/partial_engine.py: no copies, four planted defects."""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riftasp.board_io import board_from_dict, board_to_dict, load_board
from riftasp.cli import app
from riftasp.crosscheck import check_board, short_explain
from riftasp.engines import CallableEngine, EngineError, Unsupported, board_json, expand_cards, make_engine
from riftasp.fuzz import fuzz
from riftasp.profile import Profile, ProfileError, load_profile, parse_without
from riftasp.progress import BarProgress, JsonLinesProgress, Progress, make_progress
from riftasp.reference import resolve as reference
from riftasp.signature import Signature, knock_out, signature

from budget import THOROUGH, budget, spread, thorough_only
from conftest import EXAMPLE_BOARDS, EXAMPLES, ROOT

sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
import partial_engine  # noqa: E402

runner = CliRunner()
PYTHON = shlex.quote(sys.executable)
PARTIAL = f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'fixtures' / 'partial_engine.py'))}"
PARTIAL_LINES = f"{PARTIAL} --persistent"
# The planted defects' signatures (tests/fixtures/partial_engine.py).
PLANTED = {Signature((field,), (op,)) for op, field in partial_engine.PLANTED.items()}


def cli(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def in_process(**options) -> CallableEngine:
    """The fixture engine without a process per board (what the command does, in this process)."""
    cards = options.get("cards", True)
    return CallableEngine("partial", lambda b: _answer(board_json(b), cards))


def _answer(text: str, cards: bool = True) -> dict:
    out = partial_engine.answer(text, cards)
    if "unsupported" in out:
        raise Unsupported(out["unsupported"])
    return out


def unit(oid="u1", **fields):
    return {"id": oid, "name": "U", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 3} | fields


def board(*objects, effects=()):
    data = {"players": ["alice", "bob"], "objects": list(objects)}
    if effects:
        data["effects"] = list(effects)
    return data


def effect(eid, op, ids=("u1",), **fields):
    return {"id": eid, "op": op, "target": {"ids": list(ids)}, "timestamp": 1, "controller": "alice"} | fields


# ---- unsupported boards: skipped and counted --------------------------------------------------


def test_crosscheck_examples_with_a_partial_engine_completes_with_counts():
    result = cli("crosscheck", "--engine", PARTIAL_LINES, "--persistent", "--json", "--no-check", EXAMPLES)
    assert result.exit_code == 1, result.output  # two examples show the plus_max defect
    report = json.loads(result.stdout)
    n = len(list(EXAMPLE_BOARDS))
    copies = sum(any(e.op.name == "copy" for e in partial_engine._effects(load_board(p)))
                 for p in EXAMPLE_BOARDS)  # fmt: skip
    assert copies >= 1
    assert report["boards"] == n and report["unsupported"] == copies
    assert report["unsupported_reasons"] == {"copy effects": copies}
    assert report["supported"] == n - copies == report["agree"] + report["disagree"]
    assert report["disagree"] >= 1
    assert {d["field"] for d in report["disagreements"]} <= {"might", "mighty", "controller", "tags"}


def test_crosscheck_exit_0_when_every_supported_board_agrees(tmp_path):
    (tmp_path / "copy.json").write_text((EXAMPLES / "copy.json").read_text())
    (tmp_path / "plain.json").write_text(json.dumps(board(unit())))
    for engine in (PARTIAL, PARTIAL_LINES):  # one-shot and persistent answers alike
        extra = ["--persistent"] if engine == PARTIAL_LINES else []
        result = cli("crosscheck", "--engine", engine, *extra, tmp_path)
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == (f"2 boards: 1 supported (1 agree, 0 disagree), 1 unsupported "
                                         f"(copy effects: 1) (riftasp vs {engine})")  # fmt: skip


def test_unsupported_answer_must_give_a_reason(tmp_path):
    path = tmp_path / "e.py"
    path.write_text("import json\nprint(json.dumps({'unsupported': 3}))\n")
    with pytest.raises(EngineError, match="output unsupported: expected a reason"):
        make_engine(f"{PYTHON} {shlex.quote(str(path))}")(load_board(EXAMPLES / "copy.json"))


def test_fuzz_does_not_stop_on_unsupported_boards():
    report = fuzz(in_process(), seed=0, count=30, riftasp=reference)
    assert report.generated == 30 and report.failure is None
    assert report.unsupported["copy effects"] >= 1
    assert report.supported + sum(report.unsupported.values()) == 30


# ---- fuzzing the engine's subset: profiles ----------------------------------------------------


def test_fuzz_without_copy_finds_each_planted_defect_once():
    # In this process, riftasp's reference engine standing in for the ASP resolver (the same
    # answers on these boards, much faster); the command line does the same below.
    # Seed 0: 200 boards reach all four planted defects, each found on many boards.
    report = fuzz(in_process(), seed=0, count=200, riftasp=reference, profile=Profile(frozenset({"copy"})))
    assert not report.unsupported  # no copy board was generated
    signatures = [c.signature for c in report.counterexamples]
    assert len(signatures) == len(set(signatures))  # each signature once
    assert PLANTED == set(signatures), signatures  # one finding per planted defect
    assert report.failing_boards == sum(c.count for c in report.counterexamples)  # repeats counted
    for finding in report.counterexamples:
        assert len(finding.board["objects"]) <= 3
        assert finding.explains and all("result: might" in t for t in finding.explains.values())


@thorough_only  # (in this process, on fewer boards: test_fuzz_without_copy_finds_each_planted_defect_once)
def test_fuzz_command_without_copy(tmp_path):
    out = tmp_path / "out"
    count = budget(50, 200)  # seed 0: 50 boards find planted defects; 200 reach all four
    result = cli("fuzz", "--engine", PARTIAL_LINES, "--persistent", "--without", "copy", "--seed", 0,
                 "--count", count, "--out", out, "--json")  # fmt: skip
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["unsupported"] == 0 and report["supported"] == report["generated"] == count
    assert report["profile"]["without"] == ["copy"]
    found = [Signature(tuple(c["signature"]["fields"]), tuple(c["signature"]["ops"]))
             for c in report["counterexamples"]]  # fmt: skip
    assert found and len(found) == len(set(found))
    assert all(set(s.ops) & set(partial_engine.PLANTED) for s in found), found
    if THOROUGH:
        # Every planted defect is found: a signature names the operations of its board; one the
        # invariant checks found names the check, not the characteristic.
        assert {op for s in found for op in s.ops} >= set(partial_engine.PLANTED), found
    files = sorted(out.glob("fuzz-*.json"))
    assert [str(p) for p in files] == sorted(c["file"] for c in report["counterexamples"])
    # The written boards reproduce the findings.
    assert cli("crosscheck", "--engine", PARTIAL_LINES, "--persistent", *files).exit_code == 1


def test_profile_names_and_files(tmp_path):
    assert parse_without(["copy,double", " loops "]) == {"copy", "double", "loops"}
    with pytest.raises(ProfileError, match="unknown name 'copies'.*operations: .*copy"):
        parse_without(["copies"])
    (tmp_path / "p.toml").write_text('without = ["copy", "gear"]\nmax_objects = 3\n')
    assert load_profile(tmp_path / "p.toml") == Profile(frozenset({"copy", "gear"}), max_objects=3)
    (tmp_path / "p.json").write_text('{"without": ["set_controller"], "max_effects": 2}')
    assert load_profile(tmp_path / "p.json") == Profile(frozenset({"set_controller"}), max_effects=2)
    (tmp_path / "bad.json").write_text('{"without": ["nope"]}')
    with pytest.raises(ProfileError, match="bad.json: unknown name 'nope'"):
        load_profile(tmp_path / "bad.json")
    (tmp_path / "extra.toml").write_text('only = ["plus"]\n')
    with pytest.raises(ProfileError, match="unknown key 'only'"):
        load_profile(tmp_path / "extra.toml")


def test_fuzz_command_rejects_bad_profiles(tmp_path):
    result = cli("fuzz", "--without", "copy,teleport", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "unknown name 'teleport'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    (tmp_path / "p.toml").write_text("without = [")
    result = cli("fuzz", "--profile", tmp_path / "p.toml", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "not a valid TOML profile" in result.stderr
    assert not (tmp_path / "out").exists()


def test_fuzz_command_reads_a_profile_file(tmp_path):
    (tmp_path / "engine.toml").write_text('without = ["copy"]\nmax_objects = 2\n')
    result = cli("fuzz", "--engine", "reference", "--profile", tmp_path / "engine.toml", "--without", "double",
                 "--count", 5, "--out", tmp_path / "out", "--json")  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    profile = json.loads(result.stdout)["profile"]
    assert profile == {"without": ["copy", "double"], "max_objects": 2, "max_effects": 6}


# ---- distinct findings: signatures ------------------------------------------------------------


def test_two_might_defects_on_one_board_are_two_findings():
    # double and plus_max are both misread on this board; both change Might.
    data = board(unit(might=4), effects=[
        effect("d", {"op": "double"}),
        effect("p", {"op": "plus_max", "amount": 3, "max": 5}, timestamp=2),
        effect("s", {"op": "set_controller", "player": "bob"}, timestamp=3),
    ])  # fmt: skip

    from hypothesis import strategies as st

    calls = []
    report = fuzz(in_process(), seed=0, count=1, riftasp=reference, strategy=st.just(data),
                  on_found=lambda f: calls.append(f.signature))  # fmt: skip
    found = {c.signature for c in report.counterexamples}
    assert {Signature(("might",), ("double",)), Signature(("might",), ("plus_max",)),
            Signature(("controller",), ("set_controller",))} == found  # fmt: skip
    assert calls == [c.signature for c in report.counterexamples]
    assert report.failing_boards == 1 and all(c.count == 1 for c in report.counterexamples)


def test_a_defect_on_printed_values_is_found_on_minimal_boards_and_counted():
    # An engine that reads every keyword as if it had no number: wrong on many boards. Each
    # failing board shrinks to a one-object board with a numbered keyword; boards that meet in
    # one shape are one finding, counted on each (which keyword it is stays part of the board).
    def numberless(b):
        out = reference(b).to_json()
        for chars in out["objects"].values():
            chars["keywords"] = {k: 1 for k in chars["keywords"]}
        return out

    report = fuzz(CallableEngine("numberless", numberless), seed=1, count=150, riftasp=reference,
                  profile=Profile(frozenset({"status"})))  # fmt: skip
    assert report.failing_boards == sum(c.count for c in report.counterexamples) >= 5
    assert len(report.counterexamples) < report.failing_boards
    for finding in report.counterexamples:
        assert finding.signature is not None and finding.signature.fields == ("keywords",)
        assert len(finding.board["objects"]) == 1


def test_signature_and_knock_out():
    data = board(unit(tags=["Mech"], rules_text=[{"id": "r", "op": {"op": "plus", "amount": 1}}]),
                 {"id": "f", "card": "Fiora, Victorious", "owner": "bob", "zone": "base"},
                 effects=[effect("t", {"op": "remove_tag", "tag": "Mech"})])  # fmt: skip
    from riftasp.compare import Disagreement

    found = [Disagreement("b", "u1", "mighty", False, True), Disagreement("b", "u1", "might", 4, 5),
             Disagreement("b", "u1", "tags", [], ["Mech"])]  # fmt: skip
    assert signature(data, found) == Signature(("might", "tags"), ("gain_keywords", "plus", "remove_tag"))
    assert signature(data, found).text() == "might, tags with gain_keywords, plus, remove_tag"
    rest = knock_out(data, {"remove_tag"})
    assert "effects" not in rest and rest["objects"] == data["objects"]
    rest = knock_out(data, {"gain_keywords"})  # Fiora's text: the card goes
    assert [o["id"] for o in rest["objects"]] == ["u1"]
    assert knock_out(data, {"double"}) is None  # nothing to knock out


def test_checker_violations_are_findings():
    # A stand-in for the invariant checker (issue 7): Might never above 6 in any answer.
    def checker(b, result):
        return [{"object": oid, "invariant": "might-at-most-6", "expected": "<= 6", "found": c["might"]}
                for oid, c in result["objects"].items() if (c["might"] or 0) > 6]  # fmt: skip

    from hypothesis import strategies as st

    data = board(unit(might=5), effects=[effect("p", {"op": "plus", "amount": 2})])
    report = fuzz(make_engine("reference"), seed=0, count=1, riftasp=reference, strategy=st.just(data),
                  checker=checker)  # fmt: skip
    assert [c.signature for c in report.counterexamples] == [
        Signature(("check:might-at-most-6@engine", "check:might-at-most-6@riftasp"), ("plus",))]
    kinds = {(d.side, d.found) for d in report.counterexamples[0].disagreements}
    assert kinds == {("riftasp", 7), ("engine", 7)}
    check = check_board(board_from_dict(data), make_engine("reference"), reference, checker=checker)
    assert [d.field for d in check.disagreements] == ["check:might-at-most-6"] * 2


# ---- cards: the library, and boards sent with cards expanded ----------------------------------


def test_cards_command_lists_the_library():
    text = cli("cards")
    assert text.exit_code == 0
    assert "Fiora, Victorious: unit; Might 4" in text.stdout
    assert "While I'm Mighty, I gain Deflect, Ganking and Shield." in text.stdout
    data = json.loads(cli("cards", "--json").stdout)
    by_name = {c["name"]: c for c in data["cards"]}
    assert by_name["Boots of Swiftness"] | {"text": ""} == {
        "name": "Boots of Swiftness", "type": "gear", "might": None, "tags": [], "keywords": ["Equip"],
        "might_bonus": 2, "rules_text": [],
        "effect_text": [{"id": "ganking", "op": {"op": "gain_keywords", "keywords": ["Ganking"]}}], "text": ""}
    assert cli("cards", "--ruleset", "nope").exit_code == 2


@pytest.mark.thorough
@pytest.mark.parametrize("name", spread(sorted(p.stem for p in EXAMPLE_BOARDS if '"card"' in p.read_text()), 3))
def test_expanded_cards_round_trip(name):
    b = load_board(EXAMPLES / f"{name}.json")
    sent = json.loads(board_json(b, expand=True))
    assert all("card" not in o for o in sent["objects"])
    # An engine can build the same board from `riftasp cards --json` alone.
    cards = {c["name"]: c for c in json.loads(cli("cards", "--json").stdout)["cards"]}
    rebuilt = board_to_dict(b)
    for obj in rebuilt["objects"]:
        if "card" in obj:
            card = cards[obj.pop("card")]
            obj |= {"name": card["name"], "type": card["type"]}
            for key in ("might", "might_bonus"):
                if card[key] is not None:
                    obj[key] = card[key]
            for key in ("tags", "keywords"):
                if card[key]:
                    obj[key] = card[key]
            for key in ("rules_text", "effect_text"):
                if card[key]:
                    obj[key] = [e | {"id": f"{obj['id']}.{e['id']}"} for e in card[key]]
    assert board_to_dict(board_from_dict(rebuilt)) == board_to_dict(board_from_dict(sent))
    # ... and resolves it the same.
    for engine in ("asp", "reference"):
        ours, theirs = make_engine(engine)(b), make_engine(engine, expand=True)(b)
        assert ours["objects"] == theirs["objects"]
    assert expand_cards(board_from_dict(sent)) == board_from_dict(sent)


def test_crosscheck_with_expanded_cards(tmp_path):
    boards = [EXAMPLES / "showcase.json", EXAMPLES / "boots-attached.json"]
    refused = cli("crosscheck", "--engine", f"{PARTIAL_LINES} --no-cards", "--persistent", *boards)
    assert refused.exit_code == 2 and "no card library" in refused.stderr
    result = cli("crosscheck", "--engine", f"{PARTIAL_LINES} --no-cards", "--persistent", "--expand-cards",
                 *boards)  # fmt: skip
    assert result.exit_code == 0, result.output


# ---- progress ---------------------------------------------------------------------------------


def few_examples(tmp_path: Path, n: int = 4) -> Path:
    folder = tmp_path / "boards"
    folder.mkdir()
    for path in EXAMPLE_BOARDS[:n]:
        (folder / path.name).write_text(path.read_text())
    return folder


def test_json_progress_records_on_stderr(tmp_path, monkeypatch):
    monkeypatch.setattr("riftasp.progress.INTERVAL", 0.0)
    n = 2
    result = cli("crosscheck", "--engine", "reference", "--json", few_examples(tmp_path, n))
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stderr.splitlines()]
    assert records[0] == {"progress": "crosscheck", "done": 0, "total": n, "seconds": records[0]["seconds"],
                          "time": records[0]["time"]}
    done = [r["done"] for r in records]
    assert [d for i, d in enumerate(done) if i == 0 or d != done[i - 1]] == list(range(n + 1))
    assert records[-1]["finished"] is True and records[-1]["done"] == n and records[-1]["agree"] == n
    json.loads(result.stdout)  # the report itself stays one JSON document on stdout

    # (One finding is enough to see its event: --max-found 1 stops there, before the rest shrink.)
    result = cli("fuzz", "--engine", PARTIAL_LINES, "--persistent", "--count", 8, "--seed", 0, "--json",
                 "--max-found", 1, "--out", tmp_path / "out")  # fmt: skip
    records = [json.loads(line) for line in result.stderr.splitlines()]
    report = json.loads(result.stdout)
    assert all(r["progress"] == "fuzz" for r in records)
    assert records[-1]["done"] == report["generated"] and records[-1]["finished"]
    events = [r for r in records if r.get("event") == "found"]
    assert len(events) == len(report["counterexamples"]) >= 1
    assert all(e["identity"] and e["time"] and e["board"] for e in events)


def test_json_progress_is_throttled():
    stream = io.StringIO()
    with JsonLinesProgress("fuzz", 100, stream, interval=3600) as progress:
        for _ in range(100):
            progress.advance()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [r["done"] for r in lines] == [0, 100] and lines[-1]["finished"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only():
    terminal = Terminal()
    progress = make_progress("crosscheck", 3, as_json=False, stream=terminal)
    assert isinstance(progress, BarProgress)
    with progress:
        for i in range(3):
            progress.advance()
            progress.update(agree=i + 1)
        progress.event("a finding")
    shown = terminal.getvalue()
    assert "crosscheck" in shown and "3/3" in shown and "agree 3" in shown and "a finding" in shown
    # Not a terminal: no bar, events as plain lines.
    plain = io.StringIO()
    progress = make_progress("crosscheck", 3, as_json=False, stream=plain)
    assert type(progress) is Progress
    with progress:
        progress.advance()
        progress.event("a finding")
    assert plain.getvalue() == "a finding\n"


def test_commands_show_no_bar_when_stderr_is_not_a_terminal(tmp_path):
    result = cli("crosscheck", "--engine", "reference", few_examples(tmp_path, 2))
    assert result.exit_code == 0 and result.stderr == ""


# ---- smaller frictions ------------------------------------------------------------------------


def test_crosscheck_folder_skips_stray_json_with_a_warning(tmp_path):
    (tmp_path / "b.json").write_text(json.dumps(board(unit())))
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1"}')
    (tmp_path / "result.json").write_text(cli("resolve", EXAMPLES / "copy.json", "--json").stdout)
    result = cli("crosscheck", "--engine", "reference", tmp_path)
    assert result.exit_code == 0, result.output
    assert "package.json: skipped, not a board" in result.stderr
    assert "result.json: skipped, not a board (it looks like a resolution" in result.stderr
    assert result.stdout.startswith("1 board: 1 agree")
    result = cli("crosscheck", "--engine", "reference", "--json", tmp_path)
    report = json.loads(result.stdout)
    assert report["boards"] == 1 and len(report["skipped"]) == 2
    records = [json.loads(line) for line in result.stderr.splitlines()]  # stderr stays JSON lines
    assert [r["file"] for r in records if r.get("event") == "skipped"] == [
        str(tmp_path / "package.json"), str(tmp_path / "result.json")]
    # A file named on the command line is meant as a board: loading it fails as usual.
    result = cli("crosscheck", "--engine", "reference", tmp_path / "package.json")
    assert result.exit_code == 2 and "package.json" in result.stderr


def test_fuzz_writes_nothing_when_nothing_is_found_and_counts_in_words(tmp_path):
    out = tmp_path / "fuzz-out"
    result = cli("fuzz", "--engine", "reference", "--without", "copy", "--count", 1, "--out", out)
    assert result.exit_code == 0, result.output
    assert not list(out.glob("fuzz-*.json")) and not (out / "findings.json").exists()  # only the run's progress
    assert result.stdout.startswith("1 board generated (1 supported), ") and "0 new findings" in result.stdout
    result = cli("crosscheck", "--engine", "reference", EXAMPLES / "copy.json")
    assert result.stdout.startswith("1 board: 1 agree")


def test_fuzz_text_report_shows_each_finding_with_its_trace(tmp_path):
    result = cli("fuzz", "--engine", PARTIAL_LINES, "--persistent", "--without", "copy", "--count", 6,
                 "--seed", 0, "--max-found", 1, "--out", tmp_path)  # fmt: skip
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    headers = [line for line in lines if line.startswith(str(tmp_path))]
    # (A lose_all_abilities from a gear's Effect Text on its bearer needs both objects.)
    assert headers and all(" with " in h and "; on " in h and re.search(r"shrunk to [12] objects?$", h)
                           for h in headers)
    assert sum("riftasp explain" in line for line in lines) >= len(headers)
    assert "result: might" in result.stdout


def test_report_explain_lines_are_short_and_do_not_repeat():
    from riftasp.resolve import resolve

    resolution = resolve(load_board(EXAMPLES / "showcase.json"))
    traces = [short_explain(resolution, oid) for oid in resolution.objects]
    for text in traces:
        assert all(len(line) <= 125 for line in text.splitlines()), text
        assert "which it depends on" not in text and "immediately after the effect" not in text
    assert any("t2, right after bob-pump" in text for text in traces)


def test_reference_engine_command_runs_outside_an_activated_venv(tmp_path):
    # `riftasp-reference` lives next to riftasp's Python; no PATH entry is needed for it.
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "riftasp-reference").exists():
        pytest.skip("riftasp is not installed with its console scripts here")
    engine = make_engine("riftasp-reference")
    assert engine(load_board(EXAMPLES / "showcase.json"))["objects"]["fiora"]["might"] == 7
    result = cli("crosscheck", "--engine", "riftasp-reference --persistent", "--persistent",
                 few_examples(tmp_path, 2))  # fmt: skip
    assert result.exit_code == 0, result.output
