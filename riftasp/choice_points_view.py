"""The choice points for people and programs: `riftasp rulesets --readings` (a table wrapped to
the terminal, or JSON) and the table "Choice points" of docs/semantics.md and
docs/semantics-sorcery.md (`doc_table`; tests/test_choice_points.py keeps the docs equal to it).

The command line gives the rulesets as values (riftasp/rulesets), each with the variants that
extend it; nothing here looks a ruleset up by name."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .choice_points import FILE, ChoicePoint
from .present import printable

if TYPE_CHECKING:
    from riftasp.rulesets import Ruleset

HEADER = ("id", "decision", "sentence", "reading in force", "alternatives", "switch")
GAP = "  "
LONG_WORD = 30  # a word longer than this may be broken in a table of the terminal
MIN_WIDTH = 6  # nor is a column narrower than this


@dataclass(frozen=True)
class Group:
    """A ruleset with its own choice points and every ruleset that extends it (itself first)."""

    base: Ruleset
    members: tuple[Ruleset, ...]

    @property
    def points(self) -> tuple[ChoicePoint, ...]:
        return self.base.choice_points

    def in_force(self, point: ChoicePoint) -> dict[str, Any]:
        """The ruleset name -> the value of the point's switch in force there (a switchable point)."""
        assert point.switch is not None
        return {r.name: r.readings[point.switch] for r in self.members if point.switch in r.readings}


def groups(rulesets: Sequence[Ruleset]) -> list[Group]:
    """The rulesets among `rulesets` that list their own choice points, each with its variants
    (those whose lineage includes it), in the order given."""
    return [Group(base, (base, *(r for r in rulesets if r is not base and base.name in r.lineage)))
            for base in rulesets if (base.folder / FILE).is_file()]


def readings_json(found: Sequence[Group]) -> list[dict[str, Any]]:
    """One object per choice point of every group: ChoicePoint.to_json, with `in_force` the value
    each ruleset of the group gives a switchable point."""
    return [point.to_json({point.switch: group.in_force(point)} if point.switch is not None else None)
            for group in found for point in group.points]


def value_text(value: Any) -> str:
    """A reading's value as the manifest writes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- the table of the semantics docs ---------------------------------------------------------------

def switch_cell(point: ChoicePoint) -> str:
    if point.switch is None:
        return f"not switchable: {point.why_not}"
    return f"`{point.switch}`: {', '.join(value_text(v) for v in point.values)}"


def doc_row(point: ChoicePoint) -> list[str]:
    """The cells of a point's row in a semantics doc's table."""
    return [point.id, point.decision, point.sentence, point.reading, "; ".join(point.alternatives),
            switch_cell(point)]


def doc_table(points: Sequence[ChoicePoint]) -> str:
    """The markdown table of the points (a `|` in a cell escaped)."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(HEADER), "|" + "---|" * len(HEADER)] + [line(doc_row(p)) for p in points])


# -- the text of `riftasp rulesets --readings` -----------------------------------------------------

def _text_switch(point: ChoicePoint, group: Group) -> str:
    if point.switch is None:
        return f"not switchable: {point.why_not}"
    by_value: dict[str, list[str]] = {}
    for name, value in group.in_force(point).items():
        by_value.setdefault(value_text(value), []).append(name)
    lines = [f"{point.switch} = {' | '.join(value_text(v) for v in point.values)}", "in force:"]
    return "\n".join(lines + [f"- {value}: {', '.join(names)}" for value, names in by_value.items()])


def _widths(rows: list[list[str]], header: Sequence[str], width: int) -> list[int]:
    """Column widths that fit `width` (gaps included) where they can: each column as wide as its
    widest line, or as a common level where that is narrower, but never narrower than its longest
    word (up to LONG_WORD: longer words are broken, and more where the terminal is too narrow)."""
    columns = list(zip(header, *rows))
    natural = [max(len(line) for cell in col for line in cell.splitlines() or [""]) for col in columns]
    least = [min(max((len(w) + (2 if line.startswith("- ") else 0)  # an item's lines hang by 2
                         for cell in col for line in cell.splitlines() for w in line.split()), default=1), LONG_WORD, n)
             for col, n in zip(columns, natural)]
    room = width - len(GAP) * (len(header) - 1)
    while sum(least) > room and max(least) > MIN_WIDTH:  # too narrow a terminal: break the longest words
        least[least.index(max(least))] -= 1

    def at(level: int) -> list[int]:
        return [min(n, max(low, level)) for n, low in zip(natural, least)]

    level = 0
    while level < max(natural) and sum(at(level + 1)) <= room:
        level += 1
    widths = at(level)
    for i in sorted(range(len(widths)), key=lambda i: widths[i]):  # what is left, to the narrowest
        if sum(widths) < room and widths[i] < natural[i]:
            widths[i] += 1
    return widths


def _wrapped(cell: str, width: int) -> list[str]:
    """The cell's lines wrapped to `width`; a line starting "- " (an item) hangs under its text."""
    lines: list[str] = []
    for part in cell.splitlines() or [""]:
        indent = "  " if part.startswith("- ") else ""
        lines += textwrap.wrap(part, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
    return lines


def wrapped_table(rows: list[list[str]], header: Sequence[str], width: int) -> str:
    """A table whose cells wrap within `width` columns, a blank line between rows."""
    rows = [[printable(c, keep_newlines=True) for c in row] for row in rows]
    widths = _widths(rows, header, width)

    def block(cells: Sequence[str]) -> list[str]:
        columns = [_wrapped(c, w) for c, w in zip(cells, widths)]
        height = max(len(c) for c in columns)
        return [GAP.join((c[k] if k < len(c) else "").ljust(w) for c, w in zip(columns, widths)).rstrip()
                for k in range(height)]

    out = block(header) + [GAP.join("-" * w for w in widths)]
    for n, row in enumerate(rows):
        out += ([""] if n else []) + block(row)
    return "\n".join(out)


def readings_text(found: Sequence[Group], width: int) -> str:
    """Each group's choice points as a table wrapped to `width` columns."""
    parts = []
    for group in found:
        variants = [r.name for r in group.members if r is not group.base]
        title = f"{group.base.name}: {len(group.points)} choice points"
        if variants:
            title += f" (variants: {', '.join(variants)})"
        rows = [[p.id, p.decision, p.sentence, p.reading, "\n".join(f"- {a}" for a in p.alternatives),
                 _text_switch(p, group)]
                for p in group.points]
        parts.append("\n".join(textwrap.wrap(title, max(width, 20)) + [""]) + wrapped_table(rows, HEADER, width))
    return "\n\n".join(parts)
