"""Hypothesis strategies for random, rules-valid boards, as board-format dicts.

`boards()` draws what `board_from_dict` accepts, concentrating on what engines get wrong. About
one board in three is *generic*: random objects and effects — dependencies between arithmetic
effects (`increase_to`, `plus_max`, `minus_min`, `double` next to `plus`/`minus`), conditions
that only hold after a later stage (rechecks, Shield/Assault while defending/attacking),
equipment, copies, control changes read by friendly/enemy filters, conditions reading other
objects (object loops), `lose_all_abilities`, tags and tag filters, and timestamp ties. The rest
are built around one shape: arithmetic on one unit whose amounts depend on each other (one in
seven), or one of the hard classes of boards (issue 7; `riftasp.rulesets.riftbound.classes` recognises them):

  A lost support       an ability or keyword bonus whose support is removed after it applied
  B summing keywords   several grants of Shield/Assault on a unit in combat, repeated Ganking/Tank
  C reads nothing can change   conditions on status (or unwritten characteristics) of others
  D real object loops  objects copying each other, conditions reading each other's controller
  E equipment + copy   gear with Effect Text and Might Bonus on a unit that becomes a copy
  F enabling dependencies   an effect switched on by another of its layer
  G paradox rings      a passive that switches off its own condition through another passive

with random numbers, timestamps and a little noise around them. Boards stay small (typically
≤ 4 objects, ≤ 6 effects) and ids, players and numbers come from short ranges, so effects keep
meeting each other. Keywords follow the ruleset's keyword rules (encodings/riftbound/manifest.toml): only a
summing keyword ever carries a number. A `Profile` (riftasp/profile.py) leaves out operations
and features an engine does not support; nothing it names is ever drawn.

Built for shrinking: a board is a list of self-contained object *genes* (each with its own
rules text / Effect Text) and a list of ongoing-effect genes. Each object takes a *slot* (its id
number) and effects refer to objects by slot, so deleting an object leaves every other
reference as it was (a reference to a slot no object has falls back to an existing object).
`_build` turns the genes into a valid board without drawing anything. So when the shrinker
deletes an object or an effect the rest keeps its meaning, and every simplification (towards 0,
the first choice) means "less": no attachment, no condition, the default target, the default
settings, a generic board rather than a class.
Requires hypothesis (a test dependency; `riftasp fuzz` asks for it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from hypothesis import strategies as st

from ...conditions import CONDITIONS
from .keywords import BONUS, SUMMING
from ...operations import OPERATIONS, OperationSpec, Param
from ...profile import Profile
from ...rulesets import Ruleset, ruleset

PLAYERS = ("alice", "bob")
# Summing (Shield, Assault: a Might bonus in combat; Deflect) and non-summing (Ganking, Tank).
KEYWORDS = ("Shield", "Assault", "Ganking", "Deflect", "Tank")
NON_SUMMING_DRAWN = tuple(k for k in KEYWORDS if k not in SUMMING)
TAGS = ("Mech", "Dragon")
LOCATIONS = ("left", "right")
CARDS = ("Fiora, Victorious", "Boots of Swiftness")
SLOTS = 6  # object ids are u1..u6 / g1..g6 (the number is the slot); effects refer to slots
TEXT_PER_OBJECT = 2  # rules text / Effect Text effects drawn per object
ONGOING = 3  # ongoing effects drawn per board
# Printed Might around the Mighty threshold (5), so conditions flip when effects apply.
MIGHT = st.integers(0, 7)
# Few distinct timestamps: ties between effects are common, not a rarity.
STAMP = st.integers(0, 4)
TYPICAL_OBJECTS = 4
GENERIC_WEIGHT = 5  # generic boards per one board of each class (5 in 14 generic, 2 arithmetic)



def _weighted(names_and_weights: list[tuple[str, int]]) -> tuple[str, ...]:
    """Each name as often as its weight, in rounds: every name once in the registry's order,
    then again those of weight 2 or more, and so on. (Hypothesis draws the first elements of a
    list more often than the last: repeats kept apart keep the classes the boards reach; heaviest
    first, with repeats side by side, made class B ten times rarer.)"""
    rounds = max((w for _, w in names_and_weights), default=0)
    return tuple(name for r in range(rounds) for name, weight in names_and_weights if weight > r)


def operation_names(rules: Ruleset) -> tuple[str, ...]:
    """The operations a ruleset's layer table names, as often as their weights in the registry
    (riftasp/operations/): towards the hard parts, arithmetic with a computed amount next to the
    fixed amounts it depends on. A variant's own operations are drawn at their weights too."""
    return _weighted([(spec.name, spec.weight) for spec in OPERATIONS.values() if spec.functor in rules.operations])


def _arithmetic_of(names: tuple[str, ...]) -> tuple[str, ...]:
    """The operations among `names` that change Might (arithmetic, and setting Might), by what
    their registry entries say they do."""
    def changes_might(spec: OperationSpec) -> bool:
        does = spec.does
        return does.kind == "arithmetic" or (does.kind == "set" and does.characteristic in _RULES.families["arithmetic"])

    return tuple(n for n in dict.fromkeys(names) if changes_might(OPERATIONS[n]))


# The generators draw Riftbound boards: its operations and conditions (a variant of it, its own
# operations too: `boards(ops=...)`).
_RULESET = "riftbound"
_RULES = ruleset(_RULESET)
_OPS = operation_names(_RULES)
# Condition kinds, as often as their weights in the registry (riftasp/conditions/).
_CONDITIONS = _weighted([(spec.kind, spec.weight) for spec in CONDITIONS.values()
                         if spec.kind in _RULES.condition_kinds])
EFFECT_KEY_ORDER = ("id", "op", "target", "conditions", "timestamp", "controller", "source")
_DEFAULT = Profile()


@cache
def _card_uses(name: str) -> frozenset[str]:
    """The operations and profile features a library card's printed fields and text use."""
    from ...cards import library

    card = library(_RULES)[name]
    effects = [e for _, e in (*card.rules_text, *card.effect_text)]
    uses = {e.op.name for e in effects} | {"cards"}
    if card.card_type == "gear":
        uses.add("gear")
    if any(e.conditions for e in effects):
        uses.add("conditions")
    if any(e.target.kind == "filter" for e in effects):
        uses.add("filters")
    if any(c.of not in ("target", e.target.kind) for e in effects for c in e.conditions):
        uses.add("loops")  # a condition reading another object than the one changed
    if any(k.value is not None for k in card.keywords):
        uses.add("numbered_keywords")
    return frozenset(uses)


def _card_allowed(name: str, profile: Profile) -> bool:
    """A library card fits a profile that allows everything it uses."""
    return all(profile.allows(n) for n in _card_uses(name))


def _sometimes(draw: st.DrawFn, one_in: int) -> bool:
    """True one time in `one_in`; shrinks to False (the feature left out)."""
    return draw(st.integers(0, one_in - 1)) == one_in - 1


def _ref() -> st.SearchStrategy[int]:
    return st.integers(0, SLOTS - 1)


def _numbered(name: str, profile: Profile) -> bool:
    return name in SUMMING and profile.allows("numbered_keywords")


@st.composite
def keyword_texts(draw: st.DrawFn, numbered: bool = True, profile: Profile = _DEFAULT,
                  names: tuple[str, ...] = KEYWORDS) -> str:  # fmt: skip
    """A keyword as printed: `Shield`, or with a number when `numbered` and the ruleset lets it
    carry one (`Shield 2`; never `Ganking 2`)."""
    name = draw(st.sampled_from(names))
    value = draw(st.sampled_from((None, 1, 2))) if numbered and _numbered(name, profile) else None
    return name if value is None else f"{name} {value}"


# ---- generic genes ----------------------------------------------------------------------------


@st.composite
def object_genes(draw: st.DrawFn, profile: Profile = _DEFAULT, ops: tuple[str, ...] = _OPS) -> dict[str, Any]:
    """One object, attachment as an index; nothing in it depends on the other objects."""
    cards = [c for c in CARDS if _card_allowed(c, profile)]
    kinds = ["unit", "unit", "unit"] + ["gear"] * profile.allows("gear") + ["card"] * bool(cards)
    kind = draw(st.sampled_from(kinds))
    zones = ["battlefield", "base", "battlefield"] + ["hand"] * profile.allows("off_board")
    gene: dict[str, Any] = {
        "slot": draw(_ref()),
        "kind": kind,
        "owner": draw(st.sampled_from(PLAYERS)),
        # Off the board is rare: such objects report printed values, but conditions read them.
        "zone": draw(st.sampled_from(zones)),
        "controller": draw(st.sampled_from(PLAYERS)) if _sometimes(draw, 5) else None,
        "location": draw(st.sampled_from(LOCATIONS)) if _sometimes(draw, 6) else None,
        "since": draw(STAMP),
    }
    if kind == "card":
        gene["card"] = draw(st.sampled_from(cards))
    if kind == "unit":
        gene["might"] = draw(MIGHT)
        gene["tags"] = draw(st.lists(st.sampled_from(TAGS), max_size=2, unique=True))
        # One printed keyword per name, as the board format requires.
        words = draw(st.lists(keyword_texts(profile=profile), max_size=2, unique_by=lambda k: k.split()[0]))
        gene["keywords"] = words
    if kind in ("unit", "card"):
        statuses = ("defending", "attacking") if profile.allows("status") else ()
        gene["status"] = draw(st.lists(st.sampled_from(statuses), max_size=1)) if statuses else []
        gene["buff"] = draw(st.booleans()) and profile.allows("buffs")
        gene["buff_since"] = draw(STAMP) if gene["buff"] and _sometimes(draw, 2) else None
    # Equipment is mostly attached: that is where its Effect Text and Might Bonus apply.
    gene["attach"] = draw(st.integers(0, SLOTS))  # 0: unattached, else the bearer's slot + 1
    gene["attached_since"] = draw(STAMP) if _sometimes(draw, 2) else None
    if kind == "gear":
        gene["might_bonus"] = draw(st.sampled_from((None, 1, 2)))
    # Its own text (none for a library card: the card prints it), so text never loses its holder.
    gene["text"] = [] if kind == "card" else draw(st.lists(effect_genes(profile, ops), max_size=TEXT_PER_OBJECT))
    return gene


@st.composite
def effect_genes(draw: st.DrawFn, profile: Profile = _DEFAULT, ops: tuple[str, ...] = _OPS) -> dict[str, Any]:
    """One effect, its operation, target and conditions, objects as slots. In an object's text
    `effect_text` puts it in a gear's Effect Text; ongoing effects use controller and source."""
    conditions = profile.allows("conditions") and _sometimes(draw, 2)
    return {
        "effect_text": draw(st.booleans()),
        "controller": draw(st.sampled_from(PLAYERS)),
        "timestamp": draw(STAMP),
        "explicit_timestamp": _sometimes(draw, 4),  # text: the default is its holder's
        "source": draw(_ref()) if _sometimes(draw, 2) else None,  # ongoing only
        "op": draw(_op_genes(profile, ops)),
        "target": draw(_target_genes(profile)),
        # Half the effects are unconditional, so effects meet (and depend on) each other often.
        "conditions": draw(st.lists(_condition_genes(profile), max_size=2)) if conditions else [],
    }


@st.composite
def _op_genes(draw: st.DrawFn, profile: Profile = _DEFAULT, ops: tuple[str, ...] = _OPS) -> dict[str, Any]:
    names = profile.ops(ops)
    if not names:
        return {"op": None}  # nothing allowed: the effect is left out in _build
    name = draw(st.sampled_from(names))
    genes: dict[str, Any] = {"op": name}
    for param in OPERATIONS[name].params:
        genes[param.key] = draw(_param_genes(param, profile))
    return genes


_POOLS = {"players": PLAYERS, "tags": TAGS}


def _param_genes(param: Param, profile: Profile) -> st.SearchStrategy[Any]:
    """One parameter, by its kind and the registry's `draw`."""
    kind = param.kind
    if isinstance(param.draw, tuple):
        return st.integers(*param.draw)
    if isinstance(param.draw, str):
        return st.sampled_from(_POOLS[param.draw])
    if kind.name == "object_id":
        return _ref()  # a slot, resolved in _build
    if kind.name == "array" and kind.item is not None and kind.item.name in ("keyword", "keyword_name"):
        # A keyword is named once per list (the board format rejects "Shield" next to "Shield 1").
        numbered = kind.item.name == "keyword"
        return st.lists(keyword_texts(numbered, profile), min_size=1, max_size=2, unique_by=lambda k: k.split()[0])
    raise ValueError(f"the generators cannot draw {param.key!r} ({kind.name})")


@st.composite
def _target_genes(draw: st.DrawFn, profile: Profile = _DEFAULT) -> dict[str, Any]:
    kinds = ("default", "ids", "filter", "self") if profile.allows("filters") else ("default", "ids", "self")
    kind = draw(st.sampled_from(kinds))
    gene: dict[str, Any] = {"kind": kind}
    if kind == "ids":
        gene["ids"] = draw(st.lists(_ref(), min_size=1, max_size=2))
    if kind == "filter":
        gene["filter"] = {
            "type": "unit" if draw(st.booleans()) else None,
            "relation": draw(st.sampled_from((None, "friendly", "enemy"))),
            "tag": draw(st.sampled_from(TAGS)) if _sometimes(draw, 3) else None,
            "location": draw(st.sampled_from(LOCATIONS)) if _sometimes(draw, 6) else None,
            "zone": draw(st.sampled_from(("base", "battlefield"))) if _sometimes(draw, 6) else None,
            "other": draw(st.booleans()),
        }
    return gene


@st.composite
def _condition_genes(draw: st.DrawFn, profile: Profile = _DEFAULT) -> dict[str, Any]:
    kinds = tuple(k for k in _CONDITIONS if k != "status" or profile.allows("status"))
    kind = draw(st.sampled_from(kinds))
    source = CONDITIONS[kind].draw
    if source is None:
        parameter: Any = None
    elif isinstance(source, str):  # one of the pools
        parameter = draw(st.sampled_from({"KEYWORDS": KEYWORDS, "PLAYERS_OR_YOU": ("you", *PLAYERS)}[source]))
    elif all(isinstance(x, int) for x in source):
        parameter = draw(st.integers(*source))
    else:
        parameter = draw(st.sampled_from(source))
    ofs = ("self", "target", "object", "bearer") if profile.allows("loops") else ("target",)
    return {"kind": kind, "parameter": parameter, "of": draw(st.sampled_from(ofs)), "object": draw(_ref())}


@st.composite
def boards(draw: st.DrawFn, max_objects: int | None = None, max_effects: int | None = None,
           profile: Profile | None = None, ops: tuple[str, ...] = _OPS) -> dict[str, Any]:  # fmt: skip
    """A rules-valid board dict (the JSON board format): generic, or built around a hard class.
    `ops`: the operations drawn, weighted (`operation_names`; Riftbound's by default)."""
    profile = profile or _DEFAULT
    max_objects = min(max_objects or profile.max_objects, profile.max_objects, SLOTS)
    max_effects = min(profile.max_effects if max_effects is None else max_effects, profile.max_effects)
    kinds = ["generic"] * GENERIC_WEIGHT
    for name, (_, fits) in MOTIFS.items():
        if name == "arithmetic":
            fits = _arithmetic_fits(ops)
        if fits(profile, max_objects):
            kinds += [name] * WEIGHTS.get(name, 1)
    kind = draw(st.sampled_from(kinds))
    if kind == "generic":
        # Typically ≤ 4 objects (shrinking and the solver stay fast); now and then the most.
        most = max_objects if _sometimes(draw, 4) else min(TYPICAL_OBJECTS, max_objects)
        objects = draw(st.lists(object_genes(profile, ops), min_size=1, max_size=most))
        ongoing = draw(st.lists(effect_genes(profile, ops), max_size=min(ONGOING, max_effects)))
    else:
        objects, ongoing = draw(arithmetic(profile, ops) if kind == "arithmetic" else MOTIFS[kind][0](profile))
        # A little noise around the class: an unrelated object or effect now and then.
        if len(objects) < max_objects and _sometimes(draw, 3):
            objects.append(draw(object_genes(profile, ops)))
        if _sometimes(draw, 3):
            ongoing.append(draw(effect_genes(profile, ops)))
        objects = objects[:max_objects]
    # Rechecks differ most between the readings of conditions (docs/semantics.md §6, step 3):
    # the default (as_able) four boards in five, else settled or immediate.
    timing = None
    if profile.allows("immediate") and _sometimes(draw, 5):
        timing = draw(st.sampled_from(["immediate", "settled"]))
    return _build(objects, ongoing, timing, max_effects, profile)


# ---- the hard classes (issue 7): genes built around one shape ----------------------------------


def _unit(slot: int, might: int | None = 3, **fields: Any) -> dict[str, Any]:
    gene = {"slot": slot, "kind": "unit", "owner": "alice", "zone": "battlefield", "controller": None,
            "location": None, "since": 0, "might": might, "tags": [], "keywords": [], "status": [],
            "buff": False, "buff_since": None, "attach": 0, "attached_since": None, "text": []}  # fmt: skip
    return gene | fields


def _eff(op: dict[str, Any], target: Any = "default", conditions: Sequence[Any] = (), timestamp: int | None = None,
         controller: str = "alice", effect_text: bool = False, source: int | None = None) -> dict[str, Any]:  # fmt: skip
    """An effect gene. `target`: "default" | "self" | a list of slots | {"filter": {...}};
    `timestamp` None: the text's default (its holder's), or 0 for an ongoing effect."""
    if isinstance(target, list):
        target_gene = {"kind": "ids", "ids": target}
    elif isinstance(target, dict):
        target_gene = {"kind": "filter", "filter": {"type": None, "relation": None, "tag": None,
                                                    "location": None, "zone": None, "other": False} | target["filter"]}
    else:
        target_gene = {"kind": target}
    return {"effect_text": effect_text, "controller": controller, "timestamp": timestamp or 0,
            "explicit_timestamp": timestamp is not None, "source": source, "op": op,
            "target": target_gene, "conditions": list(conditions)}  # fmt: skip


def _cond(kind: str, parameter: Any = None, of: str | int = "self") -> dict[str, Any]:
    """A condition gene; `of` an int is an object slot."""
    if isinstance(of, int):
        return {"kind": kind, "parameter": parameter, "of": "object", "object": of}
    return {"kind": kind, "parameter": parameter, "of": of, "object": 0}


def _kw(name: str, number: int | None = None) -> str:
    return name if number is None else f"{name} {number}"


def _stamp(draw: st.DrawFn) -> int:
    return draw(STAMP)


def _choose(draw: st.DrawFn, variants: Mapping[str, tuple[str, ...]], profile: Profile) -> str | None:
    """A variant whose operations and features the profile allows (None: no variant fits)."""
    fits = [name for name, needs in variants.items() if all(profile.allows(n) for n in needs)]
    return draw(st.sampled_from(fits)) if fits else None


def _player(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(PLAYERS))


# Each motif: (strategy of (object genes, ongoing genes), whether the profile leaves room for it).
Genes = tuple[list[dict[str, Any]], list[dict[str, Any]]]

_A_VARIANTS = {
    # Shield makes it Mighty, Mighty grants Tank, Tank removes Shield (issue 7's example).
    "bonus-keyword": ("lose_keywords", "gain_keywords", "status", "conditions"),
    # A held ability makes it Mighty; Mighty removes all abilities.
    "lose-all": ("lose_all_abilities", "conditions"),
    # A held ability reaches a threshold; the threshold makes it a copy (no longer holding it).
    "copy": ("copy", "conditions"),
    # A gained keyword switches on +2; +2 switches on the keyword's removal.
    "keyword-condition": ("gain_keywords", "lose_keywords", "plus", "conditions"),
}


@st.composite
def lost_support(draw: st.DrawFn, profile: Profile) -> Genes:
    """A: an ability or keyword bonus whose support is later removed (through a recheck)."""
    variant = _choose(draw, _A_VARIANTS, profile)
    owner = _player(draw)
    if variant == "bonus-keyword":
        status = draw(st.sampled_from(("defending", "attacking")))
        keyword = next(k for k, s in BONUS.items() if s == status)
        number = draw(st.sampled_from((None, 2))) if _numbered(keyword, profile) else None
        might = draw(st.integers(3, 4)) if number else 4
        granted = draw(st.sampled_from(NON_SUMMING_DRAWN))
        printed = draw(st.booleans()) or not profile.allows("gain_keywords")
        text = [_eff({"op": "gain_keywords", "keywords": [granted]}, conditions=[_cond("mighty")])]
        if not printed:  # the support is itself granted
            text.insert(0, _eff({"op": "gain_keywords", "keywords": [_kw(keyword, number)]}))
        unit = _unit(0, might, owner=owner, status=[status], text=text,
                     keywords=[_kw(keyword, number)] if printed else [])  # fmt: skip
        remover = _eff({"op": "lose_keywords", "keywords": [keyword]}, [0], [_cond("has_keyword", granted, "target")],
                       timestamp=_stamp(draw), controller=_player(draw))  # fmt: skip
        return [unit], [remover]
    if variant == "lose-all":
        might = draw(st.integers(2, 4))
        held = _eff({"op": "plus", "amount": 5 - might})
        unit = _unit(0, might, owner=owner, text=[held])
        if profile.allows("status") and draw(st.booleans()):  # a keyword bonus lost with it
            unit |= {"status": ["defending"], "keywords": ["Shield"]}
        remover = _eff({"op": "lose_all_abilities"}, [0], [_cond("mighty", of="target")], timestamp=_stamp(draw),
                       controller=_player(draw))  # fmt: skip
        return [unit], [remover]
    if variant == "copy":
        might = draw(st.integers(1, 4))
        amount = draw(st.integers(1, 3))
        ops = [o for o in ("plus", "increase_to", "set_might") if profile.allows(o)] or ["plus"]
        op_name = draw(st.sampled_from(ops))
        op = {"op": op_name, "amount": amount} if op_name == "plus" else {"op": op_name, "value": might + amount}
        unit = _unit(0, might, owner=owner, tags=["Mech"], text=[_eff(op)])
        model = _unit(1, draw(st.integers(1, 6)), owner=_player(draw), tags=draw(st.lists(st.sampled_from(TAGS), max_size=1)))
        remover = _eff({"op": "copy", "of": 1}, [0], [_cond("might_at_least", might + amount, "target")],
                       timestamp=_stamp(draw), controller=owner)  # fmt: skip
        # A later decrease can leave the copy holding its threshold only through its own copied
        # Might (a culprit that stood on its victim, docs/semantics.md §8).
        lowers = [o for o in ("minus", "minus_min") if profile.allows(o)]
        if lowers and _sometimes(draw, 2):
            lower = draw(st.sampled_from(lowers))
            op = {"op": lower, "amount": 1} | ({"min": 0} if lower == "minus_min" else {})
            return [unit, model], [remover, _eff(op, [0], timestamp=_stamp(draw), controller=_player(draw))]
        return [unit, model], [remover]
    if variant == "keyword-condition":
        keyword = draw(st.sampled_from(KEYWORDS))
        might = draw(st.integers(2, 4))
        grant = _eff({"op": "gain_keywords", "keywords": [keyword]})
        pump = _eff({"op": "plus", "amount": 5 - might}, conditions=[_cond("has_keyword", keyword)])
        unit = _unit(0, might, owner=owner, text=[grant, pump])
        remover = _eff({"op": "lose_keywords", "keywords": [keyword]}, [0], [_cond("mighty", of="target")],
                       timestamp=_stamp(draw), controller=_player(draw))  # fmt: skip
        return [unit], [remover]
    return [_unit(0, draw(MIGHT))], []


@st.composite
def summing_keywords(draw: st.DrawFn, profile: Profile) -> Genes:
    """B: grants of Shield/Assault (numbered and not) on a unit in combat; repeated Ganking/Tank."""
    status = draw(st.sampled_from(("defending", "attacking")))
    bonus = next(k for k, s in BONUS.items() if s == status)
    keyword = bonus if not _sometimes(draw, 5) else draw(st.sampled_from(("Shield", "Assault", "Deflect")))
    plain = draw(st.sampled_from(NON_SUMMING_DRAWN))
    grants = draw(st.integers(2, 3))
    numbers = [draw(st.sampled_from((None, 1, 2))) for _ in range(grants)]
    if _numbered(keyword, profile):  # both kinds: "Shield" next to "Shield 2"
        if all(n is None for n in numbers):
            numbers[-1] = draw(st.integers(1, 2))
        if all(n is not None for n in numbers):
            numbers[0] = None
    else:
        numbers = [None] * grants
    printed_first = draw(st.booleans())
    printed = [_kw(keyword, numbers[0])] if printed_first else []
    words = [_kw(keyword, n) for n in numbers[1 if printed_first else 0:]]
    repeats = draw(st.integers(2, 3))  # the non-summing keyword, held that many times
    if _sometimes(draw, 2):
        printed.append(plain)
        repeats -= 1
    texts, ongoing = [], []
    slots = [0]
    for index, word in enumerate(words):
        extra = [plain] if index < repeats else []
        op = {"op": "gain_keywords", "keywords": [word, *extra]}
        conditions = [_cond("mighty")] if _sometimes(draw, 4) else []
        if draw(st.booleans()):
            texts.append(_eff(op, conditions=conditions))
        else:
            ongoing.append(_eff(op, slots, [_cond("mighty", of="target")] if conditions else [],
                                timestamp=_stamp(draw), controller=_player(draw)))  # fmt: skip
    for _ in range(repeats - len(words)):
        texts.append(_eff({"op": "gain_keywords", "keywords": [plain]}))
    unit = _unit(0, draw(st.integers(2, 5)), owner=_player(draw), status=[status], keywords=printed, text=texts)
    return [unit], ongoing


_C_VARIANTS = {
    "copy-chain": ("copy", "status", "loops", "conditions"),  # issue 7's example
    "status-ring": ("plus", "status", "loops", "conditions"),
    "unwritten-controller": ("plus", "loops", "conditions"),
}


@st.composite
def unchangeable_reads(draw: st.DrawFn, profile: Profile) -> Genes:
    """C: conditions across objects on status, or on what no effect on the board writes."""
    variant = _choose(draw, _C_VARIANTS, profile)
    perk: dict[str, Any] = {
        "op": draw(st.sampled_from([o for o in ("gain_keywords", "plus") if profile.allows(o)] or ["plus"]))}
    perk |= {"keywords": [draw(st.sampled_from(NON_SUMMING_DRAWN))]} if perk["op"] == "gain_keywords" else {"amount": 2}
    if variant == "copy-chain":
        three = draw(st.booleans())
        u1 = _unit(0, draw(st.integers(1, 3)), status=[draw(st.sampled_from(("defending", "attacking")))])
        u2 = _unit(1, draw(st.integers(2, 5)), owner="bob")
        last = 2 if three else 1
        reader = _unit(last, draw(st.integers(3, 7)), owner="bob", tags=[draw(st.sampled_from(TAGS))],
                       text=[_eff(perk, conditions=[_cond("status", u1["status"][0], 0)])])  # fmt: skip
        objects = [u1, reader] if not three else [u1, u2, reader]
        stamps = sorted(draw(st.lists(STAMP, min_size=2, max_size=2)))
        ongoing = [_eff({"op": "copy", "of": 1}, [0], timestamp=stamps[0], controller="alice")]
        if three:
            ongoing.append(_eff({"op": "copy", "of": 2}, [1], timestamp=stamps[1], controller="bob"))
        return objects, ongoing
    if variant == "status-ring":
        u1 = _unit(0, draw(st.integers(3, 4)), status=[draw(st.sampled_from(("defending", "attacking")))],
                   text=[_eff({"op": "plus", "amount": 2}, conditions=[_cond("mighty", of=1)])])  # fmt: skip
        u2 = _unit(1, draw(st.integers(3, 5)), owner="bob",
                   text=[_eff(perk, conditions=[_cond("status", u1["status"][0], 0)])])  # fmt: skip
        return [u1, u2], []
    if variant == "unwritten-controller":
        player = _player(draw)
        u1 = _unit(0, draw(st.integers(3, 4)), owner=_player(draw),
                   text=[_eff({"op": "plus", "amount": 1}, conditions=[_cond("controlled_by", player, 1)])])  # fmt: skip
        u2 = _unit(1, draw(st.integers(3, 5)), owner=_player(draw),
                   text=[_eff(perk, conditions=[_cond("mighty", of=0)])])  # fmt: skip
        return [u1, u2], []
    return [_unit(0, draw(MIGHT))], []


_D_VARIANTS = {
    "copy-pair": ("copy",),  # issue 7's example
    "copy-ring": ("copy",),
    "copy-reads-might": ("copy", "plus", "loops", "conditions"),
    "control-ring": ("set_controller", "plus", "loops", "conditions"),
}


@st.composite
def real_loops(draw: st.DrawFn, profile: Profile) -> Genes:
    """D: two or three objects copying each other or reading each other's controller / Might."""
    variant = _choose(draw, _D_VARIANTS, profile)
    size = 3 if variant == "copy-ring" else 2
    units = [_unit(i, draw(st.integers(1, 6)), owner=PLAYERS[i % 2], tags=[TAGS[i % 2]]) for i in range(size)]
    ongoing: list[dict[str, Any]] = []
    if variant in ("copy-pair", "copy-ring"):
        for i in range(size):
            copy = {"op": "copy", "of": (i + 1) % size}
            if draw(st.booleans()):  # a copy ability in its own rules text
                units[i]["text"].append(_eff(copy, timestamp=_stamp(draw) if draw(st.booleans()) else None))
            else:
                ongoing.append(_eff(copy, [i], timestamp=_stamp(draw), controller=units[i]["owner"]))
        return units, ongoing
    if variant == "copy-reads-might":
        ongoing.append(_eff({"op": "copy", "of": 1}, [0], timestamp=_stamp(draw)))
        units[1]["text"].append(_eff({"op": "plus", "amount": 2}, conditions=[_cond("mighty", of=0)]))
        return units, ongoing
    if variant == "control-ring":
        thief = _player(draw)
        units[0]["text"].append(_eff({"op": "set_controller", "player": thief}, conditions=[_cond("mighty", of=1)]))
        units[1]["might"] = draw(st.integers(3, 4))
        units[1]["text"].append(_eff({"op": "plus", "amount": 2},
                                     conditions=[_cond("controlled_by", thief, 0)]))  # fmt: skip
        if profile.allows("copy") and _sometimes(draw, 3):
            ongoing.append(_eff({"op": "copy", "of": 1}, [0], timestamp=_stamp(draw)))
        return units, ongoing
    return units, ongoing


@st.composite
def gear_and_copy(draw: st.DrawFn, profile: Profile) -> Genes:
    """E: gear with Effect Text and Might Bonus on a unit that is also the target of a copy."""
    bearer = _unit(0, draw(st.integers(1, 4)), owner="alice")
    if _card_allowed("Boots of Swiftness", profile) and draw(st.booleans()):
        gear = {"slot": 1, "kind": "card", "card": "Boots of Swiftness", "owner": "alice", "zone": "battlefield",
                "controller": None, "location": None, "since": 0, "attach": 1, "text": [],
                "attached_since": _stamp(draw) if draw(st.booleans()) else None}  # fmt: skip
    else:
        ops = [o for o in ("gain_keywords", "plus") if profile.allows(o)] or ["plus"]
        op_name = draw(st.sampled_from(ops))
        op = ({"op": op_name, "keywords": [draw(st.sampled_from(("Ganking", "Shield", "Tank")))]}
              if op_name == "gain_keywords" else {"op": "plus", "amount": 1})  # fmt: skip
        conditions = [_cond("mighty", of="bearer")] if profile.allows("conditions") and _sometimes(draw, 3) else []
        gear = _unit(1, None, kind="gear", might_bonus=draw(st.integers(1, 2)), attach=1,
                     attached_since=_stamp(draw) if draw(st.booleans()) else None,
                     text=[_eff(op, conditions=conditions, effect_text=True)])  # fmt: skip
        del gear["might"]
    model = _unit(2, draw(st.integers(1, 6)), owner=_player(draw), tags=[draw(st.sampled_from(TAGS))])
    if draw(st.booleans()):
        model["keywords"] = [draw(keyword_texts(profile=profile))]
    copy = {"op": "copy", "of": 2}
    if draw(st.booleans()):
        ongoing = [_eff(copy, [0], timestamp=_stamp(draw))]
    else:
        bearer["text"].append(_eff(copy))
        ongoing = []
    if profile.allows("status") and _sometimes(draw, 3):
        bearer["status"] = ["defending"]
    return [bearer, gear, model], ongoing


_F_VARIANTS = {
    "control-enables-condition": ("set_controller", "set_might", "conditions"),  # issue 7's example
    "tag-enables-filter": ("add_tag", "set_might", "filters"),
    "control-enables-relation": ("set_controller", "add_tag", "filters"),
    "keyword-enables-condition": ("gain_keywords", "lose_keywords", "conditions"),
    "might-enables-condition": ("set_might", "set_controller", "conditions"),
}


@st.composite
def enabling_dependencies(draw: st.DrawFn, profile: Profile) -> Genes:
    """F: an effect of one layer whose condition, filter or target another of the layer switches on."""
    variant = _choose(draw, _F_VARIANTS, profile)
    unit = _unit(0, draw(st.integers(2, 6)), owner="alice")
    objects = [unit]
    # The enabling effect first, a competing one of the same layer, the enabled one last: the
    # enabled one must jump the competitor (timestamps drawn, mostly in that order).
    a, c, b = sorted(draw(st.lists(STAMP, min_size=3, max_size=3)))
    if draw(st.booleans()):
        a, b = b, a
    thief = "bob"
    if variant == "control-enables-condition":
        return objects, [
            _eff({"op": "set_controller", "player": thief}, [0], timestamp=a, controller=thief),
            _eff({"op": "set_might", "value": draw(st.integers(5, 7))}, [0], timestamp=c),
            _eff({"op": "set_might", "value": draw(st.integers(1, 3))}, [0],
                 [_cond("controlled_by", thief, "target")], timestamp=b),
        ]  # fmt: skip
    if variant == "tag-enables-filter":
        tag = draw(st.sampled_from(TAGS))
        return objects, [
            _eff({"op": "add_tag", "tag": tag}, [0], timestamp=a),
            _eff({"op": "set_might", "value": draw(st.integers(5, 7))}, [0], timestamp=c),
            _eff({"op": "set_might", "value": draw(st.integers(1, 3))}, {"filter": {"tag": tag}}, timestamp=b),
        ]  # fmt: skip
    if variant == "control-enables-relation":
        tag = draw(st.sampled_from(TAGS))
        relation = draw(st.sampled_from(("friendly", "enemy")))
        return objects, [
            _eff({"op": "set_controller", "player": thief}, [0], timestamp=a, controller=thief),
            _eff({"op": "remove_tag", "tag": tag} if profile.allows("remove_tag") else
                 {"op": "set_controller", "player": "alice"}, [0], timestamp=c),
            _eff({"op": "add_tag", "tag": tag}, {"filter": {"type": "unit", "relation": relation}}, timestamp=b,
                 controller=thief if relation == "friendly" else "alice"),
        ]  # fmt: skip
    if variant == "keyword-enables-condition":
        keyword, other = draw(st.permutations(KEYWORDS))[:2]
        return objects, [
            _eff({"op": "gain_keywords", "keywords": [keyword]}, [0], timestamp=a),
            _eff({"op": "gain_keywords", "keywords": [other]}, [0], timestamp=c),
            _eff({"op": "lose_keywords", "keywords": [other]}, [0], [_cond("has_keyword", keyword, "target")],
                 timestamp=b),
        ]  # fmt: skip
    if variant == "might-enables-condition":
        return objects, [
            _eff({"op": "set_might", "value": draw(st.integers(5, 7))}, [0], timestamp=a),
            _eff({"op": "set_controller", "player": "alice"}, [0], timestamp=c),
            _eff({"op": "set_controller", "player": thief}, [0], [_cond("mighty", of="target")], timestamp=b,
                 controller=thief),
        ]  # fmt: skip
    return objects, []


_G_VARIANTS = {
    "keyword-while-mighty": ("gain_keywords", "minus", "conditions"),  # issue 7's example
    "plus-while-keyword": ("plus", "lose_keywords", "conditions"),
}


@st.composite
def paradox_rings(draw: st.DrawFn, profile: Profile) -> Genes:
    """G: a passive switching off its own condition through another; an unrelated one beside."""
    variant = _choose(draw, _G_VARIANTS, profile)
    stamps = draw(st.permutations(range(1, 4)))
    explicit = draw(st.booleans())

    def stamp(i: int) -> int | None:
        return stamps[i] if explicit else None

    keyword = draw(st.sampled_from(KEYWORDS))
    if variant == "keyword-while-mighty":
        lower = [o for o in ("minus", "minus_min", "set_might") if profile.allows(o)]
        might = draw(st.integers(5, 6))
        low = draw(st.sampled_from(lower)) if lower else None
        drops: dict[str, dict[str, Any]] = {"minus": {"op": "minus", "amount": might - 3},
                                            "minus_min": {"op": "minus_min", "amount": 3, "min": 2},
                                            "set_might": {"op": "set_might", "value": 3}}  # fmt: skip
        drop = drops.get(low) if low is not None else None
        ring = [_eff({"op": "gain_keywords", "keywords": [keyword]}, conditions=[_cond("mighty")], timestamp=stamp(0))]
        if drop is not None:
            ring.append(_eff(drop, conditions=[_cond("has_keyword", keyword)], timestamp=stamp(1)))
    else:
        might = draw(st.integers(3, 4))
        ring = [_eff({"op": "plus", "amount": 2}, conditions=[_cond("has_keyword", keyword)], timestamp=stamp(0)),
                _eff({"op": "lose_keywords", "keywords": [keyword]}, conditions=[_cond("mighty")], timestamp=stamp(1))]
    unrelated_ops: list[dict[str, Any]] = [
                     {"op": "gain_keywords", "keywords": [draw(st.sampled_from(NON_SUMMING_DRAWN))]},
                     {"op": "add_tag", "tag": draw(st.sampled_from(TAGS))}, {"op": "plus", "amount": 1}]
    unrelated_ops = [o for o in unrelated_ops if profile.allows(o["op"])] or [{"op": "plus", "amount": 0}]
    unrelated = _eff(draw(st.sampled_from(unrelated_ops)),
                     conditions=[_cond("mighty")] if draw(st.booleans()) else [], timestamp=stamp(2))  # fmt: skip
    text = [*ring, unrelated]
    order = draw(st.permutations(range(len(text))))
    unit = _unit(0, might, owner=_player(draw), text=[text[i] for i in order],
                 keywords=[keyword] if variant == "plus-while-keyword" else [])  # fmt: skip
    if keyword in BONUS and profile.allows("status") and _sometimes(draw, 3):
        unit["status"] = [BONUS[keyword]]
    return [unit], []


_ARITHMETIC = _arithmetic_of(_OPS)


@st.composite
def arithmetic(draw: st.DrawFn, profile: Profile, ops: tuple[str, ...] = _OPS) -> Genes:
    """Arithmetic whose amount depends on the current Might (increase_to, plus_max, minus_min,
    double) next to fixed amounts, on one unit: the dependency order engines most often miss."""
    names = profile.ops(_arithmetic_of(ops))
    unit = _unit(0, draw(st.integers(0, 6)), owner=_player(draw))
    if profile.allows("buffs") and _sometimes(draw, 4):
        unit["buff"] = True
    ongoing = []
    for _ in range(draw(st.integers(2, 4))):
        op = draw(_op_genes(Profile(frozenset(n for n in ops if n not in names) | profile.without), ops))
        conditions = []
        if profile.allows("conditions") and _sometimes(draw, 3):
            conditions = [_cond(draw(st.sampled_from(("mighty", "might_at_least"))), draw(st.integers(3, 6)),
                                "target")]  # fmt: skip
        if draw(st.booleans()):
            unit["text"].append(_eff(op, conditions=conditions, timestamp=_stamp(draw) if draw(st.booleans()) else None))
        else:
            ongoing.append(_eff(op, [0], conditions, timestamp=_stamp(draw), controller=_player(draw)))
    return [unit], ongoing


def _needs(*names: str, objects: int = 1) -> Callable[[Profile, int], bool]:
    """A motif fits a profile allowing at least one of `names` (all features: "&"-joined)."""

    def fits(profile: Profile, max_objects: int) -> bool:
        return max_objects >= objects and any(all(profile.allows(n) for n in alt.split("&")) for alt in names)

    return fits


def _variants_fit(variants: Mapping[str, tuple[str, ...]], objects: int = 1) -> Callable[[Profile, int], bool]:
    return lambda profile, max_objects: max_objects >= objects and any(
        all(profile.allows(n) for n in needs) for needs in variants.values()
    )


MOTIFS: dict[str, tuple[Callable[[Profile], st.SearchStrategy[Genes]], Callable[[Profile, int], bool]]] = {
    "A": (lost_support, _variants_fit(_A_VARIANTS, objects=2)),
    "B": (summing_keywords, _needs("gain_keywords&status&numbered_keywords")),
    "C": (unchangeable_reads, _variants_fit(_C_VARIANTS, objects=3)),
    "D": (real_loops, _variants_fit(_D_VARIANTS, objects=3)),
    "E": (gear_and_copy, _needs("gear&copy", objects=3)),
    "F": (enabling_dependencies, _variants_fit(_F_VARIANTS)),
    "G": (paradox_rings, _variants_fit(_G_VARIANTS)),
    "arithmetic": (arithmetic, lambda profile, _: len(set(profile.ops(_ARITHMETIC))) >= 2),
}


def _arithmetic_fits(ops: tuple[str, ...]) -> Callable[[Profile, int], bool]:
    names = _arithmetic_of(ops)
    return lambda profile, _: len(set(profile.ops(names))) >= 2
# How often each kind of board is drawn, against one board of each class.
WEIGHTS = {"generic": GENERIC_WEIGHT, "arithmetic": 2}


# ---- genes -> board ---------------------------------------------------------------------------


def _is_gear(gene: dict[str, Any]) -> bool:
    return gene["kind"] == "gear" or gene.get("card") == "Boots of Swiftness"


class _Slots:
    """Object ids by slot, and how a reference to a slot reads on this board."""

    def __init__(self, genes: list[dict[str, Any]]) -> None:
        # Two objects drawn with one slot: the later takes the next free one (no redraw, so the
        # list keeps its length and the shrinker its choices).
        taken: list[int] = []
        for gene in genes:
            slot = gene["slot"]
            while slot in taken:
                slot = (slot + 1) % SLOTS
            taken.append(slot)
        self.slots = taken  # per gene, in board order
        self.id = {slot: f"{'g' if g['kind'] == 'gear' else 'u'}{slot + 1}" for slot, g in zip(taken, genes)}
        self.ids = [self.id[slot] for slot in taken]

    def get(self, slot: int) -> str:
        """The object in `slot`, or if there is none, one of the others (stable while it exists)."""
        if slot in self.id:
            return self.id[slot]
        return self.ids[slot % len(self.ids)]


def _restrict_object(gene: dict[str, Any], profile: Profile) -> dict[str, Any]:
    """The object gene within the profile (a safety net: the draws already respect it)."""
    gene = dict(gene)
    if gene["kind"] == "card" and not _card_allowed(gene["card"], profile):
        gene = _unit(gene["slot"], 3, owner=gene["owner"], zone=gene["zone"], since=gene.get("since", 0))
    if gene["kind"] == "gear" and not profile.allows("gear"):
        gene |= {"kind": "unit", "might": 3, "might_bonus": None, "tags": [], "keywords": [], "status": [],
                 "buff": False, "buff_since": None, "text": [dict(e, effect_text=False) for e in gene["text"]]}  # fmt: skip
    if gene["zone"] == "hand" and not profile.allows("off_board"):
        gene["zone"] = "battlefield"
    if not profile.allows("status"):
        gene["status"] = []
    if not profile.allows("buffs"):
        gene["buff"], gene["buff_since"] = False, None
    if gene.get("keywords"):
        gene["keywords"] = [_restrict_keyword(k, profile) for k in gene["keywords"]]
    gene["text"] = [e for e in (_restrict_effect(e, profile) for e in gene.get("text", ())) if e is not None]
    return gene


def _restrict_keyword(text: str, profile: Profile) -> str:
    name = text.split()[0]
    return text if _numbered(name, profile) else name


def _restrict_effect(gene: dict[str, Any], profile: Profile) -> dict[str, Any] | None:
    op = gene["op"]
    if op["op"] is None or not profile.allows(op["op"]):
        return None
    gene = dict(gene)
    if "keywords" in op:
        gene["op"] = op | {"keywords": [_restrict_keyword(k, profile) for k in op["keywords"]]}
    if gene["target"]["kind"] == "filter" and not profile.allows("filters"):
        gene["target"] = {"kind": "default"}
    conditions = gene["conditions"] if profile.allows("conditions") else []
    if not profile.allows("status"):
        conditions = [c for c in conditions if c["kind"] != "status"]
    if not profile.allows("loops"):
        conditions = [c | {"of": "target"} for c in conditions]
    gene["conditions"] = conditions
    return gene


def _build(
    object_genes: list[dict[str, Any]],
    ongoing_genes: list[dict[str, Any]],
    timing: str | None,
    max_effects: int,
    profile: Profile = _DEFAULT,
) -> dict[str, Any]:
    object_genes = [_restrict_object(g, profile) for g in object_genes]
    ongoing_genes = [e for e in (_restrict_effect(g, profile) for g in ongoing_genes) if e is not None]
    slots = _Slots(object_genes)
    objects = [_build_object(g, slots.ids[i], slots, object_genes) for i, g in enumerate(object_genes)]
    placed: list[tuple[dict[str, Any] | None, dict[str, Any]]] = [
        (obj, gene) for obj, g in zip(objects, object_genes) for gene in g["text"]]
    placed += [(None, gene) for gene in ongoing_genes]
    ongoing: list[dict[str, Any]] = []
    for number, (holder, gene) in enumerate(placed[:max_effects], 1):
        _build_effect(gene, f"e{number}", holder, slots, ongoing)
    board: dict[str, Any] = {"ruleset": _RULESET}
    if timing is not None and (timing != "immediate" or profile.allows("immediate")):
        board["settings"] = {"condition_timing": timing}
    board |= {"players": list(PLAYERS), "active_player": "alice", "objects": objects}
    if ongoing:
        board["effects"] = ongoing
    return board


def _build_object(gene: dict[str, Any], oid: str, slots: _Slots, genes: list[dict[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": oid}
    if "card" in gene:
        obj["card"] = gene["card"]
    else:
        obj["name"] = f"{'Gear' if gene['kind'] == 'gear' else 'Unit'} {oid}"
        obj["type"] = "gear" if gene["kind"] == "gear" else "unit"
    obj["owner"] = gene["owner"]
    for key in ("controller", "zone", "location", "since", "might"):
        if gene.get(key) is not None:
            obj[key] = gene[key]
    for key in ("tags", "keywords", "status"):
        if gene.get(key):
            obj[key] = gene[key]
    if gene.get("buff"):
        obj["buff"] = True
        if gene["buff_since"] is not None:
            obj["buff_since"] = gene["buff_since"]
    # Both ends of an attachment are on the board, and the bearer is a unit (no gear on gear).
    bearers = [slots.ids[i] for i, g in enumerate(genes) if not _is_gear(g) and g["zone"] != "hand"]
    if _is_gear(gene) and gene["zone"] != "hand" and gene["attach"] and bearers:
        wanted = slots.get(gene["attach"] - 1)
        obj["attached_to"] = wanted if wanted in bearers else bearers[gene["attach"] % len(bearers)]
        if gene.get("attached_since") is not None:
            obj["attached_since"] = gene["attached_since"]
    if gene.get("might_bonus") is not None:
        obj["might_bonus"] = gene["might_bonus"]
    return obj


def _build_effect(
    gene: dict[str, Any],
    eid: str,
    holder: dict[str, Any] | None,
    slots: _Slots,
    ongoing: list[dict[str, Any]],
) -> None:
    """Place one effect: in `holder`'s text, or among the ongoing effects when holder is None."""
    context = "ongoing" if holder is None else "effect" if gene["effect_text"] and holder["type"] == "gear" else "rules"
    effect: dict[str, Any] = {"id": eid}
    source = None
    if holder is None:
        effect["controller"] = gene["controller"]
        effect["timestamp"] = gene["timestamp"]
        if gene["source"] is not None:
            source = slots.get(gene["source"])
            effect["source"] = source
    elif gene["explicit_timestamp"]:
        effect["timestamp"] = gene["timestamp"]
    self_id = holder["id"] if holder is not None else source
    effect["op"] = _build_op(gene["op"], slots, self_id)
    target = _build_target(gene["target"], context, self_id is not None, slots)
    if target is not None:
        effect["target"] = target
    conditions: list[dict[str, Any]] = []
    for condition in gene["conditions"]:
        built = _build_condition(condition, context, self_id is not None, slots)
        if built not in conditions:  # a board lists each condition once
            conditions.append(built)
    if conditions:
        effect["conditions"] = conditions
    ordered = {key: effect[key] for key in EFFECT_KEY_ORDER if key in effect}
    if holder is None:
        ongoing.append(ordered)
    else:
        holder.setdefault("rules_text" if context == "rules" else "effect_text", []).append(ordered)


def _build_op(gene: dict[str, Any], slots: _Slots, self_id: str | None) -> dict[str, Any]:
    if gene["op"] != "copy":
        return dict(gene)
    of = slots.get(gene["of"])
    if of == self_id:  # copying oneself says nothing: copy another object if there is one
        of = next((i for i in slots.ids if i != self_id), of)
    return {"op": "copy", "of": of}


def _build_target(gene: dict[str, Any], context: str, has_self: bool, slots: _Slots) -> Any:
    """None keeps the text's default target (`self` in rules text, `bearer` in Effect Text)."""
    kind = gene["kind"]
    if kind == "default" and context != "ongoing":
        return None
    if kind == "self" and has_self:
        return "self"
    if kind == "filter":
        f = gene["filter"]
        fields = {key: f[key] for key in ("type", "relation", "tag", "zone", "location") if f[key] is not None}
        if f["other"] and has_self:
            fields["other"] = True
        return {"filter": fields}
    return {"ids": list(dict.fromkeys(slots.get(r) for r in gene.get("ids", [0])))}


def _build_condition(gene: dict[str, Any], context: str, has_self: bool, slots: _Slots) -> dict[str, Any]:
    of = gene["of"]
    if of == "object":
        of = slots.get(gene["object"])
    if of == "bearer" and context != "effect":
        of = "self"
    if of == "self" and not has_self:
        of = "target"
    if CONDITIONS[gene["kind"]].key is None:  # its key names the object it reads
        return {gene["kind"]: of}
    return {gene["kind"]: gene["parameter"], "of": of}


@st.composite
def class_boards(draw: st.DrawFn, name: str, profile: Profile | None = None) -> dict[str, Any]:
    """A board built around one hard class ("A".."G", see `MOTIFS`), without noise."""
    profile = profile or _DEFAULT
    objects, ongoing = draw(MOTIFS[name][0](profile))
    return _build(objects, ongoing, None, profile.max_effects, profile)
