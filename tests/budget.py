"""Test budgets: small by default, the full ones with RIFTASP_THOROUGH=1 (CI's thorough run).

The README's test command must stay within about two minutes; the long generated-board runs
keep their full budgets behind this switch instead of being dropped.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

import pytest

T = TypeVar("T")

THOROUGH = os.environ.get("RIFTASP_THOROUGH") == "1"


def budget(fast: int, thorough: int) -> int:
    """How many examples or boards a generated-input test runs."""
    return thorough if THOROUGH else fast


def spread(items: Sequence[T], every: int) -> list[T]:
    """All of `items` in the thorough run; every `every`-th one, spread over them, by default (for
    a check the golden outputs already hold every example to, asked again of each)."""
    return list(items) if THOROUGH else list(items[::every])


def thorough_only(test: T) -> T:
    """A test whose smallest useful budget is still long, and whose rule another quick test
    already asks on fewer boards: CI's thorough run runs it, the README's run does not."""
    skip = pytest.mark.skipif(not THOROUGH, reason="runs in the thorough run (RIFTASP_THOROUGH=1), as CI does")
    return pytest.mark.thorough(skip(test))


def thorough_param(*values: object) -> object:
    """A parametrize case that only the thorough run runs (thorough_only, for one case)."""
    skip = pytest.mark.skipif(not THOROUGH, reason="runs in the thorough run (RIFTASP_THOROUGH=1), as CI does")
    return pytest.param(*values, marks=[pytest.mark.thorough, skip])
