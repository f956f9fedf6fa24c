"""Many boards in one program: `resolve_many(boards) -> [Resolution]`, identical to resolving
each board alone, at a fraction of the cost per board.

Small boards spend most of their time in clingo's fixed costs (loading and grounding the
encoding, a ground call per step). A batch pays them once: each board's object and effect ids
get the prefix `K:` (ids never contain ":", so prefixed ids cannot collide), each board's
objects and ongoing effects are put in scope K (`in_scope/2`, encodings/core/instances.lp: a
filter reaches only its own board), and the shown atoms are split by board again and the
prefixes removed before decoding. Boards of one batch share the ruleset and the settings (the
encoding reads them as global facts), so boards are grouped by those first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import overload

import clingo

from .decode import Atom, Memo, Term, Withdrawn, atoms, decode_atoms, withdrawn_terms
from .facts import board_facts
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


def resolve_many(
    boards: Iterable[Board], batch_size: int = BATCH_SIZE, time_limit: float | None = None
) -> list[Resolution]:
    """Each board's Resolution, in order, as `riftasp.resolve.resolve` gives it. `time_limit`
    (seconds) applies to each board, as in `resolve`: they are resolved one at a time, each in a
    worker process killed at the limit, and TimeLimitExceeded names the board that was stopped."""
    boards = list(boards)
    if time_limit is not None:
        return [_resolve_one_within(board, time_limit) for board in boards]
    results: list[Resolution | None] = [None] * len(boards)
    for positions in _batches(boards, batch_size):
        for position, resolution in zip(positions, _resolve_batch([boards[i] for i in positions], time_limit)):
            results[position] = resolution
    return results  # type: ignore[return-value]


def _resolve_one_within(board: Board, time_limit: float) -> Resolution:
    from .limits import TimeLimitExceeded
    from .resolve import resolve

    try:
        return resolve(board, time_limit=time_limit)
    except TimeLimitExceeded as err:
        raise TimeLimitExceeded(err.seconds, board.source) from None


class Prefetching:
    """riftasp's resolution of boards asked for one at a time: the first request for a queued
    board resolves it with the queued boards after it, `batch_size` at a time. Answers are kept
    by board (boards are frozen dataclasses), so a board asked for again costs nothing.

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
        if board not in self.done:
            if board not in self.position and self.foretell is not None:
                self.enqueue(self.foretell(max(self.FIRST_WINDOW, 2 * self.asked)))
            start = self.position.get(board)
            self.alone += start is None
            chunk = [board] if start is None else [
                b for b in self.queue[start:start + self.batch_size] if b not in self.done
            ]
            for b, resolution in zip(chunk, resolve_many(chunk, self.batch_size)):
                self.done[b] = resolution
        return self.done[board]


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


__all__ = ["BATCH_SIZE", "Prefetching", "prefixed", "renamed", "resolve_many"]
