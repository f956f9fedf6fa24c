"""Every engine answer is data (issue 39): whatever an engine writes — bytes that are not UTF-8,
JSON too deep or with numbers too long, a torrent, nothing in time, answers for other objects or
twice over — becomes an answer, `Unsupported`, or an EngineError of one line naming the engine,
the board and what was wrong; and the same engine object answers the next board right.

tests/fixtures/hostile_engine.py is hostile on a board of one object (ONE here) and right on
any other (GOOD)."""

from __future__ import annotations

import json
import math
import runpy
import shlex
import sys
from functools import cache
from typing import Any

import pytest

from conftest import EXAMPLES, ROOT
from riftasp.board_io import board_from_dict, load_board
from riftasp.engine_answers import MAX_ANSWER
from riftasp.engines import CallableEngine, Engine, EngineError, Unsupported, make_engine
from riftasp.present import printable
from riftasp.reference import resolve as reference

FIXTURE = ROOT / "tests" / "fixtures" / "hostile_engine.py"
HOSTILE = f"{shlex.quote(sys.executable)} {shlex.quote(str(FIXTURE))}"
TIMEOUT = 20  # seconds for a good board: generous, the machine may be busy
ONE = board_from_dict(
    {"players": ["alice", "bob"], "objects": [
        {"id": "u1", "name": "U", "type": "unit", "owner": "alice", "zone": "base", "might": 3, "tags": ["Mech"]}]},
    "boards/one-unit.json",
)  # fmt: skip
GOOD = load_board(EXAMPLES / "showcase.json")

# kind -> (what its error says in one-shot mode, in persistent mode)
KINDS: dict[str, tuple[str, str]] = {
    "not-utf8": ("output is not UTF-8 at byte 16",) * 2,
    "nested": ("output is JSON nested too deeply to read",) * 2,
    "huge-int": (f"output has an integer of more than {sys.get_int_max_str_digits()} digits",) * 2,
    "big-int": ("output objects.u1.might: integer 1180591620717411303424 is out of range",) * 2,
    "extra-id": ("answer names object 'zz' which is not on the board",) * 2,
    "missing-id": ("answer has no entry for object 'u1'",) * 2,
    "empty-line": ("output is empty", "answered with an empty line; restarting it for the next board"),
    "not-json": ("wrote invalid JSON on boards/one-unit.json (Expecting value): 'this is not json'",) * 2,
    "not-object": ("output top level: expected an object, got list",) * 2,
    "error-object": ('reported an error on boards/one-unit.json: {"code": 7, "detail": "first line\\nsecond line',) * 2,
    "error-text": ("reported an error on boards/one-unit.json: first line second line \\x1b[31mred",) * 2,
    "unsupported-no-reason": ("output unsupported: expected a reason (a non-empty string), got ''",) * 2,
    "crash-on-one": ("exited with code 1 on boards/one-unit.json: RuntimeError: hostile engine crashed on a "
                     "one-object board",) * 2,  # fmt: skip
    "huge-output": ("output is larger than 64 MiB", "its answer line is longer than 64 MiB; restarting it"),
    "slow": ("timed out after 0.5s on boards/one-unit.json",) * 2,
    "bad-keywords": ("output objects.u1.keywords: expected an object of keyword -> integer, got ['Shield']",) * 2,
    "bad-tags": ("output objects.u1.tags: expected a list of strings, got 'Mech'",) * 2,
    "bad-applied": ("output applied.u1: expected a list of applications, got dict",) * 2,
    # One-shot, two answers are one stdout holding two JSON values; persistent: see below.
    "two-answers": ("wrote invalid JSON on boards/one-unit.json (Extra data)", ""),
    "two-answers-late": ("wrote invalid JSON on boards/one-unit.json (Extra data)", ""),
}
# Kinds whose process riftasp kills (or that die): the one-shot engine must clean up after them.
KILLED = {"slow", "huge-output", "crash-on-one"}
CASES = [(kind, persistent) for kind, phrases in KINDS.items() for persistent in (False, True) if phrases[persistent]]


@cache
def expected(board_source: str) -> dict[str, Any]:
    """The reference engine's answer to GOOD, as it travels (JSON)."""
    assert board_source == GOOD.source
    return json.loads(json.dumps(reference(GOOD).to_json()))


def hostile(kind: str, persistent: bool, timeout: float = TIMEOUT) -> Engine:
    command = f"{HOSTILE} {kind}" + (" --persistent" if persistent else "")
    return make_engine(command, persistent=persistent, timeout=timeout)


def assert_one_line(err: Exception, engine: Engine, phrase: str) -> None:
    message = str(err)
    assert phrase in message, message
    assert "\n" not in message and printable(message) == message, message
    assert engine.name in message and ONE.source in message, message
    assert len(message) < len(engine.name) + 500, message


def test_the_huge_output_is_over_the_limit():
    assert runpy.run_path(str(FIXTURE))["HUGE"] > MAX_ANSWER


@pytest.mark.parametrize(("kind", "persistent"), CASES, ids=[f"{k}-{'persistent' if p else 'one-shot'}" for k, p in CASES])
def test_a_hostile_answer_is_one_line_and_the_engine_goes_on(kind, persistent):
    engine = hostile(kind, persistent, timeout=0.5 if kind == "slow" else TIMEOUT)
    try:
        with pytest.raises(EngineError) as err:
            engine(ONE)
        assert_one_line(err.value, engine, KINDS[kind][persistent])
        if persistent or kind in KILLED:  # a one-shot engine otherwise has nothing to recover from
            engine.timeout = TIMEOUT  # the next board may take a process start on a busy machine
            assert engine(GOOD) == expected(GOOD.source)
    finally:
        engine.close()


def test_a_second_answer_is_not_taken_for_the_next_board():
    # Both answers arrive together: the extra one is waiting when GOOD is to be sent. GOOD gets
    # the error (its answer would have been the extra line), then its own answer from a new process.
    engine = hostile("two-answers", persistent=True)
    try:
        first = engine(ONE)
        assert set(first["objects"]) == {"u1"}
        with pytest.raises(EngineError) as err:
            engine(GOOD)
        message = str(err.value)
        assert "\n" not in message and engine.name in message
        assert (f"on {GOOD.source}: it answered the previous board ({ONE.source}) more than once" in message
                and "restarting it for the next board" in message), message  # fmt: skip
        assert engine(GOOD) == expected(GOOD.source)
        assert engine(GOOD) == expected(GOOD.source)  # and stays in step
    finally:
        engine.close()


def test_a_late_second_answer_is_caught_by_not_fitting_the_board():
    # The extra answer comes after GOOD was sent, so it stands where GOOD's answer should: its
    # objects are not GOOD's. The engine is restarted, so GOOD's own answer, still coming, is
    # not taken for the board after.
    engine = hostile("two-answers-late", persistent=True)
    try:
        engine(ONE)
        with pytest.raises(EngineError, match=r"on .*showcase.json: answer names object 'u1' which is not on the board"):
            engine(GOOD)
        assert engine(GOOD) == expected(GOOD.source)
        assert engine(GOOD) == expected(GOOD.source)
    finally:
        engine.close()


def test_an_unsupported_reason_is_one_short_line():
    engine = CallableEngine("mine", lambda b: {"unsupported": "copy\neffects \x1b[2J" + "y" * 10_000})
    with pytest.raises(Unsupported) as err:
        engine(GOOD)
    assert err.value.reason.startswith("copy effects \\x1b[2Jyyy") and len(err.value.reason) <= 121


# ---- callables -----------------------------------------------------------------------------------


def good_answer() -> dict[str, Any]:
    return json.loads(json.dumps(expected(GOOD.source)))


def with_might(value: Any) -> dict[str, Any]:
    answer = good_answer()
    answer["objects"]["fiora"]["might"] = value
    return answer


def _cycle() -> dict[str, Any]:
    answer = good_answer()
    answer["objects"]["fiora"]["loop"] = answer
    return answer


def _changed(key: str, value: Any) -> dict[str, Any]:
    answer = good_answer()
    answer[key] = value
    return answer


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")


def _raise(err: Exception) -> Any:
    raise err


MALFORMED: dict[str, tuple[Any, str]] = {
    "a list": (lambda: [1], "output top level: expected an object, got list"),
    "a non-str key": (lambda: {"objects": {("u", 1): {}}}, "output objects: key ('u', 1) is not a string"),
    "an int key": (lambda: {"objects": {1: {}}}, "output objects: key 1 is not a string"),
    "an object": (lambda: with_might(object()), "output objects.fiora.might: object is not a JSON value"),
    "a set": (lambda: with_might({1}), "output objects.fiora.might: set is not a JSON value"),
    "a cycle": (_cycle, "nested more than 64 levels deep"),
    "NaN": (lambda: with_might(math.nan), "output objects.fiora.might: nan is not a JSON number"),
    "a float": (lambda: with_might(7.0), "output objects.fiora.might: expected an integer or null, got 7.0"),
    "a bool": (lambda: with_might(True), "output objects.fiora.might: expected an integer or null, got True"),
    "a huge int": (lambda: with_might(-(2**63)), "output objects.fiora.might: integer -9223372036854775808 is out of range"),
    "an enormous int": (lambda: with_might(10**5000), "integer of 16610 bits is out of range"),
    "missing object": (lambda: {"objects": {k: v for k, v in good_answer()["objects"].items() if k != "boots"}},
                       "answer has no entry for object 'boots'"),
    "keywords of strings": (lambda: _changed("objects", {**good_answer()["objects"], "fiora": {
        **good_answer()["objects"]["fiora"], "keywords": {"Shield": "2"}}}),
        "output objects.fiora.keywords: expected an object of keyword -> integer, got {'Shield': '2'}"),
    "a name not a string": (lambda: _changed("objects", {**good_answer()["objects"], "fiora": {
        **good_answer()["objects"]["fiora"], "name": 5}}), "output objects.fiora.name: expected a string or null, got 5"),
    "zone": (lambda: _changed("objects", {**good_answer()["objects"], "fiora": {
        **good_answer()["objects"]["fiora"], "zone": 5}}), "output objects.fiora.zone: expected a string, got 5"),
    "applied a list": (lambda: _changed("applied", []), "output applied: expected an object of id: applications, got list"),
    "applied of a stranger": (lambda: _changed("applied", {"zz": []}), "output applied.zz: not an object of this board"),
    "an application without a step": (lambda: _changed("applied", {"fiora": [{"effect": "e"}]}),
                                      "output applied.fiora[0]: missing field 'step'"),
    "paradoxes of numbers": (lambda: _changed("paradoxes", [[1]]), "output paradoxes[0][0]: expected a string, got int"),
    "needs a list": (lambda: _changed("needs", ["fiora"]), "output needs: expected an object of id: list of strings"),
    "object_loops a dict": (lambda: _changed("object_loops", {}), "output object_loops: expected a list of lists"),
    "dependency_cycles of strings": (lambda: _changed("dependency_cycles", ["ab"]),
                                     "output dependency_cycles[0]: expected a list of strings, got str"),
    "withdrawn of a stranger": (lambda: _changed("withdrawn", {"zz": ["e"]}), "output withdrawn.zz: not an object of this board"),
    "withdrawals half": (lambda: _changed("withdrawals", [{"object": "fiora"}]), "output withdrawals[0]: missing field 'effect'"),
    "an error of no text": (lambda: {"error": None}, "showcase.json: null"),
    "an exception": (lambda: _raise(ValueError("line one\nline two")), "showcase.json: "
                     "ValueError: line one line two"),
    "an exception that cannot say": (lambda: _raise(Unprintable()), "Unprintable: (its message cannot be shown)"),
    "deep recursion": (lambda: _raise(RecursionError("deep")), "RecursionError: deep"),
}  # fmt: skip


@pytest.mark.parametrize("what", list(MALFORMED))
def test_a_callable_s_malformed_result_is_an_engine_error(what):
    make, phrase = MALFORMED[what]
    engine = CallableEngine("mine", lambda board: make())
    with pytest.raises(EngineError) as err:
        engine(GOOD)
    message = str(err.value)
    assert phrase in message and "\n" not in message, message
    assert message.startswith("engine mine ") and GOOD.source in message, message


def test_a_callable_s_good_result_passes():
    assert CallableEngine("mine", lambda board: good_answer())(GOOD) == expected(GOOD.source)
    # Fields that may be left out, and the checkers' nulls, are no error.
    answer = good_answer()
    for key in ("applied", "needs", "withdrawn", "paradoxes", "engine"):
        answer.pop(key)
    answer["object_loops"] = None
    answer["objects"]["fiora"].update(zone=None, abilities=None)
    del answer["objects"]["fiora"]["name"]
    assert CallableEngine("mine", lambda board: answer)(GOOD) is answer
