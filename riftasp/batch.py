"""Many boards in one program: `resolve_many(boards) -> [Resolution | ResolveFailure]`, each
board's answer identical to resolving it alone, at a fraction of the cost per board; a board
that fails has a ResolveFailure (riftasp/failure.py) in its place and costs the others nothing
but time (issue 39). `resolve_all(boards) -> [Resolution]` raises the first failure instead.

Small boards spend most of their time in clingo's fixed costs (loading and grounding the
encoding, a ground call per step). A batch pays them once: each board's object and effect ids
get the prefix `K:` (ids never contain ":", so prefixed ids cannot collide), each board's
objects and ongoing effects are put in scope K (`in_scope/2`, encodings/core/instances.lp: a
filter reaches only its own board), and the shown atoms are split by board again and the
prefixes removed before decoding. Boards of one batch share the ruleset and the settings (the
encoding reads them as global facts), so boards are grouped by those first.

A batch that fails (an EncodingError, an unsupported ruleset, the time limit) fails for all its
boards at once, so its boards are tried again: its largest board alone, the others as one batch
or in about √n parts, and the boards of a part that fails too, alone (`_isolate`): each failure
is then the failing board's own, as resolving it alone gives it, and the others keep their
answers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import overload

import clingo

from .decode import Atom, Memo, Term, Withdrawn, atoms, decode_atoms, withdrawn_terms
from .facts import board_facts
from .failure import ResolveFailure
from .kinds import OBJECT_ID
from .model import SYMBOLIC_REFS, Board, Effect, GameObject, Target
from .result import Resolution
from .limits import Deadline
from .solver import Rounds, SolveStats, ruleset_facts, solve_round
from .terms import quote

# Boards per program, and objects: a batch pays clingo's fixed costs (loading the encoding, a
# ground call of every part at every step) once, so the more boards the less each pays; past
# ~1,000 small boards (bench/engines.py, the fuzz corpus of 1-6 objects a board: 100 a batch
# ~170 boards/s, 500 ~260, 1,000 ~300-370) the gain levels off, while a program's memory grows
# with its objects.
BATCH_SIZE = 1000
BATCH_OBJECTS = 5000

# What resolve_many gives for one board.
Outcome = Resolution | ResolveFailure
# Told of each calculation before it starts: the boards of a batch, or one board alone.
Starting = Callable[[list[Board]], None]


def resolve_many(
    boards: Iterable[Board], batch_size: int = BATCH_SIZE, time_limit: float | None = None
) -> list[Outcome]:
    """Each board's Resolution, in order, as `riftasp.resolve.resolve` gives it, or in the place
    of a board that failed, a ResolveFailure (what went wrong, and `error()`: the exception
    riftasp raises for it).

    `time_limit` (seconds) applies to each board, as in `resolve`: a batch runs in a worker
    process killed when the limit runs out (a batch answered within one board's limit answers
    each of its boards within it: it does at least each one's work); a batch stopped is tried
    again as a failed batch is (`_isolate`: its largest board alone, the others in parts, the
    boards of a part stopped too alone), each calculation with the limit, so that the board too
    slow has a ResolveFailure of kind "time_limit" and the others their answers."""
    return list(resolve_each(boards, batch_size, time_limit))


def resolve_all(
    boards: Iterable[Board], batch_size: int = BATCH_SIZE, time_limit: float | None = None
) -> list[Resolution]:
    """Every board's Resolution, in order, or the exception of the first board that failed
    (TimeLimitExceeded names it) — for callers that need every answer or none."""
    resolutions = []
    for outcome in resolve_each(boards, batch_size, time_limit):
        if isinstance(outcome, ResolveFailure):
            raise outcome.error()
        resolutions.append(outcome)
    return resolutions


def resolve_each(
    boards: Iterable[Board], batch_size: int = BATCH_SIZE, time_limit: float | None = None,
    starting: Starting | None = None,
) -> Iterator[Outcome]:
    """resolve_many's entries one by one, in order, each as soon as it and the boards before it
    are settled (`riftasp resolve FOLDER` prints them as they come); `starting(boards)` is told
    of each calculation before it starts (a progress display)."""
    boards = list(boards)
    settled: dict[int, Outcome] = {}
    given = 0
    for positions in _batches(boards, batch_size):
        outcomes = _settle([boards[i] for i in positions], time_limit, starting or _nothing)
        settled.update(zip(positions, outcomes))
        while given in settled:  # (batches are grouped by ruleset: positions come out of order)
            yield settled.pop(given)
            given += 1


def _nothing(boards: list[Board]) -> None:
    pass


def _settle(boards: list[Board], time_limit: float | None, starting: Starting, split: bool = True) -> list[Outcome]:
    """Each board's outcome: the batch's answers, or where the batch fails, what `_isolate`
    finds (`split`), or each board alone."""
    # One board with a time limit: at once as `resolve` does it (a batch of one would only be
    # stopped first, at the same limit).
    if len(boards) > 1 or (split and time_limit is None):
        try:
            return _answers(boards, time_limit, starting)
        except Exception:  # noqa: BLE001 - one of the boards failed: which one, is found below
            pass
    if not split or len(boards) <= 2:
        return [_alone(board, time_limit, starting) for board in boards]
    return _isolate(boards, time_limit, starting)


def _isolate(boards: list[Board], time_limit: float | None, starting: Starting) -> list[Outcome]:
    """A failed batch's outcomes. Its largest board alone first (a board too slow for the limit
    is most often the largest); when that one fails, the others as one batch again (it was
    likely the only one); else, or when they fail too, the others in parts of ⌈√n⌉, and the
    boards of a part that fails, alone. What one bad board costs the others is bounded: √n
    batches and √n boards alone (√n ≈ 32 for a batch of 1,000); a slow board is stopped twice
    when it is the largest (the batch, itself), else three times (the batch, its part, itself)."""
    largest = max(range(len(boards)), key=lambda i: _size(boards[i]))
    others = [i for i in range(len(boards)) if i != largest]
    settled = {largest: _alone(boards[largest], time_limit, starting)}
    if isinstance(settled[largest], ResolveFailure):
        try:
            settled.update(zip(others, _answers([boards[i] for i in others], time_limit, starting)))
            return [settled[i] for i in range(len(boards))]
        except Exception:  # noqa: BLE001 - another board failed too: in parts
            pass
    size = math.isqrt(len(others) - 1) + 1
    for part in (others[k:k + size] for k in range(0, len(others), size)):
        settled.update(zip(part, _settle([boards[i] for i in part], time_limit, starting, split=False)))
    return [settled[i] for i in range(len(boards))]


def _size(board: Board) -> int:
    return len(board.effects) + sum(1 + len(o.rules_text) + len(o.effect_text) for o in board.objects)


def _answers(boards: list[Board], time_limit: float | None, starting: Starting) -> list[Outcome]:
    """The boards' Resolutions as one batch (raising what the batch raised)."""
    starting(boards)
    if time_limit is None:
        return [*_resolve_batch(boards)]
    from .watchdog import run_within

    # In a worker killed at the limit (one ground call is never interrupted otherwise), for the
    # whole batch: a batch answered within one board's limit answered each of its boards within
    # it (it does at least each one's work).
    return [*run_within(time_limit, _resolve_batch, boards, time_limit)]


def _alone(board: Board, time_limit: float | None, starting: Starting) -> Outcome:
    """The board as `resolve` resolves it, or the failure of what it raised."""
    from .resolve import resolve

    starting([board])
    try:
        return resolve(board, time_limit=time_limit)
    except Exception as err:  # noqa: BLE001 - every failure is the board's, reported in its place
        return ResolveFailure.of(board.source, err)


class Prefetching:
    """riftasp's resolution of boards asked for one at a time: the first request for a queued
    board resolves it with the queued boards after it, `batch_size` at a time. Answers are kept
    by board (boards are frozen dataclasses), so a board asked for again costs nothing; a board
    that failed raises its own exception each time it is asked for.

    crosscheck queues its board files. fuzz cannot know a hypothesis run's boards before it
    draws them, so it gives a `foretell(n)` that returns the first n boards the run will draw:
    when a board is not queued, the queue grows to twice as many boards as were asked for so
    far (at least `FIRST_WINDOW`), so a run that stops early foretells little, and a long one
    about twice what it uses. A board foretold wrongly is simply resolved alone.
    """

    FIRST_WINDOW = 16

    def __init__(self, boards: Iterable[Board] = (), batch_size: int = BATCH_SIZE) -> None:
        self.batch_size = batch_size
        self.done: dict[Board, Resolution] = {}
        self.failed: dict[Board, ResolveFailure] = {}
        self.alone = 0  # boards that were not queued (each resolved in a program of its own)
        self.queue: list[Board] = []
        self.position: dict[Board, int] = {}
        self.foretell: Callable[[int], list[Board]] | None = None
        self.asked = 0
        self.enqueue(boards)

    def enqueue(self, boards: Iterable[Board]) -> None:
        """Boards about to be asked for, in order (replacing the earlier queue)."""
        self.queue = list(dict.fromkeys(boards))
        self.position = {b: i for i, b in enumerate(self.queue)}

    def start(self, foretell: Callable[[int], list[Board]] | None) -> None:
        """A new sequence of requests (a fuzz run), foretold by `foretell`."""
        self.foretell, self.asked = foretell, 0
        self.enqueue(())

    def __call__(self, board: Board) -> Resolution:
        self.asked += 1
        if not self._settled(board):
            if board not in self.position and self.foretell is not None:
                self.enqueue(self.foretell(max(self.FIRST_WINDOW, 2 * self.asked)))
            start = self.position.get(board)
            self.alone += start is None
            chunk = [board] if start is None else [
                b for b in self.queue[start:start + self.batch_size] if not self._settled(b)
            ]
            for b, outcome in zip(chunk, resolve_many(chunk, self.batch_size)):
                if isinstance(outcome, ResolveFailure):
                    self.failed[b] = outcome
                else:
                    self.done[b] = outcome
        if board in self.failed:
            raise self.failed[board].error()
        return self.done[board]

    def _settled(self, board: Board) -> bool:
        return board in self.done or board in self.failed


def _batches(boards: Sequence[Board], size: int) -> Iterator[list[int]]:
    groups: dict[tuple, list[int]] = {}
    for i, board in enumerate(boards):
        groups.setdefault((board.ruleset, tuple(sorted(board.readings_in_force.items()))), []).append(i)
    for (ruleset, _), members in groups.items():
        # A procedure whose steps are global to the program (`batch = false` in its
        # procedure.toml: layered picks one effect per step among all objects) resolves each
        # board alone.
        if not ruleset.plan.get("batch", True):
            yield from ([i] for i in members)
            continue
        batch: list[int] = []
        objects = 0
        for i in members:
            n = len(boards[i].objects)
            if batch and (len(batch) >= size or objects + n > BATCH_OBJECTS):
                yield batch
                batch, objects = [], 0
            batch.append(i)
            objects += n
        if batch:
            yield batch


def _resolve_batch(boards: list[Board], time_limit: float | None = None) -> list[Resolution]:
    """Round by round, as riftasp.solver.run does for one board; a board whose round withdrew
    nothing is done, the others go on together with their withdrawals excluded."""
    ruleset = boards[0].ruleset
    split = _Splitter(boards)
    facts = [_scoped_facts(board, k) for k, board in enumerate(boards)]
    stats = [SolveStats() for _ in boards]
    rounds = [Rounds(stats[k], []) for k in range(len(boards))]
    trial_atoms: dict[int, list[Atom]] = {}  # a board's round to fall back on (Rounds.fallback)
    final: list[list[Atom]] = [[] for _ in boards]
    withdrawn: list[list[Withdrawn]] = [[] for _ in boards]
    deadline = Deadline(time_limit)
    active = list(range(len(boards)))
    while active:
        program = ruleset_facts(ruleset) + "".join(facts[k] + "".join(rounds[k].carried) for k in active)
        symbols = solve_round(program, ruleset, SolveStats(), deadline)
        # Plain data once per round: splitting and decoding read every atom's arguments, and
        # each clingo accessor crosses into C.
        memo: Memo = {}
        shown = split.by_board(symbols, atoms(symbols, memo), active)
        going_on = []
        for k in active:
            stats[k].rounds += 1
            board_symbols, board_atoms = shown[k]
            answer = rounds[k].after(board_symbols)
            if answer is None:
                going_on.append(k)
                continue
            if answer is not board_symbols:  # the trial before this round is the answer
                board_atoms = trial_atoms[k]
            final[k] = [split.strip(atom, k) for atom in board_atoms]
            withdrawn[k] = [split.strip_withdrawn(withdrawn_terms(w, memo), k) for w in stats[k].withdrawn]
        for k in going_on:
            fallback = rounds[k].fallback
            if fallback is not None and fallback[0] is shown[k][0]:
                trial_atoms[k] = shown[k][1]
        active = going_on
    return [decode_atoms(final[k], ruleset, withdrawn[k]) for k in range(len(boards))]


def _scoped_facts(board: Board, k: int) -> str:
    scoped = prefixed(board, f"{k}:")
    scope = [f"in_scope({quote(o.id)},{k})." for o in scoped.objects]
    scope += [f"in_scope({quote(e.id)},{k})." for e in scoped.effects]
    return board_facts(scoped) + "\n".join(scope) + "\n"


def prefixed(board: Board, prefix: str) -> Board:
    """The board with every object and effect id, and every reference to one, prefixed."""
    return renamed(board, lambda oid: prefix + oid, lambda eid: prefix + eid)


def renamed(board: Board, object_id: Callable[[str], str], effect_id: Callable[[str], str]) -> Board:
    """The board with every object id, and every reference to one, renamed by `object_id`, and
    every effect id by `effect_id` (riftasp/research/properties.py: `rename`)."""
    def ref(oid: str | None) -> str | None:
        return None if oid is None else object_id(oid)

    def effect(e: Effect) -> Effect:
        target = e.target
        if target.ids:
            target = Target(target.kind, tuple(object_id(i) for i in target.ids), target.filter)
        op = e.op.with_params(of=ref(e.op.of)) if e.op.of is not None else e.op
        conditions = tuple(
            c if c.of in SYMBOLIC_REFS else c.with_of(object_id(c.of)) for c in e.conditions
        )
        return replace(e, id=effect_id(e.id), op=op, target=target, conditions=conditions,
                       source=ref(e.source))

    # The ruleset's own keys that name an object (Sorcery's `linked`) are references too.
    refs = {f.name for f in board.ruleset.object_fields if f.kind == OBJECT_ID}

    def obj(o: GameObject) -> GameObject:
        params = {k: ref(v) if k in refs else v for k, v in o.params}
        return replace(o, id=object_id(o.id), attached_to=ref(o.attached_to),
                       rules_text=tuple(map(effect, o.rules_text)),
                       effect_text=tuple(map(effect, o.effect_text)), params=tuple(sorted(params.items())))

    return replace(board, objects=tuple(map(obj, board.objects)), effects=tuple(map(effect, board.effects)))


class _Splitter:
    """Which board a shown atom belongs to, and the atom with that board's prefix removed; on
    atoms as plain data (riftasp.decode.atoms), whose ids are Python strings."""

    def __init__(self, boards: list[Board]) -> None:
        self.owner: dict[str, tuple[int, str]] = {}  # prefixed id -> (board, id)
        for k, board in enumerate(boards):
            ids = [o.id for o in board.objects] + [e.id for e in board.effects]
            ids += [e.id for o in board.objects for e in (*o.rules_text, *o.effect_text)]
            for i in ids:
                self.owner[f"{k}:{i}"] = (k, i)

    def by_board(
        self, symbols: list[clingo.Symbol], shown: list[Atom], boards: list[int]
    ) -> dict[int, tuple[list[clingo.Symbol], list[Atom]]]:
        """Each board's symbols and atoms (`shown[i]` is `symbols[i]` as data); an atom naming
        no board's id (stage/4, set_valued/1) goes to every board."""
        parts: dict[int, tuple[list[clingo.Symbol], list[Atom]]] = {k: ([], []) for k in boards}
        for sym, atom in zip(symbols, shown):
            k = self.board_of(atom)
            for board_symbols, board_atoms in (parts.values() if k is None else [parts[k]]):
                board_symbols.append(sym)
                board_atoms.append(atom)
        return parts

    def board_of(self, t: Term) -> int | None:
        """The board of the first prefixed id in `t`, depth first."""
        if isinstance(t, str):
            found = self.owner.get(t)
            return None if found is None else found[0]
        if isinstance(t, tuple):
            for arg in t[1:]:  # t[0] is a name, not an id
                k = self.board_of(arg)
                if k is not None:
                    return k
        return None

    @overload
    def strip(self, t: str, k: int) -> str: ...
    @overload
    def strip(self, t: Atom, k: int) -> Atom: ...
    @overload
    def strip(self, t: Term, k: int) -> Term: ...

    def strip(self, t: Term, k: int) -> Term:
        """`t` with board k's prefixed ids as the board has them (other strings kept)."""
        if isinstance(t, str):
            found = self.owner.get(t)
            return found[1] if found is not None and found[0] == k else t
        if isinstance(t, tuple) and len(t) > 1:
            return (t[0], *[self.strip(arg, k) for arg in t[1:]])
        return t

    def strip_withdrawn(self, w: Withdrawn, k: int) -> Withdrawn:
        return w._replace(
            instance=self.strip(w.instance, k),
            object=self.strip(w.object, k),
            because=tuple((self.strip(i, k), self.strip(o, k)) for i, o in w.because),
        )


__all__ = ["BATCH_SIZE", "Outcome", "Prefetching", "ResolveFailure", "prefixed", "renamed", "resolve_all",
           "resolve_each", "resolve_many"]
