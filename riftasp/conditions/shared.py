"""The conditions rulesets share (their encodings in encodings/conditions/): a status, a keyword,
a controller. A ruleset's plugin (riftasp/rulesets/) adds its own."""

from __future__ import annotations

from ..kinds import KEYWORD_NAME, PLAYER_OR_YOU, one_of
from ..rulesets import words_of_rulesets_listing
from ..specs import ConditionSpec

# A status is one of those of the rulesets whose manifests list the condition (Riftbound's).
_STATUSES = words_of_rulesets_listing("conditions", "status", "statuses")

SHARED: tuple[ConditionSpec, ...] = (
    ConditionSpec("status", one_of(_STATUSES, "status"), "status", "{who} {parameter}", draw=("defending", "attacking")),
    ConditionSpec("has_keyword", KEYWORD_NAME, "keyword", "{has} {parameter}", draw="KEYWORDS"),
    ConditionSpec("controlled_by", PLAYER_OR_YOU, "player", "{who} controlled by {parameter}", draw="PLAYERS_OR_YOU"),
)
