"""What each of Sorcery's checks rests on (docs/check.md, "Rules and Decisions"): a sentence of
[S] or [C], or a riftasp Decision of docs/semantics-sorcery.md (S1-S21,
encodings/sorcery/choice_points.toml) where they are silent or leave a choice. The plugin's
`check_bases()` gives this table (riftasp/check/report.py `with_bases`); a check named with `*`
stands for a family (`no-withdrawn`, `no-needs`, ...).

Where one violation of a rule's check rests on a Decision the check as a whole does not, the
checker marks that violation itself: the `operation` of a copy (what a copy takes, S18) and of
a grant or keyword gain on an object that lost its abilities (S4)."""

from __future__ import annotations

from ....check.declarative import DECLARATIVE
from ....check.report import FINAL, TRACE, Basis, decision, rule

BASES: dict[tuple[str, str], Basis] = {
    # Final consistency, as Sorcery defines it
    (FINAL, "no-*"): rule("§9, [S]: one pass; nothing withdrawn, rechecked or looped"),
    (FINAL, "printed"): rule("§3: objects outside the realm are not calculated"),
    (FINAL, "conditions"): rule("§4, [S]: conditions are checked when the effect applies"),
    (FINAL, "targets"): rule("§4, [S]: an effect applies to what its target names when it is picked"),
    (FINAL, "chain"): rule("the output contract: a row's before is the state then"),
    (FINAL, "operation"): rule("§3, §8: what each operation does"),
    (FINAL, "final-values"): rule("§3: the trace replayed from the printed values gives the final values"),
    (FINAL, "flags"): rule("[C] silenced and disabled"),
    (FINAL, "power"): rule("[C] \"Power is never below 0.\""),
    (FINAL, "not-applied"): rule("§9, [S]: every effect that exists applies"),
    # The trace
    (TRACE, "steps"): rule("§9: one pass, one step per row"),
    (TRACE, "once"): rule("§9: an effect applies once to an object"),
    (TRACE, "known"): rule("the output contract: a row names an effect of the board on an object in the realm"),
    (TRACE, "together"): rule("§9, [S]: an effect is picked once and applied to its targets then"),
    (TRACE, "position"): rule("§1, [S] \"Group effects by layer\""),
    (TRACE, "one-pass"): rule("§9, [S]: the layers in order, once"),
    (TRACE, "timestamp-order"): rule("§2, [S] \"arrange effects by timestamp, oldest to newest\""),
    (TRACE, "depends-on"): rule("§5: what it depends on applied before it"),
    (TRACE, "dependency-layers"): decision("S2", cite="the dependency rule applies to control effects"),
    # What the rules allow (check/declarative.py)
    (DECLARATIVE, "exists"): rule("§3: an effect is picked only while it exists"),
    (DECLARATIVE, "position"): rule("§1, [S] \"Group effects by layer\""),
    (DECLARATIVE, "removal_first"): rule("§3, [S]: a removal goes just before the abilities it removes"),
    (DECLARATIVE, "timestamp"): rule("§2, [S] \"arrange effects by timestamp, oldest to newest\""),
    (DECLARATIVE, "not_applied"): rule("§9: every effect that exists at the end was picked"),
    (DECLARATIVE, "printed"): rule("§3: objects outside the realm are not calculated"),
    (DECLARATIVE, "reachable"): rule("a final state some calculation the rules allow gives"),
    (DECLARATIVE, "consistent-*"): rule("the final state is a consistent state"),
    (DECLARATIVE, "consistent-state"): rule("the final state is a consistent state"),
}  # fmt: skip
