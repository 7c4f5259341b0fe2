"""A set of documents stored in the index comes back whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap

from search_core.fulltext.grams import loaded, stored


@given(st.sets(st.integers(0, 300_000), max_size=2000))
def test_a_stored_set_of_decisions_comes_back_whole(decisions: set[int]) -> None:
    assert set(loaded(stored(BitMap(decisions)))) == decisions
