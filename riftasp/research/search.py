"""The single-shot search kernels (issue 38, `riftasp compare --search`): the smallest boards on
which two rulesets of one family disagree, found by guessing them.

Two rulesets (or variants) of one family differ on some choice points (their `readings`,
riftasp/choice_points.py). For a choice point P, encodings/research/P.lp is its *kernel*: one
clingo program that guesses a board of a small space, calculates it under both readings of P,
requires that some object ends otherwise, and minimizes the board (effects, then objects). Each
optimal model becomes a real board (`board_from_dict`), and a board counts only once both
engines confirm it: riftasp's (riftasp.resolve, resolved together through riftasp.batch) and
the reference engine, under each ruleset, agree with each other and with the kernel's numbers,
and the two rulesets' answers differ. A model the engines do not confirm is a kernel bug,
reported as such in `SearchResult.kernel_bugs`, never as a board.

What a kernel expects (its header says so too): `bound(objects,O)`, `bound(effects,K)`,
`might_range(Lo,Hi)` (printed Might), `amount_range(Lo,Hi)` (the numbers of the operations),
`allowed(Op)` (the operations it may guess, as the encodings' terms name them), `op_rank(Op,R)`
(the ruleset's stage of each, rank 1 first) and `search` (require a disagreement). It offers
`offers(Op)`, names the readings it calculates (`kernel_reading(V)`, V a value of the point's
switch), and shows `object(O,M)`, `effect(E,Op,N,O)` (effect E, timestamp E, on object O; N its
number, 0 for an operation without one) and `final(V,O,M)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo

from ..board_io import board_from_dict
from ..model import Board
from ..operations import OPERATIONS, by_functor
from ..resources import encodings_folder
from ..result import Resolution
from ..rulesets import Ruleset, ruleset

KERNELS = "research"  # the folder of the encodings folder that holds the kernels
MIGHT_RANGE = (0, 6)  # the printed Might a kernel's objects take
AMOUNT_RANGE = (1, 5)  # the number an operation takes (plus N, set_might N, increase_to N, ...)
PLAYERS = ("alice", "bob")


class NoKernel(Exception):
    """The rulesets differ on choice points that have no search kernel."""

    def __init__(self, ids: Sequence[str]) -> None:
        self.ids = tuple(ids)
        files = ", ".join(f"{KERNELS}/{i}.lp" for i in self.ids)
        super().__init__(f"no search kernel for choice point(s) {', '.join(self.ids)} (no {files} in the encodings)")


@dataclass(frozen=True)
class KernelBug:
    """A kernel's board that the engines did not confirm: the kernel is wrong, not the rules."""

    board: Board
    reason: str


@dataclass(frozen=True)
class SearchResult:
    boards: tuple[Board, ...]  # confirmed: both engines, each ruleset, agree; the rulesets differ
    kernel: str  # the kernel(s) run: choice point ids, ", "-separated
    bound: int  # the most effects a board may have (max_effects)
    message: str
    kernel_bugs: tuple[KernelBug, ...] = field(default=())


@dataclass(frozen=True)
class KernelModel:
    """One model of a kernel: its board and what the kernel says each reading gives."""

    objects: dict[int, int]  # object number -> printed Might
    effects: dict[int, tuple[str, int, int]]  # effect number -> (operation term, its number, object)
    predicted: dict[str, dict[str, int]]  # reading value -> object id -> final Might

    def board(self, rules: Ruleset) -> Board:
        return kernel_board(self.objects, self.effects, rules)


def kernel_file(point: str) -> Path:
    """The kernel of a choice point: encodings/research/<id>.lp (whether or not it exists)."""
    return encodings_folder() / KERNELS / f"{point}.lp"


def differing_points(a: Ruleset, b: Ruleset) -> dict[str, str]:
    """The [readings] keys on which a and b differ -> the choice point each switches (the key
    itself when no choice point names it)."""
    ra, rb = a.readings, b.readings
    keys = sorted(k for k in set(ra) | set(rb) if ra.get(k) != rb.get(k))
    ids = {p.switch: p.id for p in (*a.choice_points, *b.choice_points) if p.switch is not None}
    return {key: ids.get(key, key) for key in keys}


def search(
    a: str | Ruleset, b: str | Ruleset, max_effects: int = 3, max_objects: int = 2,
    only_ops: Iterable[str] | None = None,
) -> SearchResult:
    """The smallest confirmed boards (up to `max_effects` effects and `max_objects` objects) on
    which rulesets a and b, of one family, give different answers, found by the kernels of the
    choice points they differ on. NoKernel when one of those points has none; ValueError for
    rulesets of two families or an operation (`only_ops`, the board's names) a kernel cannot
    guess."""
    ra, rb = _ruleset(a), _ruleset(b)
    if ra.lineage[-1] != rb.lineage[-1]:
        raise ValueError(f"{ra} and {rb} are not of one family ({ra.lineage[-1]}, {rb.lineage[-1]})")
    if max_effects < 1 or max_objects < 1:
        raise ValueError("a search needs at least one effect and one object")
    points = differing_points(ra, rb)
    if not points:
        return SearchResult((), "", max_effects, f"{ra} and {rb} read every choice point alike: nothing to search")
    missing = sorted({p for p in points.values() if not kernel_file(p).is_file()})
    if missing:
        raise NoKernel(missing)
    wanted = None if only_ops is None else list(only_ops)
    if wanted is not None:
        unknown = [name for name in wanted if name not in OPERATIONS]
        if unknown:
            raise ValueError(f"unknown operation(s): {', '.join(unknown)}")
    ids = sorted(set(points.values()))
    kernel = ", ".join(ids)
    boards: list[Board] = []
    bugs: list[KernelBug] = []
    size = None
    # A kernel calculates the readings of its own point only: its board space must be one the
    # other points do not touch (R4's has no conditions, ties, rechecks or withdrawals), and the
    # engines, which read every point, have the last word.
    for key, point in sorted(points.items(), key=lambda kv: kv[1]):
        found = _run_kernel(point, key, ra, rb, max_effects, max_objects, wanted)
        good, bad = confirmed(found, key, ra, rb)
        boards += good
        bugs += bad
        if found:
            size = min(len(found[0].effects), size or max_effects)
    return SearchResult(tuple(boards), kernel, max_effects, _message(boards, bugs, size, max_effects, kernel, ra, rb),
                        tuple(bugs))


def _ruleset(value: str | Ruleset) -> Ruleset:
    return value if isinstance(value, Ruleset) else ruleset(value)


def _message(boards: list[Board], bugs: list[KernelBug], size: int | None, bound: int, kernel: str,
             a: Ruleset, b: Ruleset) -> str:
    if size is None:
        return f"no disagreement up to {bound} effects (kernel {kernel})"
    parts = []
    if boards:
        parts.append(f"{len(boards)} board(s) of {size} effect(s) on which {a} and {b} disagree (kernel {kernel})")
    if bugs:
        parts.append(f"kernel bug: {len(bugs)} board(s) of kernel {kernel} not confirmed by the engines")
    return "; ".join(parts)


# --- the kernel ---------------------------------------------------------------------------------


def kernel_facts(
    point: str, rules: Ruleset, max_effects: int, max_objects: int, only_ops: Sequence[str] | None,
    search: bool = True, might_range: tuple[int, int] = MIGHT_RANGE, amount_range: tuple[int, int] = AMOUNT_RANGE,
) -> str:
    """The facts a kernel expects (its header): the bounds, the ranges, the operations allowed (the
    ruleset's, or `only_ops`) and their stages (the ruleset's layer table)."""
    ranks = {op: stage.rank for stage in rules.layers for op in stage.operations}
    allowed = list(ranks) if only_ops is None else [OPERATIONS[name].functor for name in only_ops]
    lines = [f"bound(objects,{max_objects}).", f"bound(effects,{max_effects}).",
             f"might_range({might_range[0]},{might_range[1]}).", f"amount_range({amount_range[0]},{amount_range[1]}).",
             *(f"allowed({op})." for op in allowed), *(f"op_rank({op},{rank})." for op, rank in ranks.items())]
    if search:
        lines.append("search.")
    return "\n".join(lines) + "\n"


def kernel_control(point: str, facts: str, arguments: Sequence[str] = ()) -> clingo.Control:
    """The kernel of `point` with `facts`, grounded."""
    control = clingo.Control(["--warn=none", *arguments])
    control.load(str(kernel_file(point)))
    control.add("base", [], facts)
    control.ground([("base", [])])
    return control


def _atoms(control: clingo.Control, name: str) -> set[str]:
    """The names of the facts name/1 of a grounded program."""
    return {str(a.symbol.arguments[0]) for a in control.symbolic_atoms.by_signature(name, 1) if a.is_fact}


def _run_kernel(point: str, key: str, a: Ruleset, b: Ruleset, max_effects: int, max_objects: int,
                only_ops: Sequence[str] | None) -> list[KernelModel]:
    """The kernel's optimal models, once its operations and readings are checked."""
    control = kernel_control(point, kernel_facts(point, a, max_effects, max_objects, only_ops), ["--opt-mode=optN", "0"])
    offered, readings = _atoms(control, "offers"), _atoms(control, "kernel_reading")
    if only_ops is not None:
        refused = [name for name in only_ops if OPERATIONS[name].functor not in offered]
        if refused:
            raise ValueError(f"kernel {point} guesses no operation {', '.join(refused)} "
                             f"(it guesses {', '.join(sorted(offered))})")
    for rules in (a, b):
        if str(rules.readings.get(key)) not in readings:
            raise ValueError(f"kernel {point} calculates {key} = {', '.join(sorted(readings))}, "
                             f"not {rules.readings.get(key)!r} ({rules})")
    return _models(control, optimal=True)


def kernel_models(
    point: str, rules: Ruleset, max_effects: int, max_objects: int, only_ops: Sequence[str] | None = None,
    search: bool = False, might_range: tuple[int, int] = MIGHT_RANGE, amount_range: tuple[int, int] = AMOUNT_RANGE,
) -> list[KernelModel]:
    """Every model of the kernel within the bounds (`search`: only those where its readings
    disagree), optimal or not: with search off, every board of its space and what it calculates
    there (tests/test_search_kernels.py holds that to the engines)."""
    facts = kernel_facts(point, rules, max_effects, max_objects, only_ops, search, might_range, amount_range)
    return _models(kernel_control(point, facts, ["--opt-mode=ignore", "0"]), optimal=False)


def _models(control: clingo.Control, optimal: bool) -> list[KernelModel]:
    found: list[KernelModel] = []

    def on_model(model: clingo.Model) -> None:
        if model.optimality_proven or not optimal:
            found.append(_decode(model.symbols(shown=True)))

    control.solve(on_model=on_model)
    return sorted(found, key=lambda f: (len(f.effects), len(f.objects), sorted(f.objects.items()),
                                        sorted(f.effects.items())))


def object_id(number: int) -> str:
    return f"u{number}"


def effect_id(number: int) -> str:
    return f"e{number}"


def _decode(symbols: Sequence[clingo.Symbol]) -> KernelModel:
    objects: dict[int, int] = {}
    effects: dict[int, tuple[str, int, int]] = {}
    predicted: dict[str, dict[str, int]] = {}
    for s in symbols:
        args = s.arguments
        if s.name == "object":
            objects[args[0].number] = args[1].number
        elif s.name == "effect":
            effects[args[0].number] = (args[1].name, args[2].number, args[3].number)
        elif s.name == "final":
            predicted.setdefault(str(args[0]), {})[object_id(args[1].number)] = args[2].number
    return KernelModel(objects, effects, predicted)


def kernel_board(objects: dict[int, int], effects: dict[int, tuple[str, int, int]], rules: Ruleset) -> Board:
    """The real board of a kernel's model: objects (number -> printed Might), each a unit on the
    battlefield, and effects (number -> operation term, its number, target object), each an
    ongoing effect of alice with timestamp = its number, targeting its object by id."""
    data = {
        "ruleset": rules.name, "players": list(PLAYERS), "active_player": PLAYERS[0],
        "objects": [
            {"id": object_id(n), "name": f"U{n}", "type": "unit", "owner": PLAYERS[0], "zone": "battlefield",
             "might": might, "since": 0}
            for n, might in sorted(objects.items())
        ],
        "effects": [
            {"id": effect_id(n), "controller": PLAYERS[0], "timestamp": n, "op": _operation(term, number),
             "target": {"ids": [object_id(target)]}}
            for n, (term, number, target) in sorted(effects.items())
        ],
    }
    return board_from_dict(data, source=f"<kernel board of {rules.name}>")


def _operation(term: str, number: int) -> dict[str, Any]:
    spec = by_functor(term)
    if spec is None:
        raise ValueError(f"a kernel guessed the operation {term!r}, which riftasp does not know")
    if len(spec.params) > 1:
        raise ValueError(f"a kernel guessed {spec.name}, which takes {len(spec.params)} numbers")
    return {"op": spec.name, **({spec.params[0].key: number} if spec.params else {})}


# --- the confirmation ---------------------------------------------------------------------------


def mights(resolution: Resolution) -> dict[str, Any]:
    return {oid: c.might for oid, c in sorted(resolution.objects.items())}


def _characteristics(resolution: Resolution) -> dict[str, Any]:
    return {oid: c.to_json() for oid, c in sorted(resolution.objects.items())}


def confirmed(found: Sequence[KernelModel], key: str, a: Ruleset, b: Ruleset) -> tuple[list[Board], list[KernelBug]]:
    """The kernel's boards both engines confirm (under a's ruleset), and the others, each with
    the reason: a kernel bug (or the engines disagree with each other), never a finding."""
    from ..batch import resolve_all
    from ..reference import resolve as reference

    if not found:
        return [], []
    on = {rules: [f.board(rules) for f in found] for rules in (a, b)}
    asp = {rules: resolve_all(on[rules]) for rules in (a, b)}
    good: list[Board] = []
    bad: list[KernelBug] = []
    for n, item in enumerate(found):
        answers: dict[Ruleset, dict[str, Any]] = {}
        reason = None
        for rules in (a, b):
            board = on[rules][n]
            by_asp, by_reference = asp[rules][n], reference(board)
            gives = mights(by_asp)
            if _characteristics(by_asp) != _characteristics(by_reference):
                reason = (f"the engines disagree under {rules}: riftasp gives Might {gives}, the reference "
                          f"engine {mights(by_reference)}")
                break
            predicted = item.predicted.get(str(rules.readings.get(key)))
            if predicted != gives:
                reason = (f"the kernel predicts Might {predicted} under {rules} ({key} = {rules.readings.get(key)}); "
                          f"the engines give {gives}")
                break
            answers[rules] = gives
        if reason is None and answers[a] == answers[b]:
            reason = f"the engines give the same Might under {a} and {b}: {answers[a]}"
        if reason is None:
            good.append(on[a][n])
        else:
            bad.append(KernelBug(on[a][n], reason))
    return good, bad
