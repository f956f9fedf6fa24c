"""What each of Riftbound's checks rests on (docs/check.md, "Rules and Decisions"): a rules
sentence, or a riftasp Decision of docs/semantics.md (R1-R17, encodings/riftbound/choice_points.toml)
where the rules are silent or leave a choice. The plugin's `check_bases()` gives this table;
`riftasp.check.check_report` marks every violation with its check's basis
(riftasp/check/report.py `with_bases`). A check named with `*` stands for a family
(`final-might`, `final-tags`, ...).

Where one violation of a rule's check rests on a Decision the check as a whole does not, the
checker marks that violation itself (`Violation.on_decision`): an off-board object's printed
keywords (R9) or its Might without a printed one (R8); the stage of a `double`, and its `after`
on a Might below 0 (R6); a row's `after` or the final Might where 0 is found for a Might below 0
(R7) or a number for none (R8)."""

from __future__ import annotations

from ....check.declarative import DECLARATIVE
from ....check.report import FINAL, NEEDS, TRACE, Basis, decision, rule

BASES: dict[tuple[str, str], Basis] = {
    # 1. Final consistency
    (FINAL, "zone"): rule("§3: no operation moves an object; the reported zone is the board's"),
    (FINAL, "mighty"): rule("§10: Mighty is Might of 5 or more"),
    (FINAL, "off-board"): rule("§3, [G] \"printed Might in a non-board zone\": objects off the board are not calculated"),
    (FINAL, "withdrawn"): rule("§2: a withdrawal names an instance of the board (the output contract)"),
    (FINAL, "paradox"): rule("§8: a reported paradox names instances of the board, one of them withdrawn"),
    (FINAL, "exists"): rule("§4, RB 471.3: an applied instance still exists in the final state"),
    (FINAL, "applied-and-withdrawn"): rule("the output contract: an application is applied or withdrawn"),
    (FINAL, "targets"): rule("§4, RB 471.3: an applied instance still targets its object in the final state"),
    (FINAL, "conditions"): decision("R1", cite="conditions judged again in the final state (as_able, settled)"),
    (FINAL, "keyword-bonus"): rule("§2, RB 807.2, 814.2: a keyword's bonuses add its value while the status holds"),
    (FINAL, "withdrawn-holds"): decision("R14", cite="§8: a withdrawn application that would apply again is a paradox"),
    (FINAL, "not-applied"): rule("RB 471.1: each effect applies as soon as able"),
    # 2. Trace replay
    (TRACE, "off-board"): rule("§3, [G]: objects off the board are not calculated"),
    (TRACE, "step-order"): rule("§11: the steps of an object's trace increase"),
    (TRACE, "twice"): rule("[L] \"Each effect applies only once in this calculation\""),
    (TRACE, "stage"): rule("§1, [L]: the layers and their order"),
    (TRACE, "characteristic"): rule("§11: the characteristic its operation writes"),
    (TRACE, "recheck"): rule("§6, §11: the label of a stage applied after a later one"),
    (TRACE, "newer-first"): rule("§11, [L] \"arrange by timestamp\": an application after a newer one says why"),
    (TRACE, "reasons"): rule("§11: the trace's labels"),
    (TRACE, "depends-on"): rule("§11, [L]: what it depends on applied before it"),
    (TRACE, "no-dependency"): decision("R4", cite="the reading dependency = none: timestamp order only"),
    (TRACE, "timestamp"): rule("§2, [L] \"A timestamp records when the effect began applying\""),
    (TRACE, "exists-when-applied"): rule("§6, RB 471.1: an application exists when it applies"),
    (TRACE, "loop-steps"): rule("§6, [L] \"pause and calculate that other object first\": a loop is one calculation"),
    (TRACE, "before"): rule("§11: a row's before is the previous after"),
    (TRACE, "after"): rule("§3: a row's after is its operation applied to its before"),
    (TRACE, "final-*"): rule("§3: the trace replayed from the printed values gives the final values"),
    # 3. Needs
    (NEEDS, "loop-members"): rule("§5: a loop's members are objects on the board"),
    (NEEDS, "strongly-connected"): decision("R11", cite="which reads make an edge of \"O needs Q\""),
    # What the rules allow (check/declarative.py)
    (DECLARATIVE, "eligible"): rule("RB 471.1: applied only while it exists, targets and meets its conditions"),
    (DECLARATIVE, "stage"): rule("§1, [L]: the layers' order"),
    (DECLARATIVE, "dependency"): decision("R4", "R12", "R13", cite="what \"B depends on A\" means and when it is judged"),
    (DECLARATIVE, "immediately_after"): decision("R4", cite="the dependents of the previous application"),
    (DECLARATIVE, "timestamp"): rule("§2, [L] \"arrange by timestamp\""),
    (DECLARATIVE, "final_exists"): rule("§4, RB 471.3"),
    (DECLARATIVE, "final_target"): rule("§4, RB 471.3"),
    (DECLARATIVE, "final_conditions"): decision("R1", cite="conditions judged again in the final state"),
    (DECLARATIVE, "not_applied"): rule("RB 471.1: each effect applies as soon as able"),
    (DECLARATIVE, "held_up"): decision("R3", cite="self-support is withdrawn"),
    (DECLARATIVE, "paradox-missed"): decision("R14", cite="§8: a board without a consistent state reports a paradox"),
    (DECLARATIVE, "paradox-false"): decision("R14", "R3", cite="§8: a paradox only where no consistent state exists"),
    (DECLARATIVE, "reachable"): rule("a final state some calculation the rules allow gives"),
    (DECLARATIVE, "consistent-*"): rule("the final state is a consistent state"),
    (DECLARATIVE, "consistent-state"): rule("the final state is a consistent state"),
}  # fmt: skip
