"""The kinds of term a keyword expression is made of, each a small class answering what the search asks of a term
(Term): what the index must hold for it, whether a decision holds it, where it occurs in a text and how often, and
how it is named back to the agent. Nothing else asks which kind a term is, so a new kind is one class, and one line
in expression.KINDS that reads it from a keyword.

Every term is read from a normalised keyword and compared with normalised text (fulltext/normalize.py).

>>> month = DateSpan.read("平成31年4月")
>>> month.holds("損害賠償", date(2019, 4, 30)), month.holds("平成31年4月の判決"), month.holds("損害賠償")
(True, True, False)
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Protocol

from pyroaring import BitMap

from search_core.fulltext.dates import date_span


class DecisionIndex(Protocol):
    """What a term may ask the index for its candidates: sets of decisions, from which the search checks the text."""

    def holding(self, pieces: tuple[str, ...]) -> BitMap:
        """The decisions holding every character and character pair of every piece."""
        ...

    def decided_between(self, first: date, last: date) -> BitMap:
        """The decisions dated from `first` to `last`, both included."""
        ...

    def holding_keys(self, keys: tuple[str, ...]) -> BitMap:
        """The decisions holding every key (a citation's units, a sum: citations.py, amounts.py)."""
        ...

    def holding_any_key(self, prefix: str, low: int | None, high: int | None) -> BitMap:
        """The decisions holding a key of `prefix` whose number lies from `low` to `high` (None: unbounded)."""
        ...


class Term(Protocol):
    """A term of the expression. `text` is the keyword that wrote it (normalised, never empty): the expression counts
    and limits terms by it, and names a term back to the agent by it (term counts, messages, passages). A kind that
    subclasses Term takes the defaults below, which need only its `pieces`."""

    text: str

    @property
    def pieces(self) -> tuple[str, ...]:
        """What a decision holding the term by its text holds as written: the index narrows by their character
        pairs, and the quick test looks for them in the UTF-8."""
        ...

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Where the term occurs in a normalised text, as (start, end), left to right, without overlap: what
        passages list and snippets show."""
        ...

    def holds(self, text: str, day: date | None = None) -> bool:
        """Whether a decision, by its normalised text and its date, holds the term: by default, where it occurs."""
        return next(self.spans(text), None) is not None

    def count_in(self, text: str) -> int:
        """How many times the term occurs in a normalised text (as many as `spans`): its weight in relevance."""
        return sum(1 for _ in self.spans(text))

    @property
    def exact_by_index(self) -> bool:
        """Whether the index's candidates for the term are exactly the decisions holding it, so none need reading."""
        return False

    @property
    def decided_by_utf8(self) -> bool:
        """Whether `may_hold_in` is exact: the term holds wherever it says the term may, so a decision need not be
        decoded to be checked."""
        return False

    @property
    def field(self) -> str | None:
        """The part of a decision the term must hold in (主文, 事件名), or None for the whole decision: the
        expression gives `holds` that part's normalised text."""
        return None

    def may_hold_in(self, utf8: bytes) -> bool:
        """A quick test on a normalised text's UTF-8, before decoding it: False only if `holds` must be False (UTF-8
        finds a character sequence only where one begins)."""
        return all(piece in utf8 for piece in self._pieces_utf8)

    def candidates(self, index: DecisionIndex) -> BitMap:
        """The decisions that may hold the term, for the search to check: those holding its pieces' grams."""
        return index.holding(self.pieces)

    @property
    def every_writing(self) -> bool:
        """Whether the term already finds every writing of what it names (第415条 and 四百十五条, 300万円 and
        金三百万円), so another wording of it cannot find more."""
        return False

    @staticmethod
    def keys_in(text: str) -> set[str]:
        """The keys the index holds for a normalised text so that this kind's `candidates` can ask for them
        (holding_keys, holding_any_key): none for a kind found by its grams alone."""
        return set()

    @cached_property
    def _pieces_utf8(self) -> tuple[bytes, ...]:
        # Encoded once per term, not once for each decision checked.
        return tuple(piece.encode() for piece in self.pieces)


class PatternTerm(Term):
    """A kind found by a regular expression over normalised text (`regex`): where it holds, where it occurs and how
    often all come from the one pattern (a citation; a test's own kinds)."""

    regex: re.Pattern[str]

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        return (match.span() for match in self.regex.finditer(text))


@dataclass(frozen=True)
class Phrase(Term):
    """Text found as it is written: a word, or a quoted phrase with its spaces.

    >>> phrase = Phrase("a.b")
    >>> phrase.holds("xa.bx"), phrase.holds("axb"), list(phrase.spans("a.b a.b")), phrase.count_in("a.ba.b")
    (True, False, [(0, 3), (4, 7)], 2)
    """

    text: str

    @property
    def pieces(self) -> tuple[str, ...]:
        return (self.text,)

    def holds(self, text: str, day: date | None = None) -> bool:
        return self.text in text

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        return (match.span() for match in self._pattern.finditer(text))

    def count_in(self, text: str) -> int:
        return text.count(self.text)

    @property
    def exact_by_index(self) -> bool:
        # A phrase of one or two characters is its own one gram: the decisions holding that gram hold it.
        return len(self.text) <= 2

    @property
    def decided_by_utf8(self) -> bool:
        # UTF-8 finds a character sequence exactly where one begins, so the phrase's UTF-8 is found where it is.
        return True

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        return re.compile(re.escape(self.text))


@dataclass(frozen=True)
class DateSpan(Phrase):
    """A keyword that is wholly a date, a month or a year (2019-04-30, 平成31年4月, 令和元年): it holds for the
    decisions of those days, and, as a phrase with its numbers whole, for any whose text holds it as written.

    >>> month = DateSpan.read("2019/1")
    >>> month.holds("2019/1/5"), month.holds("2019/11/05"), month.count_in("2019/1と2019/12")
    (True, False, 1)
    """

    first: date
    last: date

    @classmethod
    def read(cls, written: str) -> DateSpan | None:
        """The keyword as the days it names, or None if it is not wholly a date, a month or a year."""
        span = date_span(written)
        return cls(written, *span) if span else None

    def holds(self, text: str, day: date | None = None) -> bool:
        return (day is not None and self.first <= day <= self.last) or self._pattern.search(text) is not None

    def count_in(self, text: str) -> int:
        return sum(1 for _ in self.spans(text))

    def may_hold_in(self, utf8: bytes) -> bool:
        return True  # a decision of those days holds it, whatever its text

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        # Its numbers whole, as a date reads: 2019/1 is not the start of 2019/11/05, nor 4/3 the end of 14/3
        before = r"(?<!\d)" if self.text[:1].isdigit() else ""
        after = r"(?!\d)" if self.text[-1:].isdigit() else ""
        return re.compile(before + re.escape(self.text) + after)

    @property
    def decided_by_utf8(self) -> bool:
        return False  # its days are not in the text

    def candidates(self, index: DecisionIndex) -> BitMap:
        return super().candidates(index) | index.decided_between(self.first, self.last)


@dataclass(frozen=True)
class InField(Term):
    """A term confined to one part of the decision: 主文:300万円 holds only where the 主文 holds 300万円, and
    事件名:損害賠償 only where the case name does. The index and the quick test still look for the term anywhere,
    which narrows the candidates as much as the term does; the exact test reads the part itself.

    >>> term = InField("主文", Phrase("棄却"))
    >>> term.text, term.field, term.holds("本件控訴を棄却する。")
    ('主文:棄却', '主文', True)
    """

    part: str
    term: Term

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"{self.part}:{self.term.text}"

    @property
    def field(self) -> str | None:
        return self.part

    @property
    def pieces(self) -> tuple[str, ...]:
        return self.term.pieces

    def holds(self, text: str, day: date | None = None) -> bool:
        # A part has no date of its own: 主文:令和元年 asks for the text, not the decision's day.
        return self.term.holds(text, None)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        return self.term.spans(text)

    def count_in(self, text: str) -> int:
        return self.term.count_in(text)

    def may_hold_in(self, utf8: bytes) -> bool:
        return self.term.may_hold_in(utf8)

    def candidates(self, index: DecisionIndex) -> BitMap:
        return self.term.candidates(index)

    @property
    def every_writing(self) -> bool:
        return self.term.every_writing


@dataclass(frozen=True)
class AwayFrom(Term):
    """A term where no sentence holding it holds an excluded term: a place a search's exclusions leave out, as
    findInCase reads them (過失 -否定: the sentences of 過失 that do not say 否定). A sentence ends at 。 or a line.

    >>> away = AwayFrom(Phrase("過失"), (Phrase("否定"),))
    >>> list(away.spans("過失を否定する。過失がある。")), away.text
    ([(8, 10)], '過失')
    """

    term: Term
    excluded: tuple[Term, ...]

    @property
    def text(self) -> str:  # type: ignore[override]
        return self.term.text

    @property
    def field(self) -> str | None:
        return self.term.field

    @property
    def pieces(self) -> tuple[str, ...]:
        return self.term.pieces

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        ends = [found.start() for found in _SENTENCE_END.finditer(text)]
        marked = sorted(start for term in self.excluded for start, _ in term.spans(text))
        for span in self.term.spans(text):
            sentence = bisect_left(ends, span[0])
            low = ends[sentence - 1] + 1 if sentence else 0
            high = ends[sentence] if sentence < len(ends) else len(text)
            first = bisect_left(marked, low)
            if not (first < len(marked) and marked[first] < high):
                yield span


_SENTENCE_END = re.compile("[。\n\r]")
