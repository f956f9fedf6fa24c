"""The search kernels (encodings/research/, riftasp/research/search.py, issue 38).

A kernel is only as good as its fidelity: on every board of its space it must calculate each
reading as the engines do, else its "smallest disagreement" is a claim about another rule. The
kernel of R4 (the dependency rule) is held to both engines on every board of its space up to two
effects (one object in the quick run, two in the thorough one, and up to three effects on one
object, where "immediately after" first matters); the search is held to its answers on the
seed's example (Might 6 under `result`, 7 under `none`: examples/riftbound/increase-to-5-older-
than-plus2.json), to a space without any disagreement, and to its refusals.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import cache

import pytest
from budget import budget, thorough_only
from test_encoding_interface import Interface

from riftasp.batch import resolve_all
from riftasp.reference import resolve as reference
from riftasp.research.search import (
    KernelModel,
    NoKernel,
    confirmed,
    kernel_file,
    kernel_models,
    mights,
    search,
)
from riftasp.resolve import resolve
from riftasp.rulesets import ruleset

# Each reading the kernel of R4 calculates, and the ruleset whose engines read it so.
R4_READINGS = [("result", "riftbound"), ("none", "riftbound-timestamps")]


@cache
def _space(max_effects: int, max_objects: int) -> list[KernelModel]:
    """Every board of the R4 kernel's space within the bounds, with what it calculates there."""
    return kernel_models("R4", ruleset("riftbound"), max_effects=max_effects, max_objects=max_objects)


def _mismatches(models: list[KernelModel], reading: str, name: str, asp_every: int) -> list[str]:
    """The boards on which the kernel's Might under `reading` is not the engines' under the
    ruleset `name`: the reference engine on every board, riftasp's on every `asp_every`-th."""
    rules = ruleset(name)
    boards = [m.board(rules) for m in models]
    wrong = []
    for model, board in zip(models, boards):
        if model.predicted.get(reading, {}) != mights(reference(board)):
            wrong.append(f"reference: {model.objects} {model.effects}: kernel {model.predicted.get(reading, {})}, "
                         f"engine {mights(reference(board))}")
    chosen = range(0, len(boards), asp_every)
    for n, resolution in zip(chosen, resolve_all([boards[n] for n in chosen])):
        if models[n].predicted.get(reading, {}) != mights(resolution):
            wrong.append(f"riftasp: {models[n].objects} {models[n].effects}: kernel {models[n].predicted.get(reading, {})}, "
                         f"engine {mights(resolution)}")
    return wrong


@pytest.mark.parametrize(("reading", "name"), R4_READINGS)
def test_the_R4_kernel_calculates_each_reading_as_the_engines_on_every_board_of_one_object(reading, name):
    # 1 object with printed Might 0..6 and up to 2 effects (5 operations; plus, minus,
    # set_might and increase_to with 1..5): 7 * (21 + 21 * 21) = 3,234 boards. Every one against
    # the reference engine, every 8th against riftasp's (all of them in the thorough run).
    models = _space(2, 1)
    assert len(models) == 7 * (21 + 21 * 21) + 1  # and the empty board
    assert _mismatches(models, reading, name, asp_every=budget(8, 1)) == []


@thorough_only
@pytest.mark.parametrize(("reading", "name"), R4_READINGS)
def test_the_R4_kernel_calculates_each_reading_as_the_engines_on_every_board_of_two_objects(reading, name):
    # Up to 2 objects and 2 effects, every object targeted: 3,235 boards of one object and
    # 7 * 7 * 21 * 21 = 21,609 of two (one effect on each): 24,844, every one against both engines.
    models = _space(2, 2)
    assert len(models) == 3235 + 7 * 7 * 21 * 21
    assert _mismatches(models, reading, name, asp_every=1) == []


@thorough_only
@pytest.mark.parametrize(("reading", "name"), R4_READINGS)
def test_the_R4_kernel_calculates_each_reading_as_the_engines_with_three_effects_on_one_object(reading, name):
    # "Immediately after" (§6.9) takes three applications of one stage: 68,062 boards, every one
    # against the reference engine, every 50th against riftasp's.
    models = _space(3, 1)
    assert len(models) == 3235 + 7 * 21 ** 3
    assert _mismatches(models, reading, name, asp_every=50) == []


def test_the_R4_kernel_s_header_names_what_it_expects_and_provides():
    kernel = Interface(kernel_file("R4"))
    assert kernel.expects == kernel.uses == {("bound", 2), ("might_range", 2), ("amount_range", 2),
                                             ("allowed", 1), ("op_rank", 2), ("search", 0)}
    assert kernel.shows <= kernel.provides <= kernel.defines


def test_the_search_finds_confirmed_two_effect_boards_where_the_dependency_rule_matters():
    start = time.perf_counter()
    result = search("riftbound", "riftbound-timestamps", max_effects=3)
    elapsed = time.perf_counter() - start
    assert result.kernel_bugs == ()
    assert result.kernel == "R4" and result.bound == 3
    assert result.boards and {len(b.effects) for b in result.boards} == {2}
    assert {len(b.objects) for b in result.boards} == {1}
    assert result.message == (f"{len(result.boards)} board(s) of 2 effect(s) on which riftbound and "
                              "riftbound-timestamps disagree (kernel R4)")
    # The seed's example among them: 4 Might, "increase to 5" older than "+2".
    seed = [b for b in result.boards if b.objects[0].params == (("might", 4),)
            and [(e.op.name, e.op.params) for e in b.effects] == [("increase_to", (("value", 5),)), ("plus", (("amount", 2),))]]
    assert len(seed) == 1
    # The engines really differ on it (the search confirmed every board; asked once more here).
    board = seed[0]
    assert resolve(board).objects["u1"].might == 6
    timestamps = ruleset("riftbound-timestamps")
    assert resolve(replace(board, ruleset=timestamps)).objects["u1"].might == 7
    assert elapsed <= 10, f"the search took {elapsed:.1f} s"


def test_without_a_computed_amount_there_is_no_disagreement_to_find():
    start = time.perf_counter()
    result = search("riftbound", "riftbound-timestamps", max_effects=3, only_ops=["plus", "minus", "set_might"])
    elapsed = time.perf_counter() - start
    assert result.boards == () and result.kernel_bugs == ()
    assert result.message == "no disagreement up to 3 effects (kernel R4)"
    assert elapsed <= 30, f"the search took {elapsed:.1f} s"


def test_a_choice_point_without_a_kernel_is_refused():
    # riftbound-immediate differs from riftbound on R1 (condition_timing), which has no kernel.
    with pytest.raises(NoKernel) as refused:
        search("riftbound", "riftbound-immediate")
    assert refused.value.ids == ("R1",)
    assert "R1" in str(refused.value)


def test_an_operation_the_kernel_does_not_know_is_refused_by_name():
    with pytest.raises(ValueError, match="frobnicate"):
        search("riftbound", "riftbound-timestamps", only_ops=["plus", "frobnicate"])
    with pytest.raises(ValueError, match="copy"):  # riftasp's, but not one the kernel guesses
        search("riftbound", "riftbound-timestamps", only_ops=["double", "copy"])


def test_rulesets_of_two_families_are_refused():
    with pytest.raises(ValueError, match="family"):
        search("riftbound", "sorcery")


def test_a_kernel_board_the_engines_do_not_confirm_is_a_kernel_bug_never_a_board():
    a, b = ruleset("riftbound"), ruleset("riftbound-timestamps")
    # 4 Might, "+1" then "+1": no dependency, 6 under both readings; a kernel claiming 7 is wrong.
    wrong = KernelModel({1: 4}, {1: ("plus", 1, 1), 2: ("plus", 1, 1)}, {"result": {"u1": 7}, "none": {"u1": 6}})
    same = KernelModel({1: 4}, {1: ("plus", 1, 1), 2: ("plus", 1, 1)}, {"result": {"u1": 6}, "none": {"u1": 6}})
    boards, bugs = confirmed([wrong, same], "dependency", a, b)
    assert boards == []
    assert [bug.board.objects[0].params for bug in bugs] == [(("might", 4),)] * 2
    assert "the kernel predicts Might {'u1': 7}" in bugs[0].reason
    assert "the same Might" in bugs[1].reason
