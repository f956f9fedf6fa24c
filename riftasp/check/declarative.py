"""The declarative checker, what the rules allow (issue 35, docs/check.md): what every ruleset's
declarative checker shares — a verdict, a calculation, how a guess-and-check program is asked —
and the questions asked of a board's own (its plugin's `declarative()`: Riftbound's
riftasp/rulesets/riftbound/check/declarative.py, Sorcery's riftasp/rulesets/sorcery/check/declarative.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import clingo

from ..model import Board
from .report import Report, Violation

# The invariant name of its violations.
DECLARATIVE = "rules-allow"
# How long one board's questions may take by default (s).
TIME_LIMIT = 20.0


@dataclass
class Calculation:
    """A model: the calculation (application names in order), the invariants it breaks and its
    final state."""

    order: list[tuple[str, str]]  # (instance name, object)
    broken: list[tuple[str, str, str]]  # (kind, instance name, object)
    states: dict[str, Any]  # object -> its ruleset's final state (with to_json())


@dataclass
class Verdict:
    """What the declarative checker found about one board (and one resolution)."""

    skipped: str | None = None  # why it did not run
    consistent: bool | None = None  # does the board have a consistent state (None: not known)
    example: Calculation | None = None  # one consistent calculation
    claim_consistent: bool | None = None  # is the resolution's state a consistent state
    closest: Calculation | None = None  # a calculation giving the claimed state, fewest broken
    violations: list[Violation] = field(default_factory=list)
    questions: int = 0
    applications: int = 0
    atoms: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "skipped": self.skipped,
            "consistent_state_exists": self.consistent,
            "consistent_state": None if self.example is None else
            {o: s.to_json() for o, s in sorted(self.example.states.items())},
            "calculation": None if self.example is None else [f"{n} -> {o}" for n, o in self.example.order],
            "claim_consistent": self.claim_consistent,
            "applications": self.applications,
            "ground_atoms": self.atoms,
        }  # fmt: skip

    def summary(self) -> str:
        if self.skipped:
            return f"rules allow: not judged ({self.skipped})"
        exists = {True: "the board has a consistent state", False: "the board has NO consistent state (a paradox)",
                  None: "whether the board has a consistent state is not known"}[self.consistent]
        # (On a board without one, the claim is judged with its reported paradox's effects left
        # out: what a legal calculation reaches when they never apply.)
        one = "one" if self.consistent is not False else "what the rules reach without its paradox's effects"
        claim = {True: f"the resolution's state is {one}", False: f"the resolution's state is not {one}",
                 None: "the resolution's state was not judged"}[self.claim_consistent]
        return f"rules allow: {exists}; {claim} ({self.applications} applications, {self.atoms} ground atoms)"


# ---- what a board's own declarative checker is asked ------------------------------------------


def _own(board: Board) -> Any:
    return board.ruleset.declarative()


def unsupported(board: Board) -> str | None:
    """Why the declarative checker does not judge this board, or None."""
    own = _own(board)
    if own is None:
        from ..rulesets import rulesets_with

        known = ", ".join(rulesets_with("declarative"))
        return f"the {board.ruleset} ruleset has no declarative checker (rulesets with one: {known})"
    return own.unsupported(board)


def examine(board: Board, resolution: Any | None, time_limit: float = TIME_LIMIT) -> Verdict:
    """The board's own declarative checker's verdict on `resolution` (None: only whether a
    consistent state exists)."""
    own = _own(board)
    if own is None:
        return Verdict(skipped=unsupported(board))
    return own.examine(board, resolution, time_limit)


def consistent_states(board: Board, time_limit: float = TIME_LIMIT) -> tuple[bool | None, dict[str, Any] | None]:
    """Whether `board` has a consistent state, and one (object -> final characteristics);
    (None, None) when the board is not judged (no checker, over the size bound, out of time)."""
    verdict = examine(board, None, time_limit)
    return verdict.consistent, (verdict.example.states if verdict.example else None)


def judge(board: Board, resolution: Any, time_limit: float = TIME_LIMIT) -> Report:
    """The declarative checker's violations of `resolution` (the output contract as parsed JSON)
    of `board`, as a Report (`verdict` holds the details)."""
    report = Report()
    add_verdict(report, examine(board, resolution, time_limit))
    return report


def add_to_report(board: Board, resolution: Any, report: Report, time_limit: float = TIME_LIMIT) -> None:
    """The declarative part of `riftasp check` added to `report` (riftasp/check/__init__.py)."""
    add_verdict(report, examine(board, resolution, time_limit))


# ---- shared by the rulesets' programs ------------------------------------------------------------


def claimed_number(n: int) -> int:
    """A claimed value (Might, power, a keyword's or an affinity's count) as a program may hold
    it: clingo's integers are 32-bit and wrap silently, so a claim beyond what any calculation of
    a board within the limits can reach (±REACH_MAX, riftasp/limits.py) is written just past it,
    where it still matches no calculation (the violation then shows the claimed value itself)."""
    from ..limits import REACH_MAX

    return n if -REACH_MAX <= n <= REACH_MAX else (REACH_MAX + 1 if n > 0 else -REACH_MAX - 1)


def unknown_kind(board: Board, operations: frozenset, conditions: frozenset, filters: frozenset) -> str | None:
    """The first operation, condition or filter of the board's effects a declarative program
    does not know (it would judge such a board wrongly), said; or None."""
    effects = [e for o in board.objects for e in (*o.rules_text, *o.effect_text)] + list(board.effects)
    for e in effects:
        if e.op.name not in operations:
            return f"operation {e.op.name!r} is unknown to the declarative checker"
        for c in e.conditions:
            if c.kind not in conditions:
                return f"condition {c.kind!r} is unknown to the declarative checker"
        if e.target.filter is not None:
            for key, _ in e.target.filter.params:
                if key not in filters:
                    return f"filter {key!r} is unknown to the declarative checker"
    return None


def solve_claim(ctl: clingo.Control, claim: bool, relax: bool,
                deadline: float) -> tuple[bool | None, list[clingo.Symbol] | None]:
    """One question of a guess-and-check program with the externals `claim_on` and `relax`:
    (True, the best model's shown symbols) / (False, None) when it has none / (None, None) when
    the time ran out or, relaxed, the optimum was not proven (not an answer). Sorcery's program
    (riftasp/rulesets/sorcery/check/declarative.py) asks the same way."""
    ctl.assign_external(clingo.Function("claim_on"), claim)
    ctl.assign_external(clingo.Function("relax"), relax)
    best: list[clingo.Symbol] | None = None

    def on_model(model: clingo.Model) -> None:
        nonlocal best
        best = list(model.symbols(shown=True))

    with ctl.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(max(0.0, deadline - time.monotonic())):
            handle.cancel()
            return None, None
        result = handle.get()
    if result.unsatisfiable:
        return False, None
    if best is None or (relax and not result.exhausted):
        return None, None
    return True, best


def add_verdict(report: Report, verdict: Verdict) -> None:
    report.violations.extend(verdict.violations)
    report.checked += verdict.questions
    if verdict.skipped:
        report.skipped.append(f"what the rules allow (declarative check): {verdict.skipped}")
    report.declarative = verdict  # type: ignore[attr-defined]


