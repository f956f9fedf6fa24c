"""`--format html` of the commands that report findings (issue 40): crosscheck, fuzz, compare,
outcomes and properties. One self-contained page in report.py's shell, CSS and escaping: a
header with the run's parameters, its counts and its verdict, then one section per finding: what
it is (notes), its minimal board as tables, the two sides' values side by side (the rows that
differ highlighted), the graph of the calculation and the explanations of the objects in question.

Each command turns its own report into `Finding`s (the adapters sit beside its text and markdown
reports); nothing here resolves a board or knows a command, so the research modules import this
one and never the other way round (tests/test_import_graph.py). The board tables and the side by
side rows are also what the markdown reports print (research/compare.py), so both read alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..board_io import board_to_dict
from ..compare import OBJECT_FIELD, compared_fields, normalize
from ..present import trace_value
from .report import attr, explain_block, graph_block, page, text

if TYPE_CHECKING:
    from ..model import Board
    from ..result import Resolution
    from ..rulesets import Ruleset

Table = tuple[list[str], list[list[str]]]  # header, rows: plain text, escaped when written


@dataclass(frozen=True)
class SideRow:
    """One object's characteristic under both sides, as text, and whether the two differ."""

    object: str
    field: str
    a: str
    b: str
    differs: bool


@dataclass
class Finding:
    """One section of a page: a disagreement, an outcome, a failing property."""

    title: str
    notes: list[str] = field(default_factory=list)  # plain sentences, one paragraph each
    board: Board | None = None  # the (minimal) board: its tables, and its graph
    labels: tuple[str, str] = ("riftasp", "engine")  # the two sides' names (column heads)
    rows: list[SideRow] = field(default_factory=list)
    resolution: Resolution | None = None  # one side's: the graph and the explanations
    explained: list[str] | None = None  # the objects explained (None: every object a row differs on)
    tables: list[Table] = field(default_factory=list)  # more tables after the notes (outcomes' choices)


# ---- what the markdown reports share -------------------------------------------------------------


def cell(value: Any) -> str:
    """A value of a board's JSON in a table cell: nothing for none, lists joined, JSON else."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(v if isinstance(v, str) else json.dumps(v, sort_keys=True) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


_TEXT_KEYS = ("rules_text", "effect_text")


def board_tables(board: Board) -> tuple[list[Table], str | None]:
    """The board as tables: its objects (every key they have but their text), then every effect
    (text and ongoing) with what holds it; and its settings as one line (None: none)."""
    data = board_to_dict(board)
    objects = data.get("objects", [])
    keys = list(dict.fromkeys(k for obj in objects for k in obj if k not in _TEXT_KEYS))
    tables: list[Table] = [(keys, [[cell(obj.get(k)) for k in keys] for obj in objects])]
    effects = [(f"{obj['id']} ({key.replace('_', ' ')})", e) for obj in objects for key in _TEXT_KEYS
               for e in obj.get(key, ())]  # fmt: skip
    effects += [("ongoing", e) for e in data.get("effects", ())]
    if effects:
        rows = [[cell(e.get("id")), held, _operation(e.get("op", {})), _target(e.get("target")),
                 cell(e.get("conditions")), cell(e.get("timestamp")), cell(e.get("controller"))]
                for held, e in effects]  # fmt: skip
        tables.append((["effect", "held by", "does", "target", "conditions", "timestamp", "controller"], rows))
    return tables, cell(data["settings"]) if data.get("settings") else None


def _operation(op: Mapping[str, Any]) -> str:
    params = " ".join(f"{k}={cell(v)}" for k, v in op.items() if k != "op")
    return f"{op.get('op', '')} {params}".strip()


def _target(target: Any) -> str:
    if target is None:
        return "self (default)"
    if isinstance(target, Mapping) and list(target) == ["ids"]:
        return ", ".join(target["ids"])
    return cell(target)


def side_rows(rules: Ruleset, objects_a: Mapping[str, Any], objects_b: Mapping[str, Any]) -> list[SideRow]:
    """Every object's compared characteristics under both sides (as riftasp/compare.py compares
    them), leaving out a characteristic empty on both; an object one side lacks is one row."""
    kinds = {f.key: f.kind for f in rules.output_fields} | {"keywords": "keywords"}
    rows = []
    for oid in sorted(set(objects_a) | set(objects_b)):
        if (oid in objects_a) != (oid in objects_b):
            rows.append(SideRow(oid, OBJECT_FIELD, "present" if oid in objects_a else "missing",
                                "present" if oid in objects_b else "missing", True))  # fmt: skip
            continue
        for key in compared_fields(rules):
            va = normalize(kinds[key], objects_a[oid].get(key))
            vb = normalize(kinds[key], objects_b[oid].get(key))
            if va == vb and va in (None, [], {}, "", False) and type(va) is type(vb):
                continue  # nothing on either side
            rows.append(SideRow(oid, key, trace_value(va), trace_value(vb), va != vb or type(va) is not type(vb)))
    return rows


def with_disagreements(objects: Mapping[str, Any], found: Iterable[Any]) -> dict[str, Any]:
    """The other engine's objects, from riftasp's and the disagreements (riftasp/compare.py):
    a compared field no disagreement names is one the engine gave the same value (a campaign
    keeps the disagreements, not the engine's whole answer). Violations are no values."""
    theirs = {oid: dict(chars) for oid, chars in objects.items()}
    for d in found:
        if not hasattr(d, "engine_value") or hasattr(d, "invariant"):
            continue
        if d.field == OBJECT_FIELD:
            if d.engine_value is None:
                theirs.pop(d.object, None)
            else:
                theirs[d.object] = dict(d.engine_value)
        else:
            theirs.setdefault(d.object, {})[d.field] = d.engine_value
    return theirs


# ---- the page ----------------------------------------------------------------------------------------


def findings_page(title: str, parameters: Sequence[tuple[str, Any]], counts: Sequence[tuple[str, Any]],
                  verdict: str, good: bool, findings: Sequence[Finding], notes: Sequence[str] = (),
                  tables: Sequence[Table] = ()) -> str:
    """The page: the run's parameters and counts, its verdict (green when `good`, red else), the
    run's notes and tables, then each finding. Every text is escaped here."""
    body = ['<table class="params">', *(_param_row(k, v) for k, v in parameters), "</table>",
            '<table class="params counts">', *(_param_row(k, v) for k, v in counts), "</table>",
            f'<p class="verdict {"good" if good else "bad"}">{text(verdict)}</p>']  # fmt: skip
    if notes:
        body += ['<ul class="notes">', *(f"<li>{text(n)}</li>" for n in notes), "</ul>"]
    for table in tables:
        body += html_table(table)
    for number, finding in enumerate(findings, 1):
        body += finding_section(number, finding)
    return page(title, body)


def _param_row(key: str, value: Any) -> str:
    return f"<tr><th>{text(key)}</th><td>{text(value)}</td></tr>"


def finding_section(number: int, f: Finding) -> list[str]:
    out = [f'<section class="finding" id="finding-{number}">', f"<h2>{number}. {text(f.title)}</h2>"]
    out += [f'<p class="meta">{text(n)}</p>' for n in f.notes]
    for table in f.tables:
        out += html_table(table)
    if f.board is not None:
        out.append("<h3>Board</h3>")
        tables, settings = board_tables(f.board)
        for table in tables:
            out += html_table(table, "board")
        if settings:
            out.append(f'<p class="meta">settings: {text(settings)}</p>')
    if f.rows:
        out.append("<h3>Values side by side</h3>")
        out += sides_table(f.labels, f.rows)
    if f.resolution is not None and f.board is not None:
        out += ["<h3>Graph</h3>", *graph_block(f.board, f.resolution)]
        explained = f.explained if f.explained is not None else list(dict.fromkeys(r.object for r in f.rows if r.differs))
        shown = [oid for oid in explained if oid in f.resolution.objects]
        if shown:
            out.append("<h3>Explanations</h3>")
            for oid in shown:
                out += explain_block(number, f.resolution, oid)
    out.append("</section>")
    return out


def html_table(table: Table, css: str = "") -> list[str]:
    header, rows = table
    out = [f'<table class="{css}">' if css else "<table>", "<tr>" + "".join(f"<th>{text(h)}</th>" for h in header) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{text(c)}</td>" for c in row) + "</tr>" for row in rows]
    return out + ["</table>"]


def sides_table(labels: tuple[str, str], rows: Sequence[SideRow]) -> list[str]:
    """The two sides' values, one row per object and characteristic; a row that differs is
    marked (class `differs`, and the word, for a reader without colour)."""
    out = ['<table class="sides">', f"<tr><th>object</th><th>characteristic</th><th>{text(labels[0])}</th>"
           f"<th>{text(labels[1])}</th><th></th></tr>"]  # fmt: skip
    for r in rows:
        marked = ' class="differs"' if r.differs else ""
        out.append(f'<tr{marked} data-object="{attr(r.object)}" data-field="{attr(r.field)}">'
                   f"<td>{text(r.object)}</td><td>{text(r.field)}</td><td>{text(r.a)}</td><td>{text(r.b)}</td>"
                   f"<td>{'differs' if r.differs else ''}</td></tr>")  # fmt: skip
    return out + ["</table>"]
