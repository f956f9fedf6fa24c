"""Readable text for people: tables of characteristics, explain traces, transitions."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import TYPE_CHECKING

from .result import Application, Characteristics, Resolution, Withdrawal
from .specs import OutputField
from .wording import change_cells, why_words

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset

# Characters a terminal would act on or hide, so that two ids that differ could look the same:
# C0/C1 controls and DEL (cursor moves, colours, line breaks), format characters (zero-width
# spaces and joiners, bidi marks, embeddings, overrides and isolates, tag characters), lone
# surrogates, private-use and unassigned code points, line and paragraph separators, every space
# but the ASCII one, and the other default-ignorable code points (variation selectors, Hangul
# fillers). Each is shown as an escape (`\x1b`, `\u200b`, `\U000e0041`); letters of any script
# (é, 日本) stay as they are.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties) outside the categories above.
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE01EF))  # fmt: skip
# Every character that may need an escape: the ASCII controls, and any non-ASCII character (each
# then judged by `hidden`, cached).
_CANDIDATES = re.compile("[\x00-\x1f\x7f-\U0010ffff]")
_CANDIDATES_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\U0010ffff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
SHORT = 200  # characters of one value in an error line
CELL_WIDTH = 40  # columns of a table cell (but the last column's: LAST_CELL_WIDTH)
LAST_CELL_WIDTH = SHORT  # the last column pushes no other: it may be longer
ELLIPSIS = "…"


@functools.lru_cache(maxsize=4096)
def hidden(char: str) -> bool:
    """Whether a terminal would act on `char` or show it as nothing (or as another character)."""
    if char < "\x80":
        return char < " " or char == "\x7f"
    if unicodedata.category(char) in _HIDDEN_CATEGORIES:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def escaped(char: str) -> str:
    """`char` as an escape: `\\n`, `\\x1b`, `\\u200b`, `\\U000e0041`."""
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return escaped(char) if hidden(char) else char


def printable(text: str, keep_newlines: bool = False) -> str:
    """`text` safe to print for people: every character a terminal would act on or not show
    (`hidden`) escaped as \\n, \\x1b, \\u200b, \\u202e; other letters of any script kept."""
    pattern = _CANDIDATES_BUT_NEWLINE if keep_newlines else _CANDIDATES
    return pattern.sub(_escape, text)


def shorten(text: str, limit: int = SHORT) -> str:
    """At most `limit` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[:limit] + ELLIPSIS


def _char_width(char: str) -> int:
    """The columns a (printable) character takes: 2 for wide East Asian ones, 0 for combining marks."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """The columns `text` (printable, one line) takes on a terminal."""
    return len(text) if text.isascii() else sum(_char_width(c) for c in text)


def fit(text: str, width: int) -> str:
    """`text` in at most `width` columns, an ellipsis marking a cut."""
    if display_width(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        w = _char_width(char) if not char.isascii() else 1
        if used + w > width - 1:
            break
        kept.append(char)
        used += w
    return "".join(kept) + ELLIPSIS


def table(rows: list[list[str]], header: list[str], width: int = CELL_WIDTH,
          widths: dict[int, int] | None = None, styled: bool = False) -> str:
    """Aligned columns for people: every cell made `printable` and cut to `width` columns with an
    ellipsis (the last column to LAST_CELL_WIDTH; `widths`: other limits by column index), so
    one long id or value cannot push the others out of sight (`--json` keeps every value
    whole). `styled`: the header in bold when standard output is a terminal (riftasp/style.py);
    only for text printed as it is, never passed through `printable` again."""
    last = len(header) - 1
    limits = [(widths or {}).get(i, LAST_CELL_WIDTH if i == last else width) for i in range(len(header))]
    cells = [[fit(printable(str(c)), limit) for c, limit in zip(row, limits)] for row in [header, *rows]]
    widths_used = [max(display_width(c) for c in col) for col in zip(*cells)]

    def line(row: list[str]) -> str:
        return "  ".join(c + " " * (w - display_width(c)) for c, w in zip(row, widths_used)).rstrip()

    head = line(cells[0])
    if styled:
        from .style import bold

        head = bold(head)
    return "\n".join([head, line(["-" * w for w in widths_used])] + [line(r) for r in cells[1:]])


def keywords_text(keywords: dict[str, int]) -> str:
    return ", ".join(k if v == 1 else f"{k} {v}" for k, v in sorted(keywords.items())) or "-"


def resolution_text(res: Resolution, styled: bool = False) -> str:
    """The characteristics table (its header styled at a terminal with `styled`) and notes."""
    keys = res.ruleset.output_order.table
    rows = [[oid] + [cell_text(c, key) for key in keys] for oid, c in sorted(res.objects.items())]
    out = [table(rows, ["id"] + [_label(res.ruleset, key) for key in keys], styled=styled)]
    for cycle in res.dependency_cycles:
        out.append(printable(f"dependency cycle (timestamp order): {', '.join(cycle)}"))
    for loop in res.object_loops:
        out.append(printable(f"object loop (calculated together): {', '.join(loop)}"))
    for tie in res.timestamp_ties:
        out.append(printable(f"timestamp tie broken by board order: {', '.join(tie)}"))
    for w in sorted(res.withdrawals, key=lambda w: (w.object, w.effect)):
        out.append(printable(f"withdrawn from {w.object}: {w.effect} ({_withdrawal_reason(w)})"))
    for paradox in res.paradoxes:
        out.append(printable(f"paradox (no consistent state; shown without it): {', '.join(paradox)}"))
    return "\n".join(out)


def _label(ruleset: Ruleset, key: str) -> str:
    """A column's header: the field's label, or the core field's key."""
    return next((f.title for f in ruleset.output_fields if f.key == key), key)


def _field(c: Characteristics, key: str) -> OutputField | None:
    return next((f for f in c.fields if f.key == key), None)


def cell_text(c: Characteristics, key: str) -> str:
    """One characteristic in a table: "-" for nothing."""
    field = _field(c, key)
    if field is None:  # a core one (specs.CORE_SHOWN)
        return keywords_text(c.keywords)
    value = c.values[key]
    if field.kind == "flag":
        return "yes" if value else "no"
    if field.kind == "set":
        return ", ".join(value) or "-"
    return "-" if value is None or value == "" else str(value)


def result_line(res: Resolution, object_id: str) -> str:
    """An object's result in one line (explain's last line; crosscheck's short trace), not
    yet made printable."""
    c = res.objects[object_id]
    parts = []
    for key in res.ruleset.output_order.result:
        field = _field(c, key)
        if field is None:  # a core one (specs.CORE_SHOWN)
            parts.append(f"keywords {keywords_text(c.keywords)}")
        elif field.kind == "flag":
            adjective = field.adjective or field.title
            parts.append(adjective if c.values[key] else f"not {adjective}")
        elif field.kind == "set":
            parts.append(f"{field.title} {', '.join(c.values[key]) or 'none'}")
        else:
            parts.append(f"{field.title} {trace_value(c.values[key])}")
    return "result: " + ", ".join(parts)


def _withdrawal_reason(w: Withdrawal) -> str:
    if w.failed == ("support",):
        named = ", ".join(w.because)
        return (f"it applied only through {named}, which it took away: withdrawn when {named} "
                f"was restored after round {w.round}")
    if w.failed == ("self_support",):
        named = ", ".join(w.because)
        return (f"held up only by {named}: in round {w.round}'s final state the conditions held only "
                f"through what {'it' if len(w.because) == 1 else 'they'} added, and calculated again "
                f"without {'it' if len(w.because) == 1 else 'them'}, none would apply")
    if w.failed == ("exchanged",):
        named = ", ".join(w.because)
        return (f"withdrawn in place of {named}, restored after round {w.round}: they had failed "
                f"together, and with {named} out a withdrawn application would still apply")
    parts = {"existence": "it no longer existed", "target": "it no longer targeted it",
             "condition": "its condition failed"}
    failed = " and ".join(parts.get(f, f) for f in w.failed) or "it failed"
    because = f" after {', '.join(w.because)}" if w.because else ""
    return f"{failed}{because} in round {w.round}'s final state"


def trace_value(value) -> str:
    """A characteristic's value for people (explain tables, reports)."""
    if value is None:
        return "-"
    if isinstance(value, dict):
        return keywords_text(value) if value else "none"
    if isinstance(value, list):
        return ", ".join(value) or "none"
    return str(value)


def explain_text(res: Resolution, object_id: str, styled: bool = False) -> str:
    c: Characteristics = res.objects[object_id]
    lines = [printable(f"{object_id} ({c.name})")]
    needs = res.needs.get(object_id, [])
    loop = next((members for members in res.object_loops if object_id in members), None)
    if loop:
        others = ", ".join(o for o in loop if o != object_id)
        lines.append(printable(f"calculated together with {others} (object loop)"))
    outside = [q for q in needs if not loop or q not in loop]
    if outside:
        lines.append(printable(f"calculated after {', '.join(outside)} (it reads their characteristics)"))
    apps: list[Application] = res.applied.get(object_id, [])
    if not apps:
        lines.append("no effects applied: printed characteristics")
    # Every engine's rows in the same words (riftasp/wording.py), read from the rows' data only.
    rows = [
        [
            str(a.step),
            a.layer + (f".{a.sublayer}" if a.sublayer else ""),
            a.effect,
            *change_cells(a),
            why_words(res, a),
        ]
        for a in apps
    ]
    if rows:
        lines.append(table(rows, ["step", "layer", "effect", "changes", "before -> after", "why"], styled=styled))
    for w in sorted(res.withdrawals, key=lambda w: w.effect):
        if w.object != object_id:
            continue
        ring = next((p for p in res.paradoxes if w.effect in p), None)
        if ring is not None:
            # Never "failed in the final state": in the reported state it would apply again.
            lines.append(printable(
                f"withdrawn: {w.effect} is part of a paradox ({', '.join(ring)}): "
                f"{_withdrawal_reason(w)}; without it, it would apply again, so no state is consistent"
            ))
        else:
            lines.append(printable(f"withdrawn: {w.effect} ({_withdrawal_reason(w)})"))
    known = {w.effect for w in res.withdrawals if w.object == object_id}
    for eid in res.withdrawn.get(object_id, []):
        if eid not in known:  # an engine that reports withdrawals without reasons
            lines.append(printable(f"withdrawn: {eid}"))
    lines.append(printable(result_line(res, object_id)))
    return "\n".join(lines)
