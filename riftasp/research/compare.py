"""`riftasp compare A B`: two rulesets (or variants) of one family on the same boards.

A and B name rulesets riftasp knows, or a variant's folder (a folder holding `manifest.toml`,
made known as RIFTASP_RULESETS would: riftasp/resources.py, `add_ruleset_folder`). They must be
of one family: the last ruleset of their lineages is the same. A board of that family is
resolved under each by `dataclasses.replace(board, ruleset=...)`, so it takes that ruleset's
readings (`Board.readings_in_force`; a reading the board's own settings choose stays the
board's on both sides).

The boards are
- given: files and folders, as `riftasp crosscheck` finds them (riftasp/crosscheck.py);
- generated (`--generate N --seed S`): drawn from A's board generators as `riftasp fuzz` draws
  them, and compared, shrunk and sorted into findings as fuzz does (one finding per identity,
  riftasp/campaign/identity.py), A in riftasp's place and B in the engine's; a campaign, on
  `--jobs` worker processes or a Dask cluster (`--scheduler`) with the same report for any of
  them (docs/campaigns.md; the section "generated boards" below); or
- searched for (`--search`): riftasp/research/search.py's kernels guess the smallest boards on
  which the two differ.

Per board: agree, or each differing object and field with both values (riftasp/compare.py), the
first step where the two traces part (the `applied` lists of both results, merged in step order;
if they never part, the final check's withdrawals), and the choice points the two sides differ
on (riftasp/choice_points.py: the ids whose switch is in force with another value on each side,
and "layer table" when the two layer tables differ). `--out DIR` writes each disagreeing board as
a board file and the report as findings.json; the command's exit code is 0 when every board
agrees, 1 when some disagree, 2 on bad input (riftasp.commands).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..board_io import BoardError, board_from_dict, board_to_dict
from ..compare import Disagreement, compare
from ..model import Board
from ..present import printable, trace_value
from ..resources import MANIFEST, add_ruleset_folder, ruleset_folder
from ..result import Resolution
from ..rulesets import Ruleset, UnsupportedRuleset, known, ruleset

LAYER_TABLE = "layer table"  # what two rulesets of one family differ on besides choice points
FINDINGS = "findings.json"  # the report, in --out
DEFAULT_MAX_EFFECTS, DEFAULT_MAX_OBJECTS = 3, 2  # --search's bounds


class CompareError(Exception):
    """Bad input (exit 2); str() is one line."""


class CompareFailure(Exception):
    """Resolving a board failed under one of the two rulesets (exit 3); str() is one line."""

    def __init__(self, message: str, board: dict[str, Any] | None = None) -> None:
        super().__init__(" ".join(message.split()))
        self.board = board


# ---- the two rulesets ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """The two rulesets compared, of one family."""

    a: Ruleset
    b: Ruleset
    # The folders of variants given by their folder, made known here (`_name_given`): a worker
    # that runs a part of the comparison makes them known too (`PairSpec`).
    folders: tuple[str, ...] = ()

    @property
    def family(self) -> str:
        return self.a.lineage[-1]

    @property
    def choice_points(self) -> list[str]:
        """What the two rulesets differ on, by their own readings."""
        return differing_points(self.a, self.b)

    def points(self) -> dict[str, Any]:
        """The choice points of the family by id (A's, then any only B lists)."""
        found = {p.id: p for p in self.a.choice_points}
        for p in self.b.choice_points:
            found.setdefault(p.id, p)
        return found


def rulesets_given(a: str, b: str) -> Pair:
    """The Pair A and B name (a ruleset's name, or a variant's folder); CompareError unless both
    are known and of one family."""
    given = [_name_given(spec) for spec in (a, b)]  # folders first: adding one forgets the values
    names = [name for name, _ in given]
    folders = tuple(dict.fromkeys(str(folder) for _, folder in given if folder is not None))
    try:
        one, other = (ruleset(name) for name in names)
        for rules in (one, other):
            _ = (rules.readings, rules.layers)  # a broken manifest fails here, in one line
    except UnsupportedRuleset as err:
        raise CompareError(str(err)) from None
    except (KeyError, ValueError, OSError, tomllib.TOMLDecodeError) as err:
        raise CompareError(f"rulesets: {err}") from None
    if one.lineage[-1] != other.lineage[-1]:
        raise CompareError(f"{one} and {other} are not of one family ({_family_text(one)}, {_family_text(other)}): "
                           f"compare a ruleset with its variants, or two variants of one ruleset")
    return Pair(one, other, folders)


def _family_text(rules: Ruleset) -> str:
    return f"{rules} is a base ruleset" if len(rules.lineage) == 1 else f"{rules} extends {rules.lineage[-1]}"


def _looks_like_path(spec: str) -> bool:
    return os.sep in spec or bool(os.altsep and os.altsep in spec) or spec.startswith(".")


def _name_given(spec: str) -> tuple[str, Path | None]:
    """The ruleset name of A or B: a known name, or a variant folder's (made known here: the
    folder made known is returned with the name)."""
    path = Path(spec)
    if not _looks_like_path(spec) and spec in known():
        return spec, None
    if path.is_dir() and (path / MANIFEST).is_file():
        folder = path.resolve()
        name = folder.name
        if name in known():
            if ruleset_folder(name).resolve() == folder:
                return name, None
            raise CompareError(f"{spec}: a ruleset called {name!r} is known already ({ruleset_folder(name)}); "
                               "a variant's folder needs a name of its own")
        try:
            add_ruleset_folder(folder.parent)  # as RIFTASP_RULESETS would name it
        except (ValueError, OSError, tomllib.TOMLDecodeError) as err:
            raise CompareError(f"{spec}: {err}") from None
        return name, folder.parent
    if path.is_dir():
        raise CompareError(f"{spec}: not a ruleset folder (no {MANIFEST} in it)")
    if _looks_like_path(spec):
        raise CompareError(f"{spec}: no such ruleset folder")
    raise CompareError(f"unknown ruleset {spec!r}; known rulesets: {', '.join(known())} (or give a variant's folder)")


def differing_points(a: Ruleset, b: Ruleset, a_readings: Mapping[str, Any] | None = None,
                     b_readings: Mapping[str, Any] | None = None) -> list[str]:  # fmt: skip
    """The ids of the choice points whose switch has another value on each side (by default the
    rulesets' readings; on one board, the readings in force there), in the order the choice
    points are listed; a reading no choice point switches, by its key; "layer table" last
    when the two layer tables differ."""
    ra = a.readings if a_readings is None else a_readings
    rb = b.readings if b_readings is None else b_readings
    points = Pair(a, b).points().values()
    found = [p.id for p in points if p.switch is not None and ra.get(p.switch) != rb.get(p.switch)]
    switched = {p.switch for p in points}
    found += sorted(key for key in set(ra) | set(rb) if key not in switched and ra.get(key) != rb.get(key))
    if a.layers != b.layers:
        found.append(LAYER_TABLE)
    return found


# ---- where two traces part -----------------------------------------------------------------------


@dataclass(frozen=True)
class Parting:
    """The first place two results' traces part: an application (`kind` "applied": the step, and
    what each side applied there, None for a trace that has ended) or, when the applications are
    the same, a withdrawal of the final check (`kind` "withdrawn", no step)."""

    kind: str
    object: str
    step: int | None
    a: dict[str, Any] | None  # the application (or withdrawal), with its "object"
    b: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "object": self.object, "step": self.step, "a": self.a, "b": self.b}

    def text(self, a: str, b: str) -> str:
        where = f"at step {self.step}" if self.kind == "applied" else "in the final check"
        return f"traces part {where} ({self.object}): {_did(a, self.kind, self.a)}; {_did(b, self.kind, self.b)}"


def _did(name: str, kind: str, entry: dict[str, Any] | None) -> str:
    if kind == "applied":
        if entry is None:
            return f"{name} applies nothing more"
        stage = entry["layer"] + (f".{entry['sublayer']}" if entry.get("sublayer") else "")
        return (f"{name} applies {entry['effect']} to {entry['object']} ({stage}: {entry['characteristic']} "
                f"{_trace(entry['before'])} -> {_trace(entry['after'])})")  # fmt: skip
    if entry is None:
        return f"{name} withdraws nothing more"
    failed = ", ".join(entry.get("failed", ())) or "withdrawn"
    return f"{name} withdraws {entry['effect']} from {entry['object']} ({failed}, round {entry.get('round')})"


def _trace(value: Any) -> str:
    """A value in a trace: as explain shows it (riftasp/present.py), a mapping that is no
    keyword table (Sorcery's abilities) as JSON."""
    if isinstance(value, dict) and not all(isinstance(v, int) for v in value.values()):
        return json.dumps(value, sort_keys=True)
    return trace_value(value)


_APPLIED_KEY = ("object", "effect", "layer", "sublayer", "characteristic", "before", "after")
_WITHDRAWN_KEY = ("object", "effect", "round", "failed")


def first_parting(a: Mapping[str, Any], b: Mapping[str, Any]) -> Parting | None:
    """Where the traces of two results (the resolve JSON) part, or None."""

    def trace(result: Mapping[str, Any]) -> list[dict[str, Any]]:
        steps = [{"object": oid, **app} for oid, apps in result.get("applied", {}).items() for app in apps]
        return sorted(steps, key=lambda s: (s.get("step", 0), s["object"]))

    for kind, (one, other), key in (
        ("applied", (trace(a), trace(b)), _APPLIED_KEY),
        ("withdrawn", (list(a.get("withdrawals", [])), list(b.get("withdrawals", []))), _WITHDRAWN_KEY),
    ):
        for i in range(max(len(one), len(other))):
            x = one[i] if i < len(one) else None
            y = other[i] if i < len(other) else None
            if x is not None and y is not None and all(x.get(k) == y.get(k) for k in key):
                continue
            first = x if x is not None else y
            assert first is not None
            step = first.get("step") if kind == "applied" else None
            return Parting(kind, first["object"], step, x, y)
    return None


# ---- one board under both -------------------------------------------------------------------------


@dataclass
class BoardComparison:
    """One board resolved under A and under B."""

    source: str
    board: Board  # as given (its own ruleset)
    differences: list[Disagreement]  # riftasp_value: A's, engine_value: B's
    parting: Parting | None
    choice_points: list[str]  # what A and B differ on, on this board
    a_result: dict[str, Any]
    b_result: dict[str, Any]
    file: Path | None = None  # where --out wrote the board
    generated: bool = False  # drawn or searched for: its data goes into the JSON
    details: dict[str, Any] = field(default_factory=dict)  # a generated finding's seed, count, signature

    @property
    def agrees(self) -> bool:
        return not self.differences

    @property
    def name(self) -> str:
        return str(self.file) if self.file is not None else self.source

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "board": self.name,
            "agree": self.agrees,
            "differences": [{"object": d.object, "field": d.field, "a": d.riftasp_value, "b": d.engine_value}
                            for d in self.differences],
            "parting": None if self.parting is None else self.parting.to_json(),
            "choice_points": self.choice_points,
        }  # fmt: skip
        data |= self.details
        if self.generated:
            data["data"] = board_to_dict(self.board)
        return data


def _family_board(board: Board, pair: Pair) -> None:
    """CompareError unless the board is of the pair's family and valid under both rulesets."""
    if board.ruleset.lineage[-1] != pair.family:
        raise CompareError(f"{board.source}: ruleset {board.ruleset} is not of the {pair.family} family "
                           f"of {pair.a} and {pair.b}")  # fmt: skip
    data = board_to_dict(board)
    for rules in (pair.a, pair.b):
        if rules == board.ruleset:
            continue
        try:
            board_from_dict(data | {"ruleset": rules.name}, board.source)
        except BoardError as err:
            raise CompareError(f"{err} (the board read under {rules})") from None


def resolved(boards: list[Board], pair: Pair, engine: str,
             run: Callable[[list[Board], str], list[Resolution]] | None = None) -> list[tuple[Resolution, Resolution]]:  # fmt: skip
    """Each board's resolutions under A and under B (`run`: boards, engine -> resolutions; by
    default the ASP resolver's batches, riftasp/batch.py, or the reference engine's)."""
    under = [replace(board, ruleset=rules) for rules in (pair.a, pair.b) for board in boards]
    results = (run or _run)(under, engine)
    return list(zip(results[: len(boards)], results[len(boards):]))


def _run(boards: list[Board], engine: str) -> list[Resolution]:
    if engine == "asp":
        from ..batch import resolve_all

        return resolve_all(boards)
    from ..reference import resolve as reference_resolve

    return [reference_resolve(board) for board in boards]


def compare_boards(boards: list[Board], pair: Pair, engine: str = "asp",
                   run: Callable[[list[Board], str], list[Resolution]] | None = None) -> list[BoardComparison]:  # fmt: skip
    """Each board under A and under B, compared (boards checked first: `_family_board`)."""
    for board in boards:
        _family_board(board, pair)
    found = []
    for board, (ra, rb) in zip(boards, resolved(boards, pair, engine, run)):
        a, b = ra.to_json(), rb.to_json()
        points = differing_points(pair.a, pair.b, replace(board, ruleset=pair.a).readings_in_force,
                                  replace(board, ruleset=pair.b).readings_in_force)  # fmt: skip
        differences = compare(board.source, a, b, board.ruleset)
        found.append(BoardComparison(board.source, board, differences, first_parting(a, b) if differences else None,
                                     points, a, b))  # fmt: skip
    return found


# ---- the report ------------------------------------------------------------------------------------


@dataclass
class CompareReport:
    pair: Pair
    mode: str  # "boards" | "generate" | "search"
    comparisons: list[BoardComparison]
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why): found in a folder, not boards
    details: dict[str, Any] = field(default_factory=dict)  # generate: the run's counts; search: kernel, bound

    @property
    def disagreeing(self) -> list[BoardComparison]:
        return [c for c in self.comparisons if not c.agrees]

    @property
    def exit_code(self) -> int:
        return 1 if self.disagreeing else 0

    def summary(self) -> dict[str, Any]:
        return {
            "a": self.pair.a.name,
            "b": self.pair.b.name,
            "family": self.pair.family,
            "choice_points": self.pair.choice_points,
            "mode": self.mode,
            "boards": len(self.comparisons),
            "agree": len(self.comparisons) - len(self.disagreeing),
            "disagree": len(self.disagreeing),
            "skipped": [{"file": f, "reason": why} for f, why in self.skipped],
            **self.details,
        }

    def to_json(self) -> dict[str, Any]:
        return {"boards": [c.to_json() for c in self.comparisons], "summary": self.summary()}

    def summary_line(self) -> str:
        a, b = self.pair.a.name, self.pair.b.name
        points = ", ".join(self.pair.choice_points) or "no choice point"
        if self.mode == "generate":
            d = self.details
            stop = " (time limit reached)" if d.get("timed_out") else ""
            return (f"{_plural(d['generated'], 'board')} generated{stop}, {d['shrink_runs']} compared while shrinking, "
                    f"{_plural(len(self.comparisons), 'distinct disagreement')} on {_plural(d['failing_boards'], 'board')} "
                    f"({a} vs {b}, seed {d['seed']}, {d['seconds']:.1f}s; they differ on {points})")  # fmt: skip
        if self.mode == "search" and not self.comparisons and self.details.get("message"):
            return f"{self.details['message']} ({a} vs {b}; they differ on {points})"
        line = (f"{_plural(len(self.comparisons), 'board')}: {len(self.comparisons) - len(self.disagreeing)} agree, "
                f"{len(self.disagreeing)} disagree ({a} vs {b}; they differ on {points})")  # fmt: skip
        if self.mode == "search" and self.details.get("message"):
            line += f"; search: {self.details['message']}"
        return line

    def text(self) -> str:
        a, b = self.pair.a.name, self.pair.b.name
        lines: list[str] = []
        shown = self.comparisons
        if self.mode == "search" and len(shown) > SEARCH_SHOWN:
            # (All of them are minimal: the first few say what the others say; --json and
            # --out give every one.)
            shown = shown[:SEARCH_SHOWN]
        for c in shown:
            if c.agrees:
                lines.append(f"{c.name}: agree")
                continue
            seen = f", found on {_plural(c.details['count'], 'board')}" if "count" in c.details else ""
            lines.append(f"{c.name}: disagree (on {', '.join(c.choice_points) or 'no choice point'}{seen})")
            for d in c.differences:
                lines.append(f"  {d.object}.{d.field}: {a} {_value(d.riftasp_value)}, {b} {_value(d.engine_value)}")
            if c.parting is not None:
                lines.append(f"  {c.parting.text(a, b)}")
            if self.mode == "search":
                lines += [f"  board: {line}" for line in board_lines(c.board)]
        if len(shown) < len(self.comparisons):
            lines.append(f"... and {len(self.comparisons) - len(shown)} more boards of the same size "
                         "(all of them: --json, --out)")
        lines.append(self.summary_line())
        return printable("\n".join(lines), keep_newlines=True)

    def markdown(self) -> str:
        """A report for rules designers: what the two differ on, then each disagreement with its
        choice points (the sentence each rests on), the board as tables and both outcomes side
        by side."""
        pair, a, b = self.pair, self.pair.a.name, self.pair.b.name
        out = [f"# {_md(a)} against {_md(b)}", ""]
        out += _points_table(pair, pair.choice_points, pair.a.readings, pair.b.readings)
        out += [_md(self.summary_line()), ""]
        for number, c in enumerate(self.disagreeing, 1):
            out += [f"## {number}. {_md(c.name)}", ""]
            if "count" in c.details:
                out += [f"Found on {_plural(c.details['count'], 'generated board')} (seed {c.details['seed']}); "
                        "shrunk to this one.", ""]  # fmt: skip
            a_in_force = replace(c.board, ruleset=pair.a).readings_in_force
            b_in_force = replace(c.board, ruleset=pair.b).readings_in_force
            out += ["### Choice points", ""]
            out += _points_list(pair, c.choice_points, a_in_force, b_in_force)
            out += ["### Board", ""] + board_tables(c.board)
            out += ["### Outcomes", ""] + _outcomes_table(c, pair)
            if c.parting is not None:
                parting = c.parting.text(a, b)
                out += [_md(parting[0].upper() + parting[1:]) + ".", ""]
        agreeing = [c for c in self.comparisons if c.agrees]
        if agreeing:
            out += ["## Boards on which they agree", ""] + [f"- {_md(c.name)}" for c in agreeing] + [""]
        return printable("\n".join(out).rstrip() + "\n", keep_newlines=True)


    def html(self, engine: str) -> str:
        """`--format html`: what the two differ on, then each disagreement with its board, both
        outcomes side by side, the graph of the calculation under A and the explanations (each
        disagreeing board resolved again here, under A, on `engine`)."""
        from ..picture.findings import Finding, findings_page

        pair, a, b = self.pair, self.pair.a.name, self.pair.b.name
        found = []
        for c in self.disagreeing:
            notes = [f"they differ on {', '.join(c.choice_points) or 'no choice point'} on this board"]
            if "count" in c.details:
                notes.append(f"found on {_plural(c.details['count'], 'generated board')} (seed {c.details['seed']}); "
                             "shrunk to this one")  # fmt: skip
            if c.parting is not None:
                notes.append(c.parting.text(a, b))
            (under_a,) = _run([replace(c.board, ruleset=pair.a)], engine)
            found.append(Finding(c.name, notes, c.board, (a, b), _side_rows(c), under_a))
        parameters = [("A", a), ("B", b), ("family", pair.family), ("mode", self.mode), ("engine", engine),
                      ("choice points they differ on", ", ".join(pair.choice_points) or "none")]  # fmt: skip
        parameters += [(k, v) for k, v in self.details.items() if k in ("seed", "kernel", "bound")]
        counts = [(k, v) for k, v in self.summary().items() if k in ("boards", "agree", "disagree")]
        notes = [f"{c.name}: agree" for c in self.comparisons if c.agrees]
        notes += [f"{f}: skipped, {why}" for f, why in self.skipped]
        return findings_page(f"{a} against {b}", parameters, counts, self.summary_line(), not self.disagreeing,
                             found, notes)  # fmt: skip


SEARCH_SHOWN = 3  # searched boards printed in full by the text report


def board_lines(board: Board) -> list[str]:
    """A small board in two lines a person reads at a glance: its objects with their printed
    values, then its effects (operation, target, timestamp) in timestamp order."""
    objects = ", ".join(
        f"{o.id} ({o.card_type}" + "".join(f", {k} {v}" for k, v in sorted(o.params) if isinstance(v, int)) + ")"
        for o in board.objects
    )
    effects = "; ".join(
        f"{e.id}: {e.op.name}" + "".join(f" {v}" for _, v in e.op.params if v is not None)
        + (f" on {', '.join(e.target.ids)}" if e.target.ids else "")
        + (f" at {e.timestamp}" if e.timestamp is not None else "")
        for e in sorted(board.effects, key=lambda e: (e.timestamp is None, e.timestamp or 0))
    )
    return [f"objects {objects}", f"effects {effects or '(none)'}"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def _value(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _md(text: Any) -> str:
    """Text in a markdown table cell or line: pipes escaped, no line breaks."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _row(cells: Iterable[Any]) -> str:
    return "| " + " | ".join(_md(c) for c in cells) + " |"


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    return [_row(header), "|" + "|".join("---" for _ in header) + "|", *(_row(r) for r in rows), ""]


def _stages(rules: Ruleset) -> str:
    return ", ".join(s.name for s in rules.layers)


def _points_table(pair: Pair, ids: list[str], ra: Mapping[str, Any], rb: Mapping[str, Any]) -> list[str]:
    if not ids:
        return [f"{_md(pair.a)} and {_md(pair.b)} differ on no choice point and have one layer table.", ""]
    points = pair.points()
    rows = []
    for i in ids:
        p = points.get(i)
        if p is not None:
            rows.append([f"**{p.id}**", p.decision, p.sentence, ra.get(p.switch), rb.get(p.switch)])
        elif i == LAYER_TABLE:
            rows.append([LAYER_TABLE, "the layer order", "", _stages(pair.a), _stages(pair.b)])
        else:  # a reading no choice point switches
            rows.append([i, "", "", ra.get(i), rb.get(i)])
    return _table(["choice point", "decision", "rests on", str(pair.a), str(pair.b)], rows)


def _points_list(pair: Pair, ids: list[str], ra: Mapping[str, Any], rb: Mapping[str, Any]) -> list[str]:
    if not ids:
        return ["On this board the two differ on no choice point (the board's settings fix them).", ""]
    points = pair.points()
    lines = []
    for i in ids:
        p = points.get(i)
        if p is not None:
            lines.append(f"- **{p.id}**, {_md(p.decision)}: {_md(p.sentence)}")
            lines += [f"  - {_md(rules)} reads {_reading(p, value)}" for rules, value in
                      ((pair.a, ra.get(p.switch)), (pair.b, rb.get(p.switch)))]  # fmt: skip
        elif i == LAYER_TABLE:
            lines.append(f"- **{LAYER_TABLE}**: {_md(pair.a)} {_md(_stages(pair.a))}; "
                         f"{_md(pair.b)} {_md(_stages(pair.b))}.")  # fmt: skip
        else:
            lines.append(f"- **{_md(i)}**: {_md(pair.a)} `{ra.get(i)}`; {_md(pair.b)} `{rb.get(i)}`.")
    return lines + [""]


def _reading(point: Any, value: Any) -> str:
    """A switch's value, and the choice point's words for it (its reading or an alternative,
    each written `value: words`)."""
    for text in (point.reading, *point.alternatives):
        head, _, words = text.partition(": ")
        if words and head == str(value).lower():
            return f"`{value}`: {_md(words)}"
    return f"`{value}`"


def board_tables(board: Board) -> list[str]:
    """The board as markdown tables (picture/findings.py's, which the html report shows too)."""
    from ..picture.findings import board_tables as tables_of

    tables, settings = tables_of(board)
    lines = [line for header, rows in tables for line in _table(header, rows)]
    return lines + ([f"Settings: {_md(settings)}", ""] if settings else [])


def _outcomes_table(c: BoardComparison, pair: Pair) -> list[str]:
    """Every object's compared characteristics under A and B, side by side; a difference marked."""
    rows = [[r.object, r.field, r.a, r.b, "differs" if r.differs else ""] for r in _side_rows(c)]
    return _table(["object", "characteristic", str(pair.a), str(pair.b), ""], rows)


def _side_rows(c: BoardComparison) -> list[Any]:
    from ..picture.findings import side_rows

    return side_rows(c.board.ruleset, c.a_result.get("objects", {}), c.b_result.get("objects", {}))


# ---- given boards ---------------------------------------------------------------------------------


def given_boards(paths: list[Path]) -> tuple[list[Board], list[tuple[str, str]]]:
    """The boards the files and folders hold, as `riftasp crosscheck` finds them (a folder's
    stored outputs and non-boards skipped, these with the reason); BoardError on a bad one."""
    from ..board_io import load_board
    from ..crosscheck import found_files, not_a_board

    found = found_files(paths)
    skipped = [(str(path), why) for path, named in found if not named and (why := not_a_board(path))]
    files = [path for path, named in found if named or str(path) not in {f for f, _ in skipped}]
    if not files:
        raise CompareError("no board files found in " + ", ".join(map(str, paths)))
    return [load_board(path) for path in files], skipped


# ---- generated boards ------------------------------------------------------------------------------
#
# A generated run is a campaign (docs/campaigns.md): its boards are drawn and compared in chunks
# of `riftasp fuzz`'s size, chunk c's boards drawn with a seed of the run's seed and c alone
# (riftasp/campaign/evaluate.py `chunk_seed`), so they are fuzz's boards and the same for any
# number of workers; the chunks run on a runner (riftasp/campaign/pool.py: this process, local
# worker processes or a Dask cluster) and their results are taken in order. After each round of
# chunks, its disagreeing boards are shrunk together (riftasp/campaign/shrink.py `shrink_all`,
# every round of candidates compared on the runner in fixed groups), and a finding's identity is
# read off its shrunk board (riftasp/campaign/identity.py): boards that shrink to one identity
# are one finding, counted on each. A new finding's operations are then knocked out of its board
# one kind at a time, and a disagreement that survives is shrunk too, as fuzz does.

KNOCKOUT_DEPTH = 3  # rounds of knocking a finding's operations out of its board (fuzz's default)


@dataclass(frozen=True)
class PairSpec:
    """A and B as a task names them: plain data that travels to a worker process or a Dask worker.

    `drop`: the settings keys a generated board leaves out (`_without_settings`); `folders`: the
    folders of variants made known by their folder in this process (`rulesets_given`), made known
    where a task runs when it does not know A or B (a Dask worker on another machine needs them
    at the same path)."""

    a: str
    b: str
    engine: str = "asp"
    drop: frozenset[str] = frozenset()
    folders: tuple[str, ...] = ()

    def pair(self) -> Pair:
        from ..campaign.pool import worker_cached

        if self.folders and not {self.a, self.b} <= set(known()):
            worker_cached(("ruleset folders", self.folders), self._make_known)
        return Pair(ruleset(self.a), ruleset(self.b))

    def _make_known(self) -> tuple[str, ...]:
        for folder in self.folders:
            add_ruleset_folder(Path(folder))
        return self.folders


@dataclass(frozen=True)
class Compared:
    """One board resolved under A and under B: what differs (nothing: they agree), or the one-line
    error of the side that failed on it (`error`, then `found` is empty)."""

    found: tuple[Disagreement, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class CompareTask:
    """Board dicts to resolve under A and B, each with the source it is reported under."""

    spec: PairSpec
    boards: tuple[tuple[str, dict[str, Any]], ...]


def compare_task(task: CompareTask) -> list[Compared]:
    """Each board of the task under A and under B (a runner's task: module-level, plain data)."""
    pair = task.spec.pair()
    loaded: list[Board | Compared] = []
    for source, data in task.boards:
        try:
            loaded.append(board_from_dict(data, source))
        except BoardError as err:
            loaded.append(Compared(error=str(err)))
    boards = [b for b in loaded if isinstance(b, Board)]
    under = [replace(board, ruleset=rules) for rules in (pair.a, pair.b) for board in boards]
    results = _resolved_each(under, task.spec.engine)
    pairs = iter(zip(boards, results[: len(boards)], results[len(boards):]))
    out = []
    for item in loaded:
        if isinstance(item, Compared):
            out.append(item)
            continue
        board, ra, rb = next(pairs)
        if isinstance(ra, str) or isinstance(rb, str):
            rules, message = (pair.a, ra) if isinstance(ra, str) else (pair.b, rb)
            out.append(Compared(error=f"resolving under {rules}: {message}"))
        else:
            out.append(Compared(tuple(compare(board.source, ra.to_json(), rb.to_json(), board.ruleset))))
    return out


def _resolved_each(boards: list[Board], engine: str) -> list[Resolution | str]:
    """Each board's Resolution, or the one line of the failure in its place (a board that fails
    leaves the others' answers standing)."""
    if not boards:
        return []
    if engine == "asp":
        from ..batch import resolve_many
        from ..failure import ResolveFailure

        return [o.message if isinstance(o, ResolveFailure) else o for o in resolve_many(boards)]
    from ..reference import resolve as reference_resolve

    out: list[Resolution | str] = []
    for board in boards:
        try:
            out.append(reference_resolve(board))
        except Exception as err:  # noqa: BLE001 - that board's failure, in one line
            out.append(f"{board.ruleset} failed on {board.source}: {type(err).__name__}: {err}")
    return out


@dataclass(frozen=True)
class DrawTask:
    """A chunk of a generated run: its boards drawn where the task runs, then compared."""

    spec: PairSpec
    seed: int
    chunk: int
    size: int


@dataclass(frozen=True)
class Drawn:
    chunk: int
    compared: list[Compared]
    boards: list[dict[str, Any] | None]  # the disagreeing and failing boards (None for the others)


def draw_and_compare(task: DrawTask) -> Drawn:
    """A chunk's boards, drawn from A's generators as `riftasp fuzz` draws its chunk (without the
    settings `spec.drop` names), each compared under A and B."""
    from ..campaign.evaluate import board_source, chunk_seed
    from ..campaign.pool import worker_cached
    from ..fuzz import drawn_boards
    from ..profile import Profile

    spec = task.spec
    rules = spec.pair().a
    strategy = worker_cached(("strategy", rules.name, Profile()), lambda: rules.board_strategy(Profile()))
    drawn = [_without_settings(data, spec.drop)
             for data in drawn_boards(strategy, chunk_seed(task.seed, task.chunk), task.size)]  # fmt: skip
    sources = [board_source(task.seed, task.chunk, i) for i in range(len(drawn))]
    compared = compare_task(CompareTask(spec, tuple(zip(sources, drawn))))
    kept = [data if c.found or c.error else None for data, c in zip(drawn, compared)]
    return Drawn(task.chunk, compared, kept)


def _without_settings(data: dict[str, Any], keys: frozenset[str]) -> dict[str, Any]:
    """A generated board without the settings that would fix, on both sides, a reading A and B
    differ on (the generators draw condition_timing settings)."""
    settings = data.get("settings")
    if not settings or not keys & set(settings):
        return data
    kept = {k: v for k, v in settings.items() if k not in keys}
    out = {k: v for k, v in data.items() if k != "settings"}
    return out | {"settings": kept} if kept else out


@dataclass
class _Finding:
    """One distinct disagreement of a generated run: its shrunk board and how often it was found."""

    board: dict[str, Any]
    found: list[Disagreement]
    identity: str
    signature: Any  # riftasp.signature.Signature
    count: int = 1
    first_board: str = ""


class _GeneratedRun:
    """A generated run's rounds: chunks compared on the runner, disagreeing boards shrunk,
    findings by identity (riftasp/fuzz.py's campaign, for two rulesets)."""

    def __init__(self, spec: PairSpec, runner: Any, progress: Any, seed: int, deadline: float | None) -> None:
        self.spec, self.runner, self.progress, self.seed, self.deadline = spec, runner, progress, seed, deadline
        self.generated = self.failing_boards = self.shrink_runs = 0
        self.timed_out = False
        self.findings: dict[str, _Finding] = {}
        self.shrunk_boards: dict[str, tuple[dict[str, Any], list[Disagreement]]] = {}

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def run(self, count: int, max_found: int) -> None:
        from ..fuzz import CHUNK, ROUND_CHUNKS

        chunks = math.ceil(count / CHUNK)
        for first in range(0, chunks, ROUND_CHUNKS):
            tasks = [DrawTask(self.spec, self.seed, c, min(CHUNK, count - c * CHUNK))
                     for c in range(first, min(first + ROUND_CHUNKS, chunks))]  # fmt: skip
            failing: list[tuple[str, dict[str, Any], list[Disagreement]]] = []
            results = self.runner.map(draw_and_compare, tasks)
            try:
                for result in results:
                    failing += self.take(result)
                    if self.expired():
                        self.timed_out = True
                        break
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()  # cancels what is still pending on the workers
            self.shrink_round(failing)
            if self.timed_out or len(self.findings) >= max_found:
                return

    def take(self, result: Drawn) -> list[tuple[str, dict[str, Any], list[Disagreement]]]:
        """Count a chunk's boards; its disagreeing boards (source, board, differences), in order.
        A board either side failed on ends the run (CompareFailure), the first one in order."""
        from ..campaign.evaluate import board_source

        failing = []
        for index, (compared, data) in enumerate(zip(result.compared, result.boards)):
            self.generated += 1
            if compared.error is not None:
                raise CompareFailure(compared.error, data)
            if compared.found:
                assert data is not None
                self.failing_boards += 1
                failing.append((board_source(self.seed, result.chunk, index), data, list(compared.found)))
        self.progress.update(failing=self.failing_boards or None)
        self.progress.advance(len(result.compared))
        return failing

    def shrink_round(self, failing: list[tuple[str, dict[str, Any], list[Disagreement]]]) -> None:
        from ..campaign.rounds import settle_round

        if not failing:
            return
        self.progress.update(phase="shrinking")
        settle_round(failing, findings=self.findings, shrunk=self.shrunk, evaluate=self.evaluate, add=self.add,
                     depth=KNOCKOUT_DEPTH, expired=self.expired)  # fmt: skip
        self.progress.update(phase=None)

    def shrunk(self, items: Sequence[tuple[dict[str, Any], list[Disagreement]]]) -> list[tuple[dict[str, Any], list[Disagreement]]]:
        """Each disagreeing board shrunk, once per distinct board."""
        from ..campaign.shrink import shrink_all

        keys = [json.dumps(data, sort_keys=True, separators=(",", ":")) for data, _ in items]
        todo = {key: item for key, item in zip(keys, items) if key not in self.shrunk_boards}
        for key, result in zip(todo, shrink_all(list(todo.values()), self.evaluate)):
            self.shrunk_boards[key] = result
        return [self.shrunk_boards[key] for key in keys]

    def evaluate(self, boards: Sequence[dict[str, Any]]) -> list[list[Disagreement] | None]:
        """Boards compared while shrinking, on the runner in fixed groups: what differs on each,
        or None (a side failed on it, or out of time)."""
        from ..fuzz import SHRINK_CHUNK

        if not boards:
            return []
        if self.expired():
            return [None] * len(boards)
        source = f"<fuzz seed {self.seed}: shrinking>"
        tasks = [CompareTask(self.spec, tuple((source, b) for b in boards[i:i + SHRINK_CHUNK]))
                 for i in range(0, len(boards), SHRINK_CHUNK)]  # fmt: skip
        found = [None if c.error is not None else list(c.found) for group in self.runner.map(compare_task, tasks)
                 for c in group]  # fmt: skip
        self.shrink_runs += len(boards)
        self.progress.update(shrink_runs=self.shrink_runs)
        return found

    def add(self, board: dict[str, Any], found: list[Disagreement], ident: str, source: str) -> _Finding:
        from ..signature import signature

        finding = _Finding(board, found, ident, signature(board, found), first_board=source)
        self.findings[ident] = finding
        first = found[0]
        objects = len(board["objects"])
        self.progress.update(found=len(self.findings))
        self.progress.event(f"disagreement {ident}: {first.object}.{first.field} ({finding.signature.text()}), shrunk "
                            f"to {objects} object{'s' if objects != 1 else ''}", event="found", identity=ident,
                            signature=finding.signature.to_json(), seed=self.seed, board=source, objects=objects,
                            disagreements=[d.to_json() for d in found])  # fmt: skip
        return finding


def generated(pair: Pair, count: int, seed: int, engine: str = "asp", progress: Any = None,
              time_limit: float | None = None, max_found: int = 20, runner: Any = None) -> CompareReport:  # fmt: skip
    """`count` boards drawn from A's generators as `riftasp fuzz` draws them (the same seed, the
    same boards), each resolved under A and B, on `runner` (default: this process); every
    disagreement shrunk, one finding per identity; the same report for any runner."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as err:
        raise CompareError(f"riftasp compare --generate needs hypothesis ({err}): pip install 'riftasp[fuzz]'") from None
    from ..campaign.pool import make_runner
    from ..profile import Profile
    from ..progress import Progress

    if pair.a.board_strategy(Profile()) is None:
        raise CompareError(f"--generate: no board generators for {pair.a}")
    points = pair.points()
    switches = frozenset(p.switch for i in pair.choice_points if (p := points.get(i)) is not None and p.switch)
    switches |= frozenset(i for i in pair.choice_points if i not in points and i != LAYER_TABLE)
    spec = PairSpec(pair.a.name, pair.b.name, engine, switches, pair.folders)
    own_runner = runner is None
    runner = runner or make_runner(1)
    start = time.monotonic()
    campaign = _GeneratedRun(spec, runner, progress or Progress(), seed,
                             None if time_limit is None else start + time_limit)  # fmt: skip
    try:
        campaign.run(count, max_found)
    finally:
        if own_runner:
            runner.close()
    seconds = time.monotonic() - start
    findings = list(campaign.findings.values())
    found = [board_from_dict(f.board, f"<generated: seed {seed}, finding {i}>") for i, f in enumerate(findings, 1)]
    comparisons = compare_boards(found, pair, engine)
    for comparison, finding in zip(comparisons, findings):
        comparison.generated = True
        comparison.details = {"seed": seed, "count": finding.count, "signature": finding.signature.to_json()}
    details = {"seed": seed, "count": count, "generated": campaign.generated, "failing_boards": campaign.failing_boards,
               "shrink_runs": campaign.shrink_runs, "timed_out": campaign.timed_out, "seconds": round(seconds, 2)}  # fmt: skip
    return CompareReport(pair, "generate", comparisons, details=details)


# ---- searched boards -------------------------------------------------------------------------------


def searched(pair: Pair, max_effects: int = DEFAULT_MAX_EFFECTS, max_objects: int = DEFAULT_MAX_OBJECTS,
             only_ops: list[str] | None = None, engine: str = "asp") -> CompareReport:  # fmt: skip
    """The boards riftasp/research/search.py finds on which A and B differ, compared here too."""
    try:
        module = importlib.import_module(f"{__package__}.search")
    except ImportError as err:
        raise CompareError(f"--search: the search kernels are not available ({err})") from None
    try:
        result = module.search(pair.a, pair.b, max_effects=max_effects, max_objects=max_objects, only_ops=only_ops)
    except module.NoKernel as err:
        ids = getattr(err, "ids", None) or (err.args[0] if err.args else ())
        named = ids if isinstance(ids, str) else ", ".join(map(str, ids))
        raise CompareError(f"--search: {pair.a} and {pair.b} differ on choice points no search kernel covers: "
                           f"{named}") from None  # fmt: skip
    boards = [replace(board, source=f"search board {n}") for n, board in enumerate(result.boards, 1)]
    comparisons = compare_boards(boards, pair, engine)
    for comparison in comparisons:
        comparison.generated = True
    details = {"kernel": result.kernel, "bound": result.bound, "message": result.message,
               "max_effects": max_effects, "max_objects": max_objects, "only_ops": only_ops}  # fmt: skip
    return CompareReport(pair, "search", comparisons, details=details)


# ---- --out --------------------------------------------------------------------------------------------


def write_findings(report: CompareReport, out: Path) -> None:
    """Each disagreeing board as a board file in `out` (named after A, B and the seed), then
    the report (`to_json`) as findings.json; the folder made when missing."""
    out.mkdir(parents=True, exist_ok=True)
    seed = f"-seed{report.details['seed']}" if report.mode == "generate" else ""
    for number, comparison in enumerate(report.disagreeing, 1):
        path = out / f"{report.pair.a.name}-vs-{report.pair.b.name}{seed}-{number:02d}.json"
        path.write_text(json.dumps(board_to_dict(comparison.board), indent=2) + "\n", encoding="utf-8")
        comparison.file = path
    (out / FINDINGS).write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")


# ---- the command -----------------------------------------------------------------------------------


FORMATS = ("text", "md", "html")


def run(a: str, b: str, boards: list[Path], *, generate: int | None = None, seed: int = 0, search: bool = False,
        max_effects: int | None = None, max_objects: int | None = None, only_ops: str | None = None,
        out: Path | None = None, as_json: bool = False, format: str = "text", engine: str = "asp",
        time_limit: float | None = None, runner: Callable[[], Any] | None = None) -> int:  # fmt: skip
    """`riftasp compare`: prints the report; the exit code (a failure: `commands.fail`). The command
    line has checked `out` (a folder, or a place one can be made in). `runner` makes the runner
    a generated run's work runs on (riftasp/campaign/pool.py; default: this process), once the
    input is checked; a RunnerError of its work is raised to the caller."""
    from ..commands import ENGINES, INTERNAL_ERROR, echo, emit_json, fail, positive

    modes = [m for m, on in (("BOARDS", bool(boards)), ("--generate", generate is not None), ("--search", search)) if on]
    if len(modes) != 1:
        fail("compare: give exactly one of BOARDS, --generate N or --search" +
             (f" (got {' and '.join(modes)})" if modes else ""))  # fmt: skip
    bounds = [o for o, v in (("--max-effects", max_effects), ("--max-objects", max_objects), ("--only-ops", only_ops))
              if v is not None]  # fmt: skip
    if bounds and not search:
        fail(f"{bounds[0]}: only with --search")
    if time_limit is not None and generate is None:
        fail("--time-limit: only with --generate")
    if generate is not None and generate < 1:
        fail(f"--generate: must be a positive number of boards, got {generate}")
    for option, value in (("--max-effects", max_effects), ("--max-objects", max_objects)):
        if value is not None and value < 1:
            fail(f"{option}: must be a positive number, got {value}")
    positive(time_limit, "--time-limit")
    if format not in FORMATS:
        fail(f"--format: unknown format {format!r}: choose one of {', '.join(FORMATS)}")
    if as_json and format != "text":
        fail(f"--json and --format {format}: choose one")
    if engine not in ENGINES:
        fail(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    ops = None if only_ops is None else [op.strip() for op in only_ops.split(",") if op.strip()]
    if only_ops is not None and not ops:
        fail("--only-ops: name at least one operation (comma-separated)")

    from ..solver import EncodingError

    try:
        pair = rulesets_given(a, b)
        if ops is not None:
            unknown = [op for op in ops if op not in pair.a.operations and op not in pair.b.operations]
            if unknown:
                fail(f"--only-ops: {', '.join(unknown)}: not an operation of {pair.a} or {pair.b}; they have "
                     f"{', '.join(dict.fromkeys((*pair.a.operations, *pair.b.operations)))}")  # fmt: skip
        if boards:
            loaded, skipped = given_boards(boards)
            for path, why in skipped:
                echo(printable(f"{path}: skipped, {why}"), err=True)
            report = CompareReport(pair, "boards", compare_boards(loaded, pair, engine), skipped)
        elif generate is not None:
            from ..progress import make_progress

            from ..campaign.pool import make_runner

            where = runner() if runner is not None else make_runner(1)
            try:
                with make_progress("compare", generate, as_json) as progress:
                    report = generated(pair, generate, seed, engine, progress, time_limit, runner=where)
            finally:
                where.close()
        else:
            report = searched(pair, max_effects or DEFAULT_MAX_EFFECTS, max_objects or DEFAULT_MAX_OBJECTS, ops,
                              engine)  # fmt: skip
    except CompareError as err:
        fail(str(err))
    except BoardError as err:
        fail(str(err))
    except CompareFailure as err:
        written = ""
        if out is not None and err.board is not None:
            out.mkdir(parents=True, exist_ok=True)
            failed = out / "failed-board.json"
            failed.write_text(json.dumps(err.board, indent=2) + "\n", encoding="utf-8")
            written = f" (board written to {failed})"
        fail(f"{err}{written}", code=INTERNAL_ERROR)
    except UnsupportedRuleset as err:
        fail(f"ruleset: {err}")
    except EncodingError as err:
        fail(f"internal error in the encoding: {err}", code=INTERNAL_ERROR)
    if out is not None:
        try:
            write_findings(report, out)
        except OSError as err:
            fail(f"{out}: file: cannot write the findings: {err.strerror or err}")
    if as_json:
        emit_json(report.to_json())
    elif format == "md":
        echo(report.markdown().rstrip("\n"))
    elif format == "html":
        echo(report.html(engine).rstrip("\n"))
    else:
        echo(report.text())
    return report.exit_code


__all__ = ["BoardComparison", "CompareError", "CompareReport", "LAYER_TABLE", "Pair", "Parting", "compare_boards",
           "differing_points", "first_parting", "generated", "rulesets_given", "run", "searched", "write_findings"]
