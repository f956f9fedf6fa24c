"""Where an answer may change (encodings/core/chains.lp, docs/semantics.md §6 "Number chains"): a
chain of increases or decreases skips asking its readers value by value when each says at
which values its answer changes — an operation whose amount depends on the value
(`op_changes_at/3`) and a condition on a number (`cond_changes_at/3`). A change point it leaves
out would let a chain run past the value where an answer changes, so each declaration is held
here to the rule beside it in the same file: grounded at every value from -30 to 30, the answer
changes between M-1 and M exactly where the file says."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from riftasp.resources import layer_operations, manifest, module_file

VALUES = range(-30, 31)
RULESET = "riftbound"

# Operations whose amount depends on the value they change, with terms to try (board op terms).
VALUE_DEPENDENT = {
    "plus_max": ["plus_max(1,5)", "plus_max(2,5)", "plus_max(3,-4)", "plus_max(7,0)", "plus_max(0,3)"],
    "minus_min": ["minus_min(1,2)", "minus_min(2,-3)", "minus_min(5,0)", "minus_min(0,1)"],
    "increase_to": ["increase_to(4)", "increase_to(-2)", "increase_to(0)"],
    "double": ["double"],
}
# Conditions on a number, with terms to try (R reads object r).
NUMBER_CONDITIONS = {
    "might_at_least": ["might_at_least(r,4)", "might_at_least(r,-2)", "might_at_least(r,0)"],
    "mighty": ["mighty(r)"],
}


def _ground(files: list[Path], facts: str, parts: list[tuple[str, list]]) -> list[clingo.Symbol]:
    ctl = clingo.Control(["--warn=none"])
    for path in files:
        ctl.load(str(path))
    ctl.add("base", [], facts)
    ctl.ground(parts)
    return [a.symbol for a in ctl.symbolic_atoms]


def _declared(symbols: list[clingo.Symbol], name: str) -> set[int] | None:
    """The values the declarations name (None: nothing declared), clipped to those of VALUES that
    have one before them."""
    spans = [(s.arguments[1], s.arguments[2]) for s in symbols if s.name == name]
    if not spans:
        return None
    points: set[int] = set()
    for lo, hi in spans:
        low = VALUES.start + 1 if lo.type == clingo.SymbolType.Infimum else lo.number
        high = VALUES.stop - 1 if hi.type == clingo.SymbolType.Supremum else hi.number
        points |= {m for m in VALUES[1:] if low <= m <= high}
    return points


def _changes(answer: dict[int, object]) -> set[int]:
    return {m for m in VALUES if m - 1 in answer and answer[m] != answer[m - 1]}


def test_every_value_dependent_operation_has_terms_to_try():
    names = {n for n in layer_operations(RULESET)
             if "op_value_dependent" in module_file(RULESET, "operations", n).read_text()}
    assert names == set(VALUE_DEPENDENT)


@pytest.mark.parametrize("op", [t for terms in VALUE_DEPENDENT.values() for t in terms])
def test_an_amount_changes_exactly_where_its_operation_says(op: str):
    name = op.split("(")[0]
    probes = "".join(f"probe(now,i,o,{m},1)." for m in VALUES)
    symbols = _ground([module_file(RULESET, "operations", name)],
                      f"effect_op(e,{op}). inst_op(i,{op}). {probes}",
                      [("base", []), ("eval", [clingo.Number(1), clingo.Function("now")])])
    amount = {s.arguments[3].number: s.arguments[4].number for s in symbols if s.name == "delta"}
    assert set(amount) == set(VALUES)
    declared = _declared(symbols, "op_changes_at")
    if declared is None:
        # Asked value by value (chains.lp: unranged_read/4): allowed only for an amount that
        # never changes, where saying nothing costs steps but no answer.
        assert _changes(amount) == set(), op
    else:
        assert declared == _changes(amount), op


@pytest.mark.parametrize("cond", [t for terms in NUMBER_CONDITIONS.values() for t in terms])
def test_a_condition_turns_exactly_where_its_kind_says(cond: str):
    name = cond.split("(")[0]
    assert name in manifest(RULESET)["encoding"]["conditions"]
    worlds = "".join(f"ev_cond(now,w({m}),b,q,{cond},r,1). v_value(now,w({m}),r,might,{m},1)." for m in VALUES)
    files = [module_file(RULESET, "conditions", name)]
    # mighty_at/1 is the ruleset's (encodings/riftbound/ruleset.lp).
    mighty_at = next(line for line in Path(files[0]).parents[1].joinpath("ruleset.lp").read_text().splitlines()
                     if line.startswith("mighty_at("))
    symbols = _ground(files, f"effect_condition(e,{cond}). {mighty_at} {worlds}",
                      [("base", []), ("eval", [clingo.Number(1), clingo.Function("now")])])
    true_at = {s.arguments[1].arguments[0].number for s in symbols if s.name == "ev_ctrue"}
    truth = {m: m in true_at for m in VALUES}
    declared = _declared(symbols, "cond_changes_at")
    assert declared is not None, cond
    assert declared == _changes(truth), cond
