"""riftasp.decode reads the shown symbols as plain Python data (`atoms`, `term`) and writes a term
back as clingo does (`show`): the conversion must keep every distinction a Symbol makes, and
`show` must match `str(symbol)` character for character (decoded names and values use it)."""

from __future__ import annotations

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import budget
from riftasp.decode import atoms, show, term

NAMES = st.sampled_from(["a", "f", "og", "ab", "kw", "printed", "x_1", "b'"])
TEXT = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=6)


def _symbols() -> st.SearchStrategy[clingo.Symbol]:
    leaves = st.one_of(
        st.integers(-(2**31), 2**31 - 1).map(clingo.Number),
        TEXT.map(clingo.String),
        NAMES.map(clingo.Function),
        st.sampled_from([clingo.Infimum, clingo.Supremum]),
    )

    def compound(children: st.SearchStrategy[clingo.Symbol]) -> st.SearchStrategy[clingo.Symbol]:
        arguments = st.lists(children, max_size=3)
        return st.one_of(
            st.builds(lambda n, a, p: clingo.Function(n, a, p), NAMES, arguments, st.booleans()),
            arguments.map(clingo.Tuple_),
        )

    return st.recursive(leaves, compound, max_leaves=8)


SYMBOLS = _symbols()


@pytest.mark.thorough
@settings(max_examples=budget(200, 5000), deadline=None)
@given(SYMBOLS)
def test_show_writes_a_term_as_clingo_does(sym: clingo.Symbol) -> None:
    assert show(term(sym, {})) == str(sym)


@pytest.mark.thorough
@settings(max_examples=budget(200, 5000), deadline=None)
@given(SYMBOLS, SYMBOLS)
def test_terms_are_equal_exactly_when_symbols_are(a: clingo.Symbol, b: clingo.Symbol) -> None:
    memo: dict = {}
    assert (term(a, memo) == term(b, memo)) == (a == b)


def test_kinds_of_term() -> None:
    memo: dict = {}
    assert term(clingo.parse_term('f("x",-3,c,(1,),(),-g(1),#inf)'), memo) == (
        "f", "x", -3, ("c",), ("", 1), ("",), ("-g", 1), ("#inf",),
    )
    assert term(clingo.String('a"b\\c\nd\te'), memo) == 'a"b\\c\nd\te'


def test_atoms_are_keyed_by_name_in_model_order() -> None:
    symbols = [clingo.parse_term(t) for t in ['applied(og("e"),"u",1,s,2)', "stage(s,1,traits,none)", "flag"]]
    assert atoms(symbols) == [
        ("applied", ("og", "e"), "u", 1, ("s",), 2),
        ("stage", ("s",), 1, ("traits",), ("none",)),
        ("flag",),
    ]
