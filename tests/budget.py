"""Test budgets: small by default, the full ones with RIFTASP_THOROUGH=1 (CI's thorough run).

The README's test command must stay within about two minutes; the long generated-board runs
keep their full budgets behind this switch instead of being dropped.
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("RIFTASP_THOROUGH") == "1"


def budget(fast: int, thorough: int) -> int:
    """How many examples or boards a generated-input test runs."""
    return thorough if THOROUGH else fast
