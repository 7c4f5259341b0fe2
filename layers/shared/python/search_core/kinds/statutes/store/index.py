"""The prepared statute database as the operations ask it: a law by any of its names, its version in force on a
day, an article of that version, its table of contents, and a search over the articles in force."""

from __future__ import annotations

import heapq
import json
import math
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from itertools import islice
from typing import Any

import duckdb
from pyroaring import BitMap

from search_core.fulltext.expression import Expression
from search_core.fulltext.grams import needed_grams
from search_core.fulltext.index import TermIndex, gram_bitmaps
from search_core.fulltext.terms import Term
from search_core.kinds.statutes.models import Article, Item, Paragraph
from search_core.kinds.statutes.names import SHORT_NAMES
from search_core.kinds.statutes.references import compact, law_number_key
from search_core.kinds.statutes.store.build import HEADINGS

# Ranking needs every match read: this long at most (then the ranking is among those checked, and said so). Measured
# on every current law (scripts/bench_statutes.py): a word in tens of thousands of articles takes ~300 ms to rank
# whole; a typical search's candidates are read well within this.
RANKING_SECONDS = 0.035
_FIRST_BATCH = 128
_BATCH = 2_048  # beyond, DuckDB looks rows up several times slower each
_DAYS_KEPT = 64
# Characters most laws' names hold: sharing them says nothing about which law a name means.
_COMMON_IN_NAMES = set("法律令規則条例のにするび及並等関")
_ARTICLE_COLUMNS = "row_num, version_num, article_key, supplement, title, caption, place, paragraphs"


@dataclass(frozen=True)
class Version:
    """One version of a law as the index keeps it in memory."""

    number: int
    law_id: str
    effective: date
    amended_by: str | None
    law_num: str
    title: str
    abbreviations: tuple[str, ...]
    first_row: int
    articles: int

    @property
    def rows(self) -> range:
        return range(self.first_row, self.first_row + self.articles)


@dataclass(frozen=True)
class StoredArticle:
    """An article as stored: which row and version it is, and the article."""

    row: int
    version: int
    article: Article


@dataclass(frozen=True)
class Matches:
    """A search's best articles (row, occurrences), how many articles match (of those checked, when not `exact`),
    and whether every candidate was checked."""

    found: list[tuple[int, int]]
    total: int
    exact: bool
    searched: int = 0  # the articles in force that day, in the laws searched


class StatuteIndex:
    """One open, locked connection on a prepared statute database, with its laws' versions and names in memory."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        rows = con.execute(
            """SELECT version_num, law_id, effective, amended_by, law_num, title, abbreviations, first_row, articles
            FROM versions ORDER BY law_id, effective, version_num"""
        ).fetchall()
        self.versions: dict[str, list[Version]] = {}
        for number, law_id, effective, amended_by, law_num, title, abbreviations, first_row, articles in rows:
            version = Version(number, law_id, effective, amended_by, law_num, title, tuple(abbreviations or ()),
                              first_row, articles)  # fmt: skip
            self.versions.setdefault(law_id, []).append(version)
        self.names, self._written = _names(self.versions)
        self.by_number = {version.number: version for versions in self.versions.values() for version in versions}
        self.everyone = BitMap(range(sum(version.articles for version in self.by_number.values())))
        self._in_force_rows: dict[tuple[date, tuple[str, ...] | None], BitMap] = {}
        self._pairs_of_names: list[tuple[str, set[str]]] | None = None

    def laws_named(self, name: str) -> list[str]:
        """The laws `name` names: a title any version had, the law's number, a short name (SHORT_NAMES, e-Gov's
        Abbrev). Usually one; none if the data holds no such law."""
        return sorted(self.names.get(name_key(name), ()))

    def short_names(self, law_id: str) -> list[str]:
        """The names the law is called by, as written: every title its versions had, its abbreviations in the data
        and in SHORT_NAMES (no law number)."""
        return self._written.get(law_id, [])

    def nearest_names(self, name: str, count: int) -> list[str]:
        """The laws whose names share the most characters and pairs with `name`, each named once by its latest
        title (for a message)."""
        wanted = _pairs(name_key(name))
        scored = sorted(((len(wanted & pairs), known) for known, pairs in self._name_pairs()), reverse=True)
        titles: dict[str, None] = {}
        for score, known in scored:
            if not score or len(titles) == count:
                break
            titles.update((self.versions[law_id][-1].title, None) for law_id in sorted(self.names[known]))
        return list(titles)[:count]

    def _name_pairs(self) -> list[tuple[str, set[str]]]:
        """Every name but a law number with its characters and pairs, made on the first name not found, then kept."""
        if self._pairs_of_names is None:
            self._pairs_of_names = [(known, _pairs(known)) for known in self.names if not law_number_key(known)]
        return self._pairs_of_names

    def version_on(self, law_id: str, day: date) -> Version | None:
        """The version in force on `day`: the latest to take effect by then."""
        in_force = [version for version in self.versions[law_id] if version.effective <= day]
        return in_force[-1] if in_force else None

    def current(self, law_id: str, today: date) -> Version:
        """The version in force `today`, else (a law whose every version is yet to take effect) the first."""
        return self.version_on(law_id, today) or self.versions[law_id][0]

    def articles(self, version: Version, key: str) -> list[StoredArticle]:
        """Every article of `version` keyed `key`: the main provision's, and each 附則's."""
        rows = self.con.execute(
            f"SELECT {_ARTICLE_COLUMNS} FROM articles WHERE version_num = ? AND article_key = ? ORDER BY row_num",
            [version.number, key],
        ).fetchall()
        return [_stored(row) for row in rows]

    def wordings(self, versions: list[int], key: str, supplement: str | None) -> dict[int, str]:
        """The article keyed `key` in the 附則 `supplement` (None: the main provision) of each of `versions` that has
        it, as written (caption, title, paragraphs), by version: one statement for every version of a law."""
        placeholders = ", ".join("?" * len(versions))
        rows = self.con.execute(
            f"""SELECT version_num, concat_ws(chr(10), caption, title, paragraphs) FROM articles
            WHERE article_key = ? AND supplement IS NOT DISTINCT FROM ? AND version_num IN ({placeholders})""",
            [key, supplement, *versions],
        ).fetchall()
        return dict(rows)

    def searched_texts(self, rows: list[int]) -> dict[int, str]:
        return dict(self._by_rows("row_num, searched", rows))

    def contents(self, version: Version) -> list[StoredArticle]:
        """The articles of `version` in the law's order (titles and places; their text too)."""
        rows = self.con.execute(
            f"SELECT {_ARTICLE_COLUMNS} FROM articles WHERE version_num = ? ORDER BY row_num", [version.number]
        ).fetchall()
        return [_stored(row) for row in rows]

    def stored(self, rows: list[int]) -> dict[int, StoredArticle]:
        return {row[0]: _stored(row) for row in self._by_rows(_ARTICLE_COLUMNS, rows)}

    def _by_rows(self, columns: str, rows: list[int]) -> list[tuple[Any, ...]]:
        """`columns` of the articles at `rows`, looked up one by one in the index of row numbers, a batch at a time:
        measured at every current law, 12 µs a row where `row_num = ANY(list)` scanned the table (45 ms for 128)."""
        found: list[tuple[Any, ...]] = []
        for start in range(0, len(rows), _BATCH):
            batch = rows[start : start + _BATCH]
            placeholders = ", ".join("?" * len(batch))
            found += self.con.execute(
                f"SELECT {columns} FROM articles WHERE row_num IN ({placeholders})", batch
            ).fetchall()
        return found

    def search(
        self, expression: Expression, law_ids: list[str] | None, day: date, limit: int, deadline: float = math.inf
    ) -> Matches:
        """The `limit` articles in force on `day` (of `law_ids`, else of every law) that best hold the expression, and
        how many hold it. Best: more of its terms in the article's caption and title, then more occurrences in its
        text. Candidates with the terms in their headings are read first, then the rest: until `limit` are found
        (by `deadline`: past it with none found, TimeoutError; with some, those), then for RANKING_SECONDS more at
        most; past that the ranking is among those read and the count a lower bound (`exact` false)."""
        in_force = self._in_force(day, tuple(law_ids) if law_ids else None)
        candidates = self._candidates(expression) & in_force
        terms = expression.positive_terms
        in_heading = self._in_heading(terms, candidates)
        ordered = [*sorted(in_heading, key=lambda row: (-in_heading[row], row)), *(candidates - BitMap(in_heading))]
        scored: list[tuple[int, int, int]] = []
        until = deadline  # until `limit` are found; then the ranking's budget
        for batch in _batches(iter(ordered)):
            texts = self.searched_texts(batch)
            for row in batch:
                if time.monotonic() > until:
                    if not scored:
                        raise TimeoutError("statute search ran past its deadline")
                    return _best(scored, limit, False, len(in_force))
                text = texts.get(row, "")
                if expression.holds_in(text, None, None):
                    scored.append((in_heading.get(row, 0), sum(term.count_in(text) for term in terms), row))
                    if len(scored) == limit:
                        until = min(deadline, time.monotonic() + RANKING_SECONDS)
        return _best(scored, limit, True, len(in_force))

    def _in_heading(self, terms: tuple[Term, ...], candidates: BitMap) -> dict[int, int]:
        """The candidates whose caption and title hold one of the terms or more, with how many they hold: found by
        the index of headings, then read."""
        pieces = [piece for term in terms for piece in term.pieces]
        index = TermIndex(self.con, self.everyone, gram_bitmaps(self.con, needed_grams(pieces), HEADINGS), HEADINGS)
        holding = {term: term.candidates(index) & candidates for term in terms}
        rows = list(islice(BitMap.union(BitMap(), *holding.values()), _BATCH))  # a term in thousands of headings
        if not rows:
            return {}
        headings = dict(self._by_rows("row_num, heading", rows))
        found = {row: sum(row in holding[term] and term.holds(headings[row]) for term in terms) for row in rows}
        return {row: count for row, count in found.items() if count}

    def close(self) -> None:
        self.con.close()

    def _candidates(self, expression: Expression) -> BitMap:
        pieces = [piece for term in expression.positive_terms for piece in term.pieces]
        index = TermIndex(self.con, self.everyone, gram_bitmaps(self.con, needed_grams(pieces)))
        candidates = self.everyone
        for clause in expression.clauses:
            either = BitMap()
            for term in clause:
                either |= term.candidates(index)
            candidates = candidates & either  # never in place: the first is the index's own set
        return candidates

    def _in_force(self, day: date, law_ids: tuple[str, ...] | None) -> BitMap:
        """The rows of the articles in force on `day` (of `law_ids`, else of every law), kept for the next search
        of the same day: every law's versions are looked through to find them."""
        key = (day, law_ids)
        if (rows := self._in_force_rows.get(key)) is None:
            rows = BitMap()
            for law_id in law_ids or self.versions:
                version = self.version_on(law_id, day)
                if version is not None and version.articles:
                    rows.add_range(version.first_row, version.first_row + version.articles)
            if len(self._in_force_rows) >= _DAYS_KEPT:
                self._in_force_rows.clear()
            self._in_force_rows[key] = rows
        return rows


def name_key(name: str) -> str:
    """A law's name as names are compared: normalised, without spaces, brackets or a final 「の」.

    >>> name_key("ＰＬ法"), name_key("平成十三年法律第百三十七号"), name_key("民 法")
    ('pl法', '平成13年法律第137号', '民法')
    """
    text = re.sub("[()「」『』]", "", compact(name))
    return law_number_key(text) or text


def _names(versions: dict[str, list[Version]]) -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """Every name by its key, with the laws it names; and each law's names as written (its law number aside)."""
    names: dict[str, set[str]] = {}
    written: dict[str, dict[str, None]] = {}
    by_number: dict[str, set[str]] = {}
    for law_id, law_versions in versions.items():
        for version in law_versions:
            for name in (version.title, *version.abbreviations):
                if name:
                    names.setdefault(name_key(name), set()).add(law_id)
                    written.setdefault(law_id, {})[name] = None
            names.setdefault(name_key(version.law_num), set()).add(law_id)
            by_number.setdefault(name_key(version.law_num), set()).add(law_id)
    for short, number in SHORT_NAMES.items():
        for law_id in by_number.get(name_key(number), ()):
            names.setdefault(name_key(short), set()).add(law_id)
            written.setdefault(law_id, {})[short] = None
    return names, {law_id: list(law_names) for law_id, law_names in written.items()}


def _pairs(text: str) -> set[str]:
    """The characters and character pairs of a name, but the characters every law's name has: what two writings of
    one name share.

    >>> sorted(_pairs("民放")), sorted(_pairs("商法"))
    (['放', '民', '民放'], ['商', '商法'])
    """
    return (set(text) - _COMMON_IN_NAMES) | {text[index : index + 2] for index in range(len(text) - 1)}


def _stored(row: tuple[Any, ...]) -> StoredArticle:
    number, version, key, supplement, title, caption, place, paragraphs = row
    paragraphs_read = tuple(_paragraph(paragraph) for paragraph in json.loads(paragraphs))
    return StoredArticle(number, version, Article(key, title, caption, tuple(place or ()), paragraphs_read, supplement))


def _paragraph(stored: dict[str, Any]) -> Paragraph:
    items = tuple(Item(item["key"], item["title"], item["text"]) for item in stored["items"])
    return Paragraph(stored["number"], stored["label"], stored["text"], items)


def _best(scored: list[tuple[int, int, int]], limit: int, exact: bool, searched: int) -> Matches:
    best = heapq.nsmallest(limit, scored, key=lambda found: (-found[0], -found[1], found[2]))
    return Matches([(row, count) for _, count, row in best], len(scored), exact, searched)


def _batches(rows: Iterator[int]) -> Iterator[list[int]]:
    """Growing batches: a few candidates are read at once, many in fewer statements."""
    size = _FIRST_BATCH
    while batch := list(islice(rows, size)):
        yield batch
        size = min(size * 4, _BATCH)
