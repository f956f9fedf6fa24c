"""The fuzzing corpus as a list: the boards riftasp.rulesets.riftbound.strategies draws for a fixed seed, the same
ones every run (the tests that compare two ways of resolving share it)."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from riftasp.board_io import board_from_dict
from riftasp.fuzz import fixed_constants
from riftasp.rulesets.riftbound.strategies import boards as board_strategy


def generated(count: int, seed: int) -> list:
    """`count` generated boards for `seed`, named generated[i]."""
    drawn: list = []

    @hypothesis_seed(seed)
    @settings(database=None, max_examples=count, phases=(Phase.generate,), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(board_strategy())
    def collect(data) -> None:
        drawn.append(data)

    with fixed_constants():
        collect()
    return [board_from_dict(d, f"generated[{i}]") for i, d in enumerate(drawn)]
