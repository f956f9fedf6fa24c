"""Many boards in one program (riftasp/batch.py, issue 9): `resolve_many` gives every board
exactly what resolving it alone gives, traces included, and a board's filters never reach
another board's objects (here through `resolve_all`: every answer, or the first failure raised;
tests/test_batch_failures.py: failures)."""

from __future__ import annotations

import json

import pytest

from budget import budget
from corpus import generated
from conftest import EXAMPLE_BOARDS
from riftasp.batch import prefixed, resolve_all
from riftasp.board_io import board_from_dict, load_board
from riftasp.cli import app
from riftasp.resolve import resolve


def alone_and_together(boards, batch_size=100):
    together = resolve_all(boards, batch_size=batch_size)
    return [resolve(b).to_json() for b in boards], [r.to_json() for r in together]


def test_every_example_resolves_in_a_batch_as_it_does_alone():
    # Alone: the golden outputs beside the examples (tests/test_golden.py keeps them true).
    together = resolve_all([load_board(p) for p in EXAMPLE_BOARDS])
    for path, resolution in zip(EXAMPLE_BOARDS, together):
        alone = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
        assert resolution.to_json() == alone, path.name


@pytest.mark.thorough
def test_generated_boards_resolve_in_batches_as_they_do_alone():
    # The fuzzing corpus reaches copies, loops, control changes and withdrawals (lost support,
    # paradoxes), so batches hold boards that need several rounds beside boards that need one.
    boards = generated(budget(8, 300), seed=7)
    alone, together = alone_and_together(boards, batch_size=25)
    assert [i for i, (a, b) in enumerate(zip(alone, together)) if a != b] == []


def unit(oid: str, might: int, controller: str = "alice") -> dict:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": controller, "zone": "base",
            "might": might}


def aura_board(*units: dict) -> dict:
    return {"ruleset": "riftbound", "players": ["alice", "bob"], "objects": list(units),
            "effects": [{"id": "aura", "controller": "alice", "timestamp": 1,
                         "op": {"op": "plus", "amount": 1},
                         "target": {"filter": {"type": "unit", "relation": "friendly"}}}]}


def test_a_filter_reaches_only_its_own_boards_objects():
    # Both boards use the ids "aura" and "u1"; each aura gives +1 to its own board's units only.
    first = board_from_dict(aura_board(unit("u1", 2), unit("u2", 3)))
    second = board_from_dict(aura_board(unit("u1", 4)))
    one, two = resolve_all([first, second])
    assert (one.objects["u1"].might, one.objects["u2"].might, two.objects["u1"].might) == (3, 4, 5)
    assert [a.effect for a in two.applied["u1"]] == ["aura"]


def test_boards_with_different_settings_go_to_different_batches_and_keep_their_order():
    immediate = aura_board(unit("u1", 1))
    immediate["settings"] = {"condition_timing": "immediate"}
    boards = [board_from_dict(aura_board(unit("u1", 1))), board_from_dict(immediate),
              board_from_dict(aura_board(unit("u1", 7)))]
    alone, together = alone_and_together(boards)
    assert together == alone
    assert [r["objects"]["u1"]["might"] for r in together] == [2, 2, 8]


def test_prefixing_renames_every_id_and_every_reference_to_one():
    board = load_board(EXAMPLE_BOARDS[0].with_name("copy.json"))
    renamed = prefixed(board, "3:")
    assert all(o.id.startswith("3:") for o in renamed.objects)
    assert all(e.id.startswith("3:") and (e.op.of is None or e.op.of.startswith("3:"))
               for e in renamed.effects)


def test_resolve_takes_several_boards_and_prints_json_lines(tmp_path):
    from typer.testing import CliRunner

    paths = [EXAMPLE_BOARDS[0], EXAMPLE_BOARDS[1]]
    result = CliRunner().invoke(app, ["resolve", *map(str, paths), "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    for path, line in zip(paths, lines):
        alone = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        assert line == {"board": str(path), **alone}


def test_fuzzing_resolves_the_boards_it_draws_in_batches(monkeypatch):
    # riftasp's side of a fuzz chunk is one resolve_many call (riftasp/campaign/evaluate.py).
    import riftasp.batch as batch
    from riftasp.engines import make_engine
    from riftasp.fuzz import CHUNK, fuzz

    calls = []
    original = batch.resolve_many

    def counted(boards, *args, **kwargs):
        boards = list(boards)
        calls.append(len(boards))
        return original(boards, *args, **kwargs)

    monkeypatch.setattr(batch, "resolve_many", counted)
    report = fuzz(make_engine("reference"), seed=11, count=CHUNK + 5, riftasp="asp")
    assert (report.generated, len(report.counterexamples)) == (CHUNK + 5, 0)
    assert calls == [CHUNK, 5]


def test_a_ruleset_s_own_object_references_are_prefixed_too():
    # Sorcery's `linked` (the minion a Pallid Bust banished) names an object: renamed with the
    # ids, so a bust in a batch still brings its minion's types and abilities (found by
    # `riftasp fuzz --ruleset sorcery`).
    sorcery = EXAMPLE_BOARDS[0].parent.parent / "sorcery"
    board = load_board(sorcery / "pallid-bust.json")
    assert prefixed(board, "3:").objects[3].linked == "3:sisters"
    (together,) = resolve_all([board])
    alone = json.loads((sorcery / "pallid-bust.expected.json").read_text(encoding="utf-8"))
    assert together.to_json() == alone


def test_a_batch_is_cut_by_boards_and_by_objects(monkeypatch):
    # Boards of 2, 1, 2 and 1 objects: with at most 3 boards and 4 objects a program, the third
    # board would make the first batch 5 objects, so it starts the second; every board once, in
    # order.
    import riftasp.batch as batch

    monkeypatch.setattr(batch, "BATCH_OBJECTS", 4)
    sizes = [2, 1, 2, 1]
    boards = [board_from_dict(aura_board(*(unit(f"u{k}", 1) for k in range(n)))) for n in sizes]
    assert list(batch._batches(boards, 3)) == [[0, 1], [2, 3]]
    assert list(batch._batches(boards, 1)) == [[0], [1], [2], [3]]
    big = board_from_dict(aura_board(*(unit(f"u{k}", 1) for k in range(6))))
    # A board bigger than the limit goes alone.
    assert list(batch._batches([boards[0], big, boards[1]], 3)) == [[0], [1], [2]]
