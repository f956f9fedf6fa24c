"""`riftasp outcomes` (issue 38, riftasp/research/outcomes.py): every outcome a board permits —
cards entering together in each order their player may choose, timestamp ties in each order when
the reading `ties` is `choice`, and opened choice points in each of their readings."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from riftasp.batch import resolve_all
from riftasp.board_io import load_board
from riftasp.choice_points import ChoicePoint
from riftasp.cli import app
from riftasp.compare import compare
from riftasp.research import outcomes as module
from riftasp.rulesets import ruleset
from riftasp.research.outcomes import Difference, OutcomesError, outcomes, spread, tie_groups

from conftest import EXAMPLES, ROOT

SORCERY = ROOT / "examples" / "sorcery"
runner = CliRunner()


def cli(*args: object):
    return runner.invoke(app, ["outcomes", *(str(a) for a in args)])


def write(tmp_path, name: str, objects: list, effects: list) -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"ruleset": "riftbound", "players": ["alice", "bob"], "active_player": "alice",
                                "objects": objects, "effects": effects}))  # fmt: skip
    return str(path)


def unit(oid: str = "u1", might: int = 2, **more) -> dict:
    return {"id": oid, "name": oid.upper(), "type": "unit", "owner": "alice", "zone": "battlefield", "might": might,
            **more}  # fmt: skip


def set_might(eid: str, value: int, timestamp: int, target: str = "u1") -> dict:
    return {"id": eid, "controller": "alice", "timestamp": timestamp, "op": {"op": "set_might", "value": value},
            "target": {"ids": [target]}}  # fmt: skip


@pytest.fixture
def two_sets(tmp_path) -> str:
    """Two ongoing effects of one timestamp setting u1's Might: the later one wins."""
    return write(tmp_path, "two-sets.json", [unit()], [set_might("set3", 3, 1), set_might("set5", 5, 1)])


# ---- cards entering together (Sorcery) -----------------------------------------------------------


def test_cards_entering_together_in_either_order_are_two_outcomes():
    result = cli(SORCERY / "entering-together-chosen-order.json")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "2 outcomes (2 branches)",
        "outcome 1: plain.affinity = earth 1",
        "  - entering together at 1 (alice): flood, drought",
        "outcome 2: plain.affinity = earth 1, water 1",
        "  - entering together at 1 (alice): drought, flood",
        "differing: plain.affinity",
    ]


def test_the_library_names_the_differing_field_and_the_choices():
    found = outcomes(load_board(SORCERY / "entering-together-chosen-order.json"))
    assert not found.unique and found.paradox_branches == ()
    assert [o.choices for o in found.outcomes] == [
        [{"entering together at 1 (alice)": ["flood", "drought"]}],
        [{"entering together at 1 (alice)": ["drought", "flood"]}],
    ]
    assert found.differing == (Difference("plain", "affinity", (["earth 1"], ["earth 1", "water 1"])),)
    assert found.outcomes[1].objects["plain"]["affinity"] == ["earth 1", "water 1"]


def test_a_stated_entry_order_is_the_choice_already_made():
    # Decision (module docstring, docs/semantics-sorcery.md §2): kept, not varied.
    result = cli(SORCERY / "entering-together-stated-order.json")
    assert (result.exit_code, result.stdout) == (0, "unique\n")


def test_cards_of_two_players_entering_together_are_no_choice():
    # The active player's king counts as entering first; each player has one card: no order to choose.
    result = cli(SORCERY / "two-kings-entering-together.json")
    assert (result.exit_code, result.stdout) == (0, "unique\n")


def test_entering_together_is_varied_where_the_reading_entry_order_is_a_choice():
    # S1: `choice` (Sorcery's) leaves the order to the player: every order is a branch; under
    # `listing` the listing order is the order chosen.
    board = load_board(SORCERY / "entering-together-chosen-order.json")
    assert board.reading("entry_order") == "choice"
    for reading, count in (("choice", 2), ("listing", 1)):
        found = outcomes(replace(board, readings=(("entry_order", reading),)))
        assert (len(found.branches), len(found.outcomes)) == (count, count)


def test_opening_s1_gives_both_readings_branches():
    found = outcomes(load_board(SORCERY / "entering-together-chosen-order.json"), open_points=["S1"])
    assert len(found.branches) == 3 and len(found.outcomes) == 2


# ---- one outcome, none ----------------------------------------------------------------------------


def test_the_showcase_has_one_outcome():
    result = cli(EXAMPLES / "showcase.json")
    assert (result.exit_code, result.stdout) == (0, "unique\n")


def test_a_paradox_is_no_outcome():
    result = cli(EXAMPLES / "paradox-shield-and-minus.json")
    assert result.exit_code == 1
    assert result.stdout == "no outcome: paradox (d-minus2-while-shield, s-shield-while-mighty)\n"
    found = outcomes(load_board(EXAMPLES / "paradox-shield-and-minus.json"))
    assert not found.unique and found.outcomes == ()
    assert [b.paradoxes for b in found.paradox_branches] == [[["d-minus2-while-shield", "s-shield-while-mighty"]]]


# ---- timestamp ties (R5) ---------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["asp", "reference"])
def test_two_effects_of_one_timestamp_under_ties_choice_are_two_outcomes(two_sets, engine):
    result = cli(two_sets, "--open", "R5", "--engine", engine)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "2 outcomes (3 branches)",
        "outcome 1: u1.might = 5; u1.mighty = true",
        "  - R5 ties: listing",
        "  - R5 ties: choice; tie at timestamp 1: set3, set5",
        "outcome 2: u1.might = 3; u1.mighty = false",
        "  - R5 ties: choice; tie at timestamp 1: set5, set3",
        "differing: u1.might, u1.mighty",
    ]


def test_without_ties_choice_the_listing_order_decides(two_sets):
    assert (cli(two_sets).exit_code, cli(two_sets).stdout) == (0, "unique\n")
    # The reading given by the caller (research overrides) opens the ties without --open.
    board = load_board(two_sets)
    found = outcomes(replace(board, readings=(("ties", "choice"),)))
    assert [o.choices for o in found.outcomes] == [[{"tie at timestamp 1": ["set3", "set5"]}],
                                                   [{"tie at timestamp 1": ["set5", "set3"]}]]


def test_a_tie_permutation_puts_an_ongoing_effect_before_a_card_s_ability(tmp_path):
    """Listing order puts every object's text before every ongoing effect: the permutation is
    written in the timestamps, so the ongoing effect can go first too."""
    text = {"id": "own-set3", "timestamp": 1, "op": {"op": "set_might", "value": 3}}
    path = write(tmp_path, "text-and-ongoing.json", [unit(rules_text=[text])], [set_might("set5", 5, 1)])
    found = outcomes(load_board(path), ["R5"])
    assert [(o.choices, o.objects["u1"]["might"]) for o in found.outcomes] == [
        ([{"R5 ties": "listing"}, {"R5 ties": "choice", "tie at timestamp 1": ["own-set3", "set5"]}], 5),
        ([{"R5 ties": "choice", "tie at timestamp 1": ["set5", "own-set3"]}], 3),
    ]


def test_a_buff_and_a_keyword_of_one_object_are_parted(tmp_path):
    # buff:u1 and keyword:Shield:u1 both date from u1's `since`: buff_since and since part them.
    path = write(tmp_path, "buff-and-shield.json", [unit(might=4, buff=True, keywords=["Shield"], status=["defending"])], [])
    board = load_board(path)
    assert [[c.names for c in group] for group in tie_groups(board)] == [[("buff:u1",), ("keyword:Shield:u1",)]]
    found = outcomes(board, ["R5"])
    assert len(found.branches) == 3 and found.unique and found.unpermuted_ties == ()
    assert found.outcomes[0].objects["u1"]["might"] == 6


def test_the_listing_order_written_in_timestamps_resolves_as_the_board():
    """Every example with a shared timestamp, its carriers stamped apart in listing order: the
    same final objects and paradoxes as the board, and no tie left."""
    boards = [b for b in (load_board(p) for p in sorted(EXAMPLES.glob("*.json"))
                          if not p.name.endswith(".expected.json")) if tie_groups(b)]  # fmt: skip
    assert len(boards) >= 10
    spread_boards = []
    for b in boards:
        groups = tie_groups(b)
        spread_boards.append(spread(b, {g[0].time: g for g in groups}, 1 + max(map(len, groups))))
    for b, before, after in zip(boards, resolve_all(boards), resolve_all(spread_boards)):
        assert compare(b.source, before.to_json(), after.to_json(), b.ruleset) == [], b.source
        assert sorted(map(sorted, before.paradoxes)) == sorted(map(sorted, after.paradoxes)), b.source
        assert after.timestamp_ties == [], b.source


# ---- choice points ------------------------------------------------------------------------------------


def test_opening_the_dependency_rule_gives_6_or_7():
    # "Increase to 5" (older) and +2: with the dependency rule +2 goes first (6), without it
    # timestamp order (5, then 7). (The engines' `none` reading is issue 38's other part.)
    result = cli(EXAMPLES / "increase-to-5-older-than-plus2.json", "--open", "R4")
    assert result.stdout.splitlines() == [
        "2 outcomes (2 branches)",
        "outcome 1: u1.might = 6",
        "  - R4 dependency: result",
        "outcome 2: u1.might = 7",
        "  - R4 dependency: none",
        "differing: u1.might",
    ]
    assert result.exit_code == 1


def test_points_are_opened_in_the_order_given_and_multiply():
    found = outcomes(load_board(EXAMPLES / "showcase.json"), ["R3", "R2", "R3"])
    assert [b.choices for b in found.branches] == [
        {"R3 self_support": s, "R2 rechecked_set": r} for s in ("withdrawn", "kept") for r in ("replaces", "keeps")]


# ---- output -----------------------------------------------------------------------------------------


def test_the_json_shape(two_sets):
    result = cli(two_sets, "--open", "R5", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert list(data) == ["board", "ruleset", "branches", "unique", "outcomes", "paradox_branches", "differing",
                          "unpermuted_ties"]  # fmt: skip
    assert (data["ruleset"], data["branches"], data["unique"]) == ("riftbound", 3, False)
    assert [list(o) for o in data["outcomes"]] == [["choices", "objects"]] * 2
    assert data["outcomes"][1] == {
        "choices": [{"R5 ties": "choice", "tie at timestamp 1": ["set5", "set3"]}],
        "objects": {"u1": {"name": "U1", "controller": "alice", "might": 3, "mighty": False, "tags": [],
                           "types": ["unit"], "keywords": {}, "zone": "battlefield", "abilities": []}},
    }  # fmt: skip
    assert data["differing"] == [{"object": "u1", "field": "might", "values": [5, 3]},
                                 {"object": "u1", "field": "mighty", "values": [True, False]}]
    assert data["paradox_branches"] == [] and data["unpermuted_ties"] == []


def test_the_json_of_a_paradox_lists_the_branch_apart():
    data = json.loads(cli(EXAMPLES / "paradox-shield-and-minus.json", "--json").stdout)
    assert (data["unique"], data["outcomes"], data["differing"]) == (False, [], [])
    assert data["paradox_branches"] == [{"choices": {}, "paradoxes": [["d-minus2-while-shield", "s-shield-while-mighty"]]}]


def test_the_markdown_report(two_sets):
    result = cli(two_sets, "--open", "R5", "--format", "md")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:18] == [
        f"# Outcomes of `{two_sets}`",
        "",
        "**2 outcomes** from 3 branches.",
        "",
        "## Choices",
        "",
        "| branch | R5 ties | tie at timestamp 1 | outcome |",
        "|---|---|---|---|",
        "| 1 | listing |  | 1 |",
        "| 2 | choice | set3, set5 | 1 |",
        "| 3 | choice | set5, set3 | 2 |",
        "",
        "## Differing fields",
        "",
        "| object | field | outcome 1 | outcome 2 |",
        "|---|---|---|---|",
        "| u1 | might | 5 | 3 |",
        "| u1 | mighty | true | false |",
    ]
    md = result.stdout
    # The choice point opened with its sentence, the board as tables, each outcome's trace in words.
    point = next(p for p in ruleset("riftbound").choice_points if p.id == "R5")
    assert f"- **R5**, {point.decision}: {point.sentence}." in md
    assert "## The board" in md and "| set3 |" in md and "| set5 |" in md
    assert "## How outcome 1 comes about" in md and "## How outcome 2 comes about" in md
    first = md.split("## How outcome 1 comes about")[1].split("##")[0]
    assert "- u1, step 1: set3" in first and "- u1, step 2: set5" in first  # 3, then 5: Might 5


# ---- what the declarative checker says (--states) ----------------------------------------------------


def test_states_lists_the_consistent_states_and_who_reaches_them(two_sets):
    result = cli(two_sets, "--open", "R5", "--states")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-3:] == [
        "consistent states (declarative checker): 2 found",
        "  state 1: reached by outcome 1",
        "  state 2: reached by outcome 2",
    ]
    data = json.loads(cli(two_sets, "--open", "R5", "--states", "--json").stdout)["states"]
    assert [s["reached_by"] for s in data["found"]] == [[1], [2]]
    assert [s["objects"]["u1"]["might"] for s in data["found"]] == [5, 3]
    assert (data["not_consistent"], data["not_judged"], data["flags"]) == ([], [], [])


def test_states_flags_a_branch_that_is_no_consistent_state_and_a_state_no_branch_reaches(two_sets):
    """An engine that answers Might 9: the checker's state (5) is reached by no branch, and the
    branch's state is not consistent."""
    from riftasp.resolve import resolve

    def wrong(boards):
        out = []
        for b in boards:
            data = resolve(b).to_json()
            data["objects"]["u1"]["might"] = 9
            out.append(data)
        return out

    found = outcomes(load_board(two_sets), states=True, resolve=wrong)
    assert found.states is not None
    assert found.states.flags == ["a consistent state no branch reaches: state 1",
                                  "not a consistent state: the branch (no choice)"]
    assert found.text().splitlines() == [
        "unique",
        "consistent states (declarative checker): 1 found",
        "  state 1: reached by no branch: FLAG",
        "    u1 might: 5 (outcome 1: 9)",
        "  FLAG: the branch (no choice) is not a consistent state",
    ]


def test_states_says_what_the_checker_does_not_judge():
    board = load_board(EXAMPLES / "showcase.json")
    found = outcomes(board, ["R2"], states=True)
    assert found.states is not None
    assert found.states.not_judged == ("the reading rechecked_set = keeps is not judged by the declarative checker",)
    assert [s.reached_by for s in found.states.found] == [(1,)]


# ---- bad input: one line, exit 2 -------------------------------------------------------------------------


def one_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_an_unknown_choice_point(two_sets):
    assert one_line(cli(two_sets, "--open", "R5,R99")) == (
        f"{two_sets}: --open: unknown choice point 'R99' (the riftbound ruleset's: R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17, R18, R19, R20)")


def test_a_choice_point_of_the_other_ruleset_is_unknown(two_sets):
    assert one_line(cli(two_sets, "--open", "S1")).endswith("--open: unknown choice point 'S1' "
                                                            "(the riftbound ruleset's: R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17, R18, R19, R20)")


def test_a_choice_point_that_is_not_switchable(two_sets, monkeypatch):
    point = ChoicePoint(id="R6", ruleset="riftbound", decision="what a test decides", sentence="silent",
                        reading="one", alternatives=("another",), switch=None, values=(),
                        why_not="no engine reads another")  # fmt: skip
    monkeypatch.setattr(module, "choice_points", lambda name: (point,))
    assert one_line(cli(two_sets, "--open", "R6")) == (
        f"{two_sets}: --open: choice point R6 (what a test decides) is not switchable: no engine reads another")
    with pytest.raises(OutcomesError, match="not switchable"):
        outcomes(load_board(two_sets), ["R6"])


def test_more_branches_than_max():
    path = SORCERY / "entering-together-chosen-order.json"
    assert one_line(cli(path, "--max", "1")) == (
        f"{path}: --max: the choices make 2 branches, more than --max 1 (open fewer choice points or raise --max)")


def test_more_tie_branches_than_max(two_sets):
    assert one_line(cli(two_sets, "--open", "R5", "--max", "2")).endswith(
        "--max: the choices make 3 branches, more than --max 2 (open fewer choice points or raise --max)")


def test_an_unknown_engine(two_sets):
    assert one_line(cli(two_sets, "--engine", "clips")) == "--engine: unknown engine 'clips': choose one of asp, reference"
    with pytest.raises(OutcomesError, match="unknown engine"):
        outcomes(load_board(two_sets), engine="clips")


def test_an_unknown_format(two_sets):
    assert one_line(cli(two_sets, "--format", "pdf")) == "--format: unknown format 'pdf': choose one of text, md, html"


def test_bad_boards_end_in_the_board_errors(tmp_path):
    missing = tmp_path / "missing.json"
    assert one_line(cli(missing)) == f"{missing}: no such file or folder"
    broken = tmp_path / "broken.json"
    broken.write_text('{"ruleset": "riftbound",')
    assert one_line(cli(broken)).startswith(f"{broken}: line 1 column ")


def test_a_choice_that_decides_whether_there_is_a_paradox_is_not_unique():
    # other-side-of-a-ring: with ties a choice, three of the six orders of timestamp 0 leave the
    # ring with no consistent state; the others (and listing order) agree.
    result = cli(EXAMPLES / "other-side-of-a-ring.json", "--open", "R5")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "1 outcome and 3 paradox branches (7 branches)"
    found = outcomes(load_board(EXAMPLES / "other-side-of-a-ring.json"), open_points=["R5"])
    assert (found.unique, len(found.outcomes), len(found.paradox_branches)) == (False, 1, 3)
