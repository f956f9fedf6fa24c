"""Boards drawn from a ruleset's generators by hypothesis, the same for the same seed on every
run: what a fuzz chunk (riftasp/campaign/evaluate.py) and `riftasp properties` take."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st


class _Enough(Exception):
    """A dry run has drawn the boards it was asked to foretell."""


def drawn_boards(strategy: st.SearchStrategy[dict[str, Any]], seed: int, n: int,
                 budget: int | None = None) -> list[dict[str, Any]]:
    """The first `n` boards a fuzz run of `seed` (and `budget` boards, default n) draws, as
    board dicts: the same for the same arguments on every run (`fixed_constants`). Until a test
    fails, hypothesis draws the same boards whatever the test does with them: a fuzz run's chunk
    (riftasp/campaign/evaluate.py) and `riftasp properties` take their boards from here."""
    drawn: list[dict[str, Any]] = []

    def draw(data: dict[str, Any]) -> None:
        if len(drawn) >= n:
            raise _Enough()
        drawn.append(data)

    collect = settings(  # a fuzz run's settings, but generation only
        database=None, max_examples=max(budget or n, 1), deadline=None, derandomize=False,
        phases=(Phase.generate,), suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
    )(given(strategy)(draw))  # fmt: skip
    try:
        with fixed_constants():
            hypothesis_seed(seed)(collect)()
    except _Enough:
        pass
    return drawn


@contextmanager
def fixed_constants() -> Iterator[None]:
    """Keep hypothesis from seeding its draws with literals found in the modules loaded so far.

    Hypothesis mixes into generation constants from the source of every loaded "local" module
    (here riftasp's own, and test files under pytest), re-read whenever a module is imported. The
    boards for a seed would then depend on what happened to be imported before or during the
    run, and `riftasp fuzz --seed N` would not be reproducible. Private API, so patched only if
    present; hypothesis's own fixed constants stay in use.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a hypothesis without the mechanism
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    if original is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if cache is not None:
        cache.cache.clear()  # it holds local constants drawn before
    try:
        yield
    finally:
        providers._get_local_constants = original
        if cache is not None:
            cache.cache.clear()


