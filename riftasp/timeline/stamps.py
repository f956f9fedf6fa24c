"""The ASP engine's bookkeeping of a timeline: after an event, which things are active and their
timestamps, computed by the ruleset's `[timeline]` files (encodings/timeline/ and the
ruleset's own) from the board after the event, what the calculation gave, and what was active
before. Python only writes the facts and reads `stamp/2` back.
"""

from __future__ import annotations

from functools import cache

import clingo

from ..facts import board_facts
from ..model import Board
from ..resources import encodings_folder
from ..result import Resolution
from ..rulesets import Ruleset
from ..terms import quote
from .things import Stamps, Thing


# What Python writes for the [timeline] files besides the board's facts (tests/test_timeline.py
# checks the files' headers against these).
INPUTS = ("board_zone/1", "flag_present/2", "holds_ability/2", "final_keyword/2", "final_value/3",
          "was_active/2", "now/1")


class AspBookkeeping:
    """`stamps(board, resolution, was, now)`: the timestamps of what is active on `board` as
    `resolution` calculated it, given `was` (what was active before, with its timestamps)."""

    name = "asp"

    def stamps(self, board: Board, resolution: Resolution, was: Stamps, now: int) -> Stamps:
        facts = [board_facts(board), _zones(board.ruleset), _flags(board), _finals(resolution),
                 "".join(f"was_active({_thing_term(t)},{s}).\n" for t, s in was.items()), f"now({now}).\n"]
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], _program(board.ruleset) + "".join(facts))
        ctl.ground([("base", [])])
        out: Stamps = {}
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                for atom in model.symbols(shown=True):
                    thing, stamp = atom.arguments
                    out[_thing(thing)] = stamp.number
        return out


@cache
def _program(ruleset: Ruleset) -> str:
    files = ruleset.manifest.get("timeline", {}).get("files", [])
    if not files:
        from ..resources import UnsupportedRuleset

        raise UnsupportedRuleset(f"ruleset {ruleset.name!r} has no [timeline] files: it cannot replay a game")
    folder = encodings_folder()
    return "".join((folder / name).read_text() + "\n" for name in files)


def _zones(ruleset: Ruleset) -> str:
    return "".join(f"board_zone({z}).\n" for z in ruleset.vocabulary.board_zones)


def _flags(board: Board) -> str:
    """The ruleset's stamped keys that hold (a buff): each is a thing of its own."""
    stamped = [f for f in board.ruleset.object_fields if f.stamp]
    return "".join(f"flag_present({f.key},{quote(obj.id)}).\n"
                   for obj in board.objects for f in stamped if getattr(obj, f.name))  # fmt: skip


def _finals(resolution: Resolution) -> str:
    """What the calculation gave: the abilities each object holds (by their printed names: a
    copied one, `E@H`, is not printed text of its holder), keywords, numbers, controllers, flags."""
    lines = []
    for oid, chars in resolution.objects.items():
        o = quote(oid)
        lines += [f"holds_ability({o},{quote(a)})." for a in chars.abilities if "@" not in a]
        lines += [f"final_keyword({o},{quote(k)})." for k in chars.keywords]
        for key, value in chars.values.items():
            if isinstance(value, bool):
                lines.append(f"final_value({o},{key},{str(value).lower()}).")
            elif isinstance(value, int):
                lines.append(f"final_value({o},{key},{value}).")
            elif isinstance(value, str) and key == "controller":
                lines.append(f"final_value({o},{key},{quote(value)}).")
    return "\n".join(lines) + "\n"


def _thing_term(thing: Thing) -> str:
    kind, *rest = thing
    if kind == "flag":
        return f"flag({rest[0]},{quote(rest[1])})"
    return f"{kind}({quote(rest[0])})"


def _thing(symbol: clingo.Symbol) -> Thing:
    args = symbol.arguments
    if symbol.name == "flag":
        return ("flag", args[0].name, args[1].string)
    return (symbol.name, args[0].string)
