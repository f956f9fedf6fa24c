"""Runs the encoding on a board's facts, one ground call per step (multi-shot).

Each step of the calculation is grounded on top of the previous ones: the program is
stratified, so every step grounds to facts and clasp only reads the final model.
Python decides nothing about the rules here: it asks the encoding whether every object has
finished and, at the end, which applications it withdrew.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import clingo

from .limits import Deadline, TimeLimitExceeded  # noqa: F401 - TimeLimitExceeded: raised by run
from .resources import encoding_files


class EncodingError(RuntimeError):
    """The encoding or the facts did not ground (a bug in riftasp, not in the board)."""


@dataclass
class SolveStats:
    steps: int = 0
    rounds: int = 0
    atoms: int = 0
    rules: int = 0
    ground_seconds: float = 0.0
    solve_seconds: float = 0.0
    withdrawn: list[tuple[clingo.Symbol, clingo.Symbol]] = field(default_factory=list)


def run(
    facts: str, ruleset: str, max_steps: int = 100_000, strict: bool = False, time_limit: float | None = None
) -> tuple[list[clingo.Symbol], SolveStats]:
    """Solve rounds until no application is withdrawn; return the last model's symbols.

    `strict` checks after every ground call that grounding decided every atom (the program
    is stratified); tests use it, it costs a pass over all atoms per step. `time_limit`
    (seconds) raises TimeLimitExceeded at the first ground call that would start after it.
    """
    stats = SolveStats()
    excluded: list[str] = []
    deadline = Deadline(time_limit)
    while True:
        stats.rounds += 1
        symbols = _solve_once(facts + "".join(excluded), ruleset, max_steps, stats, strict, deadline)
        withdrawn = [s for s in symbols if s.name == "withdraw"]
        if not withdrawn:
            return symbols, stats
        for w in withdrawn:
            excluded.append(f"excluded({w.arguments[0]},{w.arguments[1]}).\n")
            stats.withdrawn.append((w.arguments[0], w.arguments[1]))


def _solve_once(
    facts: str, ruleset: str, max_steps: int, stats: SolveStats, strict: bool, deadline: Deadline
) -> list[clingo.Symbol]:
    messages: list[str] = []
    ctl = clingo.Control(
        ["--models=2"], logger=lambda _code, msg: messages.append(msg), message_limit=20
    )
    try:
        for path in encoding_files(ruleset):
            ctl.load(str(path))
        ctl.add("base", [], facts)
        deadline.check()
        ctl.ground([("base", [])])
        step = 0
        while True:
            step += 1
            if step > max_steps:
                raise EncodingError(f"the calculation did not finish within {max_steps} steps")
            # Choosing and applying are separate ground calls: each negates only predicates
            # an earlier call defined, so each is stratified and grounds to facts.
            for part in ("choose", "apply"):
                deadline.check()
                ctl.ground([(part, [clingo.Number(step)])])
                if strict:
                    _check_decided(ctl, f"{part}({step})")
            # The step after every object finished settles their conditions (settle.lp).
            if step >= 2 and _all_finished(ctl, step - 1):
                break
        ctl.ground([("final", [clingo.Number(step)])])
    except EncodingError:
        raise
    except RuntimeError as err:
        raise EncodingError("; ".join(messages) or str(err)) from None
    models: list[list[clingo.Symbol]] = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    if len(models) != 1:
        raise EncodingError(f"expected exactly one model, found {len(models)}")
    stats.steps += step
    lp = ctl.statistics["problem"]["lp"]
    stats.atoms += int(lp["atoms"])
    stats.rules += int(lp["rules"])
    times = ctl.statistics["summary"]["times"]
    stats.solve_seconds += float(times["solve"])
    stats.ground_seconds += float(times["total"]) - float(times["solve"])
    return models[0]


def _all_finished(ctl: clingo.Control, step: int) -> bool:
    # The program is stratified, so unfinished(P) is either a fact or false.
    atom = ctl.symbolic_atoms[clingo.Function("unfinished", [clingo.Number(step)])]
    return atom is None or not atom.is_fact


def _check_decided(ctl: clingo.Control, where: str) -> None:
    undecided = [str(a.symbol) for a in ctl.symbolic_atoms if not a.is_fact]
    if undecided:
        raise EncodingError(f"grounding left {len(undecided)} atoms undecided after {where}, "
                            f"e.g. {', '.join(undecided[:3])}")
