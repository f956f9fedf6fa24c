"""`riftasp report` (issue 40): boards and their resolutions as one self-contained HTML page.

Per board a section: every object's final values (id, name and the ruleset's compared fields),
the graph of the calculation as inline SVG (svg.py), each object's explanation as a timeline
(the explain rows: step, layer, effect, change, before -> after, why; riftasp/wording.py) and
the board's loops, cycles, paradoxes and withdrawals. Inline CSS only: no scripts, no links, no
network when it is viewed. Every object's row and timeline carry `data-object="ID"`; every id and
name is escaped (an id may hold `<&">`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..present import _withdrawal_reason, cell_text, printable
from ..wording import change_cells, why_words
from . import render

if TYPE_CHECKING:
    from ..model import Board
    from ..result import Resolution

_NOT_HTML = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufdcf\ufdf0-\ufffd\U00010000-\U0010ffff]")

CSS = """
body{font-family:sans-serif;font-size:14px;color:#111827;margin:24px;background:#ffffff}
h1{font-size:22px;margin:0 0 16px}
h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid #d1d5db;padding-bottom:4px}
h3{font-size:15px;margin:20px 0 6px}
h4{font-size:14px;margin:14px 0 4px}
p.meta{color:#4b5563;margin:4px 0}
table{border-collapse:collapse;margin:6px 0}
th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f4f6}
td.why{color:#374151;font-size:13px}
table.timeline{width:100%}
.picture{overflow-x:auto;border:1px solid #e5e7eb;margin:8px 0}
.picture svg{display:block}
ul.notes{margin:4px 0;padding-left:22px}
section.board{margin-bottom:40px}
div.explain{margin-bottom:12px}
section.finding{margin-bottom:40px}
table.params th{font-weight:normal;color:#4b5563}
tr.differs td{background:#fee2e2;font-weight:bold}
.bad{color:#b91c1c;font-weight:bold}
.good{color:#15803d;font-weight:bold}
"""


def text(value: Any) -> str:
    """Element text: printable (riftasp.present: control characters shown as escapes), escaped."""
    return html.escape(printable(str(value)), quote=True)


def attr(value: Any) -> str:
    """An attribute's value: the id itself, escaped (characters HTML cannot hold become U+FFFD)."""
    return html.escape(_NOT_HTML.sub("\ufffd", str(value)), quote=True)


def page(title: str, body: Iterable[str]) -> str:
    """The page shell every riftasp HTML page shares (this report, and the campaign and research
    commands' `--format html`, findings.py): the title as heading, then `body`, lines of HTML
    already escaped. Ends in a newline."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{text(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
           f"<h1>{text(title)}</h1>", *body, "</body>", "</html>"]
    return "\n".join(out) + "\n"


def report_html(boards_and_resolutions: Iterable[tuple[Board, Resolution]], title: str = "riftasp report") -> str:
    """One self-contained HTML page for the boards and their resolutions, ending in a newline."""
    pairs = list(boards_and_resolutions)
    out = []
    if len(pairs) > 1:
        out.append("<ul class=\"contents\">")
        out.extend(f'<li>{text(board.source or f"board {i}")}</li>' for i, (board, _) in enumerate(pairs, 1))
        out.append("</ul>")
    for i, (board, res) in enumerate(pairs, 1):
        out.extend(_board_section(i, board, res))
    return page(title, out)


def _board_section(number: int, board: Board, res: Resolution) -> list[str]:
    source = board.source or f"board {number}"
    out = [f'<section class="board" id="board-{number}" data-board="{attr(source)}">',
           f"<h2>{text(source)}</h2>",
           f'<p class="meta">ruleset {text(res.ruleset.name)}, {text(res.engine)} engine, '
           f"{len(res.objects)} object{'' if len(res.objects) == 1 else 's'}</p>",
           "<h3>Objects</h3>"]
    out.extend(_objects_table(number, res))
    out.append("<h3>Loops, cycles and paradoxes</h3>")
    out.extend(_groups(res))
    out.append("<h3>Graph</h3>")
    out.extend(graph_block(board, res))
    out.append("<h3>Explanations</h3>")
    for oid in sorted(res.objects):
        out.extend(explain_block(number, res, oid))
    out.append("</section>")
    return out


def graph_block(board: Board, res: Resolution) -> list[str]:
    """The graph of the calculation (svg.py, every view at once), in its scrolling frame."""
    return ['<div class="picture">', render(res.to_json(), board, "all", "svg").rstrip("\n"), "</div>"]


def _columns(res: Resolution) -> list[str]:
    """The table's keys: the ruleset's table order, its compared fields, name and the core ones."""
    fields = {f.key: f for f in res.ruleset.output_fields}
    return [k for k in res.ruleset.output_order.table if k not in fields or k == "name" or fields[k].compared]


def _objects_table(number: int, res: Resolution) -> list[str]:
    keys = _columns(res)
    titles = {f.key: f.title for f in res.ruleset.output_fields}
    out = ['<table class="objects">', "<tr><th>id</th>" + "".join(f"<th>{text(titles.get(k, k))}</th>" for k in keys) + "</tr>"]
    for oid, c in sorted(res.objects.items()):
        cells = "".join(f"<td>{text(cell_text(c, k))}</td>" for k in keys)
        out.append(f'<tr class="object" id="b{number}-object-{attr(oid)}" data-object="{attr(oid)}">'
                   f'<td class="id">{text(oid)}</td>{cells}</tr>')
    out.append("</table>")
    return out


def _groups(res: Resolution) -> list[str]:
    lines = [f"object loop (calculated together): {', '.join(m)}" for m in res.object_loops]
    lines += [f"dependency cycle (timestamp order): {', '.join(m)}" for m in res.dependency_cycles]
    lines += [f"paradox (no consistent state; shown without it): {', '.join(m)}" for m in res.paradoxes]
    lines += [f"timestamp tie broken by board order: {', '.join(m)}" for m in res.timestamp_ties]
    lines += [f"withdrawn from {w.object}: {w.effect} ({_withdrawal_reason(w)})"
              for w in sorted(res.withdrawals, key=lambda w: (w.object, w.effect))]
    if not lines:
        return ['<p class="meta">none</p>']
    return ['<ul class="notes groups">', *(f"<li>{text(line)}</li>" for line in lines), "</ul>"]


def explain_block(number: int, res: Resolution, oid: str) -> list[str]:
    """One object's explanation: its notes (loop, needs, withdrawals), then its timeline."""
    c = res.objects[oid]
    name = c.values.get("name")
    out = [f'<div class="explain" id="b{number}-explain-{attr(oid)}" data-object="{attr(oid)}">',
           f"<h4>{text(oid)}{f' ({text(name)})' if name else ''}</h4>"]
    notes = []
    loop = next((members for members in res.object_loops if oid in members), None)
    if loop:
        notes.append(f"calculated together with {', '.join(o for o in loop if o != oid)} (object loop)")
    outside = [q for q in res.needs.get(oid, []) if not loop or q not in loop]
    if outside:
        notes.append(f"calculated after {', '.join(outside)} (it reads their characteristics)")
    apps = res.applied.get(oid, [])
    if not apps:
        notes.append("no effects applied: printed characteristics")
    for w in sorted(res.withdrawals, key=lambda w: w.effect):
        if w.object == oid:
            notes.append(f"withdrawn: {w.effect} ({_withdrawal_reason(w)})")
    known = {w.effect for w in res.withdrawals if w.object == oid}
    notes += [f"withdrawn: {eid}" for eid in res.withdrawn.get(oid, []) if eid not in known]
    if notes:
        out += ['<ul class="notes">', *(f"<li>{text(n)}</li>" for n in notes), "</ul>"]
    if apps:
        out.append('<table class="timeline"><tr><th>step</th><th>layer</th><th>effect</th><th>changes</th>'
                   "<th>before -&gt; after</th><th>why</th></tr>")
        for a in apps:
            layer = a.layer + (f".{a.sublayer}" if a.sublayer else "")
            change, before_after = change_cells(a)
            out.append(f'<tr data-effect="{attr(a.effect)}"><td>{a.step}</td><td>{text(layer)}</td>'
                       f"<td>{text(a.effect)}</td><td>{text(change)}</td><td>{text(before_after)}</td>"
                       f'<td class="why">{text(why_words(res, a))}</td></tr>')
        out.append("</table>")
    out.append("</div>")
    return out
