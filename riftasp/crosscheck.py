"""`riftasp crosscheck`: riftasp's ASP resolver against another engine on board files."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from .compare import OBJECT_FIELD, Disagreement, Violation, compare
from .engines import Engine, Unsupported
from .model import Board
from .present import printable, result_line, table, trace_value
from .result import Application, Resolution

BOARD_SUFFIXES = (".json", ".yaml", ".yml", ".lp")
# A rules checker: (board, an engine's result JSON) -> violations (see riftasp.fuzz).
Checker = Callable[[Board, dict[str, Any]], Iterable[Any]]


STORED_OUTPUT_SUFFIX = ".expected.json"


def board_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, and every board file under the folders named (sorted, recursively).

    A named file is kept whatever its suffix, so loading it gives the usual one-line error.
    """
    return [path for path, _ in found_files(paths)]


def found_files(paths: Iterable[Path]) -> list[tuple[Path, bool]]:
    """(file, named): `named` is False for a file found by searching a folder."""
    found: list[tuple[Path, bool]] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                (p, False) for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in BOARD_SUFFIXES and not is_stored_output(p)
            )
        else:
            found.append((path, True))
    return found


def is_stored_output(path: Path) -> bool:
    """A golden output stored beside its board (NAME.expected.json, NAME.reference.expected.json)."""
    return path.name.lower().endswith(STORED_OUTPUT_SUFFIX)


def not_a_board(path: Path) -> str | None:
    """Why a .json file found in a folder is not a board at all (None: it is meant as one).

    A board is a JSON object with a "players" key or an "objects" list; anything else (an
    engine's output, a package.json, notes) is skipped with a warning rather than stopping the
    run. Invalid JSON is left to the loader: a broken board must not pass silently.
    """
    if path.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if isinstance(data, dict) and ("players" in data or isinstance(data.get("objects"), list)):
        return None
    from .board_io.loading import is_resolution

    if is_resolution(data):
        return "not a board (it looks like a resolution: 'objects' is an object)"
    return "not a board (no 'players' and no 'objects' list)"


@dataclass
class BoardCheck:
    """One board's comparison, with riftasp's explain trace of every object in question."""

    board: str
    disagreements: list[Disagreement | Violation]
    explains: dict[str, str] = field(default_factory=dict)
    applied: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    unsupported: str | None = None  # the engine's reason, when it could not represent the board
    engine_error: str | None = None  # what the engine did instead of answering (one line)
    riftasp_error: str | None = None  # riftasp's own failure on the board (a bug: exit code 3)

    @property
    def supported(self) -> bool:
        return self.unsupported is None and self.engine_error is None and self.riftasp_error is None

    @property
    def agrees(self) -> bool:
        return self.supported and not self.disagreements


@dataclass
class CrosscheckReport:
    engine: str
    checks: list[BoardCheck]
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why): not boards

    @property
    def disagreeing(self) -> list[BoardCheck]:
        return [c for c in self.checks if c.supported and c.disagreements]

    @property
    def supported(self) -> list[BoardCheck]:
        return [c for c in self.checks if c.supported]

    @property
    def unsupported_reasons(self) -> dict[str, int]:
        return dict(Counter(c.unsupported for c in self.checks if c.unsupported is not None).most_common())

    @property
    def engine_errors(self) -> list[BoardCheck]:
        return [c for c in self.checks if c.engine_error is not None]

    @property
    def riftasp_errors(self) -> list[BoardCheck]:
        return [c for c in self.checks if c.riftasp_error is not None]

    @property
    def unsupported_count(self) -> int:
        return sum(c.unsupported is not None for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        supported = len(self.supported)
        return {
            "engine": self.engine,
            "boards": len(self.checks),
            "supported": supported,
            "agree": supported - len(self.disagreeing),
            "disagree": len(self.disagreeing),
            "unsupported": self.unsupported_count,
            "unsupported_reasons": self.unsupported_reasons,
            "unsupported_boards": [{"board": c.board, "reason": c.unsupported} for c in self.checks
                                   if c.unsupported is not None],
            "engine_errors": [{"board": c.board, "error": c.engine_error} for c in self.engine_errors],
            "riftasp_errors": [{"board": c.board, "error": c.riftasp_error} for c in self.riftasp_errors],
            "skipped": [{"file": f, "reason": why} for f, why in self.skipped],
            "disagreements": [
                d.to_json() | {"explain": c.explains.get(d.object, ""), "applied": c.applied.get(d.object, [])}
                for c in self.checks
                for d in c.disagreements
            ],
        }

    def text(self, styled: bool = False) -> str:
        """The report for people, printable (riftasp.present); `styled`: a disagreement's line
        and a disagreeing summary in red, an agreeing one in green (at a terminal only,
        riftasp/style.py)."""
        lines: list[tuple[str, bool | None]] = []  # (line, good: green / bad: red / None: plain)
        for check in self.disagreeing:
            lines.append((f"{check.board}: disagreement", False))
            lines.extend((line, None) for line in findings_text(check.disagreements, check.explains, indent="  "))
        for check in self.checks:
            if check.engine_error is not None:
                lines.append((f"{check.board}: engine error: {check.engine_error}", None))
            if check.riftasp_error is not None:
                lines.append((f"{check.board}: riftasp error: {check.riftasp_error}", None))
        lines.append((self.summary(), self.all_agree))
        return styled_lines(lines, styled)

    @property
    def all_agree(self) -> bool:
        """No disagreement and no error of either side (unsupported boards are no error)."""
        return not self.disagreeing and not self.engine_errors and not self.riftasp_errors

    def html(self, boards: Mapping[str, Board], resolve: Callable[[Board], Resolution],
             parameters: list[tuple[str, Any]]) -> str:
        """`--format html`: each disagreeing board with riftasp's and the engine's values side by
        side, its graph and the explanations (`resolve`: riftasp's side, run again here on the
        disagreeing boards only; `boards`: each check's board by its source)."""
        from .picture.findings import Finding, findings_page, side_rows, with_disagreements

        found = []
        for check in self.disagreeing:
            board = boards[check.board]
            res = resolve(board)
            ours = res.to_json()["objects"]
            rows = side_rows(board.ruleset, ours, with_disagreements(ours, check.disagreements))
            notes = [finding_line(d) for d in check.disagreements]
            found.append(Finding(check.board, notes, board, ("riftasp", "engine"), rows, res,
                                 list(dict.fromkeys(d.object for d in check.disagreements))))  # fmt: skip
        data = self.to_json()
        counts = [(key.replace("_", " "), data[key]) for key in ("boards", "supported", "agree", "disagree", "unsupported")]
        counts += [("engine errors", len(self.engine_errors)), ("riftasp errors", len(self.riftasp_errors)),
                   ("skipped (not boards)", len(self.skipped))]  # fmt: skip
        notes = [f"{c.board}: engine error: {c.engine_error}" for c in self.engine_errors]
        notes += [f"{c.board}: riftasp error: {c.riftasp_error}" for c in self.riftasp_errors]
        notes += [f"{c.board}: unsupported by the engine: {c.unsupported}" for c in self.checks if c.unsupported]
        notes += [f"{f}: skipped, {why}" for f, why in self.skipped]
        return findings_page("riftasp crosscheck", [("engine", self.engine), *parameters], counts,
                             self.summary(), self.all_agree, found, notes)  # fmt: skip

    def summary(self) -> str:
        supported = len(self.supported)
        agree = supported - len(self.disagreeing)
        line = f"{plural(len(self.checks), 'board')}: "
        unsupported = self.unsupported_count
        if supported < len(self.checks):
            line += f"{supported} supported ({agree} agree, {len(self.disagreeing)} disagree)"
            if unsupported:
                reasons = "; ".join(f"{why}: {n}" for why, n in self.unsupported_reasons.items())
                line += f", {unsupported} unsupported ({reasons})"
            if self.engine_errors:
                line += f", {plural(len(self.engine_errors), 'engine error')}"
            if self.riftasp_errors:
                line += f", {plural(len(self.riftasp_errors), 'riftasp error')}"
        else:
            line += f"{agree} agree, {len(self.disagreeing)} disagree"
        return line + f" (riftasp vs {self.engine})"


def styled_lines(lines: Iterable[tuple[str, bool | None]], styled: bool) -> str:
    """Lines made printable (riftasp.present), then, when `styled`, each marked line in green
    (good) or red (bad): style comes last, after the escaping that would show its codes."""
    from .style import green, red

    out = []
    for line, good in lines:
        line = printable(line, keep_newlines=True)
        if styled and good is not None:
            line = green(line) if good else red(line)
        out.append(line)
    return "\n".join(out)


def plural(n: int, word: str, words: str | None = None) -> str:
    """`1 board`, `2 boards`."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def findings_text(found: list[Any], explains: dict[str, str], indent: str = "") -> list[str]:
    """Each disagreement as `object.field: riftasp X, engine Y`, then riftasp's short trace of
    each object in question (once per object)."""
    lines: list[str] = []
    by_object: dict[str, list[Any]] = {}
    for d in found:
        by_object.setdefault(d.object, []).append(d)
    for oid, items in by_object.items():
        for d in items:
            lines.append(f"{indent}{finding_line(d)}")
        if oid in explains:
            lines.append(f"{indent}riftasp explain {oid}:")
            lines.extend(f"{indent}  {line}" for line in explains[oid].splitlines())
    return lines


def finding_line(d: Any) -> str:
    if isinstance(d, Violation):
        return (f"{d.object} breaks {d.described} in {d.side}'s answer: expected {value_text(d.expected)}, "
                f"found {value_text(d.found)}")  # fmt: skip
    return (f"{d.object}.{d.field}: riftasp {value_text(d.riftasp_value, d.field)}, "
            f"engine {value_text(d.engine_value, d.field)}")  # fmt: skip


def value_text(value: Any, field: str = "") -> str:
    """A compared value as JSON, so null, true and lists read unambiguously."""
    if field == OBJECT_FIELD and value is None:
        return "missing"
    return json.dumps(value, sort_keys=True)


# ---- short explain traces for reports ----------------------------------------------------------


def short_why(app: Application) -> str:
    """Why an application came when it did, in a few words (the layer has its own column)."""
    reasons = set(app.reasons)
    parts = [f"t{app.timestamp}"]
    if app.depends_on:
        parts.append(("right after " if "immediately_after" in reasons else "after ") + ", ".join(app.depends_on))
    if "cycle" in reasons:
        parts.append("cycle: timestamp order")
    if "tie" in reasons:
        parts.append("tie: board order")
    if "recheck" in reasons:
        parts.append("recheck")
    if "unblocked" in reasons:
        parts.append("conditions waiting on each other")
    return ", ".join(parts)


def short_explain(res: Resolution, object_id: str) -> str:
    """riftasp's trace of one object for a report: one short line per application."""
    c = res.objects[object_id]
    lines = []
    loop = next((members for members in res.object_loops if object_id in members), None)
    needs = [q for q in res.needs.get(object_id, []) if not loop or q not in loop]
    head = f"{object_id} ({c.name})"
    if loop:
        head += f"; in a loop with {', '.join(o for o in loop if o != object_id)}"
    if needs:
        head += f"; after {', '.join(needs)}"
    lines.append(head)
    apps = res.applied.get(object_id, [])
    if apps:
        rows = [[str(a.step), a.layer + (f".{a.sublayer}" if a.sublayer else ""), _cut(a.effect), a.characteristic,
                 f"{trace_value(a.before)} -> {trace_value(a.after)}", short_why(a)] for a in apps]  # fmt: skip
        lines.append(table(rows, ["step", "layer", "effect", "changes", "before -> after", "why"]))
    else:
        lines.append("no effects applied: printed values")
    withdrawn = res.withdrawn.get(object_id, [])
    if withdrawn:
        lines.append(f"withdrawn: {', '.join(withdrawn)}")
    lines.append(result_line(res, object_id))
    return "\n".join(lines)


def _cut(name: str, width: int = 24) -> str:
    """A long instance name (a keyword bonus names its keyword's source) cut for a short report."""
    return name if len(name) <= width else name[: width - 1] + "…"


# ---- checking boards ---------------------------------------------------------------------------


def check_board(
    board: Board,
    engine: Engine,
    riftasp: Callable[[Board], Resolution],
    checker: Checker | None = None,
) -> BoardCheck:
    """Compare riftasp's resolution of one board with the engine's (the engine first: a board it
    does not support is not resolved at all)."""
    try:
        theirs = engine(board)
    except Unsupported as unsupported:
        return BoardCheck(board.source, [], unsupported=unsupported.reason)
    ours = riftasp(board)
    found: list[Disagreement | Violation] = list(compare(board.source, ours.to_json(), theirs, board.ruleset))
    if checker is not None:
        found += violations(checker, board, ours.to_json(), "riftasp") + violations(checker, board, theirs, "engine")
    check = BoardCheck(board.source, found)
    for oid in dict.fromkeys(d.object for d in found):
        if oid in ours.objects:  # an object only the engine reports has no trace here
            check.explains[oid] = short_explain(ours, oid)
            check.applied[oid] = [a.to_json() for a in ours.applied.get(oid, [])]
    return check


def violations(checker: Checker, board: Board, result: dict[str, Any], side: str) -> list[Violation]:
    """A checker's answer as Violations: items with (or mappings of) object, invariant,
    expected, found."""

    def get(item: Any, key: str) -> Any:
        return item.get(key) if isinstance(item, dict) else getattr(item, key, None)

    # A checker that judges each side its own way (riftasp.check.CampaignChecker) is told which.
    if getattr(checker, "takes_side", False):  # its own call then has the keyword
        found = cast(Callable[..., Iterable[Any]], checker)(board, result, side=side)
    else:
        found = checker(board, result)
    return [
        Violation(board.source, str(get(v, "object")), str(get(v, "invariant")), side, get(v, "expected"),
                  get(v, "found"), get(v, "basis") or "", tuple(get(v, "decisions") or ()))
        for v in found
    ]  # fmt: skip
