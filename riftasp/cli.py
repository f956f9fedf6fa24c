"""The `riftasp` command line."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Literal

import typer
from typer.core import TyperGroup

# Start-up time (bench/coldstart.py): each command imports what it uses, so `--help` and
# `resolve` load no more of riftasp than they need; what the commands share is in
# riftasp.commands, which imports no typer (riftasp.launch runs `resolve` without it).
from .commands import (
    ENGINES, TIME_LIMIT, emit_json, engine_for, fail, load, plain_resolve, positive, resolve_boards, run_engine, run_plain,
)  # fmt: skip


class _Riftasp(typer.Typer):
    """The app, with a shortcut for its commonest call: `riftasp resolve BOARD... [--json]`.

    typer (0.29) converts every parameter but a flag through a pydantic TypeAdapter: importing
    pydantic and building the adapters costs ~80 ms, a third of the start-up budget
    (bench/coldstart.py). A command line of only board paths and `--json` needs no conversion,
    so it runs riftasp.commands.run_plain, ending as typer's main would (exit code, Ctrl-C,
    closed pipe); anything else (other options, --help, usage errors, shell completion) goes
    through typer. The `riftasp` program takes the shortcut before it imports typer at all
    (riftasp.launch); `python -m riftasp.cli` takes it here. Tests using typer's CliRunner do not
    come here.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        plain = None if args or kwargs else plain_resolve(sys.argv[1:])
        if plain is None:
            return super().__call__(*args, **kwargs)
        sys.exit(run_plain(*plain))


# The options with a fixed set of values: their choices show in --help, and a value out of them
# is refused in one line before the command runs (_Commands).
Engine = Literal["asp", "reference"]
Format = Literal["text", "md", "html"]
CampaignFormat = Literal["text", "html"]
# --format html (issue 40): one self-contained page on standard output, as md is (riftasp/picture/findings.py).
HTML_HELP = "html: one self-contained page (riftasp report's) on standard output"


class _Commands(TyperGroup):
    """The app's command group: an option value out of its choices gets riftasp's one line
    (`--engine: unknown engine 'x': choose one of asp, reference`, exit 2) rather than click's
    usage block."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except typer.BadParameter as err:
            line = _unknown_choice(err)
            if line is None:
                raise
            fail(line)


def _unknown_choice(err: Any) -> str | None:
    """The one-line message for a value not among an option's choices (None: another error)."""
    descriptor = getattr(err.param, "type_descriptor", None)
    if descriptor is None or not descriptor.is_choice or not err.param.opts:
        return None
    errors = getattr(err.__cause__, "errors", None)  # the validation error, which holds the value
    if errors is None:
        return None
    value = errors()[0].get("input")
    option = max(err.param.opts, key=len)
    noun = option.lstrip("-").split("-")[-1]
    return f"{option}: unknown {noun} {value!r}: choose one of {', '.join(map(str, descriptor.choices))}"


def _version() -> str:
    """The installed distribution's version (or the package's own, run from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("riftasp")
    except PackageNotFoundError:
        import riftasp

        return str(getattr(riftasp, "__version__", "unknown"))


# Plain click messages (no boxes): usage errors stay a few plain lines.
RULESET_HELP = "The ruleset (default: the one whose manifest says default = true; see riftasp rulesets)"

app = _Riftasp(add_completion=False, no_args_is_help=True, rich_markup_mode=None, cls=_Commands,
               context_settings={"help_option_names": ["-h", "--help"]},
               help="Resolve card characteristics through the layer system, declaratively.")


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"riftasp {_version()}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                 help="Show riftasp's version and exit"),
) -> None:
    pass

BOARD_HELP = "A board: .json, .yaml or .lp facts; - reads JSON from standard input"
TIME_LIMIT_HELP = f"Stop a calculation after this many seconds (exit code {TIME_LIMIT})"


@app.command()
def resolve(
    boards: list[Path] = typer.Argument(..., metavar="BOARD...", help=BOARD_HELP + "; several files or folders resolve together"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output (JSON lines for several boards)"),
    engine: Engine = typer.Option("asp", help="asp (the encoding) or reference (plain Python)"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help=TIME_LIMIT_HELP),
    jobs: int | None = typer.Option(None, "--jobs", min=1, help="Worker processes for many boards (default: this "
                                    "machine's cores, from 400 boards on)"),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS", help="Resolve many boards on a "
                                         "Dask cluster (pip install 'riftasp[cluster]'; docs/campaigns.md)"),
) -> None:
    """Every object's current characteristics, for one board or many (resolved in batches).

    Of many boards, one that cannot be read or resolved (or reaches --time-limit) gets one line on
    stderr (with --json also {"board", "error", "kind"} in its place on stdout), the others their
    answers, and the exit code is 2.
    """
    resolve_boards(boards, as_json, engine, time_limit, jobs, scheduler)


@app.command()
def explain(
    board: Path = typer.Argument(..., help=BOARD_HELP),
    object_id: str = typer.Argument(..., metavar="OBJECT", help="The object to explain"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: Engine = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help=TIME_LIMIT_HELP),
) -> None:
    """Each application to one object, in order, with why it came then."""
    from .present import explain_text, shorten

    positive(time_limit, "--time-limit")
    b = load(board)
    ids = [obj.id for obj in b.objects]
    if object_id not in ids:  # before the calculation, not after it
        fail(f"{b.source}: OBJECT: unknown object {shorten(repr(object_id))}; {_object_hint(object_id, ids)}")
    res = run_engine(b, engine, time_limit)
    if as_json:
        emit_json({
            "object": object_id,
            "characteristics": res.objects[object_id].to_json(),
            "needs": res.needs.get(object_id, []),
            "object_loops": [members for members in res.object_loops if object_id in members],
            "applied": [a.to_json() for a in res.applied.get(object_id, [])],
            "withdrawn": res.withdrawn.get(object_id, []),
            "withdrawals": [w.to_json() for w in res.withdrawals if w.object == object_id],
            "paradoxes": [p for p in res.paradoxes
                          if any(w.object == object_id and w.effect in p for w in res.withdrawals)],
        })
    else:
        typer.echo(explain_text(res, object_id, styled=True))


def _object_hint(wanted: str, ids: list[str]) -> str:
    """`did you mean 'fiora'?` (the same id in other case first, else the closest), or up to
    ten of the board's ids."""
    import difflib

    from .present import shorten

    close = [i for i in ids if i.casefold() == wanted.casefold()] or \
        difflib.get_close_matches(wanted, ids, n=1) or \
        difflib.get_close_matches(wanted.casefold(), ids, n=1)  # fmt: skip
    if close:
        return f"did you mean {shorten(repr(close[0]))}?"
    shown = ", ".join(shorten(i) for i in ids[:10]) + (f", ... ({len(ids)} in all)" if len(ids) > 10 else "")
    return f"the board's objects: {shown}"


@app.command()
def diff(
    before: Path = typer.Argument(..., help="The board before (- for standard input)"),
    after: Path = typer.Argument(..., help="The board after (- for standard input)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: Engine = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS",
                                            help=TIME_LIMIT_HELP + ", for each board"),
) -> None:
    """Real transitions between two calculations (never intermediate layer values)."""
    from .present import printable
    from .transitions import transitions

    positive(time_limit, "--time-limit")
    if str(before) == str(after) == "-":
        fail("-: file: standard input holds one board; give a file for the other")
    boards = load(before), load(after)
    if boards[0].ruleset.name != boards[1].ruleset.name:  # their characteristics are not comparable
        fail(f"{boards[1].source}: ruleset: the boards are of different rulesets: "
             f"{boards[0].ruleset.name}, {boards[1].ruleset.name}")
    changes = transitions(*(run_engine(b, engine, time_limit) for b in boards))
    if as_json:
        emit_json([t.to_json() for t in changes])
    else:
        typer.echo("\n".join(printable(t.text) for t in changes) or "no changes")


@app.command("timeline")
def timeline_command(
    log: Path = typer.Argument(..., help="A timeline: a starting board and its events (docs/board-format.md, "
                               "Timelines; - for standard input)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable: each moment's timestamps, transitions "
                                 "and characteristics"),
    at: int | None = typer.Option(None, "--at", metavar="N", help="Write the board after event N (from 0): a "
                                  "board file with every timestamp filled in"),
    output: Path | None = typer.Option(None, "-o", "--output", metavar="FILE", help="With --at: write the board "
                                       "here (default: standard output)"),
    engine: Engine = typer.Option("asp", help="asp or reference (each keeps its own bookkeeping)"),
) -> None:
    """Replay a game: the state after every event, with the timestamps riftasp assigns and the
    real transitions each event causes."""
    from .timeline.command import timeline_run

    raise typer.Exit(timeline_run(log, as_json, at, output, engine))


@app.command("graph")
def graph_command(
    board: Path = typer.Argument(..., help=BOARD_HELP),
    show: str = typer.Option("all", "--show", help="all (needs and dependencies), needs (which object reads "
                             "which), dependencies (effects, what each depends on and applies to), loops "
                             "(object loops, dependency cycles, paradoxes) or steps (the layer-by-layer timeline)"),
    fmt: str = typer.Option("svg", "--format", help="svg, dot (Graphviz) or json (the graph as data)"),
    output: Path | None = typer.Option(None, "-o", "--output", metavar="FILE", help="Write here (default: standard output)"),
    engine: str = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help=TIME_LIMIT_HELP),
) -> None:
    """A picture of the calculation: which object reads which, which effect depends on which,
    loops, cycles and paradoxes highlighted; or the steps, layer by layer."""
    from .picture import FORMATS, SHOWS, render

    if show not in SHOWS:
        fail(f"--show: unknown view {show!r}: choose one of {', '.join(SHOWS)}")
    if fmt not in FORMATS:
        fail(f"--format: unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    positive(time_limit, "--time-limit")
    b = load(board)
    text = render(run_engine(b, engine, time_limit).to_json(), b, show, fmt)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"{output}: -o: cannot write: {err.strerror or err}")


@app.command("report")
def report_command(
    boards: list[Path] = typer.Argument(..., help="Board files, or folders of them"),
    output: Path = typer.Option(Path("report.html"), "-o", "--output", metavar="FILE",
                                help="Write the page here (default: report.html)"),
    engine: Engine = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help=TIME_LIMIT_HELP),
) -> None:
    """One self-contained HTML page: per board its objects' final values, the graph of the
    calculation, each object's explanation as a timeline, and its loops, cycles and paradoxes."""
    from .crosscheck import found_files, not_a_board
    from .picture.report import report_html

    positive(time_limit, "--time-limit")
    files = [path for path, named in found_files(boards) if named or not not_a_board(path)]
    if not files:
        fail("report: no board files found")
    loaded = [load(path) for path in files]
    page = report_html([(b, run_engine(b, engine, time_limit)) for b in loaded], title="riftasp report")
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as err:
        fail(f"{output}: -o: cannot write: {err.strerror or err}")


@app.command()
def facts(board: Path = typer.Argument(..., help=BOARD_HELP)) -> None:
    """The ASP facts the encoding sees for a board."""
    from .facts import board_facts

    sys.stdout.write(board_facts(load(board)))


@app.command()
def schema(
    ruleset: str | None = typer.Option(None, "--ruleset", help=RULESET_HELP),
    timeline: bool = typer.Option(False, "--timeline", help="The schema of a timeline (a board with events) instead"),
) -> None:
    """The JSON Schema of the board format (or of a timeline)."""
    from .schema import board_schema, timeline_schema

    emit_json((timeline_schema if timeline else board_schema)(_ruleset_option(ruleset)))


@app.command()
def check(
    board: Path = typer.Argument(..., help="A board file"),
    resolution: Path | None = typer.Option(None, "--resolution", help="An engine's --json output for BOARD "
                                           "(default: riftasp's own resolution)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    engine: Engine = typer.Option("asp", help="asp or reference (without --resolution)"),
    declarative: bool = typer.Option(True, "--declarative/--no-declarative", help="Also ask what the rules allow: "
                                     "is the final state a consistent state, are the paradoxes real (docs/check.md)"),
) -> None:
    """Check a resolution against the rules' invariants; exit 0 consistent, 1 violations."""
    from .check import ContractError, check_report
    from .check.contract import ResolutionFileError, read_resolution
    from .present import printable

    b = load(board)
    if resolution is None:
        data = run_engine(b, engine).to_json()
        source = f"{b.source} ({engine} resolution)"
    else:
        source = str(resolution)
        try:
            data = read_resolution(resolution)  # refused above its size limit before reading
        except ResolutionFileError as err:
            fail(f"{source}: {err}")
    try:
        report = check_report(b, data, declarative)
    except ContractError as err:
        fail(f"{source}: {err}")
    verdict = getattr(report, "declarative", None)  # what the rules allow (check/declarative.py)
    if as_json:
        emit_json({**report.to_json(), **({"declarative": verdict.to_json()} if verdict else {})})
    else:
        # (What the rules allow goes above the closing count, which stays the last line.)
        lines = report.text().splitlines()
        if verdict:
            lines[-1:-1] = [verdict.summary()]
        typer.echo(printable("\n".join(lines), keep_newlines=True))
    raise typer.Exit(0 if report.consistent else 1)


@app.command()
def outcomes(
    board: Path = typer.Argument(..., help=BOARD_HELP),
    open_ids: str = typer.Option("", "--open", metavar="ID,...", help="Choice points to open: each value of its switch"),
    max_branches: int = typer.Option(64, "--max", help="At most this many resolutions (else exit 2)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    output_format: Format = typer.Option("text", "--format", help="text, md (a markdown report), or " + HTML_HELP),
    states: bool = typer.Option(False, "--states", help="Also the consistent states the declarative checker finds"),
    engine: Engine = typer.Option("asp", help="asp or reference"),
) -> None:
    """Every outcome the board permits, one resolution per choice; exit 0 unique, 1 not (riftasp/research/outcomes.py)."""
    from .research.outcomes import command

    raise typer.Exit(command(board, open_ids, max_branches, as_json, output_format, states, engine))


# ---- cross-checking engines (docs/crosscheck.md) ----------------------------------------------

ENGINE_HELP = "asp, reference, or a command: one JSON board on stdin, the resolve JSON on stdout"
PERSISTENT_HELP = "The command reads one board per line and answers one result per line (started once)"
EXPAND_HELP = "Send boards with library cards written out (name, type, printed values, text), not by name"
NO_CHECK_HELP = "Do not check both answers against the rules' invariants (riftasp check) as well"


def _engine(spec: str, persistent: bool, timeout: float, expand: bool = False):
    from .engines import EngineError, make_engine

    try:
        return make_engine(spec, persistent=persistent, timeout=timeout, expand=expand)
    except EngineError as err:
        fail(str(err))


JOBS_HELP = "Worker processes (default: this machine's cores); the results are the same for any number"
SCHEDULER_HELP = "Run on a Dask cluster: the scheduler's address (pip install 'riftasp[cluster]'; docs/campaigns.md)"
MAX_ENGINE_ERRORS_HELP = "Stop after the engine failed on this many boards (default: never; each is counted)"


@app.command()
def crosscheck(
    boards: list[Path] = typer.Argument(..., help="Board files or folders (searched for .json, .yaml, .lp)"),
    engine: str = typer.Option(..., "--engine", help=ENGINE_HELP),
    persistent: bool = typer.Option(False, "--persistent", help=PERSISTENT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable report (progress: JSON lines on stderr)"),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds the engine may take per board"),
    expand_cards: bool = typer.Option(False, "--expand-cards", help=EXPAND_HELP),
    no_check: bool = typer.Option(False, "--no-check", help=NO_CHECK_HELP),
    jobs: int | None = typer.Option(None, "--jobs", min=1, help=JOBS_HELP),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP),
    riftasp_engine: Engine = typer.Option("asp", "--riftasp-engine", help="riftasp's side: asp or reference"),
    max_engine_errors: int | None = typer.Option(None, "--max-engine-errors", min=1, help=MAX_ENGINE_ERRORS_HELP),
    output_format: CampaignFormat = typer.Option("text", "--format", help="text, or " + HTML_HELP),
    out: Path | None = typer.Option(None, "--out", help="Write riftasp's board where a timeline first disagrees here"),
) -> None:
    """Compare riftasp with another engine on board files and timelines.

    Exit 0 every supported board agrees, 1 a disagreement, 2 bad input or engine errors only, 3 riftasp failed."""
    from .board_io import board_to_dict
    from .campaign.evaluate import BoardsTask, Sides, compare_dicts
    from .check import CampaignChecker
    from .crosscheck import BoardCheck, CrosscheckReport, found_files, not_a_board
    from .progress import make_progress

    positive(timeout, "--timeout")
    if riftasp_engine not in ENGINES:
        fail(f"--riftasp-engine: unknown engine {riftasp_engine!r}: choose one of {', '.join(ENGINES)}")
    _json_or_format(as_json, output_format)
    found = found_files(boards)
    skipped = [(str(path), why) for path, named in found if not named and (why := not_a_board(path))]
    files = [path for path, named in found if named or str(path) not in {f for f, _ in skipped}]
    if not files:
        fail("no board files found in " + ", ".join(map(str, boards)))
    from .board_io import BoardError
    from .timeline.crosscheck import split_timelines, timeline_checks, timelines_json, write_moments

    try:
        files, timelines = split_timelines(files)  # timelines: files with `events` (docs/crosscheck.md)
    except BoardError as err:
        fail(str(err))
    loaded = [load(path) for path in files]  # bad input stops before any engine starts
    spec = _engine_spec(engine, persistent, timeout, expand_cards)
    sides = Sides(spec, riftasp_engine, None if no_check else CampaignChecker(), explain=True)
    # Boards travel to the workers as data, a few at a time (fixed groups: the same for any --jobs).
    tasks = [BoardsTask(sides, tuple((b.source, board_to_dict(b)) for b in loaded[i:i + CROSSCHECK_GROUP]))
             for i in range(0, len(loaded), CROSSCHECK_GROUP)]  # fmt: skip
    report = CrosscheckReport(spec.command, [], skipped)
    progress = make_progress("crosscheck", len(loaded) + len(timelines), as_json)
    for path, why in skipped:  # a warning line (with --json: a JSON-lines record)
        progress.event(f"{path}: skipped, {why}", event="skipped", file=path, reason=why)
    runner = _runner(jobs, scheduler)
    position = 0
    try:
        with progress:
            results = runner.map(compare_dicts, tasks)
            for outcomes in results:
                for outcome in outcomes:
                    board = loaded[position]
                    position += 1
                    check = BoardCheck(board.source, outcome.found, outcome.explains, outcome.applied)
                    if outcome.status == "unsupported":
                        check.unsupported = outcome.reason
                    elif outcome.status == "engine_error":
                        check.engine_error = outcome.reason
                        progress.event(f"{board.source}: engine error: {outcome.reason}", event="engine_error",
                                       file=board.source, error=outcome.reason)  # fmt: skip
                    elif outcome.status == "riftasp_error":
                        check.riftasp_error = outcome.reason
                    report.checks.append(check)
                    progress.update(file=board.source, agree=sum(c.agrees for c in report.checks),
                                    disagree=len(report.disagreeing), unsupported=report.unsupported_count or None,
                                    engine_errors=len(report.engine_errors) or None)  # fmt: skip
                    progress.advance()
                if max_engine_errors is not None and len(report.engine_errors) >= max_engine_errors:
                    progress.event(f"stopped: --max-engine-errors {max_engine_errors} reached", event="stopped")
                    break
            close = getattr(results, "close", None)
            if close is not None:
                close()
            if timelines and not (max_engine_errors is not None and len(report.engine_errors) >= max_engine_errors):
                report.checks += timeline_checks(runner, sides, timelines, lambda check: progress.advance())
    except _runner_errors() as err:
        fail(str(err))
    finally:
        runner.close()
    try:
        moments = write_moments(report.checks, out)
    except OSError as err:
        fail(f"{out}: --out: cannot write: {err.strerror or err}")
    if as_json:
        emit_json(report.to_json() | timelines_json(report.checks))
    elif output_format == "html":
        parameters = [("riftasp engine", riftasp_engine), ("rules checker", "off" if no_check else "on"),
                      ("board files", ", ".join(map(str, boards)))]  # fmt: skip
        typer.echo(report.html({b.source: b for b in loaded}, engine_for(riftasp_engine), parameters), nl=False)
    else:
        if moments:  # where each disagreeing timeline's board was written
            from .present import printable

            typer.echo(printable("\n".join(moments), keep_newlines=True))
        typer.echo(report.text(styled=True))
    if report.riftasp_errors:
        raise typer.Exit(3)
    raise typer.Exit(1 if report.disagreeing else 2 if report.engine_errors else 0)


CROSSCHECK_GROUP = 8  # board files per task


@app.command()
def fuzz(
    engine: str = typer.Option("reference", "--engine", help=ENGINE_HELP),
    persistent: bool = typer.Option(False, "--persistent", help=PERSISTENT_HELP),
    seed: int = typer.Option(0, "--seed", help="The same seed and count generate the same boards"),
    count: int = typer.Option(200, "--count", min=1, help="Boards to generate (shrinking not counted)"),
    time_limit: float | None = typer.Option(None, "--time-limit", help="Stop generating after this many seconds"),
    out: Path = typer.Option(Path("fuzz-out"), "--out", help="Folder for the findings, their boards and the run's progress"),
    max_found: int = typer.Option(20, "--max-found", min=1, help="Stop after this many distinct new findings"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable report (progress: JSON lines on stderr)"),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds the engine may take per board"),
    without: list[str] = typer.Option(
        [], "--without", help="Operations/features the boards leave out, comma-separated (see docs/crosscheck.md)"),
    profile_file: Path | None = typer.Option(
        None, "--profile", help="A profile file (TOML or JSON): without, max_objects, max_effects"),
    expand_cards: bool = typer.Option(False, "--expand-cards", help=EXPAND_HELP),
    no_check: bool = typer.Option(False, "--no-check", help=NO_CHECK_HELP),
    ruleset: str | None = typer.Option(None, "--ruleset", help=RULESET_HELP),
    jobs: int | None = typer.Option(None, "--jobs", min=1, help=JOBS_HELP),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP),
    riftasp_engine: Engine = typer.Option("asp", "--riftasp-engine", help="riftasp's side: asp, or reference "
                                       "(faster; the ASP resolver then confirms each finding)"),
    baseline: Path | None = typer.Option(None, "--baseline", help="A findings file of an earlier run "
                                         "(findings.json in its --out): its findings are reported as known"),
    resume: bool = typer.Option(False, "--resume", help="Go on with the run in --out after an interruption"),
    max_engine_errors: int | None = typer.Option(None, "--max-engine-errors", min=1, help=MAX_ENGINE_ERRORS_HELP),
    output_format: CampaignFormat = typer.Option("text", "--format", help="text, or " + HTML_HELP),
    timelines: bool = typer.Option(False, "--timelines", help="Random games (timelines), compared after every event"),
) -> None:
    """Random boards, riftasp against an engine; each distinct defect shrunk and written to --out.

    Exit 0 nothing found, 1 new findings, 2 bad input or engine errors only, 3 riftasp failed on a board."""
    from .profile import Profile, ProfileError, load_profile, parse_without
    from .rulesets import rulesets_with

    rules = _ruleset_option(ruleset)
    if rules.value("board_strategy") is None:
        fail(f"--ruleset: no board generators for {rules.name!r}; rulesets with them: "
             f"{', '.join(rulesets_with('board_strategy'))}")

    try:
        profile = load_profile(profile_file) if profile_file else Profile()
        profile = profile.merged(parse_without(without))
    except ProfileError as err:
        fail(str(err))
    try:
        from .fuzz import fuzz as run_fuzz, read_baseline, write_counterexamples
    except ImportError as err:
        fail(f"riftasp fuzz needs hypothesis ({err}): pip install 'riftasp[fuzz]'")
    from .check import CampaignChecker
    from .campaign.store import CampaignStore, StoreError
    from .progress import make_progress

    positive(timeout, "--timeout")
    positive(time_limit, "--time-limit")
    if riftasp_engine not in ENGINES:
        fail(f"--riftasp-engine: unknown engine {riftasp_engine!r}: choose one of {', '.join(ENGINES)}")
    _json_or_format(as_json, output_format)
    _check_out_folder(out)  # before the run, not after it
    try:
        known = read_baseline(baseline) if baseline is not None else frozenset()
    except ValueError as err:
        fail(str(err))
    spec = _engine_spec(engine, persistent, timeout, expand_cards)
    if timelines:
        from .timeline.fuzz import fuzz_command

        if output_format != "text":
            fail("--timelines: --format html is for boards; a game's findings are timeline files in --out")

        raise typer.Exit(fuzz_command(spec, rules.name, seed, count, time_limit, riftasp_engine, profile, max_found,
                                      known, out, as_json, resume, _runner(jobs, scheduler), _report_text))  # fmt: skip
    parameters = {"engine": engine, "persistent": persistent, "expand_cards": expand_cards, "seed": seed,
                  "count": count, "ruleset": rules.name, "profile": profile.to_json(), "check": not no_check,
                  "riftasp_engine": riftasp_engine}  # fmt: skip
    try:
        store = CampaignStore(out, parameters, resume=resume)
    except StoreError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{out}: file: cannot write the campaign's progress: {err.strerror or err}")
    runner = _runner(jobs, scheduler)
    try:
        with make_progress("fuzz", count, as_json) as progress:
            report = run_fuzz(spec, seed=seed, count=count, time_limit=time_limit, max_found=max_found,
                              checker=None if no_check else CampaignChecker(), riftasp=riftasp_engine,
                              profile=profile, progress=progress, ruleset=rules, runner=runner, baseline=known,
                              max_engine_errors=max_engine_errors, store=store)  # fmt: skip
    except _runner_errors() as err:
        fail(str(err))
    finally:
        runner.close()
        store.close()
    try:
        write_counterexamples(report, out)
    except OSError as err:
        fail(f"{out}: file: cannot write the counterexamples: {err.strerror or err}")
    if as_json:
        emit_json(report.to_json())
    elif output_format == "html":
        shown = [("ruleset", rules.name), ("riftasp engine", riftasp_engine),
                      ("rules checker", "off" if no_check else "on"), ("profile", json.dumps(profile.to_json())),
                      ("out", str(out))]  # fmt: skip
        typer.echo(report.html(engine_for(riftasp_engine), shown), nl=False)
    else:
        typer.echo(report.text(styled=True))
    if report.failure is not None:
        fail(f"{report.failure.message} (board written to {report.failure.path})", code=3)
    raise typer.Exit(1 if report.new_findings else 2 if report.engine_errors else 0)


def _report_text(report: Any) -> str:
    return report.text()


def _json_or_format(as_json: bool, output_format: str) -> None:
    if as_json and output_format != "text":
        fail(f"--json and --format {output_format}: choose one")


def _engine_spec(spec: str, persistent: bool, timeout: float, expand: bool):
    """The engine as workers build it; a command that cannot start is refused here, once."""
    import shlex
    import shutil

    from .campaign.evaluate import EngineSpec
    from .engines import EngineError, make_engine

    try:
        make_engine(spec, persistent=persistent, timeout=timeout, expand=expand).close()
    except EngineError as err:
        fail(str(err))
    if spec not in ENGINES:
        program = shlex.split(spec)[0]
        from .engines import _command

        found = _command(program)
        if shutil.which(found) is None:
            fail(f"engine {spec}: cannot start: no such command {program!r}")
    return EngineSpec(spec, persistent, timeout, expand)


def _runner(jobs: int | None, scheduler: str | None):
    from .campaign.pool import RunnerError, make_runner

    try:
        return make_runner(jobs, scheduler)
    except RunnerError as err:
        fail(str(err))


def _runner_errors() -> tuple[type[Exception], ...]:
    from .campaign.pool import RunnerError

    return (RunnerError,)


@app.command("compare")
def compare_rulesets(
    a: str = typer.Argument(..., metavar="A", help="A ruleset (see riftasp rulesets), or a variant's folder"),
    b: str = typer.Argument(..., metavar="B", help="Another ruleset of A's family, or a variant's folder"),
    boards: list[Path] | None = typer.Argument(None, metavar="[BOARDS]...", help="Board files or folders"),
    generate: int | None = typer.Option(None, "--generate", metavar="N", help="Compare N generated boards instead"),
    seed: int = typer.Option(0, "--seed", help="With --generate: the same seed and N generate the same boards"),
    search: bool = typer.Option(False, "--search", help="Search for the smallest boards on which A and B differ"),
    max_effects: int | None = typer.Option(None, "--max-effects", metavar="K", help="With --search: at most K effects (3)"),
    max_objects: int | None = typer.Option(None, "--max-objects", metavar="O", help="With --search: at most O objects (2)"),
    only_ops: str | None = typer.Option(None, "--only-ops", metavar="LIST", help="With --search: only these operations, comma-separated"),
    out: Path | None = typer.Option(None, "--out", help="Write each disagreeing board and findings.json to this folder"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable: one object per board, and a summary"),
    output_format: Format = typer.Option("text", "--format", help="text, md (a markdown report for rules designers), or " + HTML_HELP),
    engine: Engine = typer.Option("asp", help="asp or reference"),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", help="With --generate: stop generating after this many seconds"),
    jobs: int | None = typer.Option(None, "--jobs", min=1, help=JOBS_HELP + " (with --generate)"),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP + " (with --generate)"),
) -> None:
    """Two rulesets of one family on the same boards; exit 0 when they agree on every board, 1 when not."""
    import functools

    from .research.compare import run

    if out is not None:
        _check_out_folder(out)
    try:
        code = run(a, b, boards or [], generate=generate, seed=seed, search=search, max_effects=max_effects,
                   max_objects=max_objects, only_ops=only_ops, out=out, as_json=as_json, format=output_format,
                   engine=engine, time_limit=time_limit, runner=functools.partial(_runner, jobs, scheduler))  # fmt: skip
    except _runner_errors() as err:
        fail(str(err))
    raise typer.Exit(code)


def _check_out_folder(out: Path) -> None:
    """--out must be a folder, or a place one can be made in."""
    if out.exists() and not out.is_dir():
        fail(f"{out}: file: exists and is not a folder (--out names the folder for counterexamples)")
    existing = next((p for p in (out, *out.parents) if p.exists()), Path("."))
    if not existing.is_dir():
        fail(f"{out}: file: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        fail(f"{out}: file: cannot write in {existing}")


@app.command()
def properties(
    rulesets: str = typer.Argument(..., metavar="RULESET", help="A ruleset, or several comma-separated"),
    generate: int | None = typer.Option(None, "--generate", metavar="N", help="Check N generated boards of the ruleset"),
    seed: int = typer.Option(0, "--seed", metavar="S", help="The seed of the generated boards"),
    bound: int | None = typer.Option(None, "--bound", metavar="K", help="Check every board of a small space up to K effects"),
    names: str | None = typer.Option(None, "--property", metavar="P,...", help="The properties to check (default: all)"),
    out: Path = typer.Option(Path("properties-out"), "--out", help="Folder for the minimal failing boards"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable report (progress: JSON lines on stderr)"),
    fmt: Format = typer.Option("text", "--format", help="text, md (each failure's board and outcomes as tables), or " + HTML_HELP),
    engine: Literal["auto", "asp", "reference"] = typer.Option("auto", "--engine", help="auto (reference, failures confirmed on asp), asp or reference"),
    jobs: int | None = typer.Option(None, "--jobs", min=1, help=JOBS_HELP),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP),
) -> None:
    """Properties every ruleset should have, on generated boards or up to a bound; each failure
    shrunk to a minimal board in --out. Exit 0 when all hold, 1 when one fails."""
    import functools

    from .research.properties import BadInput, command

    _check_out_folder(out)
    try:
        text, code = command(rulesets, generate, seed, bound, names, out, as_json, fmt, engine,
                             runner=functools.partial(_runner, jobs, scheduler))  # fmt: skip
    except BadInput as err:
        fail(str(err))
    except _runner_errors() as err:
        fail(str(err))
    typer.echo(text)
    raise typer.Exit(code)


@app.command()
def cards(
    as_json: bool = typer.Option(False, "--json", help="Machine-readable: every card as the board format writes it"),
    ruleset: str | None = typer.Option(None, "--ruleset", help=RULESET_HELP),
) -> None:
    """The card library: each card's printed values and text (what a board's "card" stands for)."""
    from .board_io.writing import library_json
    from .cards import library, library_text

    rules = _ruleset_option(ruleset)
    if not library(rules):
        fail(f"no card library for ruleset {rules.name!r}")
    if as_json:
        emit_json(library_json(rules))
    else:
        typer.echo(library_text(rules))


def _choice_points(as_json: bool) -> None:
    """`riftasp rulesets --readings`: every choice point of the rulesets that list their own, with
    the value each of their variants gives a switch (riftasp/choice_points_view.py)."""
    import shutil
    import tomllib

    from .choice_points_view import groups, readings_json, readings_text
    from .rulesets import known, ruleset

    try:
        found = groups([ruleset(name) for name in known()])
        data = readings_json(found)
    except (KeyError, ValueError, OSError, tomllib.TOMLDecodeError) as err:  # a file that does not hold together
        fail(f"rulesets --readings: {err}")
    if as_json:
        emit_json(data)
    else:
        typer.echo(readings_text(found, shutil.get_terminal_size().columns))


@app.command()
def rulesets(
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
    readings: bool = typer.Option(False, "--readings", help="The choice points of each ruleset's semantics doc "
                                  "instead: sentence, reading in force, alternatives and switch"),
) -> None:
    """The rulesets riftasp knows: name, scheduling procedure, description and encoding files."""
    from .resources import encodings_folder, manifest, missing_encodings, present_encoding_files
    from .rulesets import known as names  # (an installed ruleset's folder is known once its plugin is)

    if readings:
        _choice_points(as_json)
        return

    def shown(path: Path) -> str:
        # riftasp's own files from its encodings folder; another folder's in full.
        return str(path.relative_to(encodings_folder())) if path.is_relative_to(encodings_folder()) else str(path)

    def described(name: str) -> dict:
        entry = {"name": name, "procedure": manifest(name).get("procedure", ""),
                 "description": manifest(name).get("description", ""), "extends": manifest(name).get("extends"),
                 "files": [shown(p) for p in present_encoding_files(name)]}  # fmt: skip
        # A ruleset whose encoding is not written yet: the ASP engine refuses its boards.
        missing = missing_encodings(name)
        return entry | {"missing": missing} if missing else entry

    try:
        found = [described(name) for name in names()]
    except KeyError as err:  # a ruleset folder that does not hold together
        fail(f"rulesets: a manifest has no {err}")
    except (ValueError, FileNotFoundError) as err:
        fail(f"rulesets: {err}")
    if as_json:
        emit_json(found)
        return
    width = _output_width()
    for r in found:
        typer.echo(_wrapped(f"{r['name']:<12} {r['procedure']:<10} ", r["description"], width, indent=24))
        typer.echo(_wrapped(f"{'':<12} files: ", ", ".join(r["files"]), width))
        if r.get("missing"):
            typer.echo(_wrapped(f"{'':<12} missing (the asp engine cannot resolve its boards yet): ",
                                ", ".join(r["missing"]), width))


# Lists wrapped for people: to the terminal's width, or to this many columns when stdout is not a
# terminal (a pipe, a file, a test: the same output wherever it runs).
PLAIN_WIDTH = 100


def _output_width() -> int:
    import shutil

    return shutil.get_terminal_size().columns if sys.stdout.isatty() else PLAIN_WIDTH


def _wrapped(lead: str, text: str, width: int, indent: int | None = None) -> str:
    """`lead` and `text` wrapped to `width`, continued under its start (or at `indent`), never
    breaking a word (a file name)."""
    import textwrap

    indent = len(lead) if indent is None else indent
    return textwrap.fill(text, max(width, indent + 20), initial_indent=lead, subsequent_indent=" " * indent,
                         break_long_words=False, break_on_hyphens=False) or lead.rstrip()


def _ruleset_option(name: str | None) -> Any:
    """The ruleset `--ruleset` names (none: the default one), built once here and passed on."""
    from .rulesets import UnsupportedRuleset, default_ruleset, ruleset

    try:
        return ruleset(name or default_ruleset())
    except UnsupportedRuleset as err:
        fail(f"--ruleset: {err}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
