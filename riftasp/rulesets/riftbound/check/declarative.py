"""The declarative checker: what the rules allow, not how the engines compute (issue 35,
docs/check.md "What the rules allow").

A small ASP program of its own (encodings/check/) guesses a calculation — a sequence of distinct
applications from the printed values, the rest never applied — and checks the rules' invariants
on it: each application exists, targets its object and meets its conditions when it applies
(nothing supports itself); stages in order unless an application became applicable later;
dependency before timestamp order inside a group; objects read as finally calculated unless
they read each other in a loop; in the final state everything applied still holds and
everything that holds was applied. Its final state is a *consistent state*. Three questions:

- `consistent_states(board)`: does the board have a consistent state (no: a paradox), and one;
- `judge(board, resolution)`: is the resolution's final state a consistent state; if not, which
  invariant no calculation giving it can meet, and the consistent state found instead;
- whether a resolution's `paradoxes` are real (reported on a board with a consistent state, or
  missing on a board without one).

It reads the board model, the ruleset data and the board facts (riftasp/facts.py); it imports
neither engine, nor the procedure's encoding. This module judges Riftbound boards; another
ruleset's boards go to the module its plugin's `declarative()` gives (Sorcery's:
riftasp/rulesets/sorcery/check/declarative.py, encodings/check/sorcery/), which gives the same `Verdict`.
With `condition_timing = settled` only eligibility and the final invariants are judged (a
condition may wait for what could change it, so an eligible application may wait); with
`immediate` conditions are not judged in the end: whatever is judged is certain, so neither
timing gives a false alarm. With the reading `dependency = none` (timestamp order only) no
dependency question is asked (encodings/check/needs.lp, `maydep/2`): nothing depends, and the
order invariants are stage and timestamp order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import clingo
import clingo.ast

from ....facts import board_facts
from ....model import Board
from ....operations import by_functor
from ....resources import encodings_folder
from ....terms import quote
from .view import read_view
from ....check.declarative import (DECLARATIVE, Calculation, Verdict, add_verdict, claimed_number,  # noqa: F401
                                    solve_claim, unknown_kind, TIME_LIMIT)
from ....check.report import Violation, show

FILES = ("instances.lp", "needs.lp", "state.lp", "evaluate.lp", "calculation.lp", "support.lp", "claim.lp")


@cache
def known_operations() -> frozenset[str]:
    """The operations the program knows, by the board's names: those its instances.lp names with
    `opname(Term, Name)` (what each does is stated in its files, in ASP, apart from the engines;
    a board with another operation is not judged)."""
    names: set[str] = set()

    def head(statement: Any) -> None:
        if statement.ast_type != clingo.ast.ASTType.Rule or statement.head.ast_type != clingo.ast.ASTType.Literal:
            return
        atom = statement.head.atom
        if atom.ast_type != clingo.ast.ASTType.SymbolicAtom:
            return
        term = atom.symbol
        if term.ast_type == clingo.ast.ASTType.Function and term.name == "opname" and len(term.arguments) == 2:
            names.add(str(term.arguments[1]))

    clingo.ast.parse_files([str(encodings_folder() / "check" / "instances.lp")], head)
    return frozenset(spec.name for name in names if (spec := by_functor(name)) is not None)


# What the program knows besides the operations: every condition and filter of Riftbound's boards.
CONDITIONS = frozenset({"mighty", "might_at_least", "status", "has_keyword", "controlled_by"})
FILTERS = frozenset({"type", "card_type", "relation", "tag", "zone", "location", "other"})
# The size bound (docs/check.md, "Cost"): the ground program grows with applications² × steps
# (a state per step, dependency worlds per step), the search with the orders left open. Measured
# on generated boards: 30 applications ground and solve in about a second, 60 in ~10 s.
MAX_APPLICATIONS = 20
MAX_OBJECTS = 40

KINDS = {
    "eligible": "applied only while it exists, targets its object and meets its conditions",
    "stage": "no application of a lower stage of its group eligible when it applied",
    "dependency": "nothing eligible it depends on (outside a dependency cycle) when it applied",
    "timestamp": "no ready application of its stage with an earlier order key waiting",
    "immediately_after": "a dependent of the previous application when that one had ready dependents",
    "final_exists": "its instance still exists in the final state",
    "final_target": "it still targets its object in the final state",
    "final_conditions": "its conditions still hold in the final state",
    "not_applied": "applied, as it exists, targets its object and meets its conditions in the final state",
    "held_up": "its conditions hold in the final state without what it supported added",
}


@dataclass
class State:
    """One object's final characteristics in a calculation."""

    might: int | None = None
    controller: str | None = None
    types: set[str] = field(default_factory=set)
    tags: set[str] = field(default_factory=set)
    keywords: dict[str, int] = field(default_factory=dict)
    abilities: set[str] = field(default_factory=set)
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"might": self.might, "controller": self.controller, "types": sorted(self.types),
                "tags": sorted(self.tags), "keywords": dict(sorted(self.keywords.items())),
                "abilities": sorted(self.abilities), "name": self.name}  # fmt: skip


# ---- facts --------------------------------------------------------------------------------


def unsupported(board: Board) -> str | None:
    """Why the declarative checker does not judge this board, or None."""
    unknown = unknown_kind(board, known_operations(), CONDITIONS, FILTERS)
    if unknown is not None:
        return unknown
    if board.reading("rechecked_set") != "replaces":
        return "the reading rechecked_set = keeps is not judged by the declarative checker"
    if len(board.objects) > MAX_OBJECTS:
        return f"{len(board.objects)} objects, more than the bound of {MAX_OBJECTS}"
    return None


def ruleset_facts(board: Board) -> str:
    lines = [f"board_zone({z})." for z in board.ruleset.vocabulary.board_zones]
    for stage in board.ruleset.layers:
        lines += [f"stage_rank({op},{stage.rank})." for op in stage.operations]
    rules = board.ruleset.keywords
    lines += [f"summing_keyword({quote(k)})." for k in sorted(rules.summing)]
    lines += [f"bonus_keyword({quote(k)},{s})." for k, s in rules.bonus.items()]
    return "\n".join(lines) + "\n"


def _name_term(name: str) -> str:
    """A reported paradox member's name as the term claim.lp matches."""
    if name.startswith("buff:"):
        return f"buff({quote(name[5:])})"
    if name.startswith("bonus:"):
        return f"bonus({quote(name[6:])})"
    if name.startswith("keyword:"):
        parts = name.split(":")
        if len(parts) >= 3:
            return f"keyword({quote(parts[1])},{quote(parts[2])})"
    if "@" in name:
        effect, _, holder = name.rpartition("@")
        return f"copied({quote(effect)},{quote(holder)})"
    return f"effect({quote(name)})"


def claim_facts(board: Board, resolution: Any) -> tuple[str, bool]:
    """The claimed final state as facts, and whether the resolution reports paradoxes."""
    view = read_view(board, resolution)
    lines = []
    for oid, final in view.objects.items():
        o = quote(oid)
        lines.append(f"claim_obj({o}).")
        lines.append(f"claim_name({o},{quote(final.name)}).")
        if final.might is not None:
            lines.append(f"claim_might({o},{claimed_number(final.might)}).")
        if final.controller is not None:
            lines.append(f"claim_ctrl({o},{quote(final.controller)}).")
        lines += [f"claim_type({o},{t})." for t in sorted(final.types) if t.isidentifier() and t.islower()]
        lines += [f"claim_tag({o},{quote(t)})." for t in sorted(final.tags)]
        lines += [f"claim_kw({o},{quote(k)},{claimed_number(v)})." for k, v in sorted(final.keywords.items())]
        if final.abilities is not None:
            lines.append(f"claim_abilities({o}).")
            for name in sorted(final.abilities):
                if "@" in name:
                    effect, _, holder = name.rpartition("@")
                    lines.append(f"claim_hold({o},cp({quote(effect)},{quote(holder)})).")
                else:
                    lines.append(f"claim_hold({o},own({quote(name)})).")
        # A type that is no ASP constant can match nothing: say so with an impossible claim.
        if any(not (t.isidentifier() and t.islower()) for t in final.types):
            lines.append(f"claim_type({o},\"{'/'.join(sorted(final.types))}\").")
    # The paradox members the resolution withdrew (a reported ring also names its culprits).
    named = {n for p in view.paradoxes for n in p}
    for oid, names in sorted(view.withdrawn.items()):
        lines += [f"paradox_named({quote(oid)},{_name_term(n)})." for n in sorted(names & named)]
    return "\n".join(lines) + "\n", bool(view.paradoxes)


# ---- decoding -----------------------------------------------------------------------------


def _text(sym: clingo.Symbol) -> str:
    return sym.string if sym.type == clingo.SymbolType.String else str(sym)


def instance_name(inst: clingo.Symbol) -> str:
    """The output contract's name of an instance term (docs/semantics.md §2)."""
    kind, args = inst.name, inst.arguments
    if kind in ("og", "ab"):
        return _text(args[0])
    if kind == "cab":
        return f"{_text(args[0])}@{_text(args[1])}"
    if kind == "buff":
        return f"buff:{_text(args[0])}"
    if kind == "bonus":
        return f"bonus:{_text(args[0])}"
    if kind == "kw":
        k, src, o = args
        if src.type == clingo.SymbolType.Function and src.name == "printed" and not src.arguments:
            return f"keyword:{_text(k)}:{_text(o)}"
        return f"keyword:{_text(k)}:{_text(o)}:{instance_name(src)}"
    return str(inst)


def _app(sym: clingo.Symbol) -> tuple[str, str]:
    inst, obj = sym.arguments
    return instance_name(inst), _text(obj)


def decode(symbols: list[clingo.Symbol], objects: list[str]) -> Calculation:
    states = {o: State() for o in objects}
    order: list[tuple[int, tuple[str, str]]] = []
    broken = []
    for s in symbols:
        a = s.arguments
        if s.name == "at":
            order.append((a[1].number, _app(a[0])))
        elif s.name == "viol":
            name, obj = _app(a[1])
            broken.append((a[0].name, name, obj))
        elif s.name.startswith("fin_"):
            st = states.setdefault(_text(a[0]), State())
            if s.name == "fin_might":
                st.might = a[1].number
            elif s.name == "fin_ctrl":
                st.controller = _text(a[1])
            elif s.name == "fin_type":
                st.types.add(_text(a[1]))
            elif s.name == "fin_tag":
                st.tags.add(_text(a[1]))
            elif s.name == "fin_kw":
                st.keywords[_text(a[1])] = a[2].number
            elif s.name == "fin_name":
                st.name = _text(a[1])
            elif s.name == "fin_hold":
                h = a[1]
                st.abilities.add(_text(h.arguments[0]) if h.name == "own"
                                 else f"{_text(h.arguments[0])}@{_text(h.arguments[1])}")
    return Calculation([app for _, app in sorted(order)], sorted(set(broken)), states)


# ---- solving ------------------------------------------------------------------------------


class Program:
    """One grounding of encodings/check/ for a board (and a claim), asked several questions."""

    def __init__(self, board: Board, claim: str = "") -> None:
        self.board = board
        self.objects = [o.id for o in board.objects]
        self.ctl = clingo.Control(["--warn=none", "--opt-mode=opt"])
        folder = encodings_folder() / "check"
        for name in FILES:
            self.ctl.load(str(folder / name))
        self.ctl.add("base", [], board_facts(board) + ruleset_facts(board) + claim)
        self.screened = False

    def count_applications(self) -> int:
        """The number of applications that could exist (grounding instances.lp alone)."""
        ctl = clingo.Control(["--warn=none"])
        ctl.load(str(encodings_folder() / "check" / "instances.lp"))
        ctl.add("base", [], board_facts(self.board) + ruleset_facts(self.board))
        ctl.ground([("base", [])])
        return sum(1 for _ in ctl.symbolic_atoms.by_signature("cand", 1))

    def ground(self) -> int:
        self.ctl.ground([("base", [])])
        return len(self.ctl.symbolic_atoms)

    def screen(self, on: bool) -> None:
        """Whether a state where an application holds itself up counts as consistent (support.lp,
        its part `screen`, grounded the first time it is asked for)."""
        if on and not self.screened:
            self.ctl.ground([("screen", [])])
            self.screened = True
        self.ctl.assign_external(clingo.Function("self_screen"), on)

    def ask(self, claim: bool, relax: bool, deadline: float) -> tuple[bool | None, Calculation | None]:
        """(True, the best model) / (False, None) / (None, None) when the time ran out."""
        found, best = solve_claim(self.ctl, claim, relax, deadline)
        return found, (None if best is None else decode(best, self.objects))


def examine(board: Board, resolution: Any | None, time_limit: float = TIME_LIMIT) -> Verdict:
    start = time.monotonic()
    deadline = start + time_limit
    verdict = Verdict()
    why = unsupported(board)
    if why:
        verdict.skipped = why
        return verdict
    claim, reports_paradox = ("", False) if resolution is None else claim_facts(board, resolution)
    program = Program(board, claim)
    verdict.applications = program.count_applications()
    if verdict.applications > MAX_APPLICATIONS:
        verdict.skipped = (f"{verdict.applications} applications could exist, more than the bound of "
                           f"{MAX_APPLICATIONS} (the search grows with applications² × steps)")
        return verdict
    verdict.atoms = program.ground()
    timing = board.reading("condition_timing")
    exact = timing == "as_able"

    verdict.questions += 1
    verdict.consistent, verdict.example = program.ask(claim=False, relax=False, deadline=deadline)
    if resolution is None or verdict.consistent is None:
        if verdict.consistent is None:
            verdict.skipped = f"no answer within {time_limit:g} s"
        verdict.seconds = time.monotonic() - start
        return verdict

    out = verdict.violations
    verdict.questions += 1
    matches, found = program.ask(claim=True, relax=False, deadline=deadline)
    verdict.claim_consistent = matches
    if matches is None:
        verdict.skipped = f"the resolution's state not judged within {time_limit:g} s"
    if verdict.consistent is False and not reports_paradox:
        out.append(Violation("-", DECLARATIVE, "paradox-missed",
                             "paradoxes: no calculation obeying the invariants has a consistent final state",
                             "no paradox reported"))
    if verdict.consistent and reports_paradox and exact and board.reading("self_support") == "withdrawn":
        # With the default reading a state where an application holds itself up is not an answer
        # (docs/semantics.md §8): the paradox is false only if a state without one exists. (Its
        # screen counts more as support than the engines do: it finds fewer such states.)
        verdict.questions += 1
        program.screen(True)
        verdict.consistent, verdict.example = program.ask(claim=False, relax=False, deadline=deadline)
        program.screen(False)
    if verdict.consistent and reports_paradox and exact:
        state = verdict.example.states if verdict.example else {}
        out.append(Violation("-", DECLARATIVE, "paradox-false",
                             "no paradox: a consistent state exists ("
                             + "; ".join(f"{o} {_brief(s)}" for o, s in sorted(state.items())) + ")",
                             "paradoxes reported"))
    if matches is False:
        verdict.questions += 1
        close, closest = program.ask(claim=True, relax=True, deadline=deadline)
        verdict.closest = closest
        if close is False:
            out.append(Violation("-", DECLARATIVE, "reachable",
                                 "a final state some calculation of the board's applications gives",
                                 "no calculation gives the claimed state"))
        elif closest is not None:
            for kind, name, obj in closest.broken:
                out.append(Violation(obj, DECLARATIVE, kind, KINDS.get(kind, kind),
                                     "broken by every calculation giving the claimed state", name))
        if verdict.example is not None:
            view = read_view(board, resolution)
            for oid, s in sorted(verdict.example.states.items()):
                claimed = view.objects[oid]
                on_board = next(o for o in board.objects if o.id == oid).on_board
                pairs = [("might", s.might, claimed.might), ("controller", s.controller, claimed.controller),
                         ("tags", sorted(s.tags), sorted(claimed.tags)), ("types", sorted(s.types), sorted(claimed.types)),
                         ("keywords", s.keywords, claimed.keywords)]  # fmt: skip
                if claimed.abilities is not None and on_board:
                    pairs.append(("abilities", sorted(s.abilities), sorted(claimed.abilities)))
                for what, mine, theirs in pairs:
                    if mine != theirs:
                        out.append(Violation(oid, DECLARATIVE, f"consistent-{what}", show(mine), show(theirs)))
        elif not out:
            out.append(Violation("-", DECLARATIVE, "consistent-state",
                                 "a consistent state", "the claimed state is not one"))
    verdict.seconds = time.monotonic() - start
    return verdict


def _brief(s: State) -> str:
    parts = [f"might {s.might}"] if s.might is not None else []
    if s.tags:
        parts.append("tags " + ",".join(sorted(s.tags)))
    if s.keywords:
        parts.append("keywords " + ",".join(f"{k} {v}" for k, v in sorted(s.keywords.items())))
    return " ".join(parts) or "printed"
