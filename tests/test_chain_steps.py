"""A chain costs one step an object (issue 36): a group that applied every application still open
to it finishes with that step, and the group that needs it starts in the next one. The step
numbers users see are those of one application per group and step, as before (the golden files
hold them); only the calculation's own steps are fewer."""

from __future__ import annotations

import pytest

from riftasp import solver
from riftasp.board_io import board_from_dict
from riftasp.facts import board_facts

from budget import budget
from conftest import run


def copy_chain(n: int) -> dict:
    objects = [{"id": f"u{i}", "name": f"U{i}", "type": "unit", "owner": "alice", "zone": "battlefield",
                "might": i % 7 + 1} for i in range(n)]  # fmt: skip
    effects = [{"id": f"c{i}", "controller": "alice", "timestamp": i + 1, "op": {"op": "copy", "of": f"u{i + 1}"},
                "target": {"ids": [f"u{i}"]}} for i in range(n - 1)]  # fmt: skip
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": objects, "effects": effects}


@pytest.mark.parametrize("n", [2, 5, 12])
def test_a_copy_chain_of_n_objects_takes_n_steps_and_shows_the_steps_of_one_at_a_time(n):
    board = board_from_dict(copy_chain(n), "chain")
    _, stats = solver.run(board_facts(board), board.ruleset)
    # n - 1 copies, one a step, each object finishing with its copy; the last step checks.
    assert stats.steps == n
    for engine in ("asp", "reference"):
        out = run(board, engine).to_json()
        # Shown as before: u(n-2) copies in step 1, is found finished in step 2, u(n-3) copies in
        # step 3, ...; every unit is a copy of the last one.
        assert {oid: [a["step"] for a in apps] for oid, apps in out["applied"].items()} == {
            f"u{i}": [2 * (n - 2 - i) + 1] for i in range(n - 1)
        }
        assert {o["name"] for o in out["objects"].values()} == {f"U{n - 1}"}


def test_a_group_with_an_application_left_open_does_not_finish_early():
    # u's +1 makes "while Might >= 3" able in the step after: the group must not end with the +1.
    board = board_from_dict({
        "ruleset": "riftbound", "players": ["alice", "bob"],
        "objects": [{"id": "u", "name": "U", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 2}],
        "effects": [
            {"id": "up", "controller": "alice", "timestamp": 1, "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u"]}},
            {"id": "tank", "controller": "alice", "timestamp": 2, "op": {"op": "gain_keywords", "keywords": ["Tank"]},
             "target": {"ids": ["u"]}, "conditions": [{"might_at_least": 3, "of": "target"}]},
        ],
    }, "open")  # fmt: skip
    for engine in ("asp", "reference"):
        out = run(board, engine).to_json()
        assert out["objects"]["u"]["might"] == 3 and "Tank" in out["objects"]["u"]["keywords"]
        assert [a["effect"] for a in out["applied"]["u"]] == ["up", "tank"]


# ---- a step without a dependency question leaves that ground call out ---------------------------


def _question_calls(board, monkeypatch, ask_only_if: bool) -> tuple[dict, int]:
    calls = []
    ground = solver._ground

    def counting(ctl, parts, values, deadline, strict):
        calls.append(parts[0][0])
        return ground(ctl, parts, values, deadline, strict)

    monkeypatch.setattr(solver, "_ground", counting)
    monkeypatch.setattr(solver, "ASK_ONLY_IF", ask_only_if)
    from riftasp.resolve import resolve

    return resolve(board).to_json(), calls.count("depend")


def test_a_chain_of_copies_asks_no_dependency_question_and_answers_the_same(monkeypatch):
    board = board_from_dict(copy_chain(12), "chain")
    always, asked_always = _question_calls(board, monkeypatch, False)
    guarded, asked = _question_calls(board, monkeypatch, True)
    assert always == guarded
    assert (asked_always, asked) == (11, 0)  # 11 steps that pick a copy, 12 with the last check


@pytest.mark.thorough
def test_leaving_the_question_call_out_changes_no_answer(monkeypatch):
    # Riftbound examples and generated boards (all examples and 60 boards in the thorough run): the question call grounded in every step
    # (RIFTASP_ASK_ALWAYS=1) and only where choose(p) found a question give the same resolution.
    from conftest import EXAMPLE_BOARDS
    from corpus import generated
    from riftasp.board_io import load_board

    examples = [p for p in EXAMPLE_BOARDS if p.parent.name == "riftbound"]
    boards = [load_board(p) for p in (examples if budget(0, 1) else examples[::10])]
    boards += [b for b in generated(budget(3, 60), 7) if b.ruleset == "riftbound"]
    skipped = 0
    for board in boards:
        always, asked_always = _question_calls(board, monkeypatch, False)
        guarded, asked = _question_calls(board, monkeypatch, True)
        assert always == guarded, board.source
        skipped += asked_always - asked
    assert skipped > len(boards)  # (and the call is left out often)
