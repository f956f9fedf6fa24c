"""Hypothesis strategies for random, rules-valid boards, as board-format dicts.

`boards()` draws what `board_from_dict` accepts, concentrating on what engines get wrong:
dependencies between arithmetic effects (`increase_to`, `plus_max`, `minus_min`, `double` next
to `plus`/`minus`), conditions that only hold after a later stage (rechecks, Shield/Assault while
defending/attacking), equipment, copies, control changes read by friendly/enemy filters,
conditions reading other objects (object loops), `lose_all_abilities`, tags and tag filters,
and timestamp ties. Boards stay small (1–6 objects, 0–6 effects) and ids, players and numbers
come from short ranges, so effects keep meeting each other.

Built for shrinking: a board is a list of self-contained object *genes* (each with its own
rules text / Effect Text) and a list of ongoing-effect genes, whose draws never depend on other
list elements. Each object takes a *slot* (its id number) and effects refer to objects by slot,
so deleting an object leaves every other reference as it was (a reference to a slot no object
has falls back to an existing object). `_build` turns the genes into a valid board without
drawing anything. So when the shrinker deletes an object or an effect the rest keeps its
meaning, and every simplification (towards 0, the first choice) means "less": no attachment, no
condition, the default target, the default settings.
Requires hypothesis (a test dependency; `riftasp fuzz` asks for it).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

PLAYERS = ("alice", "bob")
KEYWORDS = ("Shield", "Assault", "Ganking", "Deflect")
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

# Operation names weighted towards the hard parts: arithmetic with a computed amount
# (dependencies) listed more than once, next to the fixed amounts it depends on.
_OPS = (
    "plus", "increase_to", "minus", "double", "plus_max", "minus_min", "gain_keywords",
    "set_might", "plus", "increase_to", "double", "minus", "set_controller", "copy",
    "gain_keywords", "lose_keywords", "lose_all_abilities", "add_tag", "remove_tag",
    "set_controller", "minus", "increase_to", "plus_max", "minus_min", "double", "plus",
)  # fmt: skip
_CONDITIONS = ("mighty", "might_at_least", "has_keyword", "controlled_by", "status", "mighty")
EFFECT_KEY_ORDER = ("id", "op", "target", "conditions", "timestamp", "controller", "source")


def _sometimes(draw: st.DrawFn, one_in: int) -> bool:
    """True one time in `one_in`; shrinks to False (the feature left out)."""
    return draw(st.integers(0, one_in - 1)) == one_in - 1


def _ref() -> st.SearchStrategy[int]:
    return st.integers(0, SLOTS - 1)


@st.composite
def keyword_texts(draw: st.DrawFn, numbered: bool = True) -> str:
    """A keyword as printed: `Shield`, or with a number when `numbered` (`Shield 2`)."""
    name = draw(st.sampled_from(KEYWORDS))
    value = draw(st.sampled_from((None, 1, 2))) if numbered else None
    return name if value is None else f"{name} {value}"


# ---- genes ------------------------------------------------------------------------------------


@st.composite
def object_genes(draw: st.DrawFn) -> dict[str, Any]:
    """One object, attachment as an index; nothing in it depends on the other objects."""
    kind = draw(st.sampled_from(("unit", "unit", "unit", "gear", "card")))
    gene: dict[str, Any] = {
        "slot": draw(_ref()),
        "kind": kind,
        "owner": draw(st.sampled_from(PLAYERS)),
        # Off the board is rare: such objects report printed values, but conditions read them.
        "zone": draw(st.sampled_from(("battlefield", "base", "battlefield", "hand"))),
        "controller": draw(st.sampled_from(PLAYERS)) if _sometimes(draw, 5) else None,
        "location": draw(st.sampled_from(LOCATIONS)) if _sometimes(draw, 6) else None,
        "since": draw(STAMP),
    }
    if kind == "card":
        gene["card"] = draw(st.sampled_from(CARDS))
    if kind == "unit":
        gene["might"] = draw(MIGHT)
        gene["tags"] = draw(st.lists(st.sampled_from(TAGS), max_size=2, unique=True))
        # One printed keyword per name, as the board format requires.
        words = draw(st.lists(keyword_texts(), max_size=2, unique_by=lambda k: k.split()[0]))
        gene["keywords"] = words
    if kind in ("unit", "card"):
        gene["status"] = draw(st.lists(st.sampled_from(("defending", "attacking")), max_size=1))
        gene["buff"] = draw(st.booleans())
        gene["buff_since"] = draw(STAMP) if gene["buff"] and _sometimes(draw, 2) else None
    # Equipment is mostly attached: that is where its Effect Text and Might Bonus apply.
    gene["attach"] = draw(st.integers(0, SLOTS))  # 0: unattached, else the bearer's slot + 1
    gene["attached_since"] = draw(STAMP) if _sometimes(draw, 2) else None
    if kind == "gear":
        gene["might_bonus"] = draw(st.sampled_from((None, 1, 2)))
    # Its own text (none for a library card: the card prints it), so text never loses its holder.
    gene["text"] = [] if kind == "card" else draw(st.lists(effect_genes(), max_size=TEXT_PER_OBJECT))
    return gene


@st.composite
def effect_genes(draw: st.DrawFn) -> dict[str, Any]:
    """One effect, its operation, target and conditions, objects as slots. In an object's text
    `effect_text` puts it in a gear's Effect Text; ongoing effects use controller and source."""
    return {
        "effect_text": draw(st.booleans()),
        "controller": draw(st.sampled_from(PLAYERS)),
        "timestamp": draw(STAMP),
        "explicit_timestamp": _sometimes(draw, 4),  # text: the default is its holder's
        "source": draw(_ref()) if _sometimes(draw, 2) else None,  # ongoing only
        "op": draw(_op_genes()),
        "target": draw(_target_genes()),
        # Half the effects are unconditional, so effects meet (and depend on) each other often.
        "conditions": draw(st.lists(_condition_genes(), max_size=2)) if _sometimes(draw, 2) else [],
    }


@st.composite
def _op_genes(draw: st.DrawFn) -> dict[str, Any]:
    name = draw(st.sampled_from(_OPS))
    if name in ("plus", "minus"):
        return {"op": name, "amount": draw(st.integers(0, 3))}
    if name in ("increase_to", "set_might"):
        return {"op": name, "value": draw(st.integers(2, 7))}
    if name == "plus_max":
        return {"op": name, "amount": draw(st.integers(1, 3)), "max": draw(st.integers(3, 7))}
    if name == "minus_min":
        return {"op": name, "amount": draw(st.integers(1, 3)), "min": draw(st.integers(0, 4))}
    if name in ("gain_keywords", "lose_keywords"):
        numbered = name == "gain_keywords"
        # A keyword is named once per list (the board format rejects "Shield" next to "Shield 1").
        words = draw(st.lists(keyword_texts(numbered), min_size=1, max_size=2, unique_by=lambda k: k.split()[0]))
        return {"op": name, "keywords": words}
    if name == "copy":
        return {"op": name, "of": draw(_ref())}  # a slot, resolved in _build
    if name == "set_controller":
        return {"op": name, "player": draw(st.sampled_from(PLAYERS))}
    if name in ("add_tag", "remove_tag"):
        return {"op": name, "tag": draw(st.sampled_from(TAGS))}
    return {"op": name}  # lose_all_abilities, double


@st.composite
def _target_genes(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(("default", "ids", "filter", "self")))
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
def _condition_genes(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(_CONDITIONS))
    parameter: Any = {
        "mighty": lambda: None,
        "might_at_least": lambda: draw(st.integers(2, 7)),
        "has_keyword": lambda: draw(st.sampled_from(KEYWORDS)),
        "controlled_by": lambda: draw(st.sampled_from(("you", *PLAYERS))),
        "status": lambda: draw(st.sampled_from(("defending", "attacking"))),
    }[kind]()
    return {"kind": kind, "parameter": parameter, "of": draw(st.sampled_from(("self", "target", "object", "bearer"))),
            "object": draw(_ref())}  # fmt: skip


@st.composite
def boards(draw: st.DrawFn, max_objects: int = 6, max_effects: int = 6) -> dict[str, Any]:
    """A rules-valid board dict (the JSON board format) with 1..max_objects objects."""
    objects = draw(st.lists(object_genes(), min_size=1, max_size=min(max_objects, SLOTS)))
    ongoing = draw(st.lists(effect_genes(), max_size=min(ONGOING, max_effects)))
    # Rechecks differ most between the two readings of conditions (docs/semantics.md §8).
    immediate = _sometimes(draw, 5)
    return _build(objects, ongoing, immediate, max_effects)


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


def _build(
    object_genes: list[dict[str, Any]], ongoing_genes: list[dict[str, Any]], immediate: bool, max_effects: int
) -> dict[str, Any]:
    slots = _Slots(object_genes)
    objects = [_build_object(g, slots.ids[i], slots, object_genes) for i, g in enumerate(object_genes)]
    placed = [(obj, gene) for obj, g in zip(objects, object_genes) for gene in g["text"]]
    placed += [(None, gene) for gene in ongoing_genes]
    ongoing: list[dict[str, Any]] = []
    for number, (holder, gene) in enumerate(placed[:max_effects], 1):
        _build_effect(gene, f"e{number}", holder, slots, ongoing)
    board: dict[str, Any] = {"ruleset": "riftbound"}
    if immediate:
        board["settings"] = {"condition_timing": "immediate"}
    board |= {"players": list(PLAYERS), "active_player": "alice", "objects": objects}
    if ongoing:
        board["effects"] = ongoing
    return board


def _is_gear(gene: dict[str, Any]) -> bool:
    return gene["kind"] == "gear" or gene.get("card") == "Boots of Swiftness"


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
        if gene["attached_since"] is not None:
            obj["attached_since"] = gene["attached_since"]
    if gene.get("might_bonus") is not None:
        obj["might_bonus"] = gene["might_bonus"]
    return obj


def _build_effect(
    gene: dict[str, Any], eid: str, holder: dict[str, Any] | None, slots: _Slots, ongoing: list[dict[str, Any]]
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
    if gene["kind"] == "mighty":
        return {"mighty": of}
    return {gene["kind"]: gene["parameter"], "of": of}
