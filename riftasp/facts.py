"""Board → ASP facts: the only input the encoding sees.

The vocabulary (all ids, names, players, tags and keywords are strings):

    ruleset(R).  setting(Name, Value).  player(P).  active_player(P).
    object(O).  object_index(O, I).  name(O, S).  printed_type(O, T).  owner(O, P).
    printed_controller(O, P).  zone(O, Z).  location(O, L).
    printed_tag(O, T).  printed_keyword(O, K, N)  (N = 0: no number).  status(O, S).
    since(O, T).  attached(G, B, T).
    and the ruleset's own keys (its plugin's OBJECT_FIELDS, riftasp/rulesets/): Riftbound's
    printed_might(O, N), buff(O, T), might_bonus(G, N); Sorcery's printed_power(O, N), row(O, N),
    column(O, N), at_rest(O, T), linked(O, O2) ….
    text(O, E, rules|effect, Listing).
    ongoing(E, Listing).  effect_controller(E, P).  effect_source(E, O).
    effect_timestamp(E, T).  effect_op(E, Op).  effect_target(E, Kind).
    effect_target_id(E, O).  effect_filter(E, F).  effect_condition(E, C).

Listing is the tuple (object index, part, position, 0) that breaks timestamp ties
(docs/semantics.md §2). The solver adds `excluded(I, O)` facts for withdrawn applications.
"""

from __future__ import annotations

import re

from .listing import listing_term, ongoing_listing, text_listing, text_parts
from .model import Board, Effect, GameObject
from .specs import ObjectField
from .terms import condition_term, op_terms, quote, target_facts


CONSTANT = re.compile(r"[a-z][A-Za-z0-9_]*")


def _name(name: str) -> str:
    """A ruleset's name as a term: a constant where it is one (riftbound), else a string."""
    return name if CONSTANT.fullmatch(name) else quote(name)


def _term(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def board_facts(board: Board) -> str:
    own = board.ruleset.object_fields
    lines: list[str] = [
        f"ruleset({_name(board.ruleset.name)}).",
    ]
    # What the board's settings choose (setting/2, read back by riftasp/board_io/lp_shape.py),
    # and every reading in force (reading/2, which the encodings read): the ruleset's
    # [readings], the board's settings over them, the research overrides over both.
    lines += [f"setting({key},{value})." for key, value in board.settings.given().items()]
    lines += [f"reading({key},{_term(value)})." for key, value in sorted(board.readings_in_force.items())]
    lines += [f"player({quote(p)})." for p in board.players]
    # The players' order (the first faces the higher rows of a grid: Sorcery's "in front").
    lines += [f"player_order({quote(p)},{n})." for n, p in enumerate(board.players)]
    if board.active_player is not None:
        lines.append(f"active_player({quote(board.active_player)}).")
    if board.realm is not None:
        lines.append(f"realm_size({board.realm[0]},{board.realm[1]}).")
    for index, obj in enumerate(board.objects):
        o = quote(obj.id)
        lines += [
            f"object({o}).",
            f"object_index({o},{index}).",
            f"name({o},{quote(obj.name)}).",
            f"printed_type({o},{obj.card_type}).",
            f"owner({o},{quote(obj.owner)}).",
            f"printed_controller({o},{quote(obj.controller)}).",
            f"zone({o},{obj.zone}).",
            f"since({o},{obj.since}).",
        ]
        if obj.location is not None:
            lines.append(f"location({o},{quote(obj.location)}).")
        lines += [f"printed_tag({o},{quote(t)})." for t in obj.tags]
        lines += [f"printed_keyword({o},{quote(k.name)},{k.value or 0})." for k in obj.keywords]
        lines += [f"status({o},{s})." for s in obj.status]
        if obj.attached_to is not None:
            stamp = obj.attached_since if obj.attached_since is not None else obj.since
            lines.append(f"attached({o},{quote(obj.attached_to)},{stamp}).")
        lines += own_facts(obj, o, own)
        for part, effects in text_parts(obj):
            for position, effect in enumerate(effects):
                listing = listing_term(text_listing(index, part, position))
                lines.append(f"text({o},{quote(effect.id)},{part},{listing}).")
                lines += effect_facts(effect)
    for position, effect in enumerate(board.effects):
        e = quote(effect.id)
        lines.append(f"ongoing({e},{listing_term(ongoing_listing(len(board.objects), position))}).")
        if effect.controller is not None:
            lines.append(f"effect_controller({e},{quote(effect.controller)}).")
        if effect.source is not None:
            lines.append(f"effect_source({e},{quote(effect.source)}).")
        lines += effect_facts(effect)
    return "\n".join(lines) + "\n"


def own_facts(obj: GameObject, o: str, own: tuple[ObjectField, ...]) -> list[str]:
    """The facts of the ruleset's own object keys: `fact(O, Value)`, a flag `fact(O, Stamp)`
    while it holds (its stamp, else the object's `since`)."""
    lines = []
    for f in own:
        value = getattr(obj, f.name)
        if f.kind.name == "boolean":
            if value:
                stamp = getattr(obj, f.stamp) if f.stamp else None
                lines.append(f"{f.fact}({o},{obj.since if stamp is None else stamp}).")
        elif value is not None:
            lines.append(f"{f.fact}({o},{quote(value) if f.kind.name in ('object_id', 'text') else value}).")
    return lines


def effect_facts(effect: Effect) -> list[str]:
    e = quote(effect.id)
    lines = [f"effect_op({e},{term})." for term in op_terms(effect.op)]
    lines += target_facts(e, effect.target)
    lines += [f"effect_condition({e},{condition_term(c)})." for c in effect.conditions]
    if effect.timestamp is not None:
        lines.append(f"effect_timestamp({e},{effect.timestamp}).")
    return lines

