"""Hardening of `riftasp check --resolution` and of doubtful boards (issue 39, part 4).

Bad input of any kind is one line naming the file and the field or id, exit code 2, no
traceback, no hang and no silently wrong answer: a resolution that is not the output contract
(docs/check.md, "Output and exit codes"), and the boards docs/board-format.md refuses. What the
board format accepts though it looks doubtful is pinned here too. And every check the checkers
can report rests on a rule or on a riftasp Decision that exists (docs/check.md, "Rules and
Decisions")."""

from __future__ import annotations

import ast
import copy
import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from riftasp.board_io import BoardError, board_from_dict, load_board
from riftasp.check import DECISION, RULE, CampaignChecker, ContractError, Report, check_report
from riftasp.check.contract import MAX_RESOLUTION_BYTES, NUMBER_LIMIT, parse_resolution
from riftasp.check.report import basis_of
from riftasp.cli import app
from riftasp.compare import Violation as Finding
from riftasp.reference import resolve as reference
from riftasp.resolve import resolve
from riftasp.rulesets import ruleset

from conftest import ROOT

runner = CliRunner()
RIFTBOUND = ROOT / "examples" / "riftbound"
SORCERY = ROOT / "examples" / "sorcery"
PLAIN = RIFTBOUND / "set-then-modify.json"


def cli(*args: Any):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(result) -> str:
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def answer(board: Path) -> dict[str, Any]:
    """riftasp's stored answer for an example board (its golden output)."""
    return json.loads(board.with_name(board.stem + ".expected.json").read_text())


# ---- a resolution that is not the contract: one line naming the field --------------------------


def _set(path: list, value: Any):
    def change(res: dict) -> dict:
        node = res
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return res

    return change


WITHDRAWAL = {"object": "u1", "effect": "plus2", "round": 1, "failed": ["condition"], "because": []}
REFUSED = [
    (_set(["objects", "u1", "might"], 2**63), "objects.u1.might: 9,223,372,036,854,775,808 is out of range: "
     "a resolution's numbers are below 2**63 in magnitude"),
    (_set(["objects", "u1", "might"], -(2**63)), "objects.u1.might: -9,223,372,036,854,775,808 is out of range: "
     "a resolution's numbers are below 2**63 in magnitude"),
    (_set(["applied", "u1", 0, "timestamp"], 10**30), "applied.u1[0].timestamp: "
     "1,000,000,000,000,000,000,000,000,000,000 is out of range: a resolution's numbers are below 2**63 in magnitude"),
    (_set(["applied", "u1", 1, "before"], 2**64), "applied.u1[1].before: 18,446,744,073,709,551,616 is out of "
     "range: a resolution's numbers are below 2**63 in magnitude"),
    (_set(["ruleset"], 5), "ruleset: expected a string, got int"),
    (_set(["ruleset"], "sorcery"), "ruleset: 'sorcery', but the board is of the riftbound ruleset"),
    (_set(["engine"], []), "engine: expected a string, got list"),
    (_set(["objects"], {}), "objects: missing object 'u1' of the board"),
    (_set(["objects", "u9"], {}), "objects.u9: not an object of this board"),
    (_set(["objects", "u1", "name"], "U\x001"), "objects.u1.name: a string must not contain a NUL character"),
    (_set(["objects", "u1", "tags"], ["\ud800"]), "objects.u1.tags[0]: a string is not valid Unicode (an unpaired "
     "surrogate)"),
    (_set(["applied", "u1"], 5), "applied.u1: expected a list of applications, got int"),
    (_set(["applied", "u9"], []), "applied.u9: not an object of this board"),
    (_set(["needs"], 5), "needs: expected an object of id: names, got int"),
    (_set(["needs"], {"u1": "u1"}), "needs.u1: expected a list of strings, got str"),
    (_set(["needs"], {"u1": ["u9"]}), "needs.u1[0]: 'u9' is not an object of this board"),
    (_set(["needs"], {"u9": []}), "needs.u9: not an object of this board"),
    (_set(["dependency_cycles"], "x"), "dependency_cycles: expected a list of lists of strings, got str"),
    (_set(["dependency_cycles"], [[1]]), "dependency_cycles[0][0]: expected a string, got int"),
    (_set(["dependency_cycles"], None), "dependency_cycles: expected a list of lists of strings, got null"),
    (_set(["object_loops"], [["u1", "u9"]]), "object_loops[0][1]: 'u9' is not an object of this board"),
    (_set(["object_loops"], {}), "object_loops: expected a list of lists of strings, got dict"),
    (_set(["timestamp_ties"], [["plus2", None]]), "timestamp_ties[0][1]: expected a string, got null"),
    (_set(["paradoxes"], 0), "paradoxes: expected a list of lists of strings, got int"),
    (_set(["paradoxes"], [{}]), "paradoxes[0]: expected a list of strings, got dict"),
    (_set(["withdrawn"], []), "withdrawn: expected an object of id: names, got list"),
    (_set(["withdrawn"], {"u9": ["x"]}), "withdrawn.u9: not an object of this board"),
    (_set(["withdrawals"], {}), "withdrawals: expected a list of withdrawals, got dict"),
    (_set(["withdrawals"], [{"object": "u1"}]), "withdrawals[0]: missing field 'effect'"),
    (_set(["withdrawals"], [WITHDRAWAL | {"object": "u9"}]), "withdrawals[0].object: 'u9' is not an object of this board"),
    (_set(["withdrawals"], [WITHDRAWAL | {"round": "1"}]), "withdrawals[0].round: expected an integer, got str"),
    (_set(["withdrawals"], [WITHDRAWAL | {"failed": "condition"}]), "withdrawals[0].failed: expected a list of "
     "strings, got str"),
    (_set(["withdrawals"], [WITHDRAWAL | {"because": [3]}]), "withdrawals[0].because[0]: expected a string, got int"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "line"), REFUSED, ids=[line.split(":")[0] + f"-{i}" for i, (_, line) in enumerate(REFUSED)])
def test_a_resolution_that_is_not_the_contract_is_one_line(tmp_path: Path, change, line: str):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(change(answer(PLAIN))))
    assert one_line_error(cli("check", PLAIN, "--resolution", path)) == f"{path}: {line}"


@pytest.mark.parametrize(("text", "line"), [
    ('"might": ' + "9" * 5000, "objects.u1.might: a number written with 5,000 characters: a resolution's numbers "
     "are below 2**63 in magnitude"),
    ('"might": -' + "9" * 5000, "objects.u1.might: a number written with 5,001 characters: a resolution's numbers "
     "are below 2**63 in magnitude"),
    ('"might": 1e400', "objects.u1.might: inf is out of range: a resolution's numbers are below 2**63 in magnitude"),
    ('"might": NaN', "invalid JSON: NaN is not a JSON number"),
    ('"might": -Infinity', "invalid JSON: -Infinity is not a JSON number"),
])  # fmt: skip
def test_numbers_beyond_any_answer_are_one_line_naming_the_field(tmp_path: Path, text: str, line: str):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(answer(PLAIN)).replace('"might": 6', text, 1))
    assert one_line_error(cli("check", PLAIN, "--resolution", path)) == f"{path}: {line}"


def test_a_number_just_within_the_limit_is_judged_not_refused():
    res = answer(PLAIN)
    res["objects"]["u1"]["might"] = NUMBER_LIMIT - 1
    assert ("u1", "trace-replay", "final-might") in {(v.object, v.invariant, v.check)
                                                     for v in check_report(load_board(PLAIN), res).violations}


def test_a_claim_clingo_would_wrap_is_not_taken_for_the_right_value():
    # 2**32 + 6 is 6 in clingo's 32-bit integers: without a trace only the declarative checker
    # judges the final Might, and it must not see the right value there.
    board, res = load_board(PLAIN), answer(PLAIN)
    del res["applied"]
    res["objects"]["u1"]["might"] = 2**32 + 6
    report = check_report(board, res, declarative=True)
    assert ("u1", "rules-allow", "consistent-might") in {(v.object, v.invariant, v.check) for v in report.violations}
    sorcery = SORCERY / "acid-rain-on-a-hushing-torc.json"
    res = answer(sorcery)
    del res["applied"]
    oid = next(o for o, c in res["objects"].items() if c["power"] is not None)
    res["objects"][oid]["power"] += 2**32
    assert not check_report(load_board(sorcery), res, declarative=True).consistent


def test_sorcery_keywords_are_counts():
    board = SORCERY / "acid-rain-on-a-hushing-torc.json"
    res = answer(board)
    oid = next(iter(res["objects"]))
    res["objects"][oid]["keywords"] = {"Airborne": "1"}
    with pytest.raises(ContractError) as err:
        check_report(load_board(board), res)
    assert str(err.value) == f"objects.{oid}.keywords.Airborne: expected an integer, got str"


def test_a_sorcery_answer_for_a_riftbound_board_is_refused(tmp_path: Path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(answer(SORCERY / "acid-rain-on-a-hushing-torc.json")))
    assert one_line_error(cli("check", PLAIN, "--resolution", path)) == \
        f"{path}: ruleset: 'sorcery', but the board is of the riftbound ruleset"


def test_a_resolution_file_above_the_limit_is_refused_before_it_is_read(tmp_path: Path):
    path = tmp_path / "r.json"
    with open(path, "wb") as f:
        f.truncate(MAX_RESOLUTION_BYTES + 1)  # sparse: nothing written, nothing to read
    assert one_line_error(cli("check", PLAIN, "--resolution", path)) == \
        f"{path}: too large: 67,108,865 bytes; a resolution file is at most 64 MiB"


def test_files_that_are_not_regular_files_are_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert one_line_error(cli("check", PLAIN, "--resolution", fifo)) == \
        f"{fifo}: cannot read: is a FIFO, not a regular file"
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    assert one_line_error(cli("check", PLAIN, "--resolution", zero)) == \
        f"{zero}: cannot read: is a device or special file, not a regular file"
    assert one_line_error(cli("check", PLAIN, "--resolution", tmp_path)) == f"{tmp_path}: cannot read: is a directory"
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"objects":\n "\xff"}')
    assert one_line_error(cli("check", PLAIN, "--resolution", bad)) == \
        f"{bad}: invalid JSON: not UTF-8 text (byte 0xff at line 2 column 3)"


def test_a_long_id_in_an_error_is_cut(tmp_path: Path):
    res = answer(PLAIN)
    res["objects"]["u" * 100_000] = res["objects"]["u1"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(res))
    line = one_line_error(cli("check", PLAIN, "--resolution", path))
    assert line.endswith("…: not an object of this board") and len(line) < 500


# ---- any JSON value: a report or a ContractError, never anything else --------------------------

SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**62, max_value=2**70)
           | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(st.characters(codec=None) | st.sampled_from("\x00\ud800\u200bu1"), max_size=6)
           | st.sampled_from(["u1", "plus2", "set4", "might", "timestamp", "water 1", "water ²", "Airborne",
                              "keyword:Shield:u1", "buff:u1"]))  # fmt: skip
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["u1", "objects", "applied", "might", "name", "x"]) | st.text(max_size=3), inner, max_size=4),
    max_leaves=12)  # fmt: skip
BOARDS = [RIFTBOUND / "set-then-modify.json", RIFTBOUND / "odd-ring-of-stops.json",
          RIFTBOUND / "copy-ring-of-three.json", RIFTBOUND / "fiora-buffed-defending.json",
          RIFTBOUND / "other-side-of-a-ring.json", SORCERY / "acid-rain-on-a-hushing-torc.json",
          SORCERY / "two-kings-and-mesmerism.json"]  # fmt: skip
LOADED = {path: (load_board(path), answer(path)) for path in BOARDS}


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*path, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Any, Any]:
    board, res = LOADED[draw(st.sampled_from(BOARDS))]
    res = copy.deepcopy(res)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(res)))
        if not path:
            res = draw(JSON)
            continue
        parent = res
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["replace", "delete", "copy"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "copy" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["u1", "u9", "x", path[-1]]))] = copy.deepcopy(parent[path[-1]])
        else:
            parent[path[-1]] = draw(JSON)
        if not isinstance(res, (dict, list)):
            break
    return board, res


def _report_or_contract_error(board: Any, res: Any, declarative: bool) -> None:
    try:
        report = check_report(board, res, declarative=declarative)
    except ContractError as err:
        assert str(err) and err.where
        return
    assert isinstance(report, Report)
    report.text()
    json.dumps(report.to_json())


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(JSON)
def test_any_json_value_is_a_report_or_a_contract_error(value: Any):
    for path in (BOARDS[0], BOARDS[-2]):
        _report_or_contract_error(LOADED[path][0], value, declarative=False)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_a_mutated_resolution_is_a_report_or_a_contract_error(case: tuple[Any, Any]):
    _report_or_contract_error(*case, declarative=False)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_a_mutated_resolution_asked_what_the_rules_allow_too(case: tuple[Any, Any]):
    _report_or_contract_error(*case, declarative=True)


def test_the_command_never_raises_but_exits(tmp_path: Path):
    # The file's own troubles, then the contract's: each a one-line exit 2.
    path = tmp_path / "r.json"
    for text in ["", "[", "{" * 100_000, '{"objects": {"u1": ' * 3000, "1", '"x"', "null", "[[]]",
                 '{"objects": {"u1": {"might": ' + "1" * 4400 + "}}}"]:
        path.write_text(text)
        one_line_error(cli("check", PLAIN, "--resolution", path))


@pytest.mark.parametrize("opener, closer, path", [("[", "]", "[0]" * 28), ('{"a": ', "}", ".a" * 28)])
def test_values_nested_too_deeply_are_one_line_not_a_recursion_error(tmp_path: Path, opener, closer, path):
    # Below json's own limit, so the checks would meet it (comparing values recursively).
    res = json.dumps(answer(PLAIN)).replace('"before": 2', '"before": ' + opener * 900 + "1" + closer * 900, 1)
    file = tmp_path / "r.json"
    file.write_text(res)
    assert one_line_error(cli("check", PLAIN, "--resolution", file)) == \
        f"{file}: applied.u1[0].before{path}: nested too deeply: a resolution nests at most 32 levels"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(JSON, mutated().map(lambda case: case[1])))
def test_the_command_exits_0_1_or_2_on_any_json_text(tmp_path_factory, value: Any):
    path = tmp_path_factory.mktemp("r") / "r.json"
    path.write_text(json.dumps(value))
    for board in (PLAIN, SORCERY / "two-kings-and-mesmerism.json"):
        result = cli("check", board, "--resolution", path, "--no-declarative")
        # (An exception escaping the command would also exit 1: the runner keeps it.)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code in (0, 1, 2)
        if result.exit_code == 2:
            one_line_error(result)


def test_json_numbers_are_read_as_the_contract_reads_them():
    assert parse_resolution('{"a": 12, "b": [1.5, -3]}') == {"a": 12, "b": [1.5, -3]}
    assert repr(parse_resolution("1" * 41)) == "a number written with 41 characters"


# ---- doubtful boards ---------------------------------------------------------------------------


def _unit(oid: str, **more: Any) -> dict[str, Any]:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "a", "zone": "base", "might": 3} | more


@pytest.mark.parametrize("where", ["rules_text", "effects"])
def test_a_target_of_no_ids_is_accepted_and_applies_to_nothing(where: str):
    effect = {"id": "e", "op": {"op": "plus", "amount": 5}, "target": {"ids": []}}
    data: dict[str, Any] = {"players": ["a"], "objects": [_unit("u1")]}
    if where == "effects":
        data["effects"] = [effect | {"controller": "a", "timestamp": 1}]
    else:
        data["objects"][0]["rules_text"] = [effect]
    board = board_from_dict(data)
    for engine in (resolve, reference):
        res = engine(board)
        assert res.objects["u1"].might == 3 and res.applied.get("u1", []) == []
        assert check_report(board, res.to_json(), declarative=True).consistent


def test_an_explicit_timestamp_on_text_overrides_the_objects_since():
    data = {"players": ["a"], "objects": [_unit("u1", since=2, rules_text=[
        {"id": "late", "op": {"op": "plus", "amount": 1}, "timestamp": 9},
        {"id": "own", "op": {"op": "plus", "amount": 1}}])]}  # fmt: skip
    board = board_from_dict(data)
    for engine in (resolve, reference):
        res = engine(board)
        assert {a.effect: a.timestamp for a in res.applied["u1"]} == {"late": 9, "own": 2}
        assert [a.effect for a in res.applied["u1"]] == ["own", "late"]
        assert check_report(board, res.to_json(), declarative=True).consistent
    sorcery = board_from_dict({"ruleset": "sorcery", "players": ["a", "b"], "objects": [
        {"id": "m", "name": "M", "type": "minion", "owner": "a", "zone": "realm", "row": 1, "column": 1,
         "power": 2, "since": 1, "rules_text": [{"id": "r", "op": {"op": "plus", "amount": 1}, "timestamp": 5}]}]})
    for engine in (resolve, reference):
        res = engine(sorcery)
        assert [a.timestamp for a in res.applied["m"]] == [5]
        assert check_report(sorcery, res.to_json(), declarative=True).consistent
    docs = (ROOT / "docs" / "board-format.md").read_text()
    assert "an explicit **`timestamp` on rules text or Effect Text** overrides" in docs
    assert "a **target of no ids**" in docs


def test_an_lp_board_without_objects_is_refused(tmp_path: Path):
    for text in ["", "% nothing\n", 'player("a").\nactive_player("a").\n']:
        path = tmp_path / "b.lp"
        path.write_text(text)
        assert one_line_error(cli("resolve", path)) == \
            f"{path}: file: no objects: an .lp board file declares each object with an object/1 fact"
        with pytest.raises(BoardError):
            load_board(path)
    # A JSON board says so explicitly, and is the empty board.
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"players": ["a"], "objects": []}))
    assert load_board(path).objects == ()


def test_diff_refuses_boards_of_different_rulesets():
    after = SORCERY / "acid-rain-on-a-hushing-torc.json"
    assert one_line_error(cli("diff", PLAIN, after)) == \
        f"{after}: ruleset: the boards are of different rulesets: riftbound, sorcery"


# ---- what each check rests on: a rule or a riftasp Decision -----------------------------------

CHECK_PACKAGES = {"riftbound": ROOT / "riftasp/rulesets/riftbound/check",
                  "sorcery": ROOT / "riftasp/rulesets/sorcery/check"}  # fmt: skip
INVARIANT_NAMES = {"FINAL": "final-consistency", "TRACE": "trace-replay", "NEEDS": "needs",
                   "DECLARATIVE": "rules-allow"}  # fmt: skip
# The helpers that report a violation: which argument is the check, and the invariant (a
# position, or the module's own invariant for the one-invariant helpers).
HELPERS = {"Violation": (2, 1), "violation": (2, 1), "compare": (2, "trace-replay")}
MODULE_INVARIANT = {"evaluate.py": "final-consistency", "replay.py": "trace-replay"}


def _name(node: ast.expr) -> str | None:
    """A check's name as the code writes it: a string, or an f-string's fixed start and `*`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.Constant):
        return f"{node.values[0].value}*"
    return None


def reported_checks(ruleset_name: str) -> set[tuple[str, str]]:
    """Every (invariant, check) the ruleset's checkers can report, read from their code: the
    checks named where a violation is made, and the kinds of the declarative program (KINDS)."""
    found: set[tuple[str, str]] = set()
    for path in CHECK_PACKAGES[ruleset_name].glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "KINDS" for t in node.targets):
                assert isinstance(node.value, ast.Dict)
                found |= {("rules-allow", k.value) for k in node.value.keys if isinstance(k, ast.Constant)}
            if not isinstance(node, ast.Call):
                continue
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if func == "fail":  # evaluate's and replay's one-invariant helpers: fail(oid, check, ...)
                invariant, check = MODULE_INVARIANT.get(path.name), _name(node.args[1]) if len(node.args) > 1 else None
            elif func in HELPERS and len(node.args) > HELPERS[func][0]:
                at, inv = HELPERS[func]
                check = _name(node.args[at])
                if isinstance(inv, str):
                    invariant = inv
                else:
                    arg = node.args[inv]
                    invariant = INVARIANT_NAMES.get(arg.id) if isinstance(arg, ast.Name) else None
            else:
                continue
            if invariant is not None and check is not None:
                found.add((invariant, check))
    return found


@pytest.mark.parametrize("name", ["riftbound", "sorcery"])
def test_every_check_a_checker_can_report_has_a_basis(name: str):
    bases = ruleset(name).same_rules("check_bases")()
    checks = reported_checks(name)
    assert len(checks) > 25
    assert sorted(c for c in checks if basis_of(bases, *c) is None) == []
    # And the table names no check the checkers do not report (a stale entry).
    reported_names = {c[1].rstrip("*") for c in checks}
    assert sorted(key for key in bases if key[1].rstrip("*") not in reported_names) == []


@pytest.mark.parametrize(("name", "folder"), [("riftbound", "encodings/check"), ("sorcery", "encodings/check/sorcery")])
def test_every_kind_the_declarative_program_reports_is_named(name: str, folder: str):
    kinds = {m for path in (ROOT / folder).glob("*.lp")
             for m in re.findall(r"\bviol\(([a-z][a-z_]*)\s*,", path.read_text())}  # fmt: skip
    assert kinds and kinds <= {check for invariant, check in reported_checks(name) if invariant == "rules-allow"}


@pytest.mark.parametrize("name", ["riftbound", "sorcery"])
def test_every_decision_a_check_rests_on_is_a_choice_point(name: str):
    points = tomllib.loads((ROOT / "encodings" / name / "choice_points.toml").read_text())["choice_point"]
    ids = {p["id"] for p in points}
    bases = ruleset(name).same_rules("check_bases")()
    used = {d for b in bases.values() for d in b.decisions}
    assert all(b.kind in (RULE, DECISION) and (b.kind == DECISION) == bool(b.decisions) for b in bases.values())
    assert all(b.cite for b in bases.values())
    # The Decisions single violations are marked with, where the checker writes their ids.
    prefix = name[0].upper()
    for path in CHECK_PACKAGES[name].glob("*.py"):
        used |= set(re.findall(rf'"({prefix}\d+)"', path.read_text()))
    assert used and used <= ids, sorted(used - ids)


def test_the_documented_table_is_the_checkers_table():
    docs = (ROOT / "docs" / "check.md").read_text()
    for name in ("riftbound", "sorcery"):
        for (invariant, check), basis in ruleset(name).same_rules("check_bases")().items():
            what = f"**Decision {', '.join(basis.decisions)}**: {basis.cite}" if basis.decisions else f"rule: {basis.cite}"
            assert f"| `{invariant}` | `{check}` | {what} |" in docs, (invariant, check)


def _off_board_keyword_case() -> tuple[Any, dict[str, Any]]:
    board = board_from_dict({"players": ["a"], "objects": [
        _unit("u1", zone="battlefield"), _unit("h", zone="hand", keywords=["Shield 2"])]})
    res = resolve(board).to_json()
    res["objects"]["h"]["keywords"] = {}  # an engine that reports no keywords off the board
    return board, res


def test_a_violation_of_a_decision_says_so():
    board, res = _off_board_keyword_case()
    report = check_report(board, res, declarative=False)
    (v,) = report.violations
    assert (v.object, v.invariant, v.check, v.basis, v.decisions) == ("h", "final-consistency", "off-board", DECISION, ("R9",))
    assert v.to_json()["basis"] == "decision" and v.to_json()["decisions"] == ["R9"]
    text = report.text()
    assert "off-board (riftasp Decision R9)" in text and "riftasp Decision: a reading riftasp chose" in text
    # A rule's violation says it is one.
    res = resolve(board).to_json()
    res["objects"]["h"]["might"] = 4
    (v,) = check_report(board, res, declarative=False).violations
    assert (v.check, v.basis, v.decisions) == ("off-board", RULE, ())
    assert "Decision" not in check_report(board, res, declarative=False).text()


def test_the_campaign_checker_carries_the_basis_and_a_finding_can_show_it():
    board, res = _off_board_keyword_case()
    (v,) = CampaignChecker()(board, res, side="riftasp")
    assert (v.basis, v.decisions) == (DECISION, ("R9",))
    finding = Finding(board.source, v.object, v.invariant, "engine", v.expected, v.found, v.basis, v.decisions)
    assert finding.described == "final-consistency (riftasp Decision R9)"
    assert finding.to_json()["basis"] == "decision" and finding.field == "check:final-consistency"
    plain = Finding(board.source, v.object, v.invariant, "engine", v.expected, v.found)
    assert plain.described == "final-consistency" and "basis" not in plain.to_json()


def test_the_command_marks_decisions_in_text_and_json(tmp_path: Path):
    board, res = _off_board_keyword_case()
    path, answer_path = tmp_path / "b.json", tmp_path / "r.json"
    path.write_text(json.dumps({"players": ["a"], "objects": [
        _unit("u1", zone="battlefield"), _unit("h", zone="hand", keywords=["Shield 2"])]}))
    answer_path.write_text(json.dumps(res))
    out = cli("check", path, "--resolution", answer_path, "--json", "--no-declarative")
    assert out.exit_code == 1
    (v,) = json.loads(out.stdout)["violations"]
    assert (v["check"], v["basis"], v["decisions"]) == ("off-board", "decision", ["R9"])
    out = cli("check", path, "--resolution", answer_path)
    assert out.exit_code == 1 and "off-board (riftasp Decision R9)" in out.stdout


def test_a_might_clamped_at_zero_breaks_decision_r7():
    board = board_from_dict({"players": ["a"], "objects": [_unit("u1", zone="battlefield")], "effects": [
        {"id": "m", "controller": "a", "timestamp": 1, "op": {"op": "minus", "amount": 5}, "target": {"ids": ["u1"]}}]})
    res = resolve(board).to_json()
    assert res["objects"]["u1"]["might"] == -2
    res["objects"]["u1"]["might"] = 0
    res["applied"]["u1"][0]["after"] = 0  # an engine that clamps at 0 (R7's alternative)
    marked = {(v.check, v.decisions) for v in check_report(board, res, declarative=False).violations}
    assert marked == {("after", ("R7",)), ("final-might", ("R7",))}


def test_a_double_below_zero_and_a_might_given_to_gear_break_decisions_r6_and_r8():
    board = board_from_dict({"players": ["a"], "objects": [
        _unit("u1", zone="battlefield"),
        {"id": "g", "name": "G", "type": "gear", "owner": "a", "zone": "battlefield"}], "effects": [
        {"id": "s", "controller": "a", "timestamp": 1, "op": {"op": "set_might", "value": -2}, "target": {"ids": ["u1"]}},
        {"id": "d", "controller": "a", "timestamp": 2, "op": {"op": "double"}, "target": {"ids": ["u1"]}}]})
    res = resolve(board).to_json()
    assert res["objects"]["u1"]["might"] == -2 and res["objects"]["g"]["might"] is None
    double = next(row for row in res["applied"]["u1"] if row["effect"] == "d")
    double["after"] = -4  # "Double Might" read as twice the Might, even below 0 (R6's alternative)
    res["objects"]["u1"]["might"] = -4
    res["objects"]["g"]["might"] = 0  # Might 0 for an object without printed Might (R8's alternative)
    marked = {(v.object, v.check, v.decisions) for v in check_report(board, res, declarative=False).violations}
    assert ("u1", "after", ("R6",)) in marked and ("g", "final-might", ("R8",)) in marked
