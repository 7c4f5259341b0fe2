"""A decision's texts packed in one frame come back as they were."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from search_core.fulltext.packed import StoredTexts, packed, searched_utf8, unpacked

TEXT = st.text(alphabet=st.characters(codec="utf-8"))  # every character a decision can hold (no lone surrogate)


@given(TEXT, st.one_of(st.none(), TEXT), st.one_of(st.none(), TEXT))
def test_stored_texts_come_back_as_they_were(searched: str, main_text: str | None, facts: str | None) -> None:
    # Given any texts (NUL, empty, absent and astral characters included), When stored and read back, Then each is
    # itself: an empty text is not confused with an absent one, and no text runs into the next
    frame = packed(searched, main_text, facts)
    assert unpacked(frame) == StoredTexts(searched, main_text, facts)
    assert searched_utf8(frame) == searched.encode()
