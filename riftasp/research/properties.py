"""`riftasp properties`: properties every ruleset should have, checked on boards (issue 38).

A property is a function `board -> None | Failure` (`check(name, board)`, or the functions named
after the properties below): None when it holds on the board (or does not apply to it), else a
counterexample explanation (`Failure`, its `str` the explanation). Most properties compare the
board's outcome with the outcome of a changed board, its *variant*; "the outcome" is every
object's final characteristics, each as `riftasp resolve --json` reports it (its ruleset's
output fields, keywords, zone and the names of the abilities it holds).

- `order-independent`: permuting the listing order of the objects, and of the effects with
  distinct timestamps (the board's effects; each text of an object that is no library card),
  changes no object's characteristics. Two permutations: everything reversed, and a shuffle seeded
  by the board itself. Effects of one list that share a timestamp keep their relative order
  (listing order is how the rules' ties are broken: docs/semantics.md §7). Applies only where
  neither a timestamp tie nor a simultaneous entry is a choice: not on a board with cards
  entering together in an order the rules leave to a player (`simultaneous_entries`: a ruleset
  with the reading `entry_order`, two objects on the board with one `since` and one controller,
  not ordered by distinct `entry_order`s; docs/semantics-sorcery.md §2), nor where the board's
  resolution or its permutation's reports a pair in `timestamp_ties` (a tie broken by listing
  order, or a choice).
- `rename`: renaming every object and effect id (consistently, references included; the new ids
  sort in the reverse order of the old ones, so an engine that breaks ties by id shows it;
  a library card's text takes its object's new id) changes nothing but the names: each object's
  characteristics, read under its old name (ability names mapped back), are the same.
- `renumber`: mapping every timestamp increasingly, t -> 3t + 7 (effects' timestamps, objects'
  `since`, `attached_since` and the ruleset's own stamps such as `buff_since`), changes nothing.
- `inert`: adding an effect that provably never applies changes nothing. Two kinds, each with
  up to three operations that would change a lot if they applied (+3; lose all abilities /
  silence; a control change), as a board effect with a timestamp no instance has, in the middle
  of the board's: (a) targets nothing: a filter on a tag (Riftbound `tag`, Sorcery `subtype`)
  that no object on the board has printed and no operation on it (card text included) names, so
  no object ever has it (printed tags are all a copy or a linked object can bring); (b) its
  condition never holds, targeting one object by id: Sorcery `power_below 0` of its target (power
  is read as at least 0 and no power fails it: docs/semantics-sorcery.md, encodings/sorcery/
  conditions/power_below.lp), Riftbound `has_keyword K` of its target for a keyword K of the
  ruleset's keyword rules that no object prints and no operation grants (no object ever has it).
  The condition reads the target itself, so the new effect adds no read of another object.
- `monotone-increase`: adding an unconditional +1 (`plus 1`, as a board effect on one object O
  only, once newer and once older than everything on the board) never lowers O's final Might /
  power. Conservatively only on boards where nothing reads the number: no effect (card text
  included) has a condition of a kind that may read it or a filter of a kind that may read it (the
  kinds known not to: `NUMBER_BLIND_CONDITIONS`, `NUMBER_BLIND_FILTERS`), and no operation has an
  amount that reads it (`double`, `increase_to`, `plus_max`, `minus_min`: the registry's
  `Does.dependent`); O has a printed number, is on the board and no copy names it. At most
  three such objects per board, the first listed.
- `unique`: a board on which no choice is open has one outcome: `riftasp.research.outcomes.
  outcomes(board).unique`. A choice is open where the board's resolution says so: an
  application made by a choice (reason `choice`: cards entering together, docs/semantics-sorcery.md
  §2), or a tie reported when the reading `ties` is `choice`; such boards are not judged, nor
  boards with no outcome but paradoxes. So it holds when every choice that matters is reported.
- `no-self-support`: no application in the final state applies only because of itself. It fails
  when one of these, each certain where it is asked, finds one:
  (a) *before it held*: an application X (not a recheck) of an effect whose condition reads the
      number of the object X changes, X changing that number, whose condition did not hold on
      the value before X (X's own `before` in the trace: Riftbound Mighty = 5 or more, `might_at_
      least N`; Sorcery `power_at_most`/`power_below` on the power read as at least 0). Asked
      where conditions are judged when an effect applies: the procedures `layered` (Sorcery) and
      `recheck` with `condition_timing` `as_able` or `immediate`.
  (b) *held up at the end* (a ruleset with the reading `self_support`, read `withdrawn`, and
      conditions judged at the end, `as_able` or `settled`: docs/semantics.md §8), where what §8
      counts as support is certain: the board's only *suspect* X (an application with a condition
      "Mighty" / "at least N" on the Might of the object O it changes, lowered by a later
      application to O), an arithmetic or keyword grant applied to O alone, all of its conditions
      such thresholds, and nothing else on the board that reads anything (no other condition, no
      filter target, no copy), so that what X supports is X and the keyword instances it granted.
      When its condition holds at the end (F) and F less what those added (their before/after in
      the trace) would not meet it, the board is calculated again without X (a library card's
      text written out first, riftasp/engines.py `expand_cards`): if X would not apply in that
      calculation's final state, §8 withdraws X, so X applied in the final state fails the
      property. Not asked on a board with a reported paradox (nor when the calculation again
      reports one).
  (c) *reported and applied*: a withdrawal reported as `self_support` names an application that
      is still in the final trace.
  (d) *the declarative checker* (riftasp/check/declarative.py), where it applies (a ruleset with
      one and the reading `self_support` = `withdrawn`, `as_able`, within its size bound), on
      boards where (b) found a suspect (a threshold condition lowered after it applied) or the
      resolution reports a `self_support` withdrawal: the resolution's final state is no
      consistent state and the calculation closest to it breaks `eligible` (an application
      applied without meeting its conditions: nothing supports itself) or `held_up`.

Boards: `--generate N --seed S` draws N boards from the ruleset's generators (its plugin's
`board_strategy`, as `riftasp fuzz` does: the same boards for the same seed); `--bound K` takes
every board of a small space up to K effects (`SPACES`, by the ruleset's family: the last
ruleset of its lineage):

- Riftbound: alice's unit u1 (Might 4) and bob's unit u2 (Might 5, Mech, defending, Shield), both
  on the battlefield, and 0..K board effects e1..eK, alice's, timestamps 1..K in listing order;
  each effect one of 10 operations (plus 1, minus 2, set_might 5, increase_to 6, double,
  gain_keywords Shield, lose_keywords Shield, lose_all_abilities, copy of the other unit,
  set_controller bob) x target u1 or u2 x no condition or "while the target is Mighty": 40 a
  effect, 1 + 40 + 1,600 boards up to K = 2 (64,000 more for K = 3).
- Sorcery: alice's King of the Realm k (row 1, column 1, entered at 10) and bob's Foot Soldier f
  (row 1, column 2, entered at 20), and 0..K board effects, bob's, each one of 8 operations (plus
  1, minus 1, set_power 0, double, silence, gain_control, remove_subtype Mortal, copy of the
  other) x target k or f x early (timestamp i, before both cards) or late (30 + i): 32 a effect,
  1 + 32 + 1,024 boards up to K = 2.

Engines: `auto` (the default) checks every board on the reference engine (plain Python, many
times faster on small boards: Sorcery's ASP resolution takes ~0.3 s a board, batched or not) and
asks the ASP engine again on the failing boards (the smallest `CONFIRMED_AT_MOST`); a ruleset the
reference engine cannot resolve is checked on the ASP engine. `asp` checks every board on the ASP
engine (boards and variants resolved in batches, riftasp/batch.py `resolve_many`); `reference`
on the reference engine alone. The smallest failing board (one the ASP engine confirmed, if any)
is shrunk (riftasp/reduce.py) to a minimal board on which the property still fails (on both
engines when the ASP engine confirmed it), written to `--out` as `RULESET-PROPERTY.json`, with
its variant beside it (`RULESET-PROPERTY.variant.json`). A failure found on the reference engine
that the ASP engine confirms on none of the boards asked is reported as the reference engine's.

Where: the boards are checked in groups of `GROUP` (every property on each board of a group, the
board resolved once) on a runner (riftasp/campaign/pool.py: this process with `--jobs 1`, local
worker processes with `--jobs N`, a Dask cluster with `--scheduler`), and the groups' verdicts are
counted in the order of the boards. The groups are fixed by the boards alone, and `auto` falls
back to the ASP engine only when the reference engine failed on every board of every group, so
the findings, the minimal boards and the report are the same on any runner. The failing boards
asked again on the ASP engine are asked on the runner too; the shrinking of a failure (one board
per property) runs in this process. The engines in `RESOLVERS` are this process's: a test that
puts another in their place runs with `--jobs 1` (a worker process has the real ones).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import itertools
import json
import random
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..board_io import BoardError, board_from_dict, board_to_dict
from ..model import Board, Effect, GameObject
from ..progress import Progress
from ..reduce import reduce_board
from ..result import Resolution

__all__ = ["PROPERTIES", "SPACES", "ENGINES", "Failure", "PropertyResult", "check", "run", "report_text",
           "report_json", "report_markdown", "order_independent", "rename", "renumber", "inert",
           "monotone_increase", "unique", "no_self_support", "bounded_boards", "generated_boards"]

ENGINES = ("auto", "asp", "reference")
MAX_GENERATE = 100_000
MAX_BOUND = 3
# Failing boards confirmed on the ASP engine in `auto`, smallest first (each costs a resolution
# of the board and its variants on it).
CONFIRMED_AT_MOST = 10
# Board checks the reduction of one failure may make (riftasp/reduce.py).
SHRINK_CHECKS = 400

# Conditions known not to read the arithmetic number (Might, power), and filters: anything else
# may, as far as `monotone-increase` knows.
NUMBER_BLIND_CONDITIONS = frozenset({"status", "has_keyword", "controlled_by", "lacks_adjacent_ally_with"})
NUMBER_BLIND_FILTERS = frozenset({"type", "card_type", "relation", "tag", "zone", "location", "other", "of_type",
                                  "subtype", "near", "at_rest"})
# Conditions on the number, as thresholds: kind -> (how it compares, its parameter or the fixed
# threshold). Riftbound: Mighty is 5 or more Might (docs/semantics.md §1; encodings/riftbound/
# ruleset.lp mighty_at(5)); Sorcery reads power as at least 0 (docs/semantics-sorcery.md).
MIGHTY_AT = 5
THRESHOLDS: dict[str, tuple[str, int | None]] = {
    "mighty": ("at_least", MIGHTY_AT), "might_at_least": ("at_least", None),
    "power_at_most": ("at_most", None), "power_below": ("below", None),
}
# The kinds of filter a filter matching nothing may name a label no object has in.
LABEL_FILTERS = ("tag", "subtype")
# The operations an inert effect is given: one of each group the ruleset's layer table names (the
# first), each of which would change a lot if it applied: +3, the loss of every ability, control.
INERT_OPERATIONS = (("plus",), ("lose_all_abilities", "silence"), ("set_controller", "gain_control"))


# ---- failures ---------------------------------------------------------------------------------


@dataclass
class Failure:
    """A counterexample: the explanation, the variant (the changed board, if the property made
    one) and the two outcomes side by side (object -> characteristics JSON; the variant's read
    under the board's names)."""

    property: str
    explanation: str
    variant_label: str | None = None
    variant: Board | None = None
    outcome: dict[str, Any] | None = None
    other_outcome: dict[str, Any] | None = None
    other_label: str = "variant"
    differences: list[dict[str, Any]] = field(default_factory=list)
    engine: str = ""

    def __str__(self) -> str:
        return self.explanation

    def to_json(self) -> dict[str, Any]:
        return {
            "property": self.property, "engine": self.engine, "explanation": self.explanation,
            "variant": self.variant_label, "differences": self.differences,
            "outcomes": {"board": self.outcome, self.other_label: self.other_outcome},
        }  # fmt: skip


@dataclass(frozen=True)
class Skip:
    """The property does not apply to the board (why)."""

    reason: str


class Unavailable(Exception):
    """A property that cannot be checked at all here (a module not written yet)."""


Verdict = Failure | Skip | None


# ---- engines ----------------------------------------------------------------------------------


def _resolve_asp(boards: list[Board]) -> list[Resolution | str]:
    from ..batch import ResolveFailure, resolve_many

    return [_error_text(o.error()) if isinstance(o, ResolveFailure) else o for o in resolve_many(boards)]


def _resolve_reference(boards: list[Board]) -> list[Resolution | str]:
    from ..reference import resolve

    return [_attempt(resolve, b) for b in boards]


def _attempt(resolve: Callable[[Board], Resolution], board: Board) -> Resolution | str:
    try:
        return resolve(board)
    except Exception as err:  # noqa: BLE001 - an engine failing on a board is reported, not raised
        return _error_text(err)


def _error_text(err: Exception) -> str:
    return f"{type(err).__name__}: {err}"


# Each engine, resolving a list of boards: a Resolution, or the text of the error, per board.
# (Module data, so that a test can put an engine that breaks a property in its place.)
RESOLVERS: dict[str, Callable[[list[Board]], list[Resolution | str]]] = {
    "asp": _resolve_asp, "reference": _resolve_reference,
}


def _resolve(engine: str, boards: list[Board]) -> list[Resolution | str]:
    return RESOLVERS[engine](boards) if boards else []


# ---- what a property reads of a board and an outcome ------------------------------------------


def _number(board: Board) -> str:
    """The ruleset's arithmetic characteristic (Might, power)."""
    return board.ruleset.families["arithmetic"][0]


def _all_effects(board: Board) -> list[tuple[Effect, GameObject | None]]:
    """Every effect with its holder (None for a board effect), card text included."""
    found: list[tuple[Effect, GameObject | None]] = [(e, o) for o in board.objects for e in (*o.rules_text, *o.effect_text)]
    return found + [(e, None) for e in board.effects]


def _effect_stamp(effect: Effect, holder: GameObject | None, effect_text: bool) -> int:
    if effect.timestamp is not None or holder is None:
        return effect.timestamp or 0
    if effect_text and holder.attached_since is not None:
        return holder.attached_since
    return holder.since


def _stamps(board: Board) -> set[int]:
    """Every timestamp on the board: effects' (explicit or their holder's), objects' entries."""
    used = {o.since for o in board.objects} | {o.attached_since for o in board.objects if o.attached_since is not None}
    for o in board.objects:
        used |= {_effect_stamp(e, o, False) for e in o.rules_text} | {_effect_stamp(e, o, True) for e in o.effect_text}
    return used | {e.timestamp for e in board.effects if e.timestamp is not None}


def _outcome(res: Resolution) -> dict[str, Any]:
    return {oid: c.to_json() for oid, c in sorted(res.objects.items())}


def _differences(one: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for oid in sorted(set(one) | set(other)):
        a, b = one.get(oid), other.get(oid)
        if a is None or b is None:
            found.append({"object": oid, "field": "object", "board": a, "variant": b})
            continue
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key) or type(a.get(key)) is not type(b.get(key)):
                found.append({"object": oid, "field": key, "board": a.get(key), "variant": b.get(key)})
    return found


def _said(differences: list[dict[str, Any]], label: str, at_most: int = 3) -> str:
    parts = [f"{d['object']}.{d['field']} {_value(d['board'])} on the board, {_value(d['variant'])} {label}"
             for d in differences[:at_most]]
    more = len(differences) - at_most
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {v}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return json.dumps(value) if isinstance(value, str) else str(value)


def _digest(board: Board) -> int:
    """A number the board's content gives (not the file it came from): a seed of its own."""
    return int.from_bytes(hashlib.sha256(repr(replace(board, source="")).encode()).digest()[:8], "big")


# ---- properties -------------------------------------------------------------------------------


@dataclass
class Plan:
    """One property on one board: the variants to resolve, and how the outcomes are judged
    (`judge(base, variant resolutions, engine)`)."""

    variants: list[tuple[str, Board]]
    judge: Callable[[Resolution, list[Resolution], str], Verdict]


@dataclass(frozen=True)
class Property:
    name: str
    summary: str
    plan: Callable[[Board, dict[str, Any]], Plan | Skip]


def _compare_variants(name: str, board: Board, variants: list[tuple[str, Board]],
                      precondition: Callable[[Resolution], str | None] | None = None,
                      read_back: Callable[[int, dict[str, Any]], dict[str, Any]] | None = None) -> Plan:
    """A plan that holds when every variant's outcome (read back under the board's names) is
    the board's; `precondition(resolution)` names why a resolution is not judged."""

    def judge(base: Resolution, results: list[Resolution], engine: str) -> Verdict:
        if precondition is not None:
            for res in (base, *results):
                why = precondition(res)
                if why:
                    return Skip(why)
        mine = _outcome(base)
        for index, ((label, variant), res) in enumerate(zip(variants, results)):
            theirs = _outcome(res)
            if read_back is not None:
                theirs = read_back(index, theirs)
            diff = _differences(mine, theirs)
            if diff:
                return Failure(name, f"{label}: {_said(diff, label)}", label, variant, mine, theirs,
                               differences=diff, engine=engine)
        return None

    return Plan(variants, judge)


# -- order-independent


def _keeping_ties(items: Sequence[Any], stamps: Sequence[int], order: Sequence[int]) -> tuple[Any, ...]:
    """`items` in `order` (a permutation of their positions), except that items sharing a stamp
    keep their relative order: slot k takes the next item, in the original order, of the stamp
    of items[order[k]]."""
    groups: dict[int, deque[int]] = defaultdict(deque)
    for i in range(len(items)):
        groups[stamps[i]].append(i)
    return tuple(items[groups[stamps[j]].popleft()] for j in order)


def _permuted(board: Board, order_of: Callable[[int], list[int]], label: str) -> Board:
    def text(o: GameObject, effects: tuple[Effect, ...], effect_text: bool) -> tuple[Effect, ...]:
        if o.card is not None:  # a library card's text is the card's, not a listing
            return effects
        return _keeping_ties(effects, [_effect_stamp(e, o, effect_text) for e in effects], order_of(len(effects)))

    objects = [replace(o, rules_text=text(o, o.rules_text, False), effect_text=text(o, o.effect_text, True))
               for o in board.objects]
    objects = [objects[i] for i in order_of(len(objects))]
    effects = _keeping_ties(board.effects, [e.timestamp or 0 for e in board.effects], order_of(len(board.effects)))
    return replace(board, objects=tuple(objects), effects=effects, source=f"{board.source} ({label})")


def _no_tie(res: Resolution) -> str | None:
    return "a timestamp tie or a choice decided a pick" if res.timestamp_ties else None


def simultaneous_entries(board: Board) -> bool:
    """Whether cards enter together in an order the rules leave to a player (a ruleset with the
    reading `entry_order`: docs/semantics-sorcery.md §2): two objects on the board with one
    `since` and one controller (or any controllers, when the board names no active player), and
    no distinct `entry_order` to order them."""
    if "entry_order" not in board.readings_in_force:
        return False
    groups: dict[tuple[int, str], list[Any]] = defaultdict(list)
    for o in board.objects:
        if o.on_board:
            groups[(o.since, o.controller if board.active_player else "")].append(o.entry_order)
    for orders in groups.values():
        given = [n for n in orders if n is not None]
        if len(orders) - len(given) >= 2 or len(set(given)) < len(given):
            return True
    return False


def _plan_order(board: Board, data: dict[str, Any]) -> Plan | Skip:
    if simultaneous_entries(board):
        return Skip("cards entering together (a choice)")
    rng = random.Random(_digest(board))

    def shuffled(n: int) -> list[int]:
        order = list(range(n))
        rng.shuffle(order)
        return order

    variants = [("listed in reverse", _permuted(board, lambda n: list(reversed(range(n))), "listed in reverse")),
                ("listed shuffled", _permuted(board, shuffled, "listed shuffled"))]
    return _compare_variants("order-independent", board, variants, precondition=_no_tie)


# -- rename


def _renaming(board: Board) -> tuple[dict[str, str], dict[str, str]]:
    """New ids sorting in the reverse order of the old (objects n..., effects f...); a library
    card's text effect `<object>.<key>` follows its object."""
    objects = sorted(o.id for o in board.objects)
    width = len(str(len(objects) + 1))
    object_map = {old: f"n{len(objects) - i:0{width}d}" for i, old in enumerate(objects)}
    card_text = {e.id: object_map[o.id] + e.id[len(o.id):] for o in board.objects if o.card is not None
                 for e in (*o.rules_text, *o.effect_text) if e.id.startswith(o.id + ".")}  # fmt: skip
    others = sorted({e.id for e, _ in _all_effects(board)} - set(card_text))
    width = len(str(len(others) + 1))
    effect_map = {old: f"f{len(others) - i:0{width}d}" for i, old in enumerate(others)} | card_text
    return object_map, effect_map


def _name_back(name: str, objects: dict[str, str], effects: dict[str, str]) -> str:
    """An instance name (docs: `E`, `E@H`, `buff:O`, `bonus:G`, `keyword:K:O[:S]`) under the
    names `objects` and `effects` map to."""
    if name.startswith(("buff:", "bonus:")):
        kind, _, oid = name.partition(":")
        return f"{kind}:{objects.get(oid, oid)}"
    if name.startswith("keyword:"):
        parts = name.split(":", 3)
        if len(parts) >= 3:
            parts[2] = objects.get(parts[2], parts[2])
        if len(parts) == 4:
            parts[3] = _name_back(parts[3], objects, effects)
        return ":".join(parts)
    if "@" in name:
        effect, _, holder = name.partition("@")
        return f"{effects.get(effect, effect)}@{objects.get(holder, holder)}"
    return effects.get(name, objects.get(name, name))


def _plan_rename(board: Board, data: dict[str, Any]) -> Plan | Skip:
    from ..batch import renamed

    object_map, effect_map = _renaming(board)
    variant = replace(renamed(board, object_map.__getitem__, effect_map.__getitem__), source=f"{board.source} (renamed)")
    objects_back = {new: old for old, new in object_map.items()}
    effects_back = {new: old for old, new in effect_map.items()}

    def read_back(index: int, outcome: dict[str, Any]) -> dict[str, Any]:
        back = {}
        for oid, chars in outcome.items():
            chars = dict(chars)
            if "abilities" in chars:
                chars["abilities"] = sorted(_name_back(n, objects_back, effects_back) for n in chars["abilities"])
            back[objects_back.get(oid, oid)] = chars
        return back

    return _compare_variants("rename", board, [("renamed", variant)], read_back=read_back)


# -- renumber


def renumbered(board: Board, f: Callable[[int], int] = lambda t: 3 * t + 7) -> Board:
    """The board with every timestamp t mapped to f(t) (f increasing)."""
    stamps = {fld.stamp for fld in board.ruleset.object_fields if fld.stamp}

    def effect(e: Effect) -> Effect:
        return e if e.timestamp is None else replace(e, timestamp=f(e.timestamp))

    def obj(o: GameObject) -> GameObject:
        params = tuple((k, f(v) if k in stamps and isinstance(v, int) else v) for k, v in o.params)
        return replace(o, since=f(o.since), attached_since=None if o.attached_since is None else f(o.attached_since),
                       rules_text=tuple(map(effect, o.rules_text)), effect_text=tuple(map(effect, o.effect_text)),
                       params=params)  # fmt: skip

    return replace(board, objects=tuple(map(obj, board.objects)), effects=tuple(map(effect, board.effects)),
                   source=f"{board.source} (renumbered)")


def _plan_renumber(board: Board, data: dict[str, Any]) -> Plan | Skip:
    return _compare_variants("renumber", board, [("renumbered t -> 3t+7", renumbered(board))])


# -- inert and monotone-increase: a board effect added


def _fresh(board: Board, base: str, taken: str) -> str:
    name = base
    while name in taken:
        name += "x"
    return name


def _with_effect(board: Board, data: dict[str, Any], effect: dict[str, Any], label: str) -> Board | None:
    """The board (dict `data`) with one more board effect, read as a board; None if it is none."""
    changed = dict(data)
    changed["effects"] = [*data.get("effects", ()), effect]
    try:
        return board_from_dict(changed, f"{board.source} ({label})")
    except BoardError:
        return None


def _inert_ops(board: Board) -> list[dict[str, Any]]:
    from ..operations import OPERATIONS

    names = [next(iter(found)) for group in INERT_OPERATIONS
             if (found := [n for n in group if n in OPERATIONS and OPERATIONS[n].functor in board.ruleset.operations])]
    ops = []
    for name in names:
        op: dict[str, Any] = {"op": name}
        if name == "plus":
            op["amount"] = 3
        if name == "set_controller":
            op["player"] = board.players[-1]
        ops.append(op)
    return ops


def _middle_stamp(board: Board) -> int:
    used = sorted(_stamps(board))
    t = used[len(used) // 2] + 1 if used else 1
    while t in used:
        t += 1
    return t


def _plan_inert(board: Board, data: dict[str, Any]) -> Plan | Skip:
    rules = board.ruleset
    seen = repr(board)
    eid = _fresh(board, "inert", seen)
    stamp = _middle_stamp(board)
    targets: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = []
    label_filter = next((k for k in LABEL_FILTERS if k in rules.filter_kinds), None)
    if label_filter is not None:
        label = _fresh(board, "Inert", seen)
        targets.append((f"a board effect on every {label_filter} {label} (none has it)",
                        {"filter": {label_filter: label}}, []))
    on_board = [o for o in board.objects if o.on_board]
    if on_board:
        victim = next((o for o in on_board if getattr(o, _number(board)) is not None), on_board[0])
        condition = None
        if "power_below" in rules.condition_kinds:
            condition, why = {"power_below": 0, "of": "target"}, "while its power is below 0 (never)"
        elif "has_keyword" in rules.condition_kinds:
            known = sorted(rules.keywords.summing | rules.keywords.non_summing)
            keyword = next((k for k in known if f"name='{k}'" not in seen and f"'{k}'" not in seen), None)
            if keyword is not None:
                condition, why = {"has_keyword": keyword, "of": "target"}, f"while it has {keyword} (none ever has)"
        if condition is not None:
            targets.append((f"a board effect on {victim.id} {why}", {"ids": [victim.id]}, [condition]))
    variants = []
    for what, target, conditions in targets:
        for op in _inert_ops(board):
            effect: dict[str, Any] = {"id": eid, "controller": board.players[0], "timestamp": stamp, "op": op,
                                      "target": target}
            if conditions:
                effect["conditions"] = conditions
            label = f"with {op['op']} as {what}, timestamp {stamp}"
            variant = _with_effect(board, data, effect, label)
            if variant is not None:
                variants.append((label, variant))
    if not variants:
        return Skip("no provably inert effect can be written for this board")
    return _compare_variants("inert", board, variants)


def _reads_number(board: Board) -> str | None:
    """What on the board may read the arithmetic number, said; None when nothing does."""
    from ..operations import OPERATIONS

    for effect, _ in _all_effects(board):
        for c in effect.conditions:
            if c.kind not in NUMBER_BLIND_CONDITIONS:
                return f"a condition ({c.kind}) may read {_number(board)}"
        if effect.target.filter is not None:
            for key, _ in effect.target.filter.params:
                if key not in NUMBER_BLIND_FILTERS:
                    return f"a filter ({key}) may read {_number(board)}"
        spec = OPERATIONS.get(effect.op.name)
        if spec is None or spec.does.dependent:
            return f"an amount ({effect.op.name}) reads {_number(board)}"
    return None


def _plan_monotone(board: Board, data: dict[str, Any]) -> Plan | Skip:
    why = _reads_number(board)
    if why:
        return Skip(why)
    number = _number(board)
    copied = {e.op.of for e, _ in _all_effects(board) if e.op.name == "copy"}
    eligible = [o for o in board.objects if o.on_board and getattr(o, number) is not None and o.id not in copied][:3]
    if not eligible:
        return Skip(f"no object on the board with a printed {number} that no copy names")
    used = _stamps(board)
    newest, oldest = max(used, default=0) + 1, min(used, default=0) - 1
    seen = repr(board)
    variants: list[tuple[str, Board]] = []
    objects: list[str] = []
    for o in eligible:
        for stamp, when in ((newest, "newest"), (oldest, "oldest")):
            effect = {"id": _fresh(board, f"plus1_{o.id}", seen), "controller": o.controller, "timestamp": stamp,
                      "op": {"op": "plus", "amount": 1}, "target": {"ids": [o.id]}}
            label = f"with +1 to {o.id} ({when}, timestamp {stamp})"
            variant = _with_effect(board, data, effect, label)
            if variant is not None:
                variants.append((label, variant))
                objects.append(o.id)

    def judge(base: Resolution, results: list[Resolution], engine: str) -> Verdict:
        mine = _outcome(base)
        for (label, variant), oid, res in zip(variants, objects, results):
            before, after = mine[oid].get(number), res.objects[oid].to_json().get(number)
            if isinstance(before, int) and isinstance(after, int) and after < before:
                theirs = _outcome(res)
                diff = [{"object": oid, "field": number, "board": before, "variant": after}]
                return Failure("monotone-increase", f"{label}: {oid}'s {number} drops from {before} to {after}",
                               label, variant, mine, theirs, differences=diff + [
                                   d for d in _differences(mine, theirs) if (d["object"], d["field"]) != (oid, number)],
                               engine=engine)  # fmt: skip
        return None

    return Plan(variants, judge)


# -- unique


def _outcomes(board: Board, engine: str) -> Any:
    name = f"{__package__}.outcomes"  # (another part of issue 38's; imported when asked)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        raise Unavailable(f"{name} is not available yet") from None
    return module.outcomes(board, engine=engine)


def _plan_unique(board: Board, data: dict[str, Any]) -> Plan | Skip:
    def judge(base: Resolution, results: list[Resolution], engine: str) -> Verdict:
        if any("choice" in a.reasons for apps in base.applied.values() for a in apps):
            return Skip("the rules leave a choice open on it (cards entering together)")
        if board.readings_in_force.get("ties") == "choice" and base.timestamp_ties:
            return Skip("a timestamp tie is a choice under the reading ties = choice")
        try:
            found = _outcomes(board, engine)
        except Unavailable:
            raise
        except Exception as err:  # noqa: BLE001 - too many branches, an engine's error: not judged, and said
            return Skip(f"its outcomes not enumerated ({type(err).__name__})")
        if found.unique:
            return None
        shown = _distinct_outcomes(found)
        if getattr(found, "outcomes", None) is not None and len(found.outcomes) < 2:
            return Skip("no outcome without a paradox")
        first, second = (shown + [None, None])[:2]
        diff = _differences(first, second) if first is not None and second is not None else []
        count = len(shown) if shown else "several"
        return Failure("unique", f"{count} distinct outcomes with no choice open" + (f": {_said(diff, 'in another')}" if diff else ""),
                       outcome=first if first is not None else _outcome(base), other_outcome=second,
                       other_label="another outcome", differences=diff, engine=engine)  # fmt: skip

    return Plan([], judge)


def _distinct_outcomes(found: Any) -> list[dict[str, Any]]:
    """The distinct outcomes an `Outcomes` value holds, as object -> characteristics (as far as
    its shape can be read: a list `outcomes` of values with `objects`, a `resolution` or
    a mapping)."""
    items = getattr(found, "outcomes", None) or getattr(found, "distinct", None) or []
    shown = []
    for item in items:
        for attribute in ("resolution", "result"):
            item = getattr(item, attribute, item)
        objects = getattr(item, "objects", None)
        if objects is None and isinstance(item, dict):
            objects = item.get("objects", item)
        if isinstance(objects, dict):
            shown.append({oid: (c.to_json() if hasattr(c, "to_json") else c) for oid, c in sorted(objects.items())})
    return shown


# -- no-self-support


def _instances(board: Board) -> dict[str, tuple[Effect, GameObject | None]]:
    return {e.id: (e, holder) for e, holder in _all_effects(board)}


def _reads_of(condition: Any, holder: GameObject | None, obj: str, objects: dict[str, GameObject]) -> str | None:
    """The object a condition reads for an application to `obj`."""
    of = condition.of
    if of == "target":
        return obj
    if of == "self":
        return holder.id if holder is not None else None
    if of == "bearer":
        return holder.attached_to if holder is not None else None
    return of


def _holds(kind: str, value: int, threshold: int, floor: bool) -> bool:
    if floor:
        value = max(0, value)
    return {"at_least": value >= threshold, "at_most": value <= threshold, "below": value < threshold}[kind]


def _threshold(condition: Any) -> tuple[str, int] | None:
    entry = THRESHOLDS.get(condition.kind)
    if entry is None:
        return None
    how, fixed = entry
    value = fixed if fixed is not None else condition.value
    return None if value is None else (how, value)


def _threshold_reads(effect: Effect, holder: GameObject | None, oid: str,
                     objects: dict[str, GameObject]) -> list[tuple[Any, str, int]]:
    """The effect's conditions that are thresholds on the number of `oid` (the object it is
    applied to): (condition, how it compares, the threshold)."""
    found = []
    for condition in effect.conditions:
        threshold = _threshold(condition)
        if threshold is not None and _reads_of(condition, holder, oid, objects) == oid:
            found.append((condition, *threshold))
    return found


def _numbers(app: Any, number: str) -> tuple[int, int] | None:
    if app.characteristic == number and isinstance(app.before, int) and isinstance(app.after, int):
        return app.before, app.after
    return None


def _self_support(board: Board, res: Resolution, engine: str) -> tuple[Verdict, bool, Any]:
    """Checks (a) and (c), and what (b) and (d) need: (the verdict, whether a suspect was seen,
    the one candidate of (b) to calculate again, or None)."""
    readings = board.readings_in_force
    procedure = board.ruleset.procedure
    timing = readings.get("condition_timing")
    number = _number(board)
    floor = number == "power"
    index = _instances(board)
    objects = {o.id: o for o in board.objects}
    judged_when_applied = procedure == "layered" or timing in ("as_able", "immediate")
    mine = _outcome(res)
    suspects = []
    for oid, apps in sorted(res.applied.items()):
        for position, app in enumerate(apps):
            name = app.effect
            if name.startswith(("buff:", "bonus:", "keyword:")):
                continue
            effect_id, _, copied_by = name.partition("@")
            if effect_id not in index:
                continue
            effect, holder = index[effect_id]
            if copied_by:
                holder = objects.get(copied_by, holder)
            reads = _threshold_reads(effect, holder, oid, objects)
            changed = _numbers(app, number)
            for condition, how, value in reads:
                # (a) before it held
                if (judged_when_applied and changed is not None and "recheck" not in app.reasons
                        and not _holds(how, changed[0], value, floor)):
                    return Failure("no-self-support", f"{name} applied to {oid} at step {app.step} though its condition "
                                   f"({condition.kind} {value}) did not hold before it: {number} {changed[0]} -> "
                                   f"{changed[1]}", outcome=mine, engine=engine), True, None  # fmt: skip
            lowered = any((n := _numbers(a, number)) is not None and n[1] < n[0] for a in apps[position + 1:])
            if lowered and any(how == "at_least" for _, how, _ in reads):
                suspects.append((oid, position, app, effect, reads))
    # (c) reported and applied
    for w in res.withdrawals:
        if "self_support" in w.failed:
            if any(a.effect == w.effect for a in res.applied.get(w.object, ())):
                return Failure("no-self-support", f"{w.effect} on {w.object} is reported withdrawn for holding itself up, "
                               "yet it is applied in the final state", outcome=mine, engine=engine), True, None
    suspect = bool(suspects) or any("self_support" in w.failed for w in res.withdrawals)
    return None, suspect, _candidate(board, res, suspects)


def _candidate(board: Board, res: Resolution, suspects: list[Any]) -> Any:
    """(b)'s one candidate, where what §8 counts as its support is certain: the only suspect on
    the board (an application with a threshold condition "at least" on the number of the object
    it changes, lowered by a later application), an arithmetic or keyword grant of a board
    effect or printed ability applied to that object alone, every condition of it such a
    threshold, and nothing else on the board reading anything (no other condition, no filter
    target, no copy); it holds at the end, and would not less what it and the keyword instances
    it granted added. None when there is none."""
    readings = board.readings_in_force
    if (board.ruleset.procedure != "recheck" or readings.get("self_support") != "withdrawn"
            or readings.get("condition_timing") not in ("as_able", "settled") or res.paradoxes or len(suspects) != 1):
        return None
    oid, position, app, effect, reads = suspects[0]
    number = _number(board)
    if (len(reads) != len(effect.conditions) or any(how != "at_least" for _, how, _ in reads) or "@" in app.effect
            or effect.target.kind == "filter" or effect.op.name not in ("plus", "double", "increase_to", "plus_max", "gain_keywords")):
        return None
    others = [e for e, _ in _all_effects(board) if e.id != effect.id]
    if any(e.conditions or e.target.kind == "filter" or e.op.name == "copy" for e in others) or effect.op.name == "copy":
        return None
    if sum(a.effect == app.effect for apps in res.applied.values() for a in apps) != 1:
        return None
    final = _outcome(res).get(oid, {}).get(number)
    if not isinstance(final, int) or any(not _holds("at_least", final, value, False) for _, _, value in reads):
        return None
    brought = [a for a in res.applied[oid][position + 1:]
               if a.effect.startswith("keyword:") and a.effect.split(":", 3)[3:] == [app.effect]]
    added = sum(max(0, n[1] - n[0]) for a in [app, *brought] if (n := _numbers(a, number)) is not None)
    if all(final - added >= value for _, _, value in reads):
        return None
    return oid, app, effect, reads, final, added


def _without(data: dict[str, Any], effect_id: str) -> dict[str, Any]:
    """The board dict without one effect (a board effect or one in an object's own text)."""
    out = dict(data)
    out["effects"] = [e for e in data.get("effects", ()) if e.get("id") != effect_id]
    if not out["effects"]:
        del out["effects"]
    objects = []
    for o in data["objects"]:
        o = dict(o)
        for key in ("rules_text", "effect_text"):
            if key in o:
                o[key] = [e for e in o[key] if e.get("id") != effect_id]
                if not o[key]:
                    del o[key]
        objects.append(o)
    out["objects"] = objects
    return out


def _held_up(board: Board, res: Resolution, candidate: Any, engine: str) -> Verdict:
    """(b): the candidate, calculated again without it (docs/semantics.md §8: "the board is
    calculated again without U"; here U is the candidate and the keyword instances it granted):
    it holds itself up when it would not apply in that calculation's final state."""
    from ..engines import expand_cards

    oid, app, effect, reads, final, added = candidate
    written = board_to_dict(expand_cards(board))  # (a library card's text written out, so it can go)
    try:
        again_board = board_from_dict(_without(written, effect.id), f"{board.source} (without {effect.id})")
    except BoardError:
        return None
    (again,) = _resolve(engine, [again_board])
    if isinstance(again, str) or oid not in again.objects or again.paradoxes:
        return None
    number = _number(board)
    value_without = again.objects[oid].to_json().get(number)
    if not isinstance(value_without, int) or all(_holds("at_least", value_without, v, False) for _, _, v in reads):
        return None  # it would apply without itself: support of its own
    mine = _outcome(res)
    theirs = _outcome(again)
    return Failure("no-self-support", f"{app.effect} holds itself up on {oid}: its condition holds at the end ({number} "
                   f"{final}) only through the {added} it added, {number} was lowered after it applied, and calculated "
                   f"again without it the board ends at {number} {value_without}, where it would not apply; "
                   "yet it is not withdrawn", variant_label=f"without {effect.id}", variant=again_board,
                   outcome=mine, other_outcome=theirs, other_label=f"without {effect.id}",
                   differences=_differences(mine, theirs), engine=engine)  # fmt: skip


def _declarative(board: Board, res: Resolution, engine: str) -> Verdict:
    """(d): the declarative checker's verdict on the resolution's final state."""
    readings = board.readings_in_force
    if readings.get("self_support") != "withdrawn" or readings.get("condition_timing") != "as_able":
        return None
    if board.ruleset.declarative() is None:
        return None
    from ..check.declarative import examine

    verdict = examine(board, res.to_json())
    if verdict.skipped or verdict.claim_consistent is not False:
        return None
    broken = [v for v in verdict.violations if v.check in ("eligible", "held_up")]
    if not broken:
        return None
    state = verdict.example.states if verdict.example is not None else None
    other = {oid: s.to_json() for oid, s in sorted(state.items())} if state else None
    said = "; ".join(f"{v.effect or '-'} on {v.object}: {v.check}" for v in broken[:3])
    return Failure("no-self-support", f"the declarative checker: no calculation obeying the rules gives this final "
                   f"state; the closest one breaks {said}", outcome=_outcome(res), other_outcome=other,
                   other_label="a consistent state", engine=engine)  # fmt: skip


def _plan_self_support(board: Board, data: dict[str, Any]) -> Plan | Skip:
    def judge(base: Resolution, results: list[Resolution], engine: str) -> Verdict:
        verdict, suspect, candidate = _self_support(board, base, engine)
        if verdict is None and candidate is not None:
            verdict = _held_up(board, base, candidate, engine)
        if verdict is None and suspect:
            verdict = _declarative(board, base, engine)
        return verdict

    return Plan([], judge)


PROPERTIES: dict[str, Property] = {p.name: p for p in (
    Property("order-independent", "permuting the listing order (distinct timestamps) changes nothing", _plan_order),
    Property("rename", "renaming object and effect ids changes nothing but the names", _plan_rename),
    Property("renumber", "mapping timestamps increasingly (t -> 3t+7) changes nothing", _plan_renumber),
    Property("inert", "adding an effect that never applies changes nothing", _plan_inert),
    Property("monotone-increase", "+1 to an object never lowers its number where nothing reads it", _plan_monotone),
    Property("unique", "one outcome where no choice is open", _plan_unique),
    Property("no-self-support", "no application in the final state applies only because of itself", _plan_self_support),
)}  # fmt: skip


# ---- one board --------------------------------------------------------------------------------


def _as_board(board: Board | dict[str, Any]) -> tuple[Board, dict[str, Any]]:
    if isinstance(board, Board):
        return board, board_to_dict(board)
    return board_from_dict(board), board


def judged(name: str, board: Board | dict[str, Any], engine: str = "asp") -> Verdict:
    """The property's verdict on one board: None (holds), a `Skip` or a `Failure`."""
    b, data = _as_board(board)
    plan = PROPERTIES[name].plan(b, data)
    if isinstance(plan, Skip):
        return plan
    results = _resolve(engine, [b, *(v for _, v in plan.variants)])
    return _judge(name, plan, results[0], results[1:], engine)


def _judge(name: str, plan: Plan, base: Resolution | str, results: list[Resolution | str], engine: str) -> Verdict:
    if isinstance(base, str):
        return Skip(f"the {engine} engine failed on the board")
    for (label, variant), res in zip(plan.variants, results):
        if isinstance(res, str):
            return Failure(name, f"{label}: the {engine} engine failed on the variant, not on the board: {res}",
                           label, variant, _outcome(base), engine=engine)
    return plan.judge(base, results, engine)  # type: ignore[arg-type]


def check(name: str, board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    """The property `name` on one board: None when it holds (or does not apply), else the
    counterexample explanation."""
    verdict = judged(name, board, engine)
    return verdict if isinstance(verdict, Failure) else None


def order_independent(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("order-independent", board, engine)


def rename(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("rename", board, engine)


def renumber(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("renumber", board, engine)


def inert(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("inert", board, engine)


def monotone_increase(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("monotone-increase", board, engine)


def unique(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("unique", board, engine)


def no_self_support(board: Board | dict[str, Any], engine: str = "asp") -> Failure | None:
    return check("no-self-support", board, engine)


# ---- boards -----------------------------------------------------------------------------------


def generated_boards(ruleset: Any, count: int, seed: int) -> list[dict[str, Any]]:
    """`count` boards of the ruleset's generators, the same for the same seed."""
    try:
        from ..campaign.draw import drawn_boards
    except ImportError as err:
        raise BadInput(f"riftasp properties --generate needs hypothesis ({err}): pip install 'riftasp[fuzz]'") from None
    from ..profile import Profile

    strategy = ruleset.board_strategy(Profile())
    if strategy is None:
        raise ValueError(f"the {ruleset} ruleset has no board generators")
    return drawn_boards(strategy, seed, count)


@dataclass(frozen=True)
class Space:
    """A small space of boards: a scaffold, and K board effects each taken from a menu."""

    scaffold: Callable[[], list[dict[str, Any]]]
    menu: Callable[[], list[Callable[[int], dict[str, Any]]]]  # entry(i) -> the i-th effect (1-based)
    text: str

    def size(self, k: int) -> int:
        return sum(len(self.menu()) ** n for n in range(k + 1))


def _riftbound_scaffold() -> list[dict[str, Any]]:
    return [{"id": "u1", "name": "Scout", "type": "unit", "owner": "alice", "zone": "battlefield", "might": 4},
            {"id": "u2", "name": "Sentry", "type": "unit", "owner": "bob", "zone": "battlefield", "might": 5,
             "tags": ["Mech"], "status": ["defending"], "keywords": ["Shield"]}]  # fmt: skip


def _riftbound_menu() -> list[Callable[[int], dict[str, Any]]]:
    def op(name: str, target: str) -> dict[str, Any]:
        other = "u2" if target == "u1" else "u1"
        ops: dict[str, dict[str, Any]] = {
                "plus": {"op": "plus", "amount": 1}, "minus": {"op": "minus", "amount": 2},
                "set_might": {"op": "set_might", "value": 5}, "increase_to": {"op": "increase_to", "value": 6},
                "double": {"op": "double"}, "gain": {"op": "gain_keywords", "keywords": ["Shield"]},
                "lose": {"op": "lose_keywords", "keywords": ["Shield"]}, "lose_all": {"op": "lose_all_abilities"},
                "copy": {"op": "copy", "of": other}, "control": {"op": "set_controller", "player": "bob"}}  # fmt: skip
        return ops[name]

    def entry(name: str, target: str, mighty: bool) -> Callable[[int], dict[str, Any]]:
        def effect(i: int) -> dict[str, Any]:
            e = {"id": f"e{i}", "controller": "alice", "timestamp": i, "op": op(name, target), "target": {"ids": [target]}}
            if mighty:
                e["conditions"] = [{"mighty": "target"}]
            return e
        return effect

    names = ("plus", "minus", "set_might", "increase_to", "double", "gain", "lose", "lose_all", "copy", "control")
    return [entry(n, t, m) for n in names for t in ("u1", "u2") for m in (False, True)]


def _sorcery_scaffold() -> list[dict[str, Any]]:
    return [{"id": "k", "card": "King of the Realm", "owner": "alice", "zone": "realm", "row": 1, "column": 1, "since": 10},
            {"id": "f", "card": "Foot Soldier", "owner": "bob", "zone": "realm", "row": 1, "column": 2, "since": 20}]


def _sorcery_menu() -> list[Callable[[int], dict[str, Any]]]:
    def op(name: str, target: str) -> dict[str, Any]:
        other = "f" if target == "k" else "k"
        ops: dict[str, dict[str, Any]] = {
                "plus": {"op": "plus", "amount": 1}, "minus": {"op": "minus", "amount": 1},
                "set_power": {"op": "set_power", "value": 0}, "double": {"op": "double"}, "silence": {"op": "silence"},
                "gain_control": {"op": "gain_control"}, "remove_subtype": {"op": "remove_subtype", "subtype": "Mortal"},
                "copy": {"op": "copy", "of": other}}  # fmt: skip
        return ops[name]

    def entry(name: str, target: str, late: bool) -> Callable[[int], dict[str, Any]]:
        def effect(i: int) -> dict[str, Any]:
            return {"id": f"e{i}", "controller": "bob", "timestamp": 30 + i if late else i, "op": op(name, target),
                    "target": {"ids": [target]}}
        return effect

    names = ("plus", "minus", "set_power", "double", "silence", "gain_control", "remove_subtype", "copy")
    return [entry(n, t, late) for n in names for t in ("k", "f") for late in (False, True)]


# Each family's bounded space (the family: the last ruleset of a ruleset's lineage).
SPACES: dict[str, Space] = {
    "riftbound": Space(_riftbound_scaffold, _riftbound_menu, "u1 (alice, Might 4), u2 (bob, Might 5, Mech, "
                       "defending, Shield); each effect: 10 operations x 2 targets x (no condition, target Mighty)"),
    "sorcery": Space(_sorcery_scaffold, _sorcery_menu, "King of the Realm (alice, entered 10), Foot Soldier "
                     "(bob, entered 20); each effect: 8 operations x 2 targets x (early, late)"),
}


def space_of(ruleset: Any) -> Space | None:
    return SPACES.get(ruleset.lineage[-1])


def bounded_boards(ruleset: Any, k: int) -> Iterator[dict[str, Any]]:
    """Every board of the ruleset's family's space with 0 to k effects, fewest effects first."""
    space = space_of(ruleset)
    if space is None:
        raise ValueError(f"no bounded space of boards for the {ruleset} ruleset")
    menu = space.menu()
    for n in range(k + 1):
        for entries in itertools.product(menu, repeat=n):
            board: dict[str, Any] = {"ruleset": ruleset.name, "players": ["alice", "bob"], "active_player": "alice",
                                     "objects": space.scaffold()}
            if entries:
                board["effects"] = [entry(i) for i, entry in enumerate(entries, 1)]
            yield board


# ---- a run over many boards -------------------------------------------------------------------


@dataclass
class PropertyResult:
    ruleset: str
    name: str  # the property's
    boards: int = 0  # boards checked
    judged: int = 0  # boards the property applied to
    skipped: Counter = field(default_factory=Counter)  # reason -> boards not judged
    failing: int = 0  # boards it failed on (on the engine that screened them)
    confirmed: int | None = None  # of the failing boards asked again on the ASP engine (auto), how many failed
    asked: int = 0  # how many were asked
    failure: Failure | None = None  # the minimal counterexample
    board: dict[str, Any] | None = None  # its board
    path: Path | None = None
    variant_path: Path | None = None
    unavailable: str | None = None
    engine: str = ""
    bound: int | None = None
    seconds: float = 0.0

    @property
    def holds(self) -> bool:
        return self.failure is None and not self.failing

    @property
    def verdict(self) -> str:
        return "not checked" if self.unavailable else "holds" if self.holds else "fails"

    @property
    def reference_only(self) -> bool:
        """Failing on the reference engine, and on none of the boards asked again on ASP."""
        return self.confirmed == 0 and self.asked > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "property": self.name, "verdict": self.verdict,
            "boards": self.boards, "judged": self.judged, "not_judged": dict(self.skipped.most_common()),
            "failing_boards": self.failing, "confirmed_on_asp": self.confirmed, "asked_on_asp": self.asked,
            "bound": self.bound, "engine": self.engine, "unavailable": self.unavailable,
            "file": str(self.path) if self.path else None,
            "variant_file": str(self.variant_path) if self.variant_path else None,
            "failure": self.failure.to_json() if self.failure else None,
            "board": self.board, "seconds": round(self.seconds, 2),
        }  # fmt: skip


def run(ruleset: Any, boards: list[dict[str, Any]], names: Sequence[str], engine: str = "auto",
        out: Path | None = None, progress: Progress | None = None, bound: int | None = None,
        runner: Any = None) -> list[PropertyResult]:
    """Every property in `names` on every board (dicts of `ruleset`'s boards); each failure shrunk
    and, with `out`, written there. The boards are checked on `runner` (riftasp/campaign/pool.py;
    default: this process) in groups of `GROUP`, each group on one engine: the results are the
    same for any runner. Confirming and shrinking the failures happen here."""
    from ..campaign.pool import make_runner

    progress = progress or Progress()
    own_runner = runner is None
    runner = runner or make_runner(1)
    tasks = [ScreenTask(ruleset.name, tuple(names), engine, first, tuple(boards[first:first + GROUP]))
             for first in range(0, len(boards), GROUP)]  # fmt: skip
    tally = _Tally(str(ruleset), names, len(boards), engine, bound)
    # engine auto: the groups the reference engine failed on every board of, as the ASP engine
    # checked them (used when that is every group: a ruleset the reference engine cannot resolve)
    on_asp: list[tuple[ScreenTask, Screened]] = []
    reference_resolved = False  # a board, at least: the reference engine can resolve the ruleset
    try:
        for task, screened in zip(tasks, runner.map(screen_group, tasks)):
            tally.add(task, screened)
            if screened.on_asp is not None:
                on_asp.append((task, screened.on_asp))
            elif any(screened.valid):
                reference_resolved = True
            progress.update(failing=sum(r.failing for r in tally.results.values()) or None)
            progress.advance(len(task.boards) * len(names))
        screen = "reference" if engine == "auto" else engine
        if engine == "auto" and on_asp and not reference_resolved:
            screen = "asp"  # (a ruleset the reference engine cannot resolve: the ASP engine alone)
            invalid, tally = tally.invalid, _Tally(str(ruleset), names, len(boards), engine, bound)
            for task, screened in on_asp:
                tally.add(task, screened)
            tally.invalid = invalid  # (a group of invalid boards alone has no verdicts on_asp)
        for name in names:
            result, failing = tally.results[name], tally.failing[name]
            start = time.monotonic()
            progress.update(property=name)
            if failing and not result.unavailable:
                _settle(name, failing, engine, screen, result, progress, runner)
                if out is not None:
                    _write(result, out)
            result.seconds += time.monotonic() - start
            if result.failure is not None:
                progress.event(f"{ruleset} {name}: fails ({result.failure.explanation})", event="failed",
                               ruleset=str(ruleset), property=name)
    finally:
        if own_runner:
            runner.close()
    return tally.finished()


# Boards a task checks, every property on each: a fixed number, so the groups (and what is found
# in them) do not depend on how many workers there are.
GROUP = 25


@dataclass(frozen=True)
class ScreenTask:
    """A group of boards to check the properties `names` on (a runner's task: plain data).

    `engine` "auto" checks them on the reference engine, and on the ASP engine too when the
    reference engine fails on every valid board of the group (`Screened.on_asp`)."""

    ruleset: str
    names: tuple[str, ...]
    engine: str
    first: int  # the index of the group's first board in the run (its boards' sources)
    boards: tuple[dict[str, Any], ...]


@dataclass
class Screened:
    """A group's verdicts on one engine: per property, one per valid board, in order (up to the
    board where the property turned out `Unavailable`, if it did)."""

    engine: str
    valid: list[bool] = field(default_factory=list)  # per board of the group: a valid board?
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)  # property -> why it cannot be checked
    seconds: dict[str, float] = field(default_factory=dict)  # per property (the boards' resolution shared)
    all_failed: bool = False  # the engine failed on every valid board
    on_asp: Screened | None = None


def screen_group(task: ScreenTask) -> Screened:
    """Every property of the task on each of its boards (where the runner runs it)."""
    loaded: list[tuple[Board, dict[str, Any]]] = []
    valid = []
    for i, data in enumerate(task.boards, task.first):
        try:
            loaded.append((board_from_dict(data, f"<{task.ruleset} board {i}>"), data))
            valid.append(True)
        except BoardError:
            valid.append(False)
    screened = _screened(task.names, loaded, "reference" if task.engine == "auto" else task.engine)
    if task.engine == "auto" and screened.all_failed:
        screened.on_asp = _screened(task.names, loaded, "asp")
        screened.on_asp.valid = valid
    screened.valid = valid
    return screened


def _screened(names: Sequence[str], loaded: list[tuple[Board, dict[str, Any]]], engine: str) -> Screened:
    """The properties on the boards on one engine (each board resolved once, the variants of one
    property together)."""
    start = time.monotonic()
    base = _resolve(engine, [b for b, _ in loaded])
    shared = (time.monotonic() - start) / max(1, len(names))
    screened = Screened(engine, all_failed=bool(base) and all(isinstance(r, str) for r in base))
    for name in names:
        start = time.monotonic()
        verdicts = screened.verdicts[name] = []
        try:
            _screen(name, loaded, base, engine, verdicts)
        except Unavailable as err:
            screened.unavailable[name] = str(err)
        screened.seconds[name] = shared + time.monotonic() - start
    return screened


def _screen(name: str, loaded: list[tuple[Board, dict[str, Any]]], base: list[Resolution | str], engine: str,
            verdicts: list[Verdict]) -> None:
    """The property on every board on one engine, variants resolved together: each verdict
    appended to `verdicts` as it is judged."""
    plans: list[Plan | Skip] = [PROPERTIES[name].plan(b, data) if not isinstance(r, str)
                                else Skip(f"the {engine} engine failed on it ({r.split(':')[0]})")
                                for (b, data), r in zip(loaded, base)]  # fmt: skip
    flat = [v for p in plans if isinstance(p, Plan) for _, v in p.variants]
    resolved = iter(_resolve(engine, flat))
    for plan, res in zip(plans, base):
        if isinstance(plan, Skip):
            verdicts.append(plan)
        else:
            verdicts.append(_judge(name, plan, res, [next(resolved) for _ in plan.variants], engine))


class _Tally:
    """The groups' verdicts counted into each property's result, in the order of the boards."""

    def __init__(self, ruleset: str, names: Sequence[str], boards: int, engine: str, bound: int | None) -> None:
        self.results = {n: PropertyResult(ruleset, n, boards=boards, engine=engine, bound=bound) for n in names}
        self.failing: dict[str, list[tuple[dict[str, Any], Failure]]] = {n: [] for n in names}
        self.invalid = 0

    def add(self, task: ScreenTask, screened: Screened) -> None:
        self.invalid += screened.valid.count(False)
        valid = [data for data, ok in zip(task.boards, screened.valid) if ok]
        for name, result in self.results.items():
            if result.unavailable:
                continue  # (not checked from the board where it turned out so)
            for data, verdict in zip(valid, screened.verdicts.get(name, ())):
                if isinstance(verdict, Skip):
                    result.skipped[verdict.reason] += 1
                else:
                    result.judged += 1
                if isinstance(verdict, Failure):
                    result.failing += 1
                    self.failing[name].append((data, verdict))
            result.seconds += screened.seconds.get(name, 0.0)
            if name in screened.unavailable:
                result.unavailable = screened.unavailable[name]
                self.failing[name] = []

    def finished(self) -> list[PropertyResult]:
        for result in self.results.values():
            if self.invalid:  # counted first, as the boards are read before they are checked
                result.skipped = Counter({"not a valid board": self.invalid, **result.skipped})
        return list(self.results.values())


def _size(data: dict[str, Any]) -> int:
    return len(json.dumps(data))


def _settle(name: str, failing: list[tuple[dict[str, Any], Failure]], engine: str, screen: str,
            result: PropertyResult, progress: Progress, runner: Any) -> None:
    """Confirm the failures on the ASP engine (auto; the boards asked together, on `runner`),
    then shrink the smallest one (here)."""
    failing = sorted(failing, key=lambda f: _size(f[0]))
    chosen, on_asp = failing[0], False
    if engine == "auto" and screen != "asp":
        result.confirmed = 0
        asked = [data for data, _ in failing[:CONFIRMED_AT_MOST]]
        for data, again in zip(asked, runner.map(functools.partial(judged, name, engine="asp"), asked)):
            result.asked += 1
            if isinstance(again, Failure):
                if not on_asp:
                    chosen, on_asp = (data, again), True
                result.confirmed += 1
    engines = [screen] + (["asp"] if on_asp and screen != "asp" else [])

    def fails(data: dict[str, Any]) -> bool:
        return all(isinstance(judged(name, data, e), Failure) for e in engines)

    progress.update(phase=f"shrinking {name}")
    minimal = reduce_board(chosen[0], fails, max_checks=SHRINK_CHECKS)
    progress.update(phase=None)
    final = judged(name, minimal, engines[-1])
    result.board = minimal
    result.failure = final if isinstance(final, Failure) else chosen[1]
    if not isinstance(final, Failure):
        result.board = chosen[0]


def _write(result: PropertyResult, out: Path) -> None:
    if result.board is None or result.failure is None:
        return
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{result.ruleset}-{result.name}"
    result.path = out / f"{stem}.json"
    # Written the way riftasp writes boards (as `riftasp fuzz` does), so it reads like a hand-made one.
    result.path.write_text(json.dumps(board_to_dict(board_from_dict(result.board)), indent=2) + "\n", encoding="utf-8")
    if result.failure.variant is not None:
        result.variant_path = out / f"{stem}.variant.json"
        result.variant_path.write_text(json.dumps(board_to_dict(result.failure.variant), indent=2) + "\n", encoding="utf-8")


# ---- reports ----------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def result_line(r: PropertyResult) -> str:
    """`RULESET PROPERTY: holds on N boards` / `holds up to K effects` / `fails (minimal: FILE)`."""
    head = f"{r.ruleset} {r.name}: "
    if r.unavailable:
        return head + f"not checked ({r.unavailable})"
    notes = []
    if r.skipped:
        notes.append(f"judged on {r.judged}; not judged: " + "; ".join(f"{n} {why}" for why, n in r.skipped.most_common()))
    if r.holds:
        scope = f"holds up to {_plural(r.bound, 'effect')}" if r.bound is not None else f"holds on {_plural(r.boards, 'board')}"
        if r.bound is not None:
            notes.insert(0, _plural(r.boards, "board"))
        return head + scope + (f" ({'; '.join(notes)})" if notes else "")
    where = str(r.path) if r.path else "not written"
    text = f"fails (minimal: {where}) on {r.failing} of {_plural(r.boards, 'board')}"
    if r.confirmed is not None:
        text += (f", on the reference engine only ({r.asked} asked again on the asp engine)" if r.reference_only
                 else f", confirmed on the asp engine ({r.confirmed} of {r.asked} asked)")
    if r.failure is not None:
        text += f": {r.failure.explanation}"
    return head + text


def report_text(results: list[PropertyResult], seconds: float | None = None) -> str:
    lines = [result_line(r) for r in results]
    failed = sum(r.verdict == "fails" for r in results)
    tail = f"{_plural(len(results), 'property check')}: {failed} failing"
    if seconds is not None:
        tail += f" ({seconds:.1f}s)"
    return "\n".join(lines + [tail])


def report_json(results: list[PropertyResult], **run: Any) -> dict[str, Any]:
    return {**run, "holds": not any(r.verdict == "fails" for r in results), "results": [r.to_json() for r in results]}


def _cell(value: Any) -> str:
    text = _value(value) if not isinstance(value, str) else value
    return text.replace("|", "\\|").replace("\n", " ")


def _board_tables(data: dict[str, Any]) -> list[str]:
    keys = ["id", "card", "name", "type", "owner", "controller", "zone"]
    objects = data.get("objects", [])
    extra = sorted({k for o in objects for k in o} - set(keys) - {"rules_text", "effect_text"})
    lines = ["| " + " | ".join(keys + extra + ["text"]) + " |", "|" + "---|" * (len(keys) + len(extra) + 1)]
    for o in objects:
        text = [_effect_words(e) for e in (*o.get("rules_text", ()), *o.get("effect_text", ()))]
        lines.append("| " + " | ".join([_cell(o.get(k, "")) for k in keys + extra] + ["<br>".join(map(_cell, text))]) + " |")
    effects = data.get("effects", [])
    if effects:
        lines += ["", "| effect | controller | timestamp | source |", "|---|---|---|---|"]
        lines += [f"| {_cell(_effect_words(e))} | {_cell(e.get('controller', ''))} | {_cell(e.get('timestamp', ''))} "
                  f"| {_cell(e.get('source', ''))} |" for e in effects]  # fmt: skip
    return lines


def _effect_words(e: dict[str, Any]) -> str:
    op = dict(e["op"])
    name = op.pop("op")
    words = f"{e['id']}: {name}" + (" " + ", ".join(f"{k} {_value(v)}" for k, v in op.items()) if op else "")
    if "target" in e:
        words += f" -> {_value(e['target'])}"
    if e.get("conditions"):
        words += " while " + " and ".join(_value(c) for c in e["conditions"])
    if "timestamp" in e:
        words += f" @{e['timestamp']}"
    return words


def _outcome_table(failure: Failure) -> list[str]:
    one, other = failure.outcome or {}, failure.other_outcome
    differing = {(d["object"], d["field"]) for d in failure.differences}
    heads = ["object", "on the board"] + ([f"{failure.other_label}"] if other is not None else [])
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]

    def shown(oid: str, chars: dict[str, Any] | None) -> str:
        if chars is None:
            return "-"
        parts = []
        for key, value in chars.items():
            if value in (None, [], {}, False) and (oid, key) not in differing:
                continue
            text = f"{key} {_value(value)}"
            parts.append(f"**{text}**" if (oid, key) in differing else text)
        return _cell("; ".join(parts))

    for oid in sorted(set(one) | set(other or {})):
        row = [oid, shown(oid, one.get(oid))] + ([shown(oid, other.get(oid))] if other is not None else [])
        lines.append("| " + " | ".join(row) + " |")
    return lines


def report_markdown(results: list[PropertyResult], seconds: float | None = None) -> str:
    lines = ["# riftasp properties", "", "| ruleset | property | verdict | boards | judged | not judged |", "|---|---|---|---|---|---|"]
    for r in results:
        scope = f"up to {_plural(r.bound, 'effect')} ({r.boards})" if r.bound is not None else str(r.boards)
        not_judged = "; ".join(f"{n} {why}" for why, n in r.skipped.most_common()) or "-"
        verdict = r.verdict + (f" ({r.unavailable})" if r.unavailable else "")
        lines.append(f"| {r.ruleset} | {r.name} | {verdict} | {scope} | {r.judged} | {_cell(not_judged)} |")
    for r in results:
        if r.failure is None:
            continue
        f = r.failure
        lines += ["", f"## {r.ruleset}: {r.name} fails", "", _cell(f.explanation), "",
                  f"Failing on {r.failing} of {_plural(r.boards, 'board')} ({f.engine} engine)."
                  + (f" Minimal board: `{r.path}`." if r.path else "")
                  + (f" Its variant ({f.variant_label}): `{r.variant_path}`." if r.variant_path else ""), "",
                  "### The minimal board", ""]  # fmt: skip
        lines += _board_tables(r.board or {})
        lines += ["", "### The outcomes" + (f" (the variant: {f.variant_label})" if f.variant_label else ""), ""]
        lines += _outcome_table(f)
    if seconds is not None:
        lines += ["", f"{_plural(len(results), 'property check')} in {seconds:.1f}s."]
    return "\n".join(lines) + "\n"


def report_html(results: list[PropertyResult], parameters: list[tuple[str, Any]], seconds: float | None = None) -> str:
    """`--format html`: the properties' verdicts, then each failure with its minimal board, the
    outcomes side by side (the board's and its variant's, or the other outcome), the graph of the
    minimal board's calculation and the explanations (resolved again here, on the engine that
    failed, RESOLVERS)."""
    from ..picture.findings import Finding, findings_page, side_rows

    found = []
    for r in results:
        f = r.failure
        if f is None:
            continue
        board = board_from_dict(r.board or {}, str(r.path or f"{r.ruleset}-{r.name}"))
        (res,) = _resolve(f.engine or "reference", [board])
        rows = side_rows(board.ruleset, f.outcome or {}, f.other_outcome) if f.other_outcome is not None else []
        notes = [f.explanation, f"failing on {r.failing} of {_plural(r.boards, 'board')} ({f.engine} engine)"]
        notes += [f"minimal board: {r.path}"] if r.path else []
        notes += [f"its variant ({f.variant_label}): {r.variant_path}"] if r.variant_path else []
        differing = list(dict.fromkeys(d["object"] for d in f.differences)) or None
        found.append(Finding(f"{r.ruleset}: {r.name} fails", notes, board, ("on the board", f.other_label), rows,
                             res if isinstance(res, Resolution) else None, differing))  # fmt: skip
    table = (["ruleset", "property", "verdict", "boards", "judged", "not judged"],
             [[r.ruleset, r.name, r.verdict + (f" ({r.unavailable})" if r.unavailable else ""),
               f"up to {_plural(r.bound, 'effect')} ({r.boards})" if r.bound is not None else str(r.boards),
               str(r.judged), "; ".join(f"{n} {why}" for why, n in r.skipped.most_common()) or "-"]
              for r in results])  # fmt: skip
    failing = sum(r.verdict == "fails" for r in results)
    counts: list[tuple[str, Any]] = [("property checks", len(results)), ("failing", failing)]
    counts += [("seconds", f"{seconds:.1f}")] if seconds is not None else []
    verdict = f"{_plural(len(results), 'property check')}: {failing} failing"
    return findings_page("riftasp properties", parameters, counts, verdict, not failing, found, tables=[table])


# ---- the command ------------------------------------------------------------------------------


class BadInput(Exception):
    """Bad input to the command (exit code 2)."""


def parse_properties(text: str | None) -> list[str]:
    if text is None:
        return list(PROPERTIES)
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in PROPERTIES]
    if unknown or not names:
        what = f"unknown property {unknown[0]!r}" if unknown else "no property named"
        raise BadInput(f"--property: {what}; known properties: {', '.join(PROPERTIES)}")
    return list(dict.fromkeys(names))


def parse_rulesets(text: str) -> list[Any]:
    from ..rulesets import UnsupportedRuleset, known, ruleset

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise BadInput(f"RULESET: no ruleset named; known rulesets: {', '.join(known())}")
    found = []
    for name in dict.fromkeys(names):
        try:
            found.append(ruleset(name))
        except UnsupportedRuleset:
            raise BadInput(f"RULESET: unknown ruleset {name!r}; known rulesets: {', '.join(known())}") from None
    return found


def boards_for(rules: Any, generate: int | None, seed: int, bound: int | None) -> list[dict[str, Any]]:
    check_boards_for(rules, bound)
    if bound is not None:
        return list(bounded_boards(rules, bound))
    assert generate is not None
    return generated_boards(rules, generate, seed)


def check_boards_for(rules: Any, bound: int | None) -> None:
    """BadInput unless the ruleset has the boards asked for (a bounded space, or generators)."""
    if bound is not None:
        if space_of(rules) is None:
            raise BadInput(f"--bound: no bounded space of boards for the {rules} ruleset; families with one: "
                           f"{', '.join(SPACES)}")
    elif rules.value("board_strategy") is None:
        raise BadInput(f"--generate: no board generators for the {rules} ruleset")


def validate(generate: int | None, bound: int | None, engine: str) -> None:
    if (generate is None) == (bound is None):
        raise BadInput("give one of --generate N (with --seed S) or --bound K")
    if generate is not None and not 1 <= generate <= MAX_GENERATE:
        raise BadInput(f"--generate: N must be from 1 to {MAX_GENERATE:,}, got {generate}")
    if bound is not None and not 0 <= bound <= MAX_BOUND:
        raise BadInput(f"--bound: K must be from 0 to {MAX_BOUND}, got {bound}")
    if engine not in ENGINES:
        raise BadInput(f"--engine: unknown engine {engine!r}; engines: {', '.join(ENGINES)}")


def command(rulesets: str, generate: int | None, seed: int, bound: int | None, properties: str | None,
            out: Path, as_json: bool, fmt: str, engine: str, runner: Callable[[], Any] | None = None) -> tuple[str, int]:
    """`riftasp properties`: (what to print, the exit code); BadInput for bad input. `runner`
    makes the runner the boards are checked on (riftasp/campaign/pool.py; default: this
    process), once the input is checked; a RunnerError of its work is raised."""
    from ..campaign.pool import make_runner
    from ..progress import make_progress

    if fmt not in ("text", "md", "html"):
        raise BadInput(f"--format: unknown format {fmt!r}; formats: text, md, html")
    if as_json and fmt != "text":
        raise BadInput(f"--json and --format {fmt}: choose one")
    validate(generate, bound, engine)
    names = parse_properties(properties)
    rules = parse_rulesets(rulesets)
    start = time.monotonic()
    results: list[PropertyResult] = []
    for r in rules:
        check_boards_for(r, bound)  # every ruleset's, before any work starts
    where = runner() if runner is not None else make_runner(1)
    try:
        for r in rules:
            boards = boards_for(r, generate, seed, bound)
            with make_progress(f"properties {r}", len(boards) * len(names), as_json) as progress:
                results += run(r, boards, names, engine, out, progress, bound, runner=where)
    finally:
        where.close()
    seconds = time.monotonic() - start
    code = 1 if any(r.verdict == "fails" for r in results) else 0
    if as_json:
        mode = {"bound": bound} if bound is not None else {"generate": generate, "seed": seed}
        text = json.dumps(report_json(results, rulesets=[str(r) for r in rules], properties=names, engine=engine,
                                      **mode, seconds=round(seconds, 2)), indent=2)  # fmt: skip
    elif fmt == "md":
        text = report_markdown(results, seconds)
    elif fmt == "html":
        given: list[tuple[str, Any]] = [("bound", bound)] if bound is not None else [("generate", generate), ("seed", seed)]
        parameters = [("rulesets", ", ".join(str(r) for r in rules)), ("properties", ", ".join(names)),
                      ("engine", engine), *given]  # fmt: skip
        text = report_html(results, parameters, seconds).rstrip("\n")
    else:
        text = report_text(results, seconds)
    return text, code
