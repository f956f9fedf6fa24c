"""The filters' registry: every kind of filter a board may name, described once
(riftasp/specs.py, `FilterSpec`): the shared ones (below) and each ruleset's own (its plugin's
`FILTERS`). Their encodings are encodings/filters/NAME.lp or a ruleset's own filters/NAME.lp;
the board format, the facts and their decoding derive from these entries."""

from __future__ import annotations

from ..kinds import BOOLEAN, TEXT, one_of
from ..rulesets import gathered, words_of_rulesets_listing
from ..specs import FilterSpec

__all__ = ["FILTERS", "FilterSpec"]

# A relation is relative to the effect's controller; `other` leaves out the effect's own object.
SHARED: tuple[FilterSpec, ...] = (
    FilterSpec("relation", one_of(("friendly", "enemy"), "relation")),
    # A zone of the rulesets whose manifests list the filter.
    FilterSpec("zone", one_of(words_of_rulesets_listing("filters", "zone", "zones"), "zone"), role="after",
               words=" in {value}", bound="zone"),
    FilterSpec("location", TEXT, role="after", words=" at {value}", bound="location"),
    FilterSpec("other", BOOLEAN, role="other"),
)

# Filter key -> its description.
FILTERS: dict[str, FilterSpec] = gathered(SHARED, "FILTERS", lambda spec: spec.key)
