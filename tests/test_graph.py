"""`riftasp graph` (issue 40): the pictures of a calculation (riftasp/picture/) on every example
board of both rulesets, from their stored golden resolutions (the JSON contract, NAME.expected.json),
so no engine runs but for the command's own tests."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import EXAMPLE_BOARDS, ROOT
from typer.testing import CliRunner

from riftasp.board_io import load_board
from riftasp.cli import app
from riftasp.picture import SHOWS, build_graph, render
from riftasp.picture.layout import back_edges, layered

SORCERY_BOARDS = sorted(p for p in (ROOT / "examples" / "sorcery").glob("*.json")
                        if not p.name.endswith(".expected.json"))
BOARDS = EXAMPLE_BOARDS + SORCERY_BOARDS
SVG = "{http://www.w3.org/2000/svg}"
GROUPS = (("object_loops", "loop"), ("dependency_cycles", "cycle"), ("paradoxes", "paradox"))


def golden(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def svg_nodes(svg: str) -> dict[str, ET.Element]:
    """The node groups of an SVG, by their data-id (objects and effects apart)."""
    root = ET.fromstring(svg)
    return {(g.get("class", "").split()[1], g.get("data-id")): g
            for g in root.iter(SVG + "g") if "node" in g.get("class", "").split() and g.get("data-id") is not None}


def test_the_examples_cover_both_rulesets_and_every_kind_of_group():
    assert len(EXAMPLE_BOARDS) > 20 and len(SORCERY_BOARDS) > 20
    resolutions = [golden(p) for p in BOARDS]
    for key, _ in GROUPS:
        assert any(r[key] for r in resolutions), key


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_draws_every_object_and_highlights_its_loops(path):
    board, res = load_board(path), golden(path)
    objects = set(res["objects"])

    svg = render(res, board, "all", "svg")
    nodes = svg_nodes(svg)
    drawn = {oid for kind, oid in nodes if kind == "object"}
    assert drawn == objects
    for oid in objects:
        g = nodes[("object", oid)]
        assert g.get("id") == f"node-{oid}" and "object" in g.get("class", "").split()
    for key, cls in GROUPS:  # loops among objects, cycles and paradoxes among effects
        kind = "object" if key == "object_loops" else "effect"
        for members in res[key]:
            for m in members:
                assert cls in nodes[(kind, m)].get("class", "").split(), (key, m)

    dot = render(res, board, "all", "dot")
    lines = dot.splitlines()
    for oid in objects:
        assert sum(line.startswith(f"  {json.dumps('object:' + oid)} [") for line in lines) == 1, oid

    data = json.loads(render(res, board, "all", "json"))
    assert {n["id"] for n in data["nodes"] if n["kind"] == "object"} == objects
    assert [g["members"] for g in data["groups"] if g["kind"] == "loop"] == res["object_loops"]
    needs = {(e["from"], e["to"]) for e in data["edges"] if e["kind"] == "needs"}
    assert needs == {(read, reader) for reader, reads in res["needs"].items() for read in reads}

    steps = render(res, board, "steps", "svg")
    drawn_steps = [g for g in ET.fromstring(steps).iter(SVG + "g") if g.get("class") == "step"]
    assert len(drawn_steps) == sum(len(apps) for apps in res["applied"].values())
    for show in SHOWS:  # every view of every format is well formed
        ET.fromstring(render(res, board, show, "svg"))
        json.loads(render(res, board, show, "json"))
        assert render(res, board, show, "dot").rstrip().endswith("}")


def test_the_pictures_are_the_same_every_time():
    for name in ("copy-ring-of-three", "showcase", "odd-ring-of-stops"):
        path = ROOT / "examples" / "riftbound" / f"{name}.json"
        for fmt in ("svg", "dot", "json"):
            first = render(golden(path), load_board(path), "all", fmt)
            assert render(golden(path), load_board(path), "all", fmt) == first


def test_the_loops_view_keeps_only_the_members_of_loops_cycles_and_paradoxes():
    path = ROOT / "examples" / "riftbound" / "copy-ring-of-three.json"
    graph = build_graph(golden(path), load_board(path), "loops")
    assert {n.id for n in graph.nodes if n.kind == "object"} == {"u1", "u2", "u3"}
    assert {n.id for n in graph.nodes if n.kind == "effect"} == {"r1-copy-u2", "r2-copy-u3", "r2-copy-u3@u1", "r3-copy-u1"}
    assert all(set(e.classes) for e in graph.edges if e.kind == "needs")


def test_ids_and_names_are_escaped():
    odd = 'a<&">\'b'
    res = {
        "ruleset": "riftbound", "engine": "asp",
        "objects": {odd: {"name": "x & <y>", "might": 1}, "c\\d": {"name": 'q"\n', "might": 2}},
        "applied": {odd: [{"effect": f"e{odd}", "step": 1, "layer": "arithmetic", "sublayer": None,
                           "characteristic": "might", "depends_on": [], "before": 0, "after": 1}]},
        "needs": {odd: ["c\\d"], "c\\d": [odd]}, "object_loops": [[odd, "c\\d"]],
        "dependency_cycles": [], "paradoxes": [], "withdrawn": {}, "withdrawals": [],
    }
    svg = render(res, None, "all", "svg")
    assert odd not in svg and "&lt;&amp;&quot;&gt;" in svg
    nodes = svg_nodes(svg)
    assert "loop" in nodes[("object", odd)].get("class", "").split()
    assert nodes[("object", odd)].get("id") == f"node-{odd}"  # the parser undoes the escaping
    assert ("effect", f"e{odd}") in nodes
    ET.fromstring(render(res, None, "steps", "svg"))
    dot = render(res, None, "all", "dot")
    assert '"object:a<&\\">\'b" [' in dot and '"object:c\\\\d" [' in dot
    assert json.loads(render(res, None, "all", "json"))["nodes"][0]["id"] in (odd, "c\\d")


def test_the_layout_breaks_cycles_by_reversing_back_edges():
    nodes = ["a", "b", "c", "d"]
    edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
    assert back_edges(nodes, edges) == {("c", "a")}
    layout = layered(nodes, edges, 100, 40)
    assert [layout.column[n] for n in nodes] == [0, 1, 2, 3]
    assert layout.back_edges == {("c", "a")}
    assert layered(nodes, edges, 100, 40) == layout


def test_the_command_writes_each_format_and_fails_in_one_line(tmp_path):
    board = str(ROOT / "examples" / "riftbound" / "loop-copies-each-other.json")
    runner = CliRunner()
    done = runner.invoke(app, ["graph", board, "--format", "json", "--engine", "reference"])
    assert done.exit_code == 0, done.output
    assert {n["id"] for n in json.loads(done.stdout)["nodes"] if n["kind"] == "object"} == {"u1", "u2"}
    out = tmp_path / "g.dot"
    done = runner.invoke(app, ["graph", board, "--format", "dot", "--show", "steps", "-o", str(out), "--engine", "reference"])
    assert done.exit_code == 0 and done.stdout == "" and out.read_text().startswith("// riftasp graph")
    for args in (["--show", "nothing"], ["--format", "png"]):
        done = runner.invoke(app, ["graph", board, *args])
        assert done.exit_code == 2 and len(done.stderr.strip().splitlines()) == 1, done.output
    done = runner.invoke(app, ["graph", str(tmp_path / "missing.json")])
    assert done.exit_code == 2 and len(done.stderr.strip().splitlines()) == 1


def test_the_readme_picture_is_what_the_command_draws_now(tmp_path):
    out = tmp_path / "showcase-graph.svg"
    done = CliRunner().invoke(app, ["graph", str(ROOT / "examples" / "riftbound" / "showcase.json"),
                                    "--format", "svg", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert out.read_text(encoding="utf-8") == (ROOT / "docs" / "showcase-graph.svg").read_text(encoding="utf-8"), (
        "docs/showcase-graph.svg is out of date: riftasp graph examples/riftbound/showcase.json --format svg "
        "-o docs/showcase-graph.svg")
    assert "](docs/showcase-graph.svg)" in (ROOT / "README.md").read_text(encoding="utf-8")
