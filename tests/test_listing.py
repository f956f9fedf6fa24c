"""Listing order (riftasp/listing.py): the one order of a board's slots that the facts, the `.lp`
reader and the reference engine share."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLE_BOARDS
from riftasp.board_io import board_from_facts, load_board
from riftasp.facts import board_facts
from riftasp.listing import all_slots, listed_effects, listing_term
from riftasp.rulesets.riftbound.reference.instances import OWN_PARTS
from riftasp.terms import quote


@pytest.mark.parametrize("path", EXAMPLE_BOARDS, ids=lambda p: p.stem)
def test_listings_sort_the_slots_in_listing_order(path: Path):
    board = load_board(path)
    slots = list(all_slots(board, OWN_PARTS, board.ruleset.keywords.bonus))
    assert sorted(slots, key=lambda slot: slot.listing) == slots
    assert len({slot.listing for slot in slots}) == len(slots)


@pytest.mark.parametrize("path", EXAMPLE_BOARDS, ids=lambda p: p.stem)
def test_the_facts_list_each_effect_at_its_listing_and_read_back(path: Path):
    board = load_board(path)
    facts = board_facts(board).splitlines()
    for slot in listed_effects(board):
        effect, listing = quote(slot.effect.id), listing_term(slot.listing)
        if slot.obj is None:
            assert f"ongoing({effect},{listing})." in facts
        else:
            assert f"text({quote(slot.obj.id)},{effect},{slot.part},{listing})." in facts
    assert board_from_facts("\n".join(facts), board.source) == board
