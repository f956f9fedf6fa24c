"""Shape of a `.lp` board: its ground facts (lp_parsing.py) into the board model, checking the
vocabulary of riftasp/facts.py: predicates and arities, argument types, enumerations, facts
given once, and listings that match the board order (riftasp/listing.py). The checks on ids
and players that every format shares follow, on the model (references.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import cache
from typing import Any, TypedDict

import clingo

from ..cards import library
from ..limits import VALUE_MAX, VALUE_MIN
from ..listing import TEXT_PARTS, Listing, listing_term, ongoing_listing, text_listing
from ..model import (
    SYMBOLIC_REFS,
    Board,
    Condition,
    Effect,
    GameObject,
    Keyword,
    Operation,
    Settings,
    Target,
)
from ..conditions import CONDITIONS
from ..operations import OPERATIONS
from ..rulesets import Ruleset, default_ruleset, known, plugins, ruleset as ruleset_named
from ..specs import ObjectField
from ..terms import decode_condition, decode_ops, decode_target, quote
from .card_lookup import recognise_card
from .errors import Invalid, joined, shown
from .fields import FILTER, KEYWORD_NAME_RE, RESERVED_PLAYERS, SETTINGS, TEXT_KEYS, Kind
from .lp_parsing import Term

# Every predicate of the board vocabulary (riftasp/facts.py) and its arity.
_VOCABULARY = {
    "ruleset": 1, "setting": 2, "reading": 2, "realm_size": 2, "player": 1, "player_order": 2, "active_player": 1,
    "object": 1, "object_index": 2, "name": 2, "printed_type": 2, "owner": 2,
    "printed_controller": 2, "zone": 2, "location": 2, "printed_tag": 2,
    "printed_keyword": 3, "status": 2, "since": 2, "attached": 3,
    "text": 4, "ongoing": 2, "effect_controller": 2, "effect_source": 2, "effect_timestamp": 2,
    "effect_op": 2, "effect_target": 2, "effect_target_id": 2, "effect_filter": 2,
    "effect_condition": 2,
}  # fmt: skip
# Each ruleset's own object keys are facts `fact(O, Value)` (its plugin's OBJECT_FIELDS): every
# ruleset's are in the vocabulary, and a board may state those of its own ruleset.
_OWN_FACTS = {f.fact: f for plugin in plugins().values() for f in getattr(plugin, "OBJECT_FIELDS", ())}
_VOCABULARY |= {fact: 2 for fact in _OWN_FACTS}
_OBJECT_FACTS = (
    "object_index", "name", "printed_type", "owner", "printed_controller", "zone", "since",
    "location", "attached", "printed_tag", "printed_keyword", "status", "text",
)  # fmt: skip
_REQUIRED_OBJECT_FACTS = ("object_index", "name", "printed_type", "owner", "printed_controller", "zone", "since")
_SINGLE_OBJECT_FACTS = _REQUIRED_OBJECT_FACTS + ("location", "attached")
_EFFECT_FACTS = (
    "effect_controller", "effect_source", "effect_timestamp", "effect_op", "effect_target",
    "effect_target_id", "effect_filter", "effect_condition",
)  # fmt: skip
_SINGLE_EFFECT_FACTS = ("effect_controller", "effect_source", "effect_timestamp", "effect_target")

# Argument kinds of operation, filter and condition terms: "str" a string, "int" an integer,
# "nat" an integer ≥ 0, "kw" a keyword name string, "ref" self/bearer/target or an object id,
# a tuple: one of these constants, "player": a player string or `you`.
_LP_KINDS = {"integer": ("int",), "amount": ("nat",), "keyword": ("kw", "nat"), "keyword_name": ("kw",)}
_OP_TERMS: dict[str, tuple] = {
    spec.functor: tuple(a for _, kind in spec.fact_kinds for a in _LP_KINDS.get(kind.name, ("str",)))
    for spec in OPERATIONS.values()
}
# The operations whose list gives one fact per item.
_LISTED = tuple(spec.functor for spec in OPERATIONS.values() if spec.each)
# Filter and condition terms carry the board format's fields (fields.py) as arguments: a filter
# `type(unit)`, `other`; a condition its object, then its parameter (`status(self,attacking)`),
# or only its object for a kind without a parameter: `mighty(self)`.
_ARGUMENT_KINDS = {"text": "str", "integer": "int", "keyword_name": "kw", "ref": "ref", "player_or_you": "player"}


def _arguments(kind: Kind) -> tuple:
    if kind.name == "boolean":  # a flag is a constant of its own, true where it is written
        return ()
    return (kind.choices if kind.name == "enum" else _ARGUMENT_KINDS[kind.name],)


_FILTER_TERMS = {key: _arguments(kind) for key, kind in FILTER.fields.items()}
_CONDITION_TERMS = {
    kind: ("ref",) if spec.parameter is None else ("ref", *_arguments(spec.parameter))
    for kind, spec in CONDITIONS.items()
}


def board_from_terms(terms: list[Term]) -> Board:
    """The board the facts state (terms answer as clingo symbols do: see Term)."""
    facts = _by_predicate(terms)
    ruleset = _fact_ruleset(facts["ruleset"])
    settings = _fact_settings(facts["setting"])
    readings = _fact_readings(facts["reading"], ruleset)
    players = tuple(_arg(s, 0, "str", "a player") for s in facts["player"])
    active = _single(facts["active_player"], "active_player fact")
    effects = _fact_effects(facts, ruleset)
    objects = _fact_objects(facts, effects, ruleset)
    return Board(
        players=players,
        active_player=_arg(active, 0, "str", "the active player") if active else None,
        objects=objects,
        effects=_fact_ongoing(facts["ongoing"], effects, len(objects)),
        ruleset=ruleset,
        settings=settings,
        realm=_fact_realm(facts["realm_size"]),
        readings=readings,
    )


def _by_predicate(atoms: list[Term]) -> dict[str, list[Term]]:
    facts: dict[str, list[Term]] = defaultdict(list)
    for sym in atoms:
        if sym.type != clingo.SymbolType.Function or not sym.positive or sym.name == "":
            raise Invalid(str(sym), "not a fact of the board vocabulary (riftasp/facts.py)")
        if _VOCABULARY.get(sym.name) != len(sym.arguments):
            raise Invalid(str(sym), f"unknown predicate {sym.name}/{len(sym.arguments)}; see riftasp/facts.py")
        facts[sym.name].append(sym)
    return facts


def _grouped(
    facts: dict[str, list[Term]], preds: tuple[str, ...], owners: list[str], what: str,
    unknown: Callable[[str], str],
) -> dict[str, dict[str, list[Term]]]:
    """The facts of `preds` by owner, their first argument (`what`), which must be one of
    `owners`: `unknown(owner)` says what is wrong with another."""
    grouped: dict[str, dict[str, list[Term]]] = {owner: defaultdict(list) for owner in owners}
    for pred in preds:
        for sym in facts[pred]:
            owner = _arg(sym, 0, "str", what)
            if owner not in grouped:
                raise Invalid(str(sym), unknown(owner))
            grouped[owner][pred].append(sym)
    return grouped


def _single(syms: list[Term], what: str) -> Term | None:
    if len(syms) > 1:
        raise Invalid(str(syms[1]), f"a second {what}")
    return syms[0] if syms else None


def _arg(sym: Term, index: int, kind: Any, what: str) -> Any:
    """Argument `index` of a fact or term, checked to be of `kind` (see _OP_TERMS)."""
    arg = sym.arguments[index]
    is_string = arg.type == clingo.SymbolType.String
    is_number = arg.type == clingo.SymbolType.Number
    is_constant = arg.type == clingo.SymbolType.Function and not arg.arguments and arg.name != ""
    if kind in ("str", "kw"):
        if not is_string:
            raise Invalid(str(sym), f"{what} must be a string, e.g. \"x\"")
        _check_fact_text(arg.string, sym, what, keyword=kind == "kw")
        return arg.string
    if kind in ("int", "nat"):
        if not is_number or (kind == "nat" and arg.number < 0):
            raise Invalid(str(sym), f"{what} must be an integer{' ≥ 0' if kind == 'nat' else ''}")
        if abs(arg.number) > VALUE_MAX:
            limits = f"from {0 if kind == 'nat' else VALUE_MIN} to {VALUE_MAX}"
            raise Invalid(str(sym), f"{what} must be {limits} (see Limits in docs/board-format.md)")
        return arg.number
    if kind in ("ref", "player"):
        constants = SYMBOLIC_REFS if kind == "ref" else RESERVED_PLAYERS
        if is_string:
            _check_fact_text(arg.string, sym, what)
            return arg.string
        if is_constant and arg.name in constants:
            return arg.name
        raise Invalid(str(sym), f"{what} must be {' or '.join(constants)} or a string")
    if not is_constant or arg.name not in kind:
        raise Invalid(str(sym), f"{what} must be one of {joined(kind)}")
    return arg.name


def _check_fact_text(text: str, sym: Term, what: str, keyword: bool = False) -> None:
    if not text:
        raise Invalid(str(sym), f"{what} must not be empty")
    if "\x00" in text:  # clingo strings cannot hold NUL
        raise Invalid(str(sym), f"{what} must not contain a NUL character")
    if keyword and not KEYWORD_NAME_RE.fullmatch(text):
        raise Invalid(str(sym), f"invalid keyword name {shown(text)}")


def _fact_ruleset(syms: list[Term]) -> Ruleset:
    """The board's ruleset, as the value everything after reads (the one lookup by name)."""
    sym = _single(syms, "ruleset fact")
    if sym is None:
        return ruleset_named(default_ruleset())
    # A name that is no constant (riftbound-timestamps) is written as a string (riftasp/facts.py).
    if sym.arguments and sym.arguments[0].type == clingo.SymbolType.String:
        name = sym.arguments[0].string
        if name not in known():
            raise Invalid(str(sym), f"the ruleset must be one of {', '.join(known())}")
        return ruleset_named(name)
    return ruleset_named(_arg(sym, 0, tuple(known()), "the ruleset"))


def _fact_realm(syms: list[Term]) -> tuple[int, int] | None:
    sym = _single(syms, "realm_size fact")
    if sym is None:
        return None
    return _arg(sym, 0, "int", "the realm's rows"), _arg(sym, 1, "int", "the realm's columns")


def _fact_readings(syms: list[Term], ruleset: Ruleset) -> tuple[tuple[str, Any], ...]:
    """The readings the facts state (riftasp/facts.py writes every one in force): those that
    differ from the ruleset's, besides the settings (setting/2 states those)."""
    known = ruleset.readings
    values = ruleset.switch_values
    found: dict[str, Any] = {}
    for sym in syms:
        key = _arg(sym, 0, tuple(known), "the reading")
        if key in found:
            raise Invalid(str(sym), f"a second value for reading {key}")
        allowed = {str(v).lower() if isinstance(v, bool) else str(v): v for v in values.get(key, (known[key],))}
        found[key] = allowed[_arg(sym, 1, tuple(allowed), key)]
    return tuple(sorted((k, v) for k, v in found.items() if k not in vars(Settings()) and v != known[k]))


def _fact_settings(syms: list[Term]) -> Settings:
    values: dict[str, str] = {}
    for sym in syms:
        name = _arg(sym, 0, tuple(SETTINGS.fields), "the setting")
        if name in values:
            raise Invalid(str(sym), f"a second value for setting {name}")
        values[name] = _arg(sym, 1, SETTINGS.fields[name].choices, name)
    return Settings(**values)


# -- effects: declared by text/4 (an object's text) or ongoing/2 (the board's effects)


@cache
def _terms_of(ruleset: Ruleset) -> tuple[dict[str, tuple], dict[str, tuple], dict[str, tuple]]:
    """The operation, filter and condition terms a board of the ruleset may use (its layer
    table's and its manifest's), in the vocabulary's order."""
    operations = set(ruleset.operations)
    return (
        {name: args for name, args in _OP_TERMS.items() if name in operations},
        {name: args for name, args in _FILTER_TERMS.items() if name in ruleset.filter_kinds},
        {name: args for name, args in _CONDITION_TERMS.items() if name in ruleset.condition_kinds},
    )


def _fact_effects(facts: dict[str, list[Term]], ruleset: Ruleset) -> dict[str, Effect]:
    """Every declared effect, decoded from its effect_* facts."""
    declarations = [(_arg(s, 1, "str", "the effect id"), s, False) for s in facts["text"]]
    declarations += [(_arg(s, 0, "str", "the effect id"), s, True) for s in facts["ongoing"]]
    per_effect = _grouped(
        facts, _EFFECT_FACTS, [e for e, _, _ in declarations], "the effect id",
        lambda e: f"unknown effect {shown(e)} (declared by neither text/4 nor ongoing/2)",
    )  # fmt: skip
    # An id declared twice decodes to one effect here; the reference checks report the duplicate.
    terms = _terms_of(ruleset)
    return {e: _fact_effect(e, decl, per_effect[e], ongoing, terms) for e, decl, ongoing in declarations}


def _fact_effect(effect_id: str, decl: Term, own: dict[str, list[Term]], ongoing: bool,
                 terms: tuple[dict[str, tuple], dict[str, tuple], dict[str, tuple]]) -> Effect:  # fmt: skip
    for pred in _SINGLE_EFFECT_FACTS:
        if len(own[pred]) > 1:  # the message only when needed: boards have millions of facts
            _single(own[pred], f"{pred} fact for effect {shown(effect_id)}")
    required = ("effect_op", "effect_target") + (("effect_controller", "effect_timestamp") if ongoing else ())
    for pred in required:
        if not own[pred]:
            raise Invalid(str(decl), f"missing fact {pred}/2")
    if not ongoing:
        for pred in ("effect_controller", "effect_source"):
            if own[pred]:
                # Text belongs to the object holding it: that object is its controller and its self.
                raise Invalid(str(own[pred][0]), "only ongoing effects have a controller or a source")

    def value(pred: str, kind: str, what: str) -> Any:
        return _arg(own[pred][0], 1, kind, what) if own[pred] else None

    return Effect(
        id=effect_id,
        op=_fact_op(own["effect_op"], terms[0]),
        target=_fact_target(own, terms[1]),
        conditions=tuple(_fact_condition(s, terms[2]) for s in own["effect_condition"]),
        timestamp=value("effect_timestamp", "int", "the timestamp"),
        controller=value("effect_controller", "str", "the controller"),
        source=value("effect_source", "str", "the source"),
    )


def _check_term(fact: Term, term: Term, table: dict[str, tuple], what: str) -> None:
    kinds = table.get(term.name) if term.type == clingo.SymbolType.Function else None
    if kinds is None or len(kinds) != len(term.arguments):
        shapes = ", ".join(f"{name}/{len(args)}" for name, args in table.items())
        raise Invalid(str(fact), f"unknown {what} {term}; expected one of {shapes}")
    for index, kind in enumerate(kinds):
        _arg(term, index, kind, f"argument {index + 1} of {term.name}")


def _fact_op(syms: list[Term], table: dict[str, tuple]) -> Operation:
    terms = [s.arguments[1] for s in syms]
    for sym, term in zip(syms, terms):
        _check_term(sym, term, table, "operation")
    names = {t.name for t in terms}
    # Keyword operations are one fact per keyword; anything else is a single fact.
    if len(terms) > 1 and (len(names) > 1 or next(iter(names)) not in _LISTED):
        message = f"an effect has one operation (several facts only for {' or '.join(_LISTED)})"
        raise Invalid(str(syms[1]), message)
    return decode_ops(terms)


def _fact_target(own: dict[str, list[Term]], table: dict[str, tuple]) -> Target:
    sym = own["effect_target"][0]
    kind = _arg(sym, 1, ("self", "bearer", "ids", "filter"), "the target kind")
    for pred, needs in (("effect_target_id", "ids"), ("effect_filter", "filter")):
        if own[pred] and kind != needs:
            raise Invalid(str(own[pred][0]), f"the effect's target is {kind}, not {needs}")
    ids = [_arg(s, 1, "str", "the object id") for s in own["effect_target_id"]]
    seen: set[str] = set()
    for fact in own["effect_filter"]:
        term = fact.arguments[1]
        _check_term(fact, term, table, "filter")
        if term.name in seen:
            raise Invalid(str(fact), f"a second filter on {term.name}")
        seen.add(term.name)
    return decode_target(kind, ids, [s.arguments[1] for s in own["effect_filter"]])


def _fact_condition(sym: Term, table: dict[str, tuple]) -> Condition:
    _check_term(sym, sym.arguments[1], table, "condition")
    return decode_condition(sym.arguments[1])


def _fact_ongoing(syms: list[Term], effects: dict[str, Effect], objects: int) -> tuple[Effect, ...]:
    listed = sorted((_listing(s, 1), s) for s in syms)
    for position, (listing, sym) in enumerate(listed):
        _expect_listing(sym, listing, ongoing_listing(objects, position))
    return tuple(effects[_arg(sym, 0, "str", "the effect id")] for _, sym in listed)


def _listing(sym: Term, index: int) -> tuple[int, ...]:
    arg = sym.arguments[index]
    parts = arg.arguments if arg.type == clingo.SymbolType.Function and arg.name == "" else []
    if len(parts) != 4 or any(p.type != clingo.SymbolType.Number for p in parts):
        raise Invalid(str(sym), "the listing must be a tuple of four integers")
    return tuple(p.number for p in parts)


def _expect_listing(sym: Term, listing: tuple[int, ...], expected: Listing) -> None:
    # The listing breaks timestamp ties; it must be what `board_facts` writes for this board
    # order, or reading the facts into a board would change which effect wins a tie.
    if listing != expected:
        should = listing_term(expected)
        raise Invalid(str(sym), f"the listing should be {should}, from the board order (see riftasp/facts.py)")


# -- objects


def _fact_objects(
    facts: dict[str, list[Term]], effects: dict[str, Effect], ruleset: Ruleset
) -> tuple[GameObject, ...]:
    declared = [_arg(s, 0, "str", "an object id") for s in facts["object"]]
    fields = ruleset.object_fields
    own_facts = tuple(f.fact for f in fields)
    for fact in _OWN_FACTS:
        if fact not in own_facts and facts[fact]:
            raise Invalid(str(facts[fact][0]), f"not a fact of the {ruleset} ruleset")
    per_object = _grouped(
        facts, _OBJECT_FACTS + own_facts, declared, "the object id",
        lambda o: f"unknown object {shown(o)} (no object({quote(o)}) fact)",
    )  # fmt: skip
    for object_id, own in per_object.items():
        for pred in _SINGLE_OBJECT_FACTS + own_facts:
            if len(own[pred]) > 1:
                _single(own[pred], f"{pred} fact for object {shown(object_id)}")
        for pred in _REQUIRED_OBJECT_FACTS:
            if not own[pred]:
                raise Invalid(f"object({quote(object_id)})", f"missing fact {pred}/{_VOCABULARY[pred]}")
    cards = library(ruleset)
    return tuple(
        recognise_card(_fact_object(object_id, per_object[object_id], index, effects, fields, ruleset), cards)
        for index, object_id in enumerate(_object_order(per_object))
    )


def _object_order(per_object: dict[str, dict[str, list[Term]]]) -> list[str]:
    """Object ids by object_index, which must number them 0..n-1 (the board order)."""
    indexed = sorted(
        (_arg(own["object_index"][0], 1, "int", "the index"), str(own["object_index"][0]), object_id)
        for object_id, own in per_object.items()
    )
    for position, (index, fact, _) in enumerate(indexed):
        if index != position:
            raise Invalid(fact, f"object indices must number the objects 0..{len(indexed) - 1}, each once")
    return [object_id for _, _, object_id in indexed]


def _fact_object(
    object_id: str, own: dict[str, list[Term]], index: int, effects: dict[str, Effect],
    fields: tuple[ObjectField, ...], ruleset: Ruleset,
) -> GameObject:
    def value(pred: str, kind: Any, what: str, position: int = 1) -> Any:
        return _arg(own[pred][0], position, kind, what) if own[pred] else None

    since = value("since", "int", "since")
    attached_since = value("attached", "int", "the attachment timestamp", position=2)
    # The ruleset's own keys; a flag's fact gives its stamp, stored as None when it is `since`
    # (the same canonical spelling as the JSON reader).
    params: dict[str, Any] = {}
    for f in fields:
        if f.kind.name == "boolean":
            params[f.name] = bool(own[f.fact])
            stamp = value(f.fact, "int", f.label)
            if f.stamp:
                params[f.stamp] = None if stamp == since else stamp
        else:
            params[f.name] = value(f.fact, "str" if f.kind.name in ("object_id", "text") else "int", f.label)
    words = ruleset.vocabulary
    return GameObject(
        id=object_id,
        name=value("name", "str", "the name"),
        card_type=value("printed_type", words.card_types, "the type"),
        owner=value("owner", "str", "the owner"),
        controller=value("printed_controller", "str", "the controller"),
        zone=value("zone", words.zones, "the zone"),
        since=since,
        tags=tuple(_arg(s, 1, "str", "a tag") for s in own["printed_tag"]),
        keywords=tuple(_fact_keyword(s) for s in own["printed_keyword"]),
        status=tuple(_arg(s, 1, words.statuses, "the status") for s in own["status"]),
        location=value("location", "str", "the location"),
        attached_to=value("attached", "str", "the bearer"),
        # The same canonical spelling as the JSON reader: a default stamp is None.
        attached_since=None if attached_since == since else attached_since,
        **_fact_texts(own["text"], index, effects),
        **params,
    )


def _fact_keyword(sym: Term) -> Keyword:
    name = _arg(sym, 1, "kw", "the keyword")
    number = _arg(sym, 2, "nat", "the keyword's number")
    return Keyword(name, number or None)


class _Texts(TypedDict):
    """An object's two texts, by the model's names (fields.TEXT_KEYS)."""

    rules_text: tuple[Effect, ...]
    effect_text: tuple[Effect, ...]


def _fact_texts(syms: list[Term], index: int, effects: dict[str, Effect]) -> _Texts:
    """The object's rules text and Effect Text (by the model's names), each in listing order."""
    by_part: dict[str, list[Term]] = {part: [] for part in TEXT_PARTS}
    for sym in syms:
        by_part[_arg(sym, 2, TEXT_PARTS, "the text part")].append(sym)
    texts: dict[str, tuple[Effect, ...]] = {}
    for part, mine in by_part.items():
        listed = sorted((_listing(s, 3), s) for s in mine)
        for position, (listing, sym) in enumerate(listed):
            _expect_listing(sym, listing, text_listing(index, part, position))
        texts[TEXT_KEYS[part]] = tuple(effects[_arg(sym, 1, "str", "the effect id")] for _, sym in listed)
    return _Texts(rules_text=texts["rules_text"], effect_text=texts["effect_text"])
