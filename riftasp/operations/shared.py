"""The operations rulesets share (their encodings in encodings/operations/). A ruleset's layer
table names which of them it uses; its plugin (riftasp/rulesets/) adds its own."""

from __future__ import annotations

from ..kinds import AMOUNT, INTEGER, KEYWORD, KEYWORD_NAME, OBJECT_ID, PLAYER, TEXT, array
from .. import specs as spec
from ..specs import Does, OperationSpec, Param

# Weights tilt the generators towards arithmetic whose amount is computed (dependencies) and the
# fixed amounts it depends on.
# Gained keywords may carry numbers; a lost keyword is named only.
_GAINED = array(KEYWORD, unique=True, non_empty=True, what="keyword")
_LOST = array(KEYWORD_NAME, unique=True, non_empty=True, what="keyword")

# In the order the format lists them: simplest first, what takes abilities away last (the
# generators draw the first more often and shrink towards it).
SHARED: tuple[OperationSpec, ...] = (
    OperationSpec("plus", (Param("amount", AMOUNT, draw=(0, 3)),),
                  Does("arithmetic", sign=1, amount=spec.increase_by, reach="adds"), "get{s} +{amount} {number}", weight=3),
    OperationSpec("minus", (Param("amount", AMOUNT, draw=(0, 3)),),
                  Does("arithmetic", sign=-1, amount=spec.increase_by, reach="subtracts"),
                  "get{s} -{amount} {number}", weight=3),
    OperationSpec("increase_to", (Param("value", INTEGER, draw=(2, 7)),),
                  Does("arithmetic", sign=1, amount=spec.increase_to, dependent=True, reach="starts"),
                  "get{s} {number} increased to {value}", weight=3),
    OperationSpec("plus_max", (Param("amount", AMOUNT, draw=(1, 3)), Param("max", INTEGER, draw=(3, 7))),
                  Does("arithmetic", sign=1, amount=spec.plus_max, dependent=True, reach="adds"),
                  "get{s} +{amount} {number}, to at most {max}", weight=2),
    OperationSpec("minus_min", (Param("amount", AMOUNT, draw=(1, 3)), Param("min", INTEGER, draw=(0, 4))),
                  Does("arithmetic", sign=-1, amount=spec.minus_min, dependent=True, reach="subtracts"),
                  "get{s} -{amount} {number}, to no less than {min}", weight=2),
    OperationSpec("double", (), Does("arithmetic", sign=1, amount=spec.double, dependent=True, reach="doubles"),
                  "get{s} {its} {number} doubled", weight=3),
    OperationSpec("gain_keywords", (Param("keywords", _GAINED),), Does("gain_keywords"), "gain{s} {keywords}",
                  term="gain_keyword", each="keywords", weight=2),
    OperationSpec("set_controller", (Param("player", PLAYER, draw="players"),), Does("set", "controller", "player"),
                  "{is} controlled by {player}", weight=2),
    OperationSpec("add_tag", (Param("tag", TEXT, draw="tags"),), Does("add", "tags", "tag"), "gain{s} the tag {tag}"),
    OperationSpec("remove_tag", (Param("tag", TEXT, draw="tags"),), Does("remove", "tags", "tag"), "lose{s} the tag {tag}"),
    OperationSpec("lose_keywords", (Param("keywords", _LOST),), Does("lose_keywords"), "lose{s} {keywords}",
                  term="lose_keyword", each="keywords"),
    OperationSpec("lose_all_abilities", (), Does("lose_all_abilities"), "lose{s} all abilities"),
    OperationSpec("copy", (Param("of", OBJECT_ID),), Does("copy"), "become{s} a copy of {of}"),
)  # fmt: skip
