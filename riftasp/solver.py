"""Runs the encoding on a board's facts, step by step (multi-shot), following the ground calls
its ruleset's procedure lists (encodings/procedures/<name>/procedure.toml).

Each step of the calculation is grounded on top of the previous ones: the program is
stratified, so every step grounds to facts and clasp only reads the final model.
Python decides nothing about the rules here: it asks the encoding whether every object has
finished and, at the end of a round, which applications it withdraws; it then runs another
round with those excluded, carrying the paradoxes found so far (docs/semantics.md §8).
"""

from __future__ import annotations

import os

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import clingo

from .limits import Deadline, TimeLimitExceeded  # noqa: F401 - TimeLimitExceeded: raised by run
from .resources import Logger
from .terms import quote

if TYPE_CHECKING:
    from .rulesets import Ruleset
    from .step_names import Program


# An object of the board (riftasp/facts.py writes one `object(Id).` per line).
_OBJECT_FACT = re.compile(r"^object\(", re.MULTILINE)


class EncodingError(RuntimeError):
    """The encoding or the facts did not ground (a bug in riftasp, not in the board)."""


@dataclass(frozen=True)
class RoundWithdrawal:
    """One application a round withdrew, as the encoding named it."""

    round: int
    instance: clingo.Symbol
    object: clingo.Symbol
    failed: tuple[str, ...]
    because: tuple[tuple[clingo.Symbol, clingo.Symbol], ...]


@dataclass
class SolveStats:
    steps: int = 0
    rounds: int = 0
    atoms: int = 0
    rules: int = 0
    ground_seconds: float = 0.0
    solve_seconds: float = 0.0
    withdrawn: list[RoundWithdrawal] = field(default_factory=list)


# A manifest's characteristic family -> the predicate the encoding reads (encodings/core/state.lp).
FAMILY_FACTS = {
    "single_valued": "single_valued",
    "numeric": "numeric",
    "set_valued": "set_valued",
    "copiable": "copiable",
    "arithmetic": "arithmetic_characteristic",
}


def ruleset_facts(ruleset: Ruleset) -> str:
    """The ruleset's data (manifest.toml) as the facts the encoding reads: the keyword rules,
    the layer table (stage/4, op_stage/2) and the characteristic families. (Its readings are the
    board's: riftasp/facts.py writes those in force.)"""
    rules = ruleset.keywords
    lines = [f"summing_keyword({quote(k)})." for k in sorted(rules.summing)]
    lines += [f"bonus_keyword({quote(k)},{status})." for k, status in rules.bonus.items()]
    for stage in ruleset.layers:
        lines.append(f"stage({stage.name},{stage.rank},{stage.layer},{stage.sublayer or 'none'}).")
        lines += [f"op_stage({op},{stage.name})." for op in stage.operations]
    for family, names in ruleset.families.items():
        lines += [f"{FAMILY_FACTS[family]}({name})." for name in names]
    return "\n".join(lines) + "\n"


def run(
    facts: str, ruleset: Ruleset, max_steps: int = 100_000, strict: bool = False, time_limit: float | None = None,
) -> tuple[list[clingo.Symbol], SolveStats]:
    """Solve rounds until none withdraws anything; return the last model's symbols.

    `strict` checks after every ground call that grounding decided every atom (the program
    is stratified); tests use it, it costs a pass over all atoms per call. `time_limit` (seconds) raises
    TimeLimitExceeded at the first ground call that would start after it.
    """
    stats = SolveStats()
    rounds = Rounds(stats, [ruleset_facts(ruleset)])
    deadline = Deadline(time_limit)
    while True:
        stats.rounds += 1
        symbols = solve_round(facts + "".join(rounds.carried), ruleset, stats, deadline, max_steps, strict)
        answer = rounds.after(symbols)
        if answer is not None:
            return answer, stats


@dataclass
class _Probe:
    """A round calculated without applications to see whether they held each other up (§8)."""

    suspects: list  # every suspect of the round, each with what it supports
    unfounded: list[tuple[clingo.Symbol, ...]]  # (instance, object) they support, less what has support of its own
    carried: list[str]  # the facts carried before the probe
    round: int  # the round in which the suspects were found


class Rounds:
    """What one board carries from round to round (docs/semantics.md §8): the withdrawn
    applications (as `excluded` facts), the paradoxes found, the records that let a withdrawal be
    taken back, the trial such a restoration is, and the probes of applications that may hold
    themselves up."""

    def __init__(self, stats: SolveStats, carried: list[str]) -> None:
        self.stats = stats
        self.carried = carried
        # The round to answer with (and the withdrawals standing then) unless the next round
        # stands: the round before a restoration (it stands if consistent at once), or the round
        # whose suspects are being probed (it stands if one of them held itself up).
        self.fallback: tuple[list[clingo.Symbol], list[RoundWithdrawal]] | None = None
        self.probe: _Probe | None = None

    def after(self, symbols: list[clingo.Symbol]) -> list[clingo.Symbol] | None:
        """The round's symbols when the calculation ends with it (or the symbols of the round it
        falls back to), else None after taking in what the next round carries."""
        names = {s.name for s in symbols if s.name in ("withdraw", "restore", "trial_fails")}
        fallback, self.fallback = self.fallback, None
        probe, self.probe = self.probe, None
        if probe is not None:
            # A probe is not a round of the calculation.
            self.carried = probe.carried
            self.stats.rounds -= 1
            applying = {tuple(s.arguments) for s in symbols if s.name == "would_apply"}
            if any(a in applying for a in probe.unfounded):
                # What would apply without the others has support of its own: out of the set.
                rest = [a for a in probe.unfounded if a not in applying]
                assert fallback is not None  # start_probe set it with the probe
                return self.start_probe(replace(probe, unfounded=rest), fallback)
            # They held each other up: withdrawn (each with the set of its suspect); the next
            # round is calculated without them.
            left = set(probe.unfounded)
            sets: dict[tuple, list[tuple]] = {}
            for app, support in probe.suspects:
                if app in left:
                    kept = [a for a in support if a in left]
                    for a in kept:
                        sets[a] = list(dict.fromkeys(sets.get(a, []) + kept))
            for a in probe.unfounded:
                if a in sets:
                    self.stats.withdrawn.append(
                        RoundWithdrawal(probe.round, a[0], a[1], ("self_support",), tuple(sets[a])))
            self.carried = self.carried + [f"excluded({i},{o}).\n" for i, o in probe.unfounded if (i, o) in sets]
            if all(a in sets for a in probe.unfounded):
                # The next round would be calculated from the probe's own facts: its model is
                # that round's (one calculation of the whole board fewer).
                self.stats.rounds += 1
                return self.after(symbols)
            return None
        elif fallback is not None and "trial_fails" in names:
            symbols, self.stats.withdrawn = fallback
            return symbols
        if "withdraw" not in names and "restore" not in names:
            supports: dict[tuple, list[tuple]] = {}
            for s in symbols:
                if s.name == "held_up_support":
                    supports.setdefault(tuple(s.arguments[:2]), []).append(tuple(s.arguments[2:]))
            held = sorted((s.arguments[2], tuple(s.arguments[:2])) for s in symbols if s.name == "held_up")
            suspects = [(app, supports.get(app, [app])) for _, app in held]
            return self.probe_next((symbols, list(self.stats.withdrawn)), suspects)
        if "restore" in names:
            self.fallback = (symbols, list(self.stats.withdrawn))
        self.carried = self.next_round(symbols)
        return None

    def probe_next(
        self,
        fallback: tuple[list[clingo.Symbol], list[RoundWithdrawal]],
        suspects: list[tuple[tuple[clingo.Symbol, ...], list[tuple[clingo.Symbol, ...]]]],  # (instance, object)s
    ) -> list[clingo.Symbol] | None:
        """Calculate the board again without every suspect and what each supports, together (one
        calculation a pass however many suspects; ones that do not touch each other come out as
        they would one by one), or end with `fallback`."""
        if not suspects:
            return self.exchange(fallback)
        unfounded = list(dict.fromkeys(a for _, support in suspects for a in support))  # (in order, once)
        return self.start_probe(_Probe(suspects, unfounded, self.carried, self.stats.rounds), fallback)

    def exchange(self, ending: tuple[list[clingo.Symbol], list[RoundWithdrawal]]) -> list[clingo.Symbol] | None:
        """The round `ending` ends the calculation unless the encoding exchanges a withdrawal in it
        (exchange_instead/4, §8 "the other side of a ring"): the withdrawn application is
        restored and the members that waited for it are withdrawn instead — a trial, as a
        restoration is."""
        symbols, withdrawn = ending
        self.stats.withdrawn = withdrawn
        instead: dict[tuple, list[tuple]] = {}
        for s in symbols:
            if s.name == "exchange_instead":
                instead.setdefault(tuple(s.arguments[:2]), []).append(tuple(s.arguments[2:]))
        if not instead:
            return symbols
        self.fallback = (symbols, list(withdrawn))
        gone = {f"excluded({i},{o}).\n" for i, o in instead}
        self.carried = [f for f in self.carried if f not in gone] + [
            f"restored({i},{o}).\n" for i, o in instead
        ] + [f"excluded({i},{o}).\n" for members in instead.values() for i, o in members]
        self.stats.withdrawn = [w for w in withdrawn if (w.instance, w.object) not in instead] + [
            RoundWithdrawal(self.stats.rounds, g[0], g[1], ("exchanged",), (f,))
            for f, members in instead.items() for g in members
        ]
        return None

    def start_probe(
        self, probe: _Probe, fallback: tuple[list[clingo.Symbol], list[RoundWithdrawal]]
    ) -> list[clingo.Symbol] | None:
        """The next round: the board without the probe's set."""
        if not any(app in probe.unfounded for app, _ in probe.suspects):
            self.carried = probe.carried
            return self.exchange(fallback)  # every suspect applies without the others
        self.probe = probe
        self.fallback = fallback
        self.carried = probe.carried + [f"excluded({i},{o}).\n" for i, o in probe.unfounded]
        return None

    def next_round(self, symbols: list[clingo.Symbol]) -> list[str]:
        """The facts carried into the next round: those carried so far, less the withdrawals the
        round restored, plus its withdrawals, the records that let a withdrawal be restored later
        and the paradoxes found (with the round number). `stats.withdrawn` follows: the
        withdrawals standing after this round."""
        stats = self.stats
        failed: dict[tuple, list[str]] = {}
        because: dict[tuple, list[tuple]] = {}
        facts: list[str] = []
        restored: set[tuple] = set()
        for s in symbols:
            args = s.arguments
            if s.name == "withdraw_failed":
                failed.setdefault((args[0], args[1]), []).append(str(args[2]))
            elif s.name == "withdraw_because":
                because.setdefault((args[0], args[1]), []).append((args[2], args[3]))
            elif s.name == "paradox_part":
                rep, inst, obj, kind = args
                facts.append(f"paradox_record(({stats.rounds},{rep}),{inst},{obj},{kind}).\n")
            elif s.name == "withdrawn_for":
                facts.append(f"withdrawal_record({','.join(map(str, args))}).\n")
            elif s.name == "waits_for":
                facts.append(f"exchange_record({','.join(map(str, args))},{stats.rounds}).\n")
            elif s.name == "restore":
                restored.add((args[0], args[1]))
                facts.append(f"restored({args[0]},{args[1]}).\n")
        carried = self.carried
        if restored:
            gone = {f"excluded({i},{o}).\n" for i, o in restored}
            carried = [f for f in carried if f not in gone]
            stats.withdrawn = [w for w in stats.withdrawn if (w.instance, w.object) not in restored]
        for s in symbols:
            if s.name == "withdraw":
                key = (s.arguments[0], s.arguments[1])
                facts.append(f"excluded({key[0]},{key[1]}).\n")
                stats.withdrawn.append(RoundWithdrawal(
                    stats.rounds, key[0], key[1], tuple(sorted(failed.get(key, []))),
                    tuple(sorted(because.get(key, []))),
                ))
        return carried + facts


def solve_round(
    facts: str, ruleset: Ruleset, stats: SolveStats, deadline: Deadline, max_steps: int = 100_000, strict: bool = False
) -> list[clingo.Symbol]:
    """One round: ground the procedure's calls until every object finished, then the final part;
    the model's shown symbols."""
    messages: list[str] = []
    logger: Logger = lambda _code, msg: messages.append(msg)  # noqa: E731
    ctl = clingo.Control(["--models=2"], logger=logger, message_limit=20)
    try:
        ruleset.encoding_files  # noqa: B018 (a ruleset whose files are missing: one line, before its plan is read)
        plan = ruleset.plan
        # A procedure of many steps names its step-local predicates per step on a big board
        # (`step_names`, `step_names_from`; riftasp/step_names.py): the same answers, without
        # each step paying for the atoms of all the steps before it.
        # (Imported here: a procedure without step names never needs the renaming or the disk
        # cache, and `riftasp resolve` of one Riftbound board starts ~8 ms sooner without them.)
        named = False
        if plan.get("step_names", False):
            from . import step_names

            named = step_names.wanted(plan, len(_OBJECT_FACT.findall(facts)))
        program = _Named(ctl, _program(ruleset), deadline, strict) if named else _Plain(ctl, ruleset, logger, deadline, strict)
        ctl.add("base", [], facts)
        deadline.check()
        ctl.ground([("base", [])])
        # The answers that never change, once (the procedure's `start`).
        for parts in plan["start"]:
            program.ground(parts, {})
        # A call the procedure grounds only in a step where an atom says it has work
        # (`asked_only_if`: Riftbound's dependency questions).
        guard = plan.get("asked_only_if", {}).get("atom")
        guarded = plan.get("asked_only_if", {}).get("call") if ASK_ONLY_IF else None
        # A long calculation goes on in a fresh Control holding only what later calls can read
        # (riftasp/carry.py): each call then pays for the atoms of the steps near it, not of all.
        carry_after = int(plan.get("carry_after_atoms", 0)) if CARRY and not named else 0
        carried = last_step = held = 0
        step = 0
        while True:
            # (Not before the atoms made since are many times what a copy carries, and what a
            # step makes: a copy costs in proportion to what it carries, and pays back only over
            # many steps that would each have read every atom before them.)
            made, held = len(ctl.symbolic_atoms) - held, len(ctl.symbolic_atoms)
            last_step = made if step >= 1 else 0
            if carry_after and step >= 1 and (CARRY_ALWAYS or held - carried >= max(carry_after, 10 * carried, 64 * last_step)):
                stats.atoms += held - carried
                ctl, program, carried = _carried(ctl, ruleset, plan, step + 1, logger, deadline, strict)
                held = carried
            step += 1
            if step > max_steps:
                raise EncodingError(f"the calculation did not finish within {max_steps} steps")
            # One ground call per inner list, each negating only what an earlier call defined,
            # so each is stratified and grounds to facts. The step after every object finished
            # settles their final check; a procedure whose first call holds it
            # (`final_check_first_call`) leaves its other calls out: they would find no object
            # calculating.
            settling = step >= 2 and _all_finished(ctl, step - 1, program.name_of("unfinished", [step - 1]))
            calls = plan["step"][:1] if settling and plan.get("final_check_first_call") else plan["step"]
            for number, parts in enumerate(calls, 1):
                if number == guarded and _absent(ctl, program.name_of(guard, [step]), step):
                    continue  # a call that would derive nothing in this step
                program.ground(parts, {"p": step})
            for atom in ctl.symbolic_atoms.by_signature(program.name_of("stuck", [0, step]), 2):
                raise EncodingError(f"group {atom.symbol.arguments[0]} has candidates but picked "
                                    f"nothing in step {step}")
            if settling:
                break
        for parts in plan["final"]:
            program.ground(parts, {"n": step}, strict=False)
    except EncodingError:
        raise
    except RuntimeError as err:
        raise EncodingError("; ".join(messages) or str(err)) from None
    models: list[list[clingo.Symbol]] = []
    # (Model.symbols builds a list; clingo's annotation says Sequence.)
    ctl.solve(on_model=lambda m: models.append(cast(list[clingo.Symbol], m.symbols(shown=True))))
    if len(models) != 1:
        raise EncodingError(f"expected exactly one model, found {len(models)}")
    # A stratified program grounds to facts: the solver then has no rule bodies to decide. One
    # that has some read a predicate negatively in its own recursion, and the loop above may
    # have stopped on an undecided `unfinished/1` (a silently wrong answer, not a slow one).
    lp = ctl.statistics["problem"]["lp"]
    if lp["bodies"] > 0:
        raise EncodingError(f"the {ruleset} encoding did not ground to facts ({int(lp['bodies'])} "
                            f"rule bodies left to the solver): a rule is not stratified")
    stats.steps += step
    stats.atoms += int(lp["atoms"]) - carried
    stats.rules += int(lp["rules"]) - carried
    times = ctl.statistics["summary"]["times"]
    stats.solve_seconds += float(times["solve"])
    stats.ground_seconds += float(times["total"]) - float(times["solve"])
    return models[0]


def _carried(
    ctl: clingo.Control, ruleset: Ruleset, plan: dict[str, Any], next_step: int, logger: Logger,
    deadline: Deadline, strict: bool,
) -> tuple[clingo.Control, _Plain, int]:
    """A fresh Control with the atoms of `ctl` that a call of step `next_step` or later can read
    (riftasp/carry.py), as facts; the procedure's program loaded, its base part not grounded
    again (its atoms are among those carried, as in `ctl` it was grounded once)."""
    atoms = _carry_plan(ruleset, plan).facts(ctl, next_step)
    fresh = clingo.Control(["--models=2"], logger=logger, message_limit=20)
    program = _Plain(fresh, ruleset, logger, deadline, strict)
    # (Through the backend: the grounder sees them as it sees facts, without printing and parsing.)
    with fresh.backend() as backend:
        for symbol in atoms:
            backend.add_rule([backend.add_atom(symbol)])
    return fresh, program, len(atoms)


_carry_plans: dict[Ruleset, Any] = {}


def _carry_plan(ruleset: Ruleset, plan: dict[str, Any]) -> Any:
    from . import carry

    found = _carry_plans.get(ruleset)
    if found is None:
        python = {"unfinished", "stuck"} | ({plan["asked_only_if"]["atom"]} if "asked_only_if" in plan else set())
        found = _carry_plans[ruleset] = carry.plan_of(ruleset.encoding_statements(), plan, python)
    return found


# RIFTASP_CARRY=0 keeps one Control for the whole calculation; =always carries the calculation
# into a fresh Control after every step (tests compare the answers).
CARRY = os.environ.get("RIFTASP_CARRY") != "0"
CARRY_ALWAYS = os.environ.get("RIFTASP_CARRY") == "always"

# RIFTASP_ASK_ALWAYS=1 grounds a procedure's `asked_only_if` call at every step (tests hold the
# answers to be the same).
ASK_ONLY_IF = os.environ.get("RIFTASP_ASK_ALWAYS") != "1"

# What Python itself writes into a program or reads from it by name: never renamed per step.
PYTHON_FACTS: set[tuple[str, int]] = {
    ("excluded", 2), ("paradox_record", 4), ("withdrawal_record", 4), ("exchange_record", 5), ("restored", 2), ("summing_keyword", 1), ("bonus_keyword", 2), ("stage", 4),
    ("op_stage", 2), ("reading", 2), *((name, 1) for name in FAMILY_FACTS.values()),
}


def _program(ruleset: Ruleset) -> Program:
    """The ruleset's encoding, with its step-local predicates named per step
    (riftasp/step_names.py): made once per process and version of its files, and kept on disk
    (riftasp/disk_cache.py) under everything it is made from."""
    from . import disk_cache, step_names

    paths = ruleset.encoding_files
    files = tuple((str(p), p.stat().st_mtime_ns) for p in paths)
    known = _programs.get(ruleset)
    if known is None or known[0] != files:
        kept = PYTHON_FACTS | {_signature(s) for s in ruleset.inputs}
        plan = ruleset.plan
        numeric = step_names.numeric_parameters(plan)
        # (`step_names = "recursive"`: only what a call defines recursively.)
        recursive_in = step_names.calls(plan) if plan.get("step_names") == "recursive" else None

        def make() -> Program:
            return step_names.build(ruleset.encoding_statements(), numeric, kept, recursive_in)

        entry = disk_cache.key(
            clingo.__version__, Path(step_names.__file__).read_bytes(), str(step_names.COPIES), repr(recursive_in),
            repr(sorted(kept)), repr(sorted((k, sorted(v)) for k, v in numeric.items())),
            *(part for p in paths for part in (str(p), p.read_bytes())),
        )
        built = disk_cache.cached("program", entry, make, step_names.Program.to_json,
                                  step_names.Program.from_json)
        known = _programs[ruleset] = (files, built)
    return known[1]


_programs: dict[Ruleset, tuple[tuple, Program]] = {}


def _signature(text: str) -> tuple[str, int]:
    name, _, arity = text.partition("/")
    return name, int(arity)


class _Plain:
    """The encoding's files as written, their parts grounded as the procedure names them."""

    def __init__(self, ctl: clingo.Control, ruleset: Ruleset, logger: Logger, deadline: Deadline, strict: bool) -> None:
        self.ctl, self.deadline, self.strict = ctl, deadline, strict
        _load_encoding(ctl, ruleset, logger)

    def ground(self, parts: list, values: dict[str, int], strict: bool | None = None) -> None:
        _ground(self.ctl, parts, values, self.deadline, self.strict if strict is None else strict)

    def name_of(self, name: str, arguments: list[int]) -> str:
        return name


class _Named:
    """The encoding with its step-local predicates named per step (riftasp/step_names.py): a
    part's copy for a step is added when a step first needs it, then grounded."""

    def __init__(self, ctl: clingo.Control, program: Program, deadline: Deadline, strict: bool) -> None:
        self.ctl, self.program, self.deadline, self.strict = ctl, program, deadline, strict
        self.added: set[tuple[str, tuple[int, ...]]] = set()
        ctl.add("base", [], program.base)
        # (A part's statements with no renamed atom: once, under its own name.)
        for name, (parameters, text) in program.plain.items():
            ctl.add(name, parameters, text)

    def ground(self, parts: list, values: dict[str, int], strict: bool | None = None) -> None:
        """As `_ground`: one ground call of the procedure's plan."""
        self.deadline.check()
        grounded = []
        for name, args in parts:
            actual = [values.get(a, a) if isinstance(a, str) else a for a in args]
            if name in self.program.plain:
                grounded.append((name, [_term(a) for a in actual]))
            if name not in self.program.parts:
                continue  # no renamed atom in this part (or no file has it): nothing to copy
            key = self.program.copy_key(name, actual)
            copy = "__".join([name, *map(str, key)])
            if (name, key) not in self.added:
                self.ctl.add(copy, self.program.parts[name][0], self.program.part_text(name, key))
                self.added.add((name, key))
            grounded.append((copy, [_term(a) for a in actual]))
        self.ctl.ground(grounded)
        if self.strict if strict is None else strict:
            _check_decided(self.ctl, f"{parts[0][0]}{tuple(values.values()) or ''}")

    def name_of(self, name: str, arguments: list[int]) -> str:
        return self.program.name_of(name, arguments)


def _term(arg: int | str) -> clingo.Symbol:
    return clingo.Number(arg) if isinstance(arg, int) else clingo.Function(arg)


_loaded: set[Ruleset] = set()  # the rulesets whose files a Control of this process has loaded


def _load_encoding(ctl: clingo.Control, ruleset: Ruleset, logger: Logger) -> None:
    """The ruleset's encoding files into `ctl`. The first Control of a ruleset loads them; the
    next ones add the statements parsed once (riftasp.resources.encoding_statements: ~4.5 ms a
    Control instead of ~9). Not the first: parsing into clingo.ast costs more than loading, and
    a process that resolves one board (`riftasp resolve`, start-up time) makes one Control."""
    if ruleset not in _loaded:
        for path in ruleset.encoding_files:
            ctl.load(str(path))
        _loaded.add(ruleset)
        return
    from clingo import ast  # here: a process that makes one Control never imports it

    with ast.ProgramBuilder(ctl) as builder:
        for statement in ruleset.encoding_statements(logger):
            builder.add(statement)


def _ground(ctl: clingo.Control, parts: list, values: dict[str, int], deadline: Deadline, strict: bool) -> None:
    """One ground call of the procedure's plan: [name, [argument, ...]] per part, where "p" and
    "n" stand for the step numbers in `values` and other strings for constants."""
    deadline.check()
    ctl.ground([(name, [_term(values.get(a, a) if isinstance(a, str) else a) for a in args]) for name, args in parts])
    if strict:
        _check_decided(ctl, f"{parts[0][0]}{tuple(values.values()) or ''}")


def _absent(ctl: clingo.Control, name: str, step: int) -> bool:
    """Whether the atom name(step) is not in the program (a fact or absent: the program is
    stratified)."""
    return ctl.symbolic_atoms[clingo.Function(name, [clingo.Number(step)])] is None


def _all_finished(ctl: clingo.Control, step: int, name: str = "unfinished") -> bool:
    # In a stratified program unfinished(P) is either a fact or absent; anything else is an
    # encoding error, not the end of the calculation.
    # (`name`: unfinished/1 as the program names it at that step.)
    atom = ctl.symbolic_atoms[clingo.Function(name, [clingo.Number(step)])]
    if atom is not None and not atom.is_fact:
        raise EncodingError(f"unfinished({step}) was left undecided by grounding: a rule is not stratified")
    return atom is None


def _check_decided(ctl: clingo.Control, where: str) -> None:
    undecided = [str(a.symbol) for a in ctl.symbolic_atoms if not a.is_fact]
    if undecided:
        raise EncodingError(f"grounding left {len(undecided)} atoms undecided after {where}, "
                            f"e.g. {', '.join(undecided[:3])}")
