"""Every outcome a board permits (issue 38): `riftasp outcomes BOARD [--open ID,…]`.

The board is resolved once per *branch*: one combination of the choices the rules leave to the
players or that the rules themselves leave open, and the branches' final objects are compared as
riftasp/compare.py compares two engines' (characteristic by characteristic). Equal branches are
one *outcome*; a branch whose resolution reports a paradox is no outcome and is listed apart.
The branches are the product of three kinds of choice:

- **Cards entering together** (Sorcery, docs/semantics-sorcery.md §2 "Simultaneous entry"): the
  objects in the realm with one `since` and one controller whose text dates from that `since`
  entered together, and their player chooses their order (the active player's cards come first
  whatever the choice: the engines order the two players' groups themselves). Each order of each
  such group is a branch, written as the objects' `entry_order` (0, 1, …), where the reading
  `entry_order` (choice point S1) is `choice`, Sorcery's; under `listing` the board's listing order
  is taken as the order chosen and there is one branch. A **stated** `entry_order` is the choice already made — the board records the
  order the player chose, as it records a timestamp — so it is kept: only the objects of a group
  without one are permuted, after the stated ones, as the engines place them
  (examples/sorcery/entering-together-stated-order.json has one branch,
  entering-together-chosen-order.json two).
- **Timestamp ties**, when the reading `ties` is `choice` (Riftbound's choice point R5,
  docs/semantics.md §7): instances with one timestamp may go in any order, and every order of
  each timestamp's instances is a branch. Listing order cannot realise every such order — every
  object's slots come before every ongoing effect, an object's slots go as one block, and object
  order orders other things too (the targets of one instance) — so the lists stay as they are and
  the order is written in the timestamps instead. Every time on the board (`since`,
  `attached_since`, the objects' stamp keys such as `buff_since`, every effect's `timestamp`) is
  multiplied by S, one more than the largest group, which keeps every order between different
  times; the *carriers* of a shared timestamp t are then stamped t·S + 0, 1, … in the branch's
  order (the order that follows listing order resolves as the board itself does). A carrier is
  what stamps an instance on the board: an effect's `timestamp` (given explicitly to a text
  effect), a buff's `buff_since`, a Might Bonus's `attached_since`, an object's `since` for its
  printed bonus keywords; whatever else that `since` or `attached_since` stamped is given its
  value explicitly first, so that only the carrier moves. Counted are the instances on the board
  (an attached object's own rules text is inactive). Not parted, and listed as
  `unpermuted_ties` when a branch still reports them tied: instances whose timestamp the board
  does not state (a copied ability, a keyword an application brought: they keep the time of what
  brought them) and the bonus keywords of one object (one carrier).
- **Choice points** opened by id (`--open R4,S3`, riftasp/choice_points.py): each value of the
  point's switch, a `[readings]` key, set through `Board.readings`. A point without a switch
  cannot be opened.

`outcomes(board, …)` returns an `Outcomes`: `.unique` (exactly one outcome and no branch a
paradox), `.outcomes` (each
with the choices of every branch leading to it and its final objects, the resolve JSON's
`objects`), `.paradox_branches`, `.differing` and `to_json()`. With `states=True` it also asks the
declarative checker (riftasp/check/declarative.py) of every branch's board for a consistent final
state (`consistent_states`) and whether the branch's own state is one (`examine`), and flags a
consistent state no branch reaches and a branch whose state is not consistent.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..choice_points import ChoicePoint, choice_points
from ..compare import OBJECT_FIELD, compare, normalize
from ..model import Board, Effect, GameObject, given_params

ENGINES = ("asp", "reference")
MAX_BRANCHES = 64
FORMATS = ("text", "md", "html")
# Exit codes of the command: one outcome; several, or none (every branch a paradox). Bad input: 2.
UNIQUE, NOT_UNIQUE = 0, 1

Resolver = Callable[[list[Board]], list[dict[str, Any]]]


class OutcomesError(ValueError):
    """Bad input, one line: the option it is about and what is wrong."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


# ---- branches and outcomes ----------------------------------------------------------------------


@dataclass(frozen=True)
class Branch:
    """One resolution: its choices (label -> value, in the order they are made), the board it
    resolved and its result (the resolve JSON)."""

    choices: dict[str, Any]
    board: Board = field(repr=False, compare=False)
    result: dict[str, Any] = field(repr=False, compare=False)

    @property
    def paradoxes(self) -> list[list[str]]:
        return self.result.get("paradoxes", [])

    @property
    def objects(self) -> dict[str, Any]:
        return self.result["objects"]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"choices": self.choices}
        if self.paradoxes:
            data["paradoxes"] = self.paradoxes
        return data


@dataclass(frozen=True)
class Outcome:
    """One distinct final state: the branches that reach it (their choices) and its objects."""

    branches: tuple[Branch, ...]

    @property
    def choices(self) -> list[dict[str, Any]]:
        return [b.choices for b in self.branches]

    @property
    def objects(self) -> dict[str, Any]:
        return self.branches[0].objects

    def to_json(self) -> dict[str, Any]:
        return {"choices": self.choices, "objects": self.objects}


@dataclass(frozen=True)
class Difference:
    """One characteristic of one object that is not the same in every outcome: its value in each
    (as compared; an object one outcome lacks: `field` "object", None there)."""

    object: str
    field: str
    values: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        return {"object": self.object, "field": self.field, "values": list(self.values)}


@dataclass(frozen=True)
class FoundState:
    """A consistent final state the declarative checker found (object -> its values), and the
    outcomes (numbered from 1) whose objects it is."""

    objects: dict[str, Any]
    reached_by: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"objects": self.objects, "reached_by": list(self.reached_by)}


@dataclass(frozen=True)
class States:
    """What the declarative checker says of the branches (`--states`)."""

    found: tuple[FoundState, ...]
    not_consistent: tuple[Branch, ...]  # branches (no paradox) whose final state is not consistent
    not_judged: tuple[str, ...]  # why some branch was not judged (distinct reasons)

    @property
    def flags(self) -> list[str]:
        out = [f"a consistent state no branch reaches: state {n}"
               for n, s in enumerate(self.found, 1) if not s.reached_by]
        out += [f"not a consistent state: the branch {_choices_text(b.choices)}" for b in self.not_consistent]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"found": [s.to_json() for s in self.found],
                "not_consistent": [b.to_json() for b in self.not_consistent],
                "not_judged": list(self.not_judged), "flags": self.flags}  # fmt: skip


@dataclass(frozen=True)
class Outcomes:
    """Every outcome of one board (`outcomes()`)."""

    source: str
    ruleset: str
    branches: tuple[Branch, ...]
    outcomes: tuple[Outcome, ...]
    paradox_branches: tuple[Branch, ...]
    differing: tuple[Difference, ...]
    unpermuted_ties: tuple[tuple[str, ...], ...] = ()
    states: States | None = None
    points: tuple[ChoicePoint, ...] = ()  # the choice points opened

    @property
    def unique(self) -> bool:
        """One outcome, whatever the choices: no branch is a paradox either (a choice that decides
        whether the board has a consistent state at all is a choice that matters)."""
        return len(self.outcomes) == 1 and not self.paradox_branches

    @property
    def paradox_ids(self) -> list[str]:
        """Every instance some paradox branch names, sorted."""
        return sorted({name for b in self.paradox_branches for p in b.paradoxes for name in p})

    @property
    def exit_code(self) -> int:
        return UNIQUE if self.unique else NOT_UNIQUE

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "board": self.source, "ruleset": self.ruleset, "branches": len(self.branches),
            "unique": self.unique, "outcomes": [o.to_json() for o in self.outcomes],
            "paradox_branches": [b.to_json() for b in self.paradox_branches],
            "differing": [d.to_json() for d in self.differing],
            "unpermuted_ties": [list(t) for t in self.unpermuted_ties],
        }  # fmt: skip
        if self.states is not None:
            data["states"] = self.states.to_json()
        return data

    # -- for people --------------------------------------------------------------------------------

    def text(self) -> str:
        lines = []
        if not self.outcomes:
            lines.append(f"no outcome: paradox ({', '.join(self.paradox_ids)})")
        elif self.unique:
            lines.append("unique" if len(self.branches) == 1 else f"unique ({len(self.branches)} branches)")
        else:
            paradoxes = f" and {_plural(len(self.paradox_branches), 'paradox branch', 'paradox branches')}"
            lines.append(f"{_plural(len(self.outcomes), 'outcome', 'outcomes')}"
                         f"{paradoxes if self.paradox_branches else ''} ({len(self.branches)} branches)")
            for n, outcome in enumerate(self.outcomes, 1):
                shown = "; ".join(f"{d.object}.{d.field} = {_value_text(d.values[n - 1])}" for d in self.differing)
                lines.append(f"outcome {n}:" + (f" {shown}" if shown else ""))
                lines += [f"  - {_choices_text(c)}" for c in outcome.choices]
            if self.differing:
                lines.append("differing: " + ", ".join(f"{d.object}.{d.field}" for d in self.differing))
        if self.paradox_branches and self.outcomes:
            lines.append(f"paradox in {_plural(len(self.paradox_branches), 'branch', 'branches')} (no outcome):")
        if self.paradox_branches and (self.outcomes or len(self.branches) > 1):
            lines += [f"  - {_choices_text(b.choices)}: paradox ({', '.join(sorted({n for p in b.paradoxes for n in p}))})"
                      for b in self.paradox_branches]
        if self.unpermuted_ties:
            lines.append("ties not permuted (no timestamp of their own on the board, or one carrier): "
                         + "; ".join(", ".join(t) for t in self.unpermuted_ties))
        if self.states is not None:
            lines += self._states_text()
        return "\n".join(lines)

    def _states_text(self) -> list[str]:
        assert self.states is not None
        s = self.states
        lines = [f"consistent states (declarative checker): {len(s.found)} found"]
        for n, state in enumerate(s.found, 1):
            where = (", ".join(f"outcome {k}" for k in state.reached_by) if state.reached_by
                     else "no branch: FLAG")  # fmt: skip
            lines.append(f"  state {n}: reached by {where}")
            if not state.reached_by:
                lines += [f"    {line}" for line in _state_lines(state.objects, self._first_objects())]
        for b in s.not_consistent:
            lines.append(f"  FLAG: the branch {_choices_text(b.choices)} is not a consistent state")
        for why in s.not_judged:
            lines.append(f"  not judged: {why}")
        return lines

    def _first_objects(self) -> dict[str, Any]:
        if self.outcomes:
            return self.outcomes[0].objects
        return self.branches[0].objects if self.branches else {}

    def choices_table(self) -> tuple[list[str], list[list[str]]]:
        """Each branch: its choices and the outcome it reaches (or its paradox)."""
        labels = list(dict.fromkeys(k for b in self.branches for k in b.choices))
        number = {id(b): n for n, o in enumerate(self.outcomes, 1) for b in o.branches}
        rows = []
        for n, b in enumerate(self.branches, 1):
            result = (str(number[id(b)]) if id(b) in number
                      else f"paradox ({', '.join(sorted({x for p in b.paradoxes for x in p}))})")  # fmt: skip
            rows.append([str(n), *(_value_text(b.choices[k]) if k in b.choices else "" for k in labels), result])
        return ["branch", *labels, "outcome"], rows

    def html(self, engine: str) -> str:
        """`--format html`: the choices, then each outcome with the board its first branch
        resolved, its values beside another outcome's (outcome 1's; outcome 2's beside outcome
        1), its graph and the explanations of the objects the outcomes differ on (each such
        board resolved again here, on `engine`); then each paradox branch."""
        from ..commands import engine_for
        from ..picture.findings import Finding, findings_page, side_rows

        resolve = engine_for(engine)
        differing = list(dict.fromkeys(d.object for d in self.differing))
        found = []
        for n, outcome in enumerate(self.outcomes, 1):
            board = outcome.branches[0].board
            other = 2 if n == 1 else 1
            rows = side_rows(board.ruleset, outcome.objects, self.outcomes[other - 1].objects) \
                if len(self.outcomes) > 1 else []  # fmt: skip
            found.append(Finding(f"outcome {n}", [f"reached by: {_choices_text(c)}" for c in outcome.choices], board,
                                 (f"outcome {n}", f"outcome {other}"), rows, resolve(board),
                                 differing or sorted(outcome.objects)))  # fmt: skip
        for b in self.paradox_branches:
            names = ", ".join(sorted({x for p in b.paradoxes for x in p}))
            found.append(Finding(f"paradox: {_choices_text(b.choices)}", [f"no outcome: paradox ({names})"], b.board,
                                 resolution=resolve(b.board), explained=[]))  # fmt: skip
        parameters = [("board", self.source), ("ruleset", self.ruleset), ("engine", engine),
                      ("choice points opened", ", ".join(p.id for p in self.points) or "none")]  # fmt: skip
        counts = [("branches", len(self.branches)), ("outcomes", len(self.outcomes)),
                  ("paradox branches", len(self.paradox_branches))]  # fmt: skip
        notes = [f"{p.id}, {p.decision}: {p.sentence}. In force: {p.reading}" for p in self.points]
        if self.differing:
            notes.append("differing: " + ", ".join(f"{d.object}.{d.field}" for d in self.differing))
        if self.unpermuted_ties:
            notes.append("ties not permuted (no timestamp of their own on the board, or one carrier): "
                         + "; ".join(", ".join(t) for t in self.unpermuted_ties))
        if self.states is not None:
            notes += self._states_text()
        return findings_page(f"Outcomes of {self.source}", parameters, counts, self.text().splitlines()[0],
                             self.unique, found, notes, [self.choices_table()])  # fmt: skip

    def markdown(self) -> str:
        lines = [f"# Outcomes of `{self.source}`", ""]
        if not self.outcomes:
            lines.append(f"**No outcome**: every branch is a paradox ({', '.join(self.paradox_ids)}).")
        elif self.unique:
            lines.append(f"**Unique**: one outcome from {_plural(len(self.branches), 'branch', 'branches')}.")
        else:
            lines.append(f"**{len(self.outcomes)} outcomes** from {_plural(len(self.branches), 'branch', 'branches')}.")
        lines += ["", "## Choices", ""]
        lines += _md_table(*self.choices_table())
        if self.differing:
            lines += ["", "## Differing fields", ""]
            header = ["object", "field", *(f"outcome {n}" for n in range(1, len(self.outcomes) + 1))]
            lines += _md_table(header, [[d.object, d.field, *map(_value_text, d.values)] for d in self.differing])
        if self.points:
            lines += ["", "## Choice points opened", ""]
            lines += [f"- **{p.id}**, {p.decision}: {p.sentence}. In force: {p.reading}; the alternatives: "
                      f"{'; '.join(p.alternatives)}." for p in self.points]
        if self.branches:
            from .compare import board_tables  # (the same tables as compare's report)

            lines += ["", "## The board", ""] + board_tables(self.branches[0].board)
        differing_objects = list(dict.fromkeys(d.object for d in self.differing))
        for n, outcome in enumerate(self.outcomes, 1):
            if not differing_objects:
                break
            applied = outcome.branches[0].result.get("applied", {})
            lines += ["", f"## How outcome {n} comes about", ""]
            for oid in differing_objects:
                lines += [f"- {oid}, step {a.get('step')}: {a.get('effect')} ({a.get('layer')}"
                          + (f".{a['sublayer']}" if a.get("sublayer") else "")
                          + f"; {', '.join(a.get('reasons', []))}): {a.get('characteristic')} "
                          f"{_value_text(a.get('before'))} -> {_value_text(a.get('after'))}"
                          for a in applied.get(oid, [])]
        if self.unpermuted_ties:
            lines += ["", "Ties not permuted (no timestamp of their own on the board, or one carrier): "
                      + "; ".join(", ".join(f"`{n}`" for n in t) for t in self.unpermuted_ties) + "."]
        if self.states is not None:
            lines += ["", "## Consistent states (declarative checker)", ""]
            for n, state in enumerate(self.states.found, 1):
                where = ", ".join(f"outcome {k}" for k in state.reached_by) or "**no branch** (flag)"
                lines.append(f"- state {n}: reached by {where}")
                if not state.reached_by:
                    lines += [f"  - {line}" for line in _state_lines(state.objects, self._first_objects())]
            for b in self.states.not_consistent:
                lines.append(f"- **flag**: the branch {_choices_text(b.choices)} is not a consistent state")
            for why in self.states.not_judged:
                lines.append(f"- not judged: {why}")
        return "\n".join(lines)


# ---- the choices ----------------------------------------------------------------------------------


def opened_points(board: Board, ids: Iterable[str]) -> list[ChoicePoint]:
    """The choice points `ids` names (duplicates once), each switchable."""
    points = {p.id: p for p in choice_points(board.ruleset.name)}
    out: list[ChoicePoint] = []
    for raw in ids:
        pid = raw.strip()
        if not pid or any(p.id == pid for p in out):
            continue
        point = points.get(pid)
        if point is None:
            known = ", ".join(points) or "none"
            raise OutcomesError("--open", f"unknown choice point {pid!r} (the {board.ruleset} ruleset's: {known})")
        if point.switch is None:
            raise OutcomesError("--open", f"choice point {pid} ({point.decision}) is not switchable: {point.why_not}")
        if not point.values:
            raise OutcomesError("--open", f"choice point {pid} ({point.decision}) lists no values for its switch {point.switch}")
        out.append(point)
    return out


def _reading_options(points: Sequence[ChoicePoint]) -> list[list[tuple[str, str, Any]]]:
    """Per opened point, its options: (label, switch, value)."""
    return [[(f"{p.id} {p.switch}", p.switch, v) for v in p.values] for p in points if p.switch is not None]


def _with_params(obj: GameObject, **changes: Any) -> GameObject:
    return replace(obj, params=given_params({**dict(obj.params), **changes}))


def _board_zones(board: Board) -> frozenset[str]:
    return frozenset(board.ruleset.vocabulary.board_zones)


@dataclass(frozen=True)
class _EntryGroup:
    """Objects that entered the realm together under one player (§2 "Simultaneous entry"):
    `stated` in their stated order, `open` the ones whose order is a choice."""

    since: int
    player: str
    stated: tuple[GameObject, ...]
    open: tuple[GameObject, ...]

    @property
    def label(self) -> str:
        return f"entering together at {self.since} ({self.player})"

    def orders(self) -> list[tuple[str, ...]]:
        return [tuple(o.id for o in perm) for perm in itertools.permutations(self.open)]


def entry_groups(board: Board) -> list[_EntryGroup]:
    """The groups of cards entering together whose order is a choice (two or more without a
    stated `entry_order`): a ruleset with the object key `entry_order` (Sorcery) only."""
    if "entry_order" not in {f.name for f in board.ruleset.object_fields}:
        return []
    zones = _board_zones(board)
    groups: dict[tuple[int, str], list[GameObject]] = {}
    for obj in board.objects:
        dated = [e for e in (*obj.rules_text, *obj.effect_text) if e.timestamp is None]
        if obj.zone in zones and dated:
            groups.setdefault((obj.since, obj.controller), []).append(obj)
    active = board.active_player
    out = []
    for (since, player), objs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] != active, kv[0][1])):
        stated = tuple(sorted((o for o in objs if o.entry_order is not None), key=lambda o: o.entry_order))
        free = tuple(o for o in objs if o.entry_order is None)
        if len(free) >= 2:
            out.append(_EntryGroup(since, player, stated, free))
    return out


def _with_entries(board: Board, chosen: Sequence[tuple[_EntryGroup, tuple[str, ...]]]) -> Board:
    """The board with each group's open objects given `entry_order` in the chosen order, after
    the stated ones."""
    orders: dict[str, int] = {}
    for group, order in chosen:
        first = 1 + max((o.entry_order for o in group.stated), default=-1)
        orders.update({oid: first + n for n, oid in enumerate(order)})
    if not orders:
        return board
    return replace(board, objects=tuple(_with_params(o, entry_order=orders[o.id]) if o.id in orders else o
                                        for o in board.objects))  # fmt: skip


# ---- timestamp ties (the reading ties = choice) --------------------------------------------------------


@dataclass(frozen=True)
class _Carrier:
    """What stamps an instance on the board: ("effect", E) an effect's timestamp, ("flag", O)
    O's buff stamp, ("bonus", G) G's `attached_since` for its Might Bonus, ("keywords", O) O's
    `since` for its printed bonus keywords. `names`: the instances it stamps."""

    key: tuple[str, str]
    time: int
    listing: tuple[int, int, int]
    names: tuple[str, ...]


def carriers(board: Board) -> list[_Carrier]:
    """Every carrier of an instance the board may have, in listing order."""
    rules = board.ruleset
    zones = _board_zones(board)
    by_id = {o.id: o for o in board.objects}
    flags = [f for f in rules.object_fields if f.reach == "plus_one" and f.stamp]  # the buff
    bonuses = [f for f in rules.object_fields if f.reach == "bearer"]  # the Might Bonus
    bonus_keywords = rules.keywords.bonus  # keyword -> the status it adds during
    out: list[_Carrier] = []
    for i, o in enumerate(board.objects):
        if o.zone not in zones:
            continue
        if o.attached_to is None:  # (an attached object's own rules text is inactive)
            for p, e in enumerate(o.rules_text):
                out.append(_Carrier(("effect", e.id), o.since if e.timestamp is None else e.timestamp, (i, 0, p), (e.id,)))
        bearer = by_id.get(o.attached_to) if o.attached_to is not None else None
        if bearer is not None and bearer.zone in zones:
            stamp = o.since if o.attached_since is None else o.attached_since
            for p, e in enumerate(o.effect_text):
                out.append(_Carrier(("effect", e.id), stamp if e.timestamp is None else e.timestamp, (i, 1, p), (e.id,)))
            if any(getattr(o, f.name) for f in bonuses):
                out.append(_Carrier(("bonus", o.id), stamp, (i, 3, 0), (f"bonus:{o.id}",)))
        for f in flags:
            if getattr(o, f.name):
                given = getattr(o, f.stamp)
                out.append(_Carrier(("flag", o.id), o.since if given is None else given, (i, 2, 0), (f"buff:{o.id}",)))
        keywords = sorted({k.name for k in o.keywords if bonus_keywords.get(k.name) in o.status})
        if keywords:
            out.append(_Carrier(("keywords", o.id), o.since, (i, 4, 0), tuple(f"keyword:{k}:{o.id}" for k in keywords)))
    first = len(board.objects)
    for j, e in enumerate(board.effects):
        if e.timestamp is not None:
            out.append(_Carrier(("effect", e.id), e.timestamp, (first + j, 0, 0), (e.id,)))
    return sorted(out, key=lambda c: c.listing)


def spread(board: Board, placed: dict[int, list[_Carrier]], scale: int) -> Board:
    """The board with every time multiplied by `scale` and the carriers of each timestamp t in
    `placed` stamped t·scale + their place in its list."""
    new = {c.key: t * scale + n for t, cs in placed.items() for n, c in enumerate(cs)}

    def times(value: int | None) -> int | None:
        return None if value is None else value * scale

    stamps = [f.stamp for f in board.ruleset.object_fields if f.stamp]
    flags = [f for f in board.ruleset.object_fields if f.reach == "plus_one" and f.stamp]
    objects = []
    for o in board.objects:
        since, attached = times(o.since), times(o.attached_since)
        moves_since = ("keywords", o.id) in new  # since then stamps its bonus keywords only
        moves_attached = ("bonus", o.id) in new  # attached_since then stamps its Might Bonus only
        text_stamp = attached if attached is not None else since

        def text(e: Effect, default: int | None, frozen: bool) -> Effect:
            if ("effect", e.id) in new:
                return replace(e, timestamp=new["effect", e.id])
            if e.timestamp is not None:
                return replace(e, timestamp=times(e.timestamp))
            return replace(e, timestamp=default) if frozen else e

        rules_text = tuple(text(e, since, moves_since) for e in o.rules_text)
        effect_text = tuple(text(e, text_stamp, moves_attached or (moves_since and attached is None))
                            for e in o.effect_text)  # fmt: skip
        params: dict[str, Any] = {k: times(getattr(o, k)) for k in stamps if getattr(o, k) is not None}
        for f in flags:
            if ("flag", o.id) in new:
                params[f.stamp] = new["flag", o.id]
            elif moves_since and getattr(o, f.name) and getattr(o, f.stamp) is None:
                params[f.stamp] = since
        if moves_attached:
            attached = new["bonus", o.id]
        elif moves_since and o.attached_to is not None and attached is None:
            attached = since
        if moves_since:
            since = new["keywords", o.id]
        assert since is not None
        objects.append(_with_params(replace(o, since=since, attached_since=attached, rules_text=rules_text,
                                            effect_text=effect_text), **params))  # fmt: skip
    effects = tuple(replace(e, timestamp=new["effect", e.id]) if ("effect", e.id) in new else
                    replace(e, timestamp=times(e.timestamp)) for e in board.effects)  # fmt: skip
    return replace(board, objects=tuple(objects), effects=effects)


def tie_groups(board: Board) -> list[list[_Carrier]]:
    """The carriers of each timestamp that has two or more, in listing order, by timestamp."""
    at: dict[int, list[_Carrier]] = {}
    for c in carriers(board):
        at.setdefault(c.time, []).append(c)
    return [cs for _, cs in sorted(at.items()) if len(cs) >= 2]


def tie_branches(board: Board) -> list[tuple[dict[str, Any], Board]]:
    """(choices, board) for every order of every tie group (the board alone when it has none)."""
    groups = tie_groups(board)
    if not groups:
        return [({}, board)]
    scale = 1 + max(len(cs) for cs in groups)
    out = []
    for combo in itertools.product(*(itertools.permutations(cs) for cs in groups)):
        choices = {f"tie at timestamp {order[0].time}": [n for c in order for n in c.names] for order in combo}
        out.append((choices, spread(board, {order[0].time: list(order) for order in combo}, scale)))
    return out


def tie_count(board: Board) -> int:
    return math.prod(math.factorial(len(cs)) for cs in tie_groups(board))


# ---- resolving ------------------------------------------------------------------------------------------


def resolver(engine: str) -> Resolver:
    """Many boards -> their resolve JSON, with the engine named."""
    if engine == "asp":
        from ..batch import resolve_all

        return lambda boards: [r.to_json() for r in resolve_all(boards)]
    if engine == "reference":
        from ..reference import resolve

        return lambda boards: [resolve(b).to_json() for b in boards]
    raise OutcomesError("--engine", f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")


class TooManyBranches(OutcomesError):
    def __init__(self, count: int, limit: int) -> None:
        super().__init__("--max", f"the choices make {count} branches, more than --max {limit} "
                                  "(open fewer choice points or raise --max)")
        self.count, self.limit = count, limit


def outcomes(board: Board, open_points: Iterable[str] = (), max_branches: int = MAX_BRANCHES,
             engine: str = "asp", states: bool = False, resolve: Resolver | None = None) -> Outcomes:
    """Every outcome `board` permits (the module's docstring). Raises OutcomesError on bad input
    (an unknown or unswitchable choice point, an unknown engine, more than `max_branches`
    branches); the engines' own errors pass through. `resolve`: many boards -> their resolve JSON
    (default: the engine's)."""
    if max_branches < 1:
        raise OutcomesError("--max", f"must be at least 1, got {max_branches}")
    run = resolve if resolve is not None else resolver(engine)
    points = opened_points(board, open_points)
    readings = _reading_options(points)
    # Simultaneous entries are a choice where the reading entry_order says so (Sorcery's S1,
    # `choice` by default); the ruleset without the reading has no such groups.
    boards = []
    for reading_combo in itertools.product(*readings):
        overrides = {**dict(board.readings), **{switch: value for _, switch, value in reading_combo}}
        b = replace(board, readings=tuple(overrides.items())) if reading_combo else board
        groups = entry_groups(b) if b.readings_in_force.get("entry_order", "choice") == "choice" else []
        boards.append((reading_combo, b, groups))
    fixed = sum(math.prod(math.factorial(len(g.open)) for g in groups) for _, _, groups in boards)
    if fixed > max_branches:  # (before any order is listed: a big group has very many)
        raise TooManyBranches(fixed, max_branches)

    combos: list[tuple[dict[str, Any], Board]] = []  # (choices so far, board), in order
    for reading_combo, b, groups in boards:
        entries = [[(g, order) for order in g.orders()] for g in groups]
        for entry_combo in itertools.product(*entries):
            choices: dict[str, Any] = {label: value for label, _, value in reading_combo}
            choices.update({g.label: list(order) for g, order in entry_combo})
            combos.append((choices, _with_entries(b, entry_combo)))

    # Ties a choice: every order of each timestamp's carriers (tie_branches).
    tied = {n for n, (_, b) in enumerate(combos) if b.readings_in_force.get("ties") == "choice"}
    total = sum(tie_count(b) if n in tied else 1 for n, (_, b) in enumerate(combos))
    if total > max_branches:
        raise TooManyBranches(total, max_branches)
    made = [(n, {**choices, **more}, bb) for n, (choices, b) in enumerate(combos)
            for more, bb in (tie_branches(b) if n in tied else [({}, b)])]  # fmt: skip
    ordered = [Branch(choices, bb, res) for (_, choices, bb), res in zip(made, run([bb for _, _, bb in made]))]
    # What tied still where ties are a choice: instances the timestamps cannot part.
    unpermuted = {tuple(tie) for (n, _, _), b in zip(made, ordered) if n in tied
                  for tie in b.result.get("timestamp_ties", [])}  # fmt: skip
    return replace(_gathered(board, ordered, sorted(unpermuted), states), points=tuple(points))


def _gathered(board: Board, branches: list[Branch], unpermuted: list[tuple[str, ...]], states: bool) -> Outcomes:
    """The branches as distinct outcomes, paradoxes apart."""
    groups: list[list[Branch]] = []
    paradoxes = []
    for b in branches:
        if b.paradoxes:
            paradoxes.append(b)
            continue
        same = next((g for g in groups if not compare(board.source, g[0].result, b.result, board.ruleset)), None)
        if same is None:
            groups.append([b])
        else:
            same.append(b)
    found = tuple(Outcome(tuple(g)) for g in groups)
    return Outcomes(
        source=board.source, ruleset=board.ruleset.name, branches=tuple(branches), outcomes=found,
        paradox_branches=tuple(paradoxes), differing=tuple(differing(board, found)),
        unpermuted_ties=tuple(unpermuted), states=judged_states(board, branches, found) if states else None,
    )  # fmt: skip


def differing(board: Board, found: Sequence[Outcome]) -> list[Difference]:
    """The (object, field) pairs on which some outcome differs from the first, with each
    outcome's value, in object then field order."""
    if len(found) < 2:
        return []
    first = found[0]
    seen: dict[tuple[str, str], None] = {}
    for other in found[1:]:  # (equal to the first on a field, two outcomes are equal on it)
        for d in compare(board.source, first.branches[0].result, other.branches[0].result, board.ruleset):
            seen.setdefault((d.object, d.field), None)
    fields = [f.key for f in board.ruleset.output_fields if f.compared] + ["keywords"]
    order = {f: n for n, f in enumerate([OBJECT_FIELD, *fields])}
    out = []
    for oid, name in sorted(seen, key=lambda k: (k[0], order.get(k[1], len(order)))):
        values = [_compared_value(o.objects, oid, name, board) for o in found]
        out.append(Difference(oid, name, tuple(values)))
    return out


def _compared_value(objects: dict[str, Any], oid: str, name: str, board: Board) -> Any:
    if oid not in objects:
        return None
    if name == OBJECT_FIELD:
        return objects[oid]
    kinds = {f.key: f.kind for f in board.ruleset.output_fields} | {"keywords": "keywords"}
    return normalize(kinds.get(name, ""), objects[oid].get(name))


# ---- what the declarative checker says (--states) --------------------------------------------------------


def judged_states(board: Board, branches: Sequence[Branch], found: Sequence[Outcome]) -> States:
    """For each branch's board: the consistent state the declarative checker gives, and whether
    the branch's own final state is one (not asked of a paradox branch)."""
    from ..check.declarative import consistent_states, examine, unsupported

    states: dict[str, dict[str, Any]] = {}
    not_consistent = []
    not_judged: dict[str, None] = {}
    for b in branches:
        why = unsupported(b.board)
        if why is not None:
            not_judged.setdefault(why, None)
            continue
        exists, state = consistent_states(b.board)
        if exists is None:
            not_judged.setdefault("the declarative checker gave no answer in time", None)
        elif state is not None:
            objects = {oid: s.to_json() for oid, s in sorted(state.items())}
            states.setdefault(json.dumps(objects, sort_keys=True), objects)
        if not b.paradoxes:
            verdict = examine(b.board, b.result)
            if verdict.claim_consistent is False:
                not_consistent.append(b)
            elif verdict.claim_consistent is None and verdict.skipped:
                not_judged.setdefault(verdict.skipped, None)
    on_board = {o.id for o in board.objects if o.zone in _board_zones(board)}
    listed = tuple(FoundState(objects, tuple(n for n, o in enumerate(found, 1) if _is_state(objects, o.objects, on_board)))
                   for objects in states.values())  # fmt: skip
    return States(listed, tuple(not_consistent), tuple(not_judged))


def _plain(value: Any) -> Any:
    return sorted(value, key=str) if isinstance(value, list) else value


def _is_state(state: dict[str, Any], objects: dict[str, Any], on_board: set[str]) -> bool:
    """Whether the checker's state is these final objects (on the values the checker gives;
    abilities only for objects on the board, as its own comparison)."""
    for oid, values in state.items():
        final = objects.get(oid)
        if final is None:
            return False
        for key, value in values.items():
            if key not in final or (key == "abilities" and oid not in on_board):
                continue
            if _plain(value) != _plain(final[key]):
                return False
    return True


def _state_lines(state: dict[str, Any], objects: dict[str, Any]) -> list[str]:
    """Where a state differs from the given final objects: `object field: value`."""
    lines = []
    for oid, values in state.items():
        final = objects.get(oid, {})
        for key, value in values.items():
            if key in final and _plain(value) != _plain(final[key]):
                lines.append(f"{oid} {key}: {_value_text(value)} (outcome 1: {_value_text(final[key])})")
    return lines or ["(the same values as outcome 1 where both say)"]


# ---- text -----------------------------------------------------------------------------------------------


def _plural(n: int, word: str, words: str) -> str:
    return f"{n} {word if n == 1 else words}"


def _value_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(_value_text, value)) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_text(v)}" for k, v in value.items()) or "none"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def _choices_text(choices: dict[str, Any]) -> str:
    return "; ".join(f"{label}: {_value_text(value)}" for label, value in choices.items()) or "(no choice)"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(map(_md_cell, header)) + " |", "|" + "---|" * len(header)] + [
        "| " + " | ".join(map(_md_cell, row)) + " |" for row in rows]


# ---- the command --------------------------------------------------------------------------------------


def command(board_path: Path, open_ids: str, max_branches: int, as_json: bool, output_format: str,
            states: bool, engine: str) -> int:
    """`riftasp outcomes`: prints the report; the exit code (0 unique, 1 not). Bad input ends
    in one line and exit 2 (riftasp.commands.fail)."""
    from ..commands import INTERNAL_ERROR, emit_json, echo, fail, load
    from ..present import printable
    from ..rulesets import UnsupportedRuleset
    from ..solver import EncodingError

    if engine not in ENGINES:
        fail(f"--engine: unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if output_format not in FORMATS:
        fail(f"--format: unknown format {output_format!r}: choose one of {', '.join(FORMATS)}")
    if as_json and output_format != "text":
        fail(f"--json and --format {output_format}: choose one")
    if max_branches < 1:
        fail(f"--max: must be at least 1, got {max_branches}")
    board = load(board_path)
    try:
        found = outcomes(board, open_ids.split(",") if open_ids else (), max_branches, engine, states)
    except OutcomesError as err:
        fail(f"{board.source}: {err}")
    except UnsupportedRuleset as err:
        fail(f"{board.source}: ruleset: {err}")
    except EncodingError as err:
        fail(f"{board.source}: internal error in the encoding: {err}", code=INTERNAL_ERROR)
    if as_json:
        emit_json(found.to_json())
    elif output_format == "md":
        echo(printable(found.markdown(), keep_newlines=True))
    elif output_format == "html":
        echo(found.html(engine).rstrip("\n"))
    else:
        echo(printable(found.text(), keep_newlines=True))
    return found.exit_code
