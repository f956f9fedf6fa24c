"""Hypothesis strategies for random Sorcery boards (docs/semantics-sorcery.md), as board-format
dicts: what `riftasp fuzz --ruleset sorcery` draws (the plugin's `board_strategy`) and what the
generated-board tests compare the two engines and `riftasp check` on.

Every board draws a *theme*, one of the hard classes of issue 12, and takes most of its cards
from the theme's pool, with a little noise from the whole library:

  grid       relations on the grid: here, adjacent, nearby, one step in front, directly above
             (Sisters of Silence, Smokestacks, Fields of Phyxis with Infusion Factory, a burrowed
             Root Spider, House Arn Bannerman), minions of both players near each other
  at_rest    mutually disabling at-rest minions (Hillock Basilisk, Stone-gaze Gorgons), one, both
             or neither at rest
  auras      Flood, Drought, Acid Rain and Silence over sites (Floodplain's activated ability as a
             board effect with a later or earlier timestamp), affinity effects
  artifacts  artifacts on bearers: Pallid Bust linked to banished minions (two busts sharing a
             link included), Land Deed, Eerie Coral, Sword and Shield, Plate of the Whale; copies
             (of any theme: now and then a banished copier whose own text copies an object, itself
             included, for a copy to copy: copies of copies)
  control    King of the Realm, Pied Piper, Mesmerism-like `gain_control` board effects (with a
             source), copies of a King, and what takes their support away (silence, a Sisters
             nearby)
  together   cards entering the realm together (one `since`), with or without `entry_order`,
             of both players
  waiting    conditions that wait: Bound Spirit next to a Spellcaster (Eerie Coral,
             `gain_keywords`), Pied Piper's power condition, Plate of the Whale, power effects
  waves      up to 7 board effects that clash on one object (affinity, sub-types, keywords,
             power) beside effects elsewhere, some on several objects, some with a condition
             that reads the power they change: where a run ends, and what may go past it
             (docs/semantics-sorcery.md §9, "A wave")
  chains     up to 3 removal chains far apart on a 12 × 12 realm, often one chain again
             elsewhere and later: an Infusion Factory, and up to 4 cards each removing the
             abilities of the one before (a burrowed Root Spider, Fields of Phyxis, Smokestacks,
             Sisters of Silence, Silence, Acid Rain), entering over a wider span of time:
             removals made due late in one chain while another chain is picked
             (docs/semantics-sorcery.md §9; the class of tests/test_sorcery_waves.py's
             two-corner boards, which needs ~9 cards)
  removers   removals of removers, older and newer (issue 35): cards whose abilities remove
             abilities (Sisters of Silence, Smokestacks, Fields of Phyxis over an Infusion
             Factory, a burrowed Root Spider, Silence and Acid Rain, at-rest gazes), a Hushing
             Torc (no card: an artifact whose bearer ability silences the other minions nearby,
             so its bearer is given a removal) or a Pallid Bust, and board effects that silence,
             disable or take the abilities of one of them, or copy one, before or after the
             cards' own timestamps (docs/semantics-sorcery.md §3)
  rings      a ring of removals that take each other's abilities (three Smokestacks and a
             Fields of Phyxis), a corner where a run ends early and an Acid Rain far off
             (RING: a board reduced from a generated realm of 10,000 objects), retimed, given to
             the other player, thinned and added to: a change that may move a removal beside
             the ring, with a wave past it (docs/semantics-sorcery.md §9, "A wave"), a class no
             board of a few cards drawn at random reaches

Boards stay small (a 3 × 3 corner of the realm unless the board spreads out, ≤ 6 cards, 15 for
`chains` and `rings`, ≤ 3 artifacts, ≤ 4 board effects, 7 for `waves`; any board effect may name two objects, or carry
a power condition on its target) so that effects keep meeting each other. Built for shrinking: an
object is a self-contained gene, artifacts and effects refer to objects by position with a
fallback, so deleting one keeps the rest meaningful, and every simplification (towards 0) means
"less": no theme (generic), one square, no rest, no entry order, no effect.
Requires hypothesis (a test dependency; `riftasp fuzz` asks for it).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ...profile import Profile
from .words import realm_size

PLAYERS = ("alice", "bob")
SITES = ("Smokestacks of Gnaak", "Fields of Phyxis", "Infusion Factory", "Floodplain")
AURAS = ("Flood", "Drought", "Acid Rain", "Silence")
MINIONS = ("King of the Realm", "Sisters of Silence", "Pied Piper of Hameln", "House Arn Bannerman", "Bound Spirit",
           "Bosk Troll", "Hillock Basilisk", "Stone-gaze Gorgons", "Foot Soldier", "Skeleton", "Root Spider")  # fmt: skip
ARTIFACTS = ("Eerie Coral", "Land Deed", "Sword and Shield", "Plate of the Whale", "Pallid Bust")
SPELLS = ("Mesmerism", "Shrink", "Overpower", "Warp Spasm", "Power of Flight")
# The minions a Pallid Bust may be linked to (banished, so their printed text is what it brings).
LINKABLE = ("Sisters of Silence", "King of the Realm", "Pied Piper of Hameln", "House Arn Bannerman", "Bound Spirit",
            "Hillock Basilisk", "Root Spider", "Foot Soldier")  # fmt: skip

# Each theme's card pool (a card named twice is drawn twice as often), the chance (in tenths) that a
# minion is at rest and that a minion carries an artifact, and the board effects it favours.
THEMES: dict[str, dict[str, Any]] = {
    "generic": {"cards": (*MINIONS, *SITES, *AURAS), "rest": 2, "artifacts": ARTIFACTS, "ops": ()},
    "grid": {"cards": ("Sisters of Silence", "Sisters of Silence", "Smokestacks of Gnaak", "Smokestacks of Gnaak",
                       "Fields of Phyxis", "Infusion Factory", "Infusion Factory", "Root Spider", "House Arn Bannerman",
                       "Foot Soldier", "Skeleton", "Bosk Troll"),
             "rest": 1, "artifacts": ("Sword and Shield", "Land Deed"), "ops": ("silence", "add_type")},
    "at_rest": {"cards": ("Hillock Basilisk", "Stone-gaze Gorgons", "Hillock Basilisk", "Stone-gaze Gorgons",
                          "Foot Soldier", "Bosk Troll", "Sisters of Silence"),
                "rest": 6, "artifacts": ("Pallid Bust",), "ops": ("disable", "silence")},
    "auras": {"cards": ("Flood", "Drought", "Acid Rain", "Silence", "Floodplain", "Floodplain", "Smokestacks of Gnaak",
                        "Fields of Phyxis", "Infusion Factory", "Foot Soldier"),
              "rest": 1, "artifacts": ("Pallid Bust", "Land Deed"), "ops": ("gain_affinity", "lose_affinity", "silence")},
    "artifacts": {"cards": ("Foot Soldier", "Bosk Troll", "Skeleton", "King of the Realm", "Sisters of Silence",
                            "Infusion Factory", "Acid Rain", "Floodplain"),
                  "rest": 2, "artifacts": ARTIFACTS + ("Pallid Bust", "Pallid Bust"), "ops": ("silence", "add_type", "copy")},
    "control": {"cards": ("King of the Realm", "King of the Realm", "Pied Piper of Hameln", "Pied Piper of Hameln",
                          "Foot Soldier", "Skeleton", "House Arn Bannerman", "Sisters of Silence", "Floodplain"),
                "rest": 1, "artifacts": ("Land Deed", "Sword and Shield", "Pallid Bust"),
                "ops": ("gain_control", "gain_control", "silence", "plus", "set_power", "copy")},
    "together": {"cards": ("King of the Realm", "King of the Realm", "Flood", "Drought", "Smokestacks of Gnaak",
                           "Sisters of Silence", "Hillock Basilisk", "Stone-gaze Gorgons", "Floodplain", "Foot Soldier"),
                 "rest": 3, "artifacts": ARTIFACTS, "ops": ("gain_control",)},
    "waiting": {"cards": ("Bound Spirit", "Bound Spirit", "Bosk Troll", "Pied Piper of Hameln", "Foot Soldier",
                          "Skeleton", "House Arn Bannerman", "King of the Realm"),
                "rest": 1, "artifacts": ("Eerie Coral", "Eerie Coral", "Plate of the Whale", "Sword and Shield"),
                "ops": ("gain_keywords", "plus", "minus", "set_power", "double", "gain_control")},
    "waves": {"cards": ("Foot Soldier", "Skeleton", "Bosk Troll", "Foot Soldier", "Sisters of Silence",
                        "House Arn Bannerman"),
              "rest": 1, "artifacts": ("Sword and Shield", "Eerie Coral"), "effects": 7,
              "ops": ("gain_affinity", "add_subtype", "gain_keywords", "plus", "plus", "set_power", "silence")},
    "chains": {"cards": ("Silence", "Silence", "Sisters of Silence", "Sisters of Silence", "Root Spider", "Root Spider",
                         "Infusion Factory", "Infusion Factory", "Fields of Phyxis", "Smokestacks of Gnaak", "Acid Rain"),
               "rest": 1, "artifacts": ("Sword and Shield", "Eerie Coral"), "ops": ("silence", "disable", "add_type"),
               "clusters": 3},
    "rings": {"cards": ("Smokestacks of Gnaak", "Fields of Phyxis", "Infusion Factory", "Root Spider", "Acid Rain"),
              "rest": 0, "artifacts": ("Sword and Shield",), "ops": ("silence",), "template": True},
    "removers": {"cards": ("Sisters of Silence", "Sisters of Silence", "Smokestacks of Gnaak", "Fields of Phyxis",
                           "Infusion Factory", "Root Spider", "Silence", "Acid Rain", "Hillock Basilisk",
                           "Stone-gaze Gorgons", "Foot Soldier", "Bosk Troll"),
                 "rest": 3, "artifacts": ("Hushing Torc", "Hushing Torc", "Pallid Bust", "Sword and Shield"),
                 "ops": ("silence", "silence", "disable", "lose_all_abilities", "copy")},
}
# The removers theme's artifact that is no card: its bearer ability silences the other minions
# nearby (a grant of a removal to the bearer, just before layer 3: docs/semantics-sorcery.md §3).
TORC = "Hushing Torc"
TORC_TEXT = [{"id": "hush_nearby", "op": {"op": "silence"},
              "target": {"filter": {"of_type": "minion", "near": "nearby", "other": True}}}]
# Every board effect's operation, as a board writes it (the op's parameters drawn below).
OPS = ("gain_control", "plus", "minus", "set_power", "double", "add_type", "add_subtype", "remove_subtype",
       "gain_keywords", "gain_affinity", "lose_affinity", "silence", "disable", "lose_all_abilities", "copy")  # fmt: skip
# Which spell card a board effect of an operation comes from, when it names a source.
SPELL_OF = {"gain_control": "Mesmerism", "set_power": "Shrink", "plus": "Overpower", "double": "Warp Spasm",
            "gain_keywords": "Power of Flight"}  # fmt: skip
KEYWORDS = ("Spellcaster", "Airborne")
SUBTYPES = ("Mortal", "Spirit", "Beast")
TYPES = ("minion", "artifact", "site")
ELEMENTS = ("water", "fire")
RELATIONS = ("nearby", "adjacent", "here", "one_step_in_front", "area")
MAX_CARDS, MAX_ARTIFACTS, MAX_EFFECTS = 6, 3, 4
# The `chains` theme: chains far apart on a bigger realm, of up to CHAIN_LINKS removals after
# their Infusion Factory, entering over a longer time than other themes' cards (so one chain's
# removals fall between another's).
CHAINS_REALM, CHAIN_LINKS, CHAINS_SINCE = (12, 12), 4, 9
# The `rings` theme's board, as (card, row, column, since, owner) on a RING_REALM realm: a corner
# where a run ends early (two Smokestacks of Gnaak beside an Infusion Factory), a ring of removals
# (the Smokestacks at row 3 takes the Fields of Phyxis' abilities, the Fields those of the
# Smokestacks in front of it, which takes the first one's; the Fields does not take the first
# one's) with an Infusion Factory, and an Acid Rain over an Infusion Factory far from both.
RING_REALM = (4, 13)
RING = (("Smokestacks of Gnaak", 1, 1, 707, "bob"), ("Smokestacks of Gnaak", 1, 3, 714, "alice"),
        ("Infusion Factory", 2, 2, 875, "alice"), ("Smokestacks of Gnaak", 2, 11, 900, "bob"),
        ("Smokestacks of Gnaak", 2, 13, 908, "bob"), ("Infusion Factory", 3, 7, 1049, "bob"),
        ("Acid Rain", 3, 7, 1051, "alice"), ("Infusion Factory", 3, 11, 1060, "bob"),
        ("Smokestacks of Gnaak", 3, 12, 1063, "bob"), ("Fields of Phyxis", 3, 13, 1067, "bob"))
# The cards whose text has a condition (left out by the profile's `conditions`).
CONDITIONAL = ("Bound Spirit", "Pied Piper of Hameln", "Plate of the Whale")


def _op(draw: Any, name: str) -> dict[str, Any]:
    if name in ("plus", "minus"):
        return {"op": name, "amount": draw(st.integers(1, 3))}
    if name == "set_power":
        return {"op": name, "value": draw(st.integers(0, 3))}
    if name == "add_type":
        return {"op": name, "type": draw(st.sampled_from(TYPES))}
    if name in ("add_subtype", "remove_subtype"):
        return {"op": name, "subtype": draw(st.sampled_from(SUBTYPES))}
    if name == "gain_keywords":
        return {"op": name, "keywords": [draw(st.sampled_from(KEYWORDS))]}
    if name in ("gain_affinity", "lose_affinity"):
        return {"op": name, "element": draw(st.sampled_from(ELEMENTS))}
    return {"op": name}


@st.composite
def sorcery_boards(draw: Any, profile: Profile | None = None, ruleset: str = "sorcery",
                   themes: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A Sorcery board (a board-format dict) of one of the THEMES (of `themes`, when given), within `profile` (its
    `max_objects` caps the cards, `max_effects` the board effects, `without` the operations of
    board effects; `conditions` leaves out the cards whose text has a condition, `cards` is not
    honoured: every Sorcery object is a library card)."""
    profile = profile or Profile()
    theme = THEMES[draw(st.sampled_from(themes or tuple(THEMES)))]
    rows, columns = RING_REALM if "template" in theme else CHAINS_REALM if "clusters" in theme else realm_size()
    spread = draw(st.booleans())
    max_row, max_column = (rows, columns) if spread else (min(3, rows), min(3, columns))
    waiting_cards = CONDITIONAL if not profile.allows("conditions") else ()
    pool = [c for c in theme["cards"] if c not in waiting_cards]
    everything = [c for c in (*MINIONS, *SITES, *AURAS) if c not in waiting_cards]
    artifacts = [c for c in theme["artifacts"] if c not in waiting_cards] or ["Sword and Shield"]
    all_artifacts = [c for c in ARTIFACTS if c not in waiting_cards]
    linkable = [c for c in LINKABLE if c not in waiting_cards]
    same_time = theme is THEMES["together"]
    objects: list[dict[str, Any]] = []
    sites: set[tuple[int, int]] = set()
    orders: dict[str, int] = {}
    clusters = (_clusters(draw, theme, profile, rows, columns, pool, everything) if "clusters" in theme
                else draw(ring_variants(pool))[:profile.max_objects] if "template" in theme else None)
    for n in range(len(clusters) if clusters is not None else draw(st.integers(1, min(MAX_CARDS, profile.max_objects)))):
        if clusters is not None:
            card, row, column, since, owner = clusters[n]
        else:
            card = draw(st.sampled_from(pool)) if draw(st.integers(0, 9)) < 8 else draw(st.sampled_from(everything))
            row, column = draw(st.integers(1, max_row)), draw(st.integers(1, max_column))
            since = draw(st.integers(0, 1 if same_time else 3))
            owner = draw(st.sampled_from(PLAYERS))
        obj: dict[str, Any] = {"id": f"o{n}", "card": card, "owner": owner, "zone": "realm", "row": row,
                               "column": column, "since": since}
        if card in SITES:
            if (obj["row"], obj["column"]) in sites:
                continue  # one site per square
            sites.add((obj["row"], obj["column"]))
        elif card in MINIONS:
            if draw(st.integers(0, 9)) < theme["rest"]:
                obj["at_rest"] = True
            if card == "Root Spider" or draw(st.integers(0, 19)) == 0:
                obj["burrowed"] = True
        if same_time and draw(st.booleans()):
            orders[owner] = orders.get(owner, -1) + 1
            obj["entry_order"] = orders[owner]
        objects.append(obj)
    bearers = [o["id"] for o in objects if o["card"] in MINIONS]
    banished: list[str] = []
    n_artifacts = draw(st.integers(0, MAX_ARTIFACTS)) if bearers and profile.allows("gear") else 0
    for n in range(n_artifacts):
        card = draw(st.sampled_from(artifacts)) if draw(st.integers(0, 9)) < 8 else draw(st.sampled_from(all_artifacts))
        bearer = bearers[draw(st.integers(0, len(bearers) - 1))]
        art = {"id": f"a{n}", "card": card, "owner": draw(st.sampled_from(PLAYERS)), "zone": "realm",
               "attached_to": bearer, "since": draw(st.integers(0, 1 if same_time else 3))}  # fmt: skip
        if card == TORC:
            del art["card"]
            art |= {"name": TORC, "type": "artifact", "effect_text": [dict(e, id=f"hush_{n}") for e in TORC_TEXT]}
        if card == "Pallid Bust":
            # A new banished minion, or one an earlier bust links to already.
            if banished and draw(st.booleans()):
                art["linked"] = banished[draw(st.integers(0, len(banished) - 1))]
            else:
                art["linked"] = f"b{len(banished)}"
                banished.append(art["linked"])
        objects.append(art)
    for bid in banished:
        objects.append({"id": bid, "card": draw(st.sampled_from(linkable)), "owner": draw(st.sampled_from(PLAYERS)),
                        "zone": "banished"})
    if profile.allows("copy") and draw(st.integers(0, 3)) == 3:  # 0, what shrinking goes to: none
        # A banished copier (no card: its own text copies an object, itself included), for a copy
        # spell to copy: copies of copies, and a text that copies its own object.
        originals = [o["id"] for o in objects if o["zone"] in ("realm", "banished")] + ["mimic"]
        objects.append({"id": "mimic", "name": "Mimic", "type": "minion", "power": draw(st.integers(0, 3)),
                        "owner": draw(st.sampled_from(PLAYERS)), "zone": "banished",
                        "rules_text": [{"id": "mimicry", "op": {"op": "copy", "of": draw(st.sampled_from(originals))}}]})
    effects = _effects(draw, theme, objects, profile)
    ids = {o["id"] for o in objects}
    spells = {e["source"] for e in effects if "source" in e} - ids
    for spell in sorted(spells):
        objects.append({"id": spell, "card": _spell_card(spell), "owner": draw(st.sampled_from(PLAYERS)),
                        "zone": "cemetery"})  # fmt: skip
    board: dict[str, Any] = {"ruleset": ruleset, "players": list(PLAYERS), "objects": objects, "effects": effects}
    if (rows, columns) != realm_size():
        board["realm"] = {"rows": rows, "columns": columns}
    if draw(st.integers(0, 4)):
        board["active_player"] = draw(st.sampled_from(PLAYERS))
    return board


def _clusters(draw: Any, theme: dict[str, Any], profile: Profile, rows: int, columns: int,
              pool: list[str], everything: list[str]) -> list[tuple[str, int, int, int, str]]:
    """A `chains` board's cards as (card, row, column, since, owner): 1 to `clusters` removal
    chains (`_chain`), each now and then with a card of the theme's pool beside it; a chain after the
    first is often the first one again elsewhere and at another time (chains alike but for
    where and when they stand, as in a big realm). At most the profile's `max_objects` cards."""
    cards: list[tuple[str, int, int, int, str]] = []
    first: list[tuple[str, int, int, int, str]] = []  # the first chain, from its corner
    for n in range(draw(st.integers(1, theme["clusters"]))):
        row, column = draw(st.integers(2, rows - 1)), draw(st.integers(2, columns - 1))
        if n and draw(st.booleans()):
            later = draw(st.integers(-CHAINS_SINCE // 2, CHAINS_SINCE // 2))
            chain = [(card, dr, dc, min(max(since + later, 0), CHAINS_SINCE), owner) for card, dr, dc, since, owner in first]
        else:
            chain = _chain(draw)
            if draw(st.integers(0, 2)) == 0:
                card = draw(st.sampled_from(pool)) if draw(st.integers(0, 9)) < 8 else draw(st.sampled_from(everything))
                chain.append((card, draw(st.integers(-1, 1)), draw(st.integers(-1, 1)),
                              draw(st.integers(0, CHAINS_SINCE)), draw(st.sampled_from(PLAYERS))))  # fmt: skip
            first = first or chain
        cards += [(card, min(max(row + dr, 1), rows), min(max(column + dc, 1), columns), since, owner)
                  for card, dr, dc, since, owner in chain]  # fmt: skip
    return cards[:profile.max_objects]


# What removes the abilities of a link of a chain (its card's kind: a site's or a minion's), and
# where it stands from that link, as (card, kind of its own link, the squares it may stand at).
# A site's: a burrowed Root Spider beneath it, Fields of Phyxis one step behind it (as its
# owner faces: "forward" is +1 for the first player), Smokestacks of Gnaak next to it, Acid
# Rain over it; a minion's: Sisters of Silence next to it, Silence over it. An aura starts the
# chain: nothing here removes an aura's abilities.
REMOVERS = {
    "site": (("Root Spider", "minion", "here"), ("Fields of Phyxis", "site", "behind"),
             ("Smokestacks of Gnaak", "site", "next"), ("Acid Rain", None, "over")),
    "minion": (("Sisters of Silence", "minion", "next"), ("Sisters of Silence", "minion", "next"),
               ("Silence", None, "over")),
}  # fmt: skip


def _chain(draw: Any) -> list[tuple[str, int, int, int, str]]:
    """A removal chain as (card, row step, column step, since, owner) from its corner: an
    Infusion Factory (its change of type is what the chain's removals come before, in layer
    2's position), then up to CHAIN_LINKS cards each removing the abilities of the one before
    (REMOVERS), entering at times drawn independently."""
    owner = draw(st.sampled_from(PLAYERS))
    links = [("Infusion Factory", 0, 0, draw(st.integers(0, CHAINS_SINCE)), owner)]
    kind: str | None = "site"
    for _ in range(draw(st.integers(1, CHAIN_LINKS))):
        if kind is None:
            break  # an aura: nothing removes its abilities
        card, removes, where = draw(st.sampled_from(REMOVERS[kind]))
        _, row, column, _, _ = links[-1]
        owner = draw(st.sampled_from(PLAYERS))
        if where == "behind":
            row -= 1 if owner == PLAYERS[0] else -1
        elif where == "next":
            row, column = row + draw(st.integers(-1, 1)), column + draw(st.integers(-1, 1))
        elif where == "over":  # an aura names the top-left square of its 2 × 2 block
            row, column = row - draw(st.integers(0, 1)), column - draw(st.integers(0, 1))
        links.append((card, row, column, draw(st.integers(0, CHAINS_SINCE)), owner))
        kind = removes
    return links


@st.composite
def ring_variants(draw: Any, cards: tuple[str, ...] | list[str] = THEMES["rings"]["cards"]) -> list[tuple[str, int, int, int, str]]:
    """RING with up to four changes, as (card, row, column, since, owner): a card retimed by up to
    200, given to the other player, left out (down to 6 cards) or joined by one of `cards` on
    a square next to it (a site where one already stands is left out: one site a square, the
    first listed). About half keep a change that may move a removal beside the ring with a wave
    past it."""
    ring = list(RING)
    for _ in range(draw(st.integers(0, 4))):
        n = draw(st.integers(0, len(ring) - 1))
        card, row, column, since, owner = ring[n]
        change = draw(st.sampled_from(("since", "owner", "drop", "add")))
        if change == "since":
            ring[n] = (card, row, column, max(0, since + draw(st.integers(-200, 200))), owner)
        elif change == "owner":
            ring[n] = (card, row, column, since, PLAYERS[owner == PLAYERS[0]])  # the other player
        elif change == "drop" and len(ring) > 6:
            del ring[n]
        elif change == "add":
            rows, columns = RING_REALM
            near = (min(rows, max(1, row + draw(st.integers(-1, 1)))), min(columns, max(1, column + draw(st.integers(-1, 1)))))
            ring.append((draw(st.sampled_from(cards)), *near, draw(st.integers(600, 1100)), draw(st.sampled_from(PLAYERS))))
    taken: set[tuple[int, int]] = set()
    kept = []
    for card, row, column, since, owner in ring:
        if card in SITES:
            if (row, column) in taken:
                continue
            taken.add((row, column))
        kept.append((card, row, column, since, owner))
    return kept


def _spell_card(spell_id: str) -> str:
    return {v.replace(" ", "_").lower(): v for v in SPELLS}[spell_id.rsplit("_", 1)[0]]


def _effects(draw: Any, theme: dict[str, Any], objects: list[dict[str, Any]], profile: Profile) -> list[dict[str, Any]]:
    """Board effects (spells, activated abilities): an operation of the theme's or any, on one
    object by id, or on a filter from an object in the realm (its source)."""
    in_realm = [o for o in objects if o["zone"] == "realm"]
    allowed = [op for op in OPS if profile.allows(op)]
    favoured = [op for op in theme["ops"] if profile.allows(op)] or allowed
    effects: list[dict[str, Any]] = []
    if not allowed or not in_realm:
        return effects
    for n in range(draw(st.integers(0, min(theme.get("effects", MAX_EFFECTS), profile.max_effects)))):
        name = draw(st.sampled_from(favoured)) if draw(st.integers(0, 9)) < 7 else draw(st.sampled_from(allowed))
        effect: dict[str, Any] = {"id": f"e{n}", "op": _op(draw, name)}
        if name == "copy":  # of an object in the realm or a banished minion
            originals = [o for o in objects if o["zone"] in ("realm", "banished")]
            effect["op"]["of"] = originals[draw(st.integers(0, len(originals) - 1))]["id"]
        target = in_realm[draw(st.integers(0, len(in_realm) - 1))]
        sites_here = [o for o in in_realm if o.get("card") in SITES]
        if name in ("gain_affinity", "lose_affinity") and sites_here:
            target = sites_here[draw(st.integers(0, len(sites_here) - 1))]
        if draw(st.integers(0, 3)) == 0 and profile.allows("filters"):
            # From an object in the realm (an activated ability: Floodplain's), on what is near it.
            holder = in_realm[draw(st.integers(0, len(in_realm) - 1))]
            if "attached_to" not in holder:
                effect["source"] = holder["id"]
                relation = draw(st.sampled_from(RELATIONS))
                of_type = draw(st.sampled_from(("minion", "site", None)))
                flt: dict[str, Any] = {"near": relation}
                if of_type:
                    flt["of_type"] = of_type
                if draw(st.integers(0, 3)) == 0:
                    flt["relation"] = draw(st.sampled_from(("friendly", "enemy")))
                effect["target"] = {"filter": flt}
        if "target" not in effect:
            ids = [target["id"]]
            if draw(st.integers(0, 3)) == 0:  # a second object: applied to each in listing order
                other = in_realm[draw(st.integers(0, len(in_realm) - 1))]["id"]
                ids += [other] if other not in ids else []
            effect["target"] = {"ids": ids}
            if name in SPELL_OF and draw(st.booleans()):
                effect["source"] = f"{SPELL_OF[name].replace(' ', '_').lower()}_{n}"
        if name != "copy" and profile.allows("conditions") and draw(st.integers(0, 4)) == 0:
            # A condition on the target's power (it waits until after layer 6); one that changes
            # power reads what it changes, and applies to one target a step.
            kind = draw(st.sampled_from(("power_at_most", "power_below")))
            effect["conditions"] = [{kind: draw(st.integers(0, 3)), "of": "target"}]
        effect["timestamp"] = draw(st.integers(0, 4))
        effect["controller"] = draw(st.sampled_from(PLAYERS))
        effects.append(effect)
    return effects


def board_strategy(profile: Any, ruleset: Any) -> Any:
    """The plugin's generators (riftasp/rulesets/sorcery/__init__.py): boards labelled with
    `ruleset`'s name, so a variant that extends Sorcery is fuzzed with Sorcery's boards."""
    return sorcery_boards(profile=profile, ruleset=ruleset.name)
