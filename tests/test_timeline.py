"""Timelines (issue 41): a game replayed as events, timestamps assigned by riftasp from the order
of events, the real transitions each event causes, on both engines.

Seed 000: "When Rules Text becomes inactive (its effects stop working), it loses its timestamp;
when that text becomes active again, it gains a new one … Track when each effect actually began
applying rather than sorting by the cards' original entry order." "A real transition from below
5 to at least 5 can matter …; arithmetic inside one calculation does not create extra
transitions." Seed 001: an activated ability's effect dates from its activation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riftasp.board_io import board_from_dict
from riftasp.cli import app
from riftasp.resolve import resolve as resolve_asp
from riftasp.resources import encodings_folder, manifest
from riftasp.timeline.log import load_timeline, timeline_from_dict
from riftasp.timeline.parts import merged, split
from riftasp.timeline.run import replay
from riftasp.timeline.stamps import INPUTS

from budget import budget

ROOT = Path(__file__).resolve().parent.parent
TIMELINES = ROOT / "examples" / "timelines"
ENGINES = ["asp", "reference"]
sys.path.insert(0, str(ROOT / "bench"))
from timeline import GAMES  # noqa: E402

runner = CliRunner()


def moments(name: str, engine: str) -> list:
    return list(replay(load_timeline(TIMELINES / f"{name}.json"), engine))


def texts(moment) -> list[str]:
    return [c.text for c in moment.stamp_changes] + [t.text for t in moment.transitions]


# ---- the seeds' examples, from events only -----------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reactivated_effect_comes_after_the_one_that_kept_applying(engine):
    # Silencer's "u1 loses Ganking" applies from event 1, Trainer's "u1 gains Ganking" from
    # event 2; Silencer's condition goes off (3) and on again (4): its new timestamp 5 is after
    # Trainer's 3, so the loss applies last.
    game = moments("changing-condition", engine)
    assert game[3].resolution.objects["u1"].keywords == {"Ganking": 1}
    assert texts(game[4]) == ["u1-loses-ganking loses its timestamp (inactive)"]
    assert texts(game[5]) == ["u1-loses-ganking gains timestamp 5", "u1 loses Ganking"]
    assert game[5].resolution.objects["u1"].keywords == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_same_log_with_the_events_swapped_gives_the_other_result(engine):
    # The condition goes off and on before Trainer enters: Trainer's text is the newer one.
    game = moments("changing-condition-swapped", engine)
    assert game[-1].event.kind == "enter"
    assert texts(game[-1]) == ["trainer's rules text gains timestamp 5", "u1-gains-ganking gains timestamp 5",
                               "trainer appears", "u1 gains Ganking"]
    assert game[-1].resolution.objects["u1"].keywords == {"Ganking": 1}


@pytest.mark.parametrize("engine", ENGINES)
def test_fiora_buffed_becomes_mighty_and_gains_her_keywords_then_loses_them(engine):
    game = moments("fiora", engine)
    assert texts(game[1]) == ["fiora's buff gains timestamp 1", "fiora.mighty_keywords gains timestamp 1",
                              "fiora becomes Mighty", "fiora Might 4 -> 5", "fiora gains Deflect",
                              "fiora gains Ganking", "fiora gains Shield"]
    assert texts(game[2]) == ["fiora's buff ends", "fiora.mighty_keywords loses its timestamp (inactive)",
                              "fiora is no longer Mighty", "fiora Might 5 -> 4", "fiora loses Deflect",
                              "fiora loses Ganking", "fiora loses Shield"]


@pytest.mark.parametrize("engine", ENGINES)
def test_set_to_5_then_minus_1_in_one_event_is_no_transition(engine):
    # One calculation sets Might 5 and takes 1 off: 4 before, 4 after; no "becomes Mighty".
    game = moments("fiora", engine)
    assert game[3].transitions == []
    assert texts(game[3]) == ["minus1 gains timestamp 3", "set5 gains timestamp 3"]
    assert game[3].resolution.objects["fiora"].values["might"] == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_floodplain_activated_after_drought_wins_though_it_entered_first(engine):
    game = moments("floodplain-activated-after-drought", engine)
    assert game[3].stamps[("effect", "irrigate")] == 3
    assert game[3].stamps[("text", "drought.drought")] == 2
    assert game[3].resolution.objects["plain"].values["affinity"] == ("earth 1", "water 1")


@pytest.mark.parametrize("engine", ENGINES)
def test_floodplain_activated_before_drought_enters_loses_to_it(engine):
    game = moments("floodplain-activated-before-drought", engine)
    assert texts(game[3])[-1] == "plain loses affinity water 1"
    assert game[3].resolution.objects["plain"].values["affinity"] == ("earth 1",)


# ---- what the bookkeeping gives timestamps to -------------------------------------------------


def _game(events: list[dict], objects: list[dict], ruleset: str = "riftbound") -> dict:
    return {"ruleset": ruleset, "players": ["alice", "bob"], "active_player": "alice", "objects": objects,
            "events": events}


UNIT = {"id": "u1", "name": "U1", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 3}
BOOTS = {"id": "boots", "name": "Boots", "type": "gear", "owner": "alice", "zone": "battlefield", "might_bonus": 1,
         "rules_text": [{"id": "boots-own", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u1"]}}],
         "effect_text": [{"id": "boots-text", "op": {"op": "gain_keywords", "keywords": ["Ganking"]}}]}


@pytest.mark.parametrize("engine", ENGINES)
def test_text_that_leaves_the_board_and_comes_back_gains_a_new_timestamp(engine):
    game = list(replay(timeline_from_dict(_game([
        {"event": "move", "object": "boots", "to": "trash"},
        {"event": "move", "object": "boots", "to": "battlefield"},
    ], [UNIT, dict(BOOTS, since=1)])), engine))
    assert game[0].stamps[("since", "boots")] == 1
    assert ("since", "boots") not in game[1].stamps and ("text", "boots-own") not in game[1].stamps
    assert game[2].stamps[("since", "boots")] == 3 and game[2].stamps[("text", "boots-own")] == 3
    assert game[2].data["objects"][1]["since"] == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_gear_effect_text_dates_from_its_attachment_and_its_own_text_is_inactive_while_attached(engine):
    game = list(replay(timeline_from_dict(_game([
        {"event": "attach", "object": "boots", "to": "u1", "time": 4},
        {"event": "detach", "object": "boots"},
    ], [UNIT, dict(BOOTS, since=1)])), engine))
    attached = game[1]
    assert attached.stamps[("attached", "boots")] == 4 and attached.stamps[("text", "boots-text")] == 4
    assert ("since", "boots") not in attached.stamps  # RB 135.4
    assert attached.data["objects"][1]["attached_since"] == 4
    assert attached.resolution.objects["u1"].keywords == {"Ganking": 1}
    detached = game[2]
    assert detached.stamps[("since", "boots")] == 5  # its own text is active again: a new timestamp
    assert "attached_since" not in detached.data["objects"][1]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_ongoing_effect_dates_from_the_event_that_starts_it_and_ends_with_its_end(engine):
    effect = {"id": "e1", "controller": "alice", "op": {"op": "plus", "amount": 1}, "target": {"ids": ["u1"]}}
    game = list(replay(timeline_from_dict(_game([
        {"event": "start", "effect": effect, "time": 7},
        {"event": "end", "effect": "e1"},
    ], [UNIT])), engine))
    assert game[1].stamps[("effect", "e1")] == 7
    assert texts(game[1]) == ["e1 gains timestamp 7", "u1 Might 3 -> 4"]
    assert texts(game[2]) == ["e1 ends", "u1 Might 4 -> 3"]


@pytest.mark.parametrize("engine", ENGINES)
def test_entering_together_takes_one_time_and_the_chosen_order(engine):
    kings = [{"id": k, "card": "King of the Realm", "owner": "alice", "zone": "realm", "row": 1, "column": c}
             for k, c in (("k1", 1), ("k2", 2))]
    game = list(replay(timeline_from_dict(_game([
        {"event": "enter_together", "objects": kings, "order": ["k2", "k1"]},
    ], [], "sorcery")), engine))
    objects = {o["id"]: o for o in game[1].data["objects"]}
    assert objects["k1"]["since"] == objects["k2"]["since"] == 1
    assert (objects["k2"]["entry_order"], objects["k1"]["entry_order"]) == (0, 1)


# ---- every moment is a board: --at N -----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.stem for p in TIMELINES.glob("*.json")))
def test_the_board_after_each_event_resolves_to_that_moment(name, tmp_path):
    game = moments(name, "asp")
    for moment in game[1:]:
        out = tmp_path / f"at-{moment.index}.json"
        result = runner.invoke(app, ["timeline", str(TIMELINES / f"{name}.json"), "--at", str(moment.index),
                                     "-o", str(out)])
        assert result.exit_code == 0, result.output
        board = board_from_dict(json.loads(out.read_text()), str(out))
        assert {k: v.to_json() for k, v in resolve_asp(board).objects.items()} == \
            {k: v.to_json() for k, v in moment.resolution.objects.items()}  # fmt: skip


@pytest.mark.parametrize("name", sorted(p.stem for p in TIMELINES.glob("*.json")))
def test_both_engines_replay_each_example_alike(name):
    asp, ref = moments(name, "asp"), moments(name, "reference")
    assert [m.data for m in asp] == [m.data for m in ref]
    assert [[t.text for t in m.transitions] for m in asp] == [[t.text for t in m.transitions] for m in ref]


def test_the_command_prints_each_event_and_its_transitions():
    result = runner.invoke(app, ["timeline", str(TIMELINES / "fiora.json")])
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == ["start", "event 0 (time 1): fiora buff = true",
                                              "  fiora's buff gains timestamp 1"]
    data = json.loads(runner.invoke(app, ["timeline", str(TIMELINES / "fiora.json"), "--json"]).output)
    assert [m["event"] for m in data["moments"]] == [None, 0, 1, 2]
    assert data["moments"][1]["transitions"][0] == {"object": "fiora", "kind": "becomes_mighty", "before": False,
                                                    "after": True, "text": "fiora becomes Mighty"}


# ---- bad input: one line, the event's index and field, exit 2 ---------------------------------

BAD = [
    ({"event": "move", "object": "ghost", "to": "trash"}, "events[0].object: no object 'ghost' at this moment"),
    ({"event": "move", "object": "u1", "from": "base", "to": "trash"},
     "events[0].from: 'u1' is in battlefield, not base: it cannot leave base"),
    ({"event": "detach", "object": "u1"}, "events[0].object: 'u1' is not attached to anything"),
    ({"event": "set", "object": "u1", "field": "since", "value": 3},
     "events[0].field: 'since' cannot be set by an event: riftasp assigns timestamps"),
    ({"event": "enter", "object": dict(UNIT, since=2)}, "events[0].object.since: riftasp assigns timestamps"),
    ({"event": "enter", "object": UNIT}, "events[0].object.id: object 'u1' already exists"),
    ({"event": "end", "effect": "nothing"}, "events[0].effect: no ongoing effect 'nothing' at this moment"),
    ({"event": "explode", "object": "u1"}, "events[0].event: unknown event 'explode'"),
    ({"event": "set", "object": "u1", "field": "might", "value": "many"},
     "events[0]: the board after this event is not valid: objects[0].might"),
    ({"event": "attach", "object": "u1", "to": "u1", "wings": 2}, "events[0].wings: unknown key for a attach event"),
]


@pytest.mark.parametrize("event, message", BAD, ids=[m.split(":")[0] + "-" + str(i) for i, (_, m) in enumerate(BAD)])
def test_a_bad_event_is_one_line_naming_its_index_and_field(tmp_path, event, message):
    log = tmp_path / "game.json"
    log.write_text(json.dumps(_game([event], [UNIT])))
    result = runner.invoke(app, ["timeline", str(log)])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.startswith(f"{log}: {message}"), result.output


def test_time_going_backwards_names_the_event_and_its_time(tmp_path):
    log = tmp_path / "game.json"
    log.write_text(json.dumps(_game([{"event": "set", "object": "u1", "field": "buff", "value": True, "time": 5},
                                     {"event": "set", "object": "u1", "field": "buff", "value": False, "time": 3}],
                                    [UNIT])))
    result = runner.invoke(app, ["timeline", str(log)])
    assert (result.exit_code, result.output) == (2, f"{log}: events[1].time: time goes backwards: 3 is not after "
                                                    f"event 0's time 5\n")


def test_an_event_after_an_error_is_never_reached_and_at_out_of_range_is_refused(tmp_path):
    result = runner.invoke(app, ["timeline", str(TIMELINES / "fiora.json"), "--at", "9"])
    assert (result.exit_code, result.output) == (2, f"--at: {TIMELINES / 'fiora.json'} has events 0 to 2, got 9\n")


# ---- parts, windows: the same answers, less work -----------------------------------------------


@pytest.mark.parametrize("ruleset", ["riftbound", "sorcery"])
def test_a_board_calculated_by_parts_gives_what_the_whole_board_gives(ruleset):
    from riftasp.reference import resolve as reference

    examples = sorted((ROOT / "examples" / ruleset).glob("*.json"))
    boards = [board_from_dict(json.loads(p.read_text()), str(p)) for p in examples if ".expected" not in p.name]
    game = timeline_from_dict(GAMES[ruleset](40, 1))
    boards += [m.board for m in replay(game, "reference")]
    split_some = 0
    for board in boards:
        parts = split(board)
        split_some += len(parts) > 1
        whole = {k: v.to_json() for k, v in reference(board).objects.items()}
        assert {k: v.to_json() for k, v in merged(board, [reference(p) for p in parts]).objects.items()} == whole
    assert split_some >= 10  # the games' boards do split


@pytest.mark.thorough
@pytest.mark.parametrize("ruleset", ["riftbound", "sorcery"])
def test_the_asp_engine_settling_a_window_at_once_gives_what_one_event_at_a_time_gives(ruleset):
    game = timeline_from_dict(GAMES[ruleset](budget(8 if ruleset == "sorcery" else 16, 60), 2))
    windowed = list(replay(game, "asp"))
    one_by_one = list(replay(game, "asp", resolve=resolve_asp))
    assert [m.data for m in windowed] == [m.data for m in one_by_one]
    assert [m.stamp_changes for m in windowed] == [m.stamp_changes for m in one_by_one]


@pytest.mark.thorough
@pytest.mark.parametrize("ruleset", ["riftbound", "sorcery"])
def test_the_engines_replay_generated_games_alike(ruleset):
    game = timeline_from_dict(GAMES[ruleset](budget(10 if ruleset == "sorcery" else 20, 80), 3))
    asp, ref = list(replay(game, "asp")), list(replay(game, "reference"))
    assert [m.data for m in asp] == [m.data for m in ref]
    assert [{k: v.to_json() for k, v in m.resolution.objects.items()} for m in asp] == \
        [{k: v.to_json() for k, v in m.resolution.objects.items()} for m in ref]  # fmt: skip


# ---- the encoding's headers ------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["riftbound", "sorcery"])
def test_the_timeline_files_name_what_they_expect_and_provide(ruleset):
    from test_encoding_interface import Interface, header_problems

    files = [Interface(encodings_folder() / name) for name in manifest(ruleset)["timeline"]["files"]]
    inputs = {(n, int(a)) for n, a in (s.split("/") for s in (*manifest(ruleset)["encoding"]["input"], *INPUTS))}
    assert header_problems(files, inputs) == {}


# ---- the JSON Schema (riftasp schema --timeline) ----------------------------------------------


@pytest.mark.parametrize("ruleset", ["riftbound", "sorcery"])
def test_the_timeline_schema_is_valid_and_every_example_and_generated_game_fits_it(ruleset):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(runner.invoke(app, ["schema", "--timeline", "--ruleset", ruleset]).output)
    jsonschema.Draft202012Validator.check_schema(schema)
    games = [json.loads(p.read_text()) for p in sorted(TIMELINES.glob("*.json"))]
    games = [g for g in games if g["ruleset"] == ruleset] + [GAMES[ruleset](60, 4)]
    for game in games:
        jsonschema.validate(game, schema)
    for bad in ({"event": "explode"}, {"event": "move", "object": "u1"},
                {"event": "enter", "object": dict(UNIT, since=2)}, {"event": "start"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(dict(games[0], events=[bad]), schema)


def test_a_timeline_given_as_a_board_and_a_board_given_as_a_timeline_say_what_to_do():
    game, board = TIMELINES / "fiora.json", ROOT / "examples" / "riftbound" / "fiora-buffed.json"
    result = runner.invoke(app, ["resolve", str(game)])
    assert (result.exit_code, result.output) == (2, f"{game}: this is a timeline (a board with events), not a board "
                                                    f"— replay it with riftasp timeline {game}, or take one moment "
                                                    f"with --at N\n")
    result = runner.invoke(app, ["timeline", str(board)])
    assert result.exit_code == 2
    assert result.output == (f"{board}: events: missing: a timeline is a board with an `events` list (a board "
                             f"without one is a snapshot: use riftasp resolve)\n")
