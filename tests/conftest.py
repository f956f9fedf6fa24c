"""Shared helpers: load a bundled example board and resolve it with an engine."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import settings

# The generated-input tests draw the same examples on every run (each test's seed comes from its
# name), so a run of the README's command or of CI is reproducible and a red run can be re-run
# to the same failure. RIFTASP_EXPLORE=1 draws fresh examples instead, to hunt for new defects
# beyond the ones CI's budgets reach.
settings.register_profile("reproducible", derandomize=True)
settings.register_profile("explore", derandomize=False)
# The commands run in the test process unless a test asks for workers (`--jobs 2`, a cluster):
# pytest-xdist already keeps every core busy, and a pool per command would only share them.
os.environ.setdefault("RIFTASP_JOBS", "1")

settings.load_profile("explore" if os.environ.get("RIFTASP_EXPLORE") == "1" else "reproducible")

from riftasp.board_io import load_board  # noqa: E402 (after the profiles, as before)
from riftasp.result import Resolution  # noqa: E402

# `dask_scheduler`: the address of a real local Dask cluster for a module's tests (tests/cluster.py;
# `local_cluster()` there for a cluster of one's own).
from cluster import dask_scheduler  # noqa: E402, F401

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "riftbound"
# The example boards (their stored golden outputs, NAME*.expected.json, beside them are not boards).
EXAMPLE_BOARDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))
ENGINES = ["asp", "reference"]


def example(name: str):
    return load_board(EXAMPLES / f"{name}.json")


def run(board, engine: str = "asp") -> Resolution:
    if engine == "asp":
        from riftasp.resolve import resolve
    else:
        from riftasp.reference import resolve
    return resolve(board)


def asp_together(boards: Sequence) -> list[Resolution]:
    """The ASP resolver's answers to many boards in one program (riftasp.batch.resolve_all): each
    the answer resolving the board alone gives (tests/test_batch.py holds every example to its
    golden output, tests/test_golden.py each alone to the same), at a fraction of the cost — for
    tests that ask something of every example's answer rather than of resolving it."""
    from riftasp.batch import resolve_all

    return resolve_all(boards)


@functools.cache
def examples_together(ruleset_name: str | None = None) -> dict[str, Resolution]:
    """Every riftbound example's ASP answer, by name, under `ruleset_name` (a variant of the same
    rules) or its own ruleset: one batch a process (asp_together)."""
    import dataclasses

    from riftasp.rulesets import ruleset

    boards = [example(p.stem) for p in EXAMPLE_BOARDS]
    if ruleset_name is not None:
        boards = [dataclasses.replace(b, ruleset=ruleset(ruleset_name)) for b in boards]
    return dict(zip((p.stem for p in EXAMPLE_BOARDS), asp_together(boards)))


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


@pytest.fixture
def resolve_example(engine):
    return lambda name: run(example(name), engine)


# ---- a real browser (issue 40: the HTML pages, tests/test_report.py, tests/test_html_reports.py) ----

CHROMIUM = "/usr/bin/chromium"
NEEDS_BROWSER = "needs Debian's chromium and playwright: apt-get install chromium; pip install -e '.[test]'"


@pytest.fixture(scope="session")
def chromium():
    """Debian's headless Chromium driven by Playwright, launched once for the session; the test
    is skipped, with the reason, where either is missing."""
    import shutil

    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.skip(NEEDS_BROWSER)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(NEEDS_BROWSER)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()
