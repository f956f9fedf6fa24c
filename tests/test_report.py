"""`riftasp report` (issue 40): one self-contained HTML page per run, checked as HTML and in a
real headless browser (Debian's Chromium driven by Playwright): no errors in its console, every
object in the DOM and the graph, and a full-page screenshot against tests/golden/ (within a
tolerance; `RIFTASP_UPDATE_GOLDEN=1` rewrites the golden)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import NEEDS_BROWSER, ROOT
from typer.testing import CliRunner

from riftasp.board_io import load_board
from riftasp.cli import app
from riftasp.picture.report import report_html
from riftasp.reference import resolve

SHOWCASE = ROOT / "examples" / "riftbound" / "showcase.json"
SORCERY = ROOT / "examples" / "sorcery" / "two-kings.json"  # a dependency cycle
GOLDEN = ROOT / "tests" / "golden" / "showcase-report.png"
VIEWPORT = {"width": 1200, "height": 900}


class Page(HTMLParser):
    """What the tests read of a page: every element's attributes, the text, URLs, SVG count."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}))

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def with_attr(self, name: str) -> list[dict[str, str]]:
        return [a for _, a in self.elements if name in a]


def page_for(*paths: Path) -> tuple[str, list]:
    pairs = [(b, resolve(b)) for b in map(load_board, paths)]
    return report_html(pairs, title="riftasp report"), pairs


@pytest.mark.parametrize("path", [SHOWCASE, SORCERY], ids=lambda p: p.stem)
def test_the_page_holds_every_object_and_nothing_from_outside(path):
    html, [(_, res)] = page_for(path)
    page = Page(html)
    text = "".join(page.text)
    svgs = [a for tag, a in page.elements if tag == "svg"]
    assert len(svgs) == 1
    nodes = [a for tag, a in page.elements if tag == "g" and "object" in a.get("class", "").split()]
    assert sorted(a["data-id"] for a in nodes) == sorted(res.objects)
    for oid in res.objects:
        assert oid in text
        assert [a for a in nodes if a["id"] == f"node-{oid}"]
        assert any(a["data-object"] == oid for a in page.with_attr("data-object"))
    for _, attrs in page.elements:
        for key in ("src", "href"):
            assert not re.match(r"\s*(https?:)?//", attrs.get(key, "")), attrs
    assert re.findall(r"https?://[^\"'\s)]+", html) == ["http://www.w3.org/2000/svg"]
    assert "<script" not in html and "<link" not in html
    for group in res.dependency_cycles + res.object_loops + res.paradoxes:
        assert ", ".join(group) in text


def test_ids_are_escaped():
    html, [(_, res)] = page_for(SHOWCASE)
    oid = sorted(res.objects)[0]
    hostile = '<b id="x">&amp;"'
    board = load_board(SHOWCASE)
    renamed = {(hostile if o == oid else o): c for o, c in res.objects.items()}
    page = Page(report_html([(board, type(res)(res.ruleset, renamed, engine=res.engine))]))
    assert not [tag for tag, _ in page.elements if tag == "b"]
    assert any(a["data-object"] == hostile for a in page.with_attr("data-object"))
    assert hostile in "".join(page.text)


def test_the_command_writes_the_page(tmp_path):
    out = tmp_path / "r.html"
    runner = CliRunner()
    result = runner.invoke(app, ["report", str(SHOWCASE), str(SORCERY), "-o", str(out), "--engine", "reference"])
    assert result.exit_code == 0, result.output
    page = Page(out.read_text(encoding="utf-8"))
    assert len([1 for tag, _ in page.elements if tag == "svg"]) == 2
    bad = runner.invoke(app, ["report", str(tmp_path / "missing.json"), "-o", str(out)])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1


@contextmanager
def opened(browser, path: Path) -> Iterator:
    """The page at `path` in a new tab of `browser` (conftest.py's `chromium`), loaded; on
    leaving, no error in its console, no page error and no request but for file: URLs."""
    page = browser.new_page(viewport=VIEWPORT, device_scale_factor=1)
    messages, errors = [], []
    page.on("console", lambda m: messages.append((m.type, m.text)))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: errors.append(f"request {r.url}") if not r.url.startswith("file:") else None)
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        yield page
    finally:
        page.close()
    assert not errors and not [m for m in messages if m[0] == "error"], (errors, messages)


def test_the_page_in_a_real_browser(tmp_path, monkeypatch, chromium):
    try:
        from PIL import Image, ImageChops
    except ImportError:
        pytest.skip(NEEDS_BROWSER)
    monkeypatch.chdir(ROOT)  # the board's path as the page shows it: the same in every checkout
    html, [(_, res)] = page_for(SHOWCASE.relative_to(ROOT))
    path = tmp_path / "showcase.html"
    path.write_text(html, encoding="utf-8")
    shot = tmp_path / "showcase.png"
    with opened(chromium, path) as page:
        for oid in res.objects:
            assert page.locator(f'[data-object="{oid}"]').count() >= 1, oid
        assert page.locator("svg g.object").count() == len(res.objects)
        assert page.locator("svg").count() == 1
        page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("RIFTASP_UPDATE_GOLDEN") == "1" or not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        shutil.copyfile(shot, GOLDEN)
        if os.environ.get("RIFTASP_UPDATE_GOLDEN") != "1":
            pytest.fail(f"no golden screenshot: wrote {GOLDEN}; check it and run again")
    got, want = Image.open(shot).convert("RGB"), Image.open(GOLDEN).convert("RGB")
    assert got.size == want.size, (got.size, want.size)
    diff = ImageChops.difference(got, want)
    over = [band.point(lambda v: 255 if v > 32 else 0) for band in diff.split()]
    differing = ImageChops.lighter(ImageChops.lighter(over[0], over[1]), over[2]).histogram()[255]
    share = differing / (got.size[0] * got.size[1])
    assert share <= 0.01, f"{share:.2%} of pixels differ from {GOLDEN} (RIFTASP_UPDATE_GOLDEN=1 rewrites it)"
