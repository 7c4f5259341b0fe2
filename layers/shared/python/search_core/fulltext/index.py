"""The gram index of a collection of numbered documents, built and asked: for every character and character pair
of the normalised texts (grams.py), and every key a kind of term reads from them (Term.keys_in: the units a
citation cites, the sums written), the documents holding it, as a roaring bitmap in a DuckDB table.

A kind of term that needs keys says so by its `keys_in`; the builder asks every kind the expression knows
(expression.KINDS), so a new keyed kind is indexed without a change here.

>>> sorted(index_keys("民法709条により金300万円"))
['cite-after:民法|709条', 'cite:709条', 'yen:3000000']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date

import duckdb
from pyroaring import BitMap

from search_core.engine.quoting import quote_identifier
from search_core.fulltext.expression import KINDS
from search_core.fulltext.grams import grams_of, loaded, needed_grams, stored
from search_core.fulltext.terms import Term

_ROWS_PER_STATEMENT = 50_000  # grams written per statement
_NOBODY = BitMap()
# Each distinct reader of keys once (a range of sums reads the keys of sums): reading them is most of indexing a sum.
_KEY_READERS: tuple[Callable[[str], set[str]], ...] = tuple(
    dict.fromkeys(kind.keys_in for kind in KINDS if kind.keys_in is not Term.keys_in)
)


def index_keys(text: str) -> set[str]:
    """Every key the index holds for a normalised text."""
    keys: set[str] = set()
    for read in _KEY_READERS:
        keys |= read(text)
    return keys


class IndexBuilder:
    """The sets of documents holding each gram and key, gathered a chunk of documents at a time (the chunk's lists
    join the sets at once: adding numbers one by one is several times slower), then written as two tables."""

    def __init__(self) -> None:
        self.grams: dict[str, BitMap] = {}
        self.keys: dict[str, BitMap] = {}

    def add(self, texts: Iterable[tuple[int, str]]) -> None:
        """A chunk of documents, each as its number and its normalised text."""
        chunk_grams: dict[str, list[int]] = {}
        chunk_keys: dict[str, list[int]] = {}
        for number, text in texts:
            _add(chunk_grams, grams_of(text), number)
            _add(chunk_keys, index_keys(text), number)
        _merge(self.grams, chunk_grams)
        _merge(self.keys, chunk_keys)

    def write(self, con: duckdb.DuckDBPyConnection, done: Callable[[int, int], None], prefix: str = "") -> int:
        """The tables `grams` and `keys` (after `prefix`: a second index of other texts of the same documents),
        emptying the builder; `done` is told how many grams are written of how many as it goes. How many grams there
        were."""
        written = len(self.grams)
        _write_sets(con, f"{prefix}grams", "gram", self.grams, lambda count: done(count, written))
        _write_sets(con, f"{prefix}keys", "key", self.keys, lambda count: None)
        return written


@dataclass(frozen=True)
class TermIndex:
    """The index as one search's terms ask it for their candidates (terms.DecisionIndex, dates aside), with the
    documents of every gram they need read at once (`bitmaps`, from gram_bitmaps)."""

    con: duckdb.DuckDBPyConnection
    everyone: BitMap
    bitmaps: dict[str, BitMap]
    prefix: str = ""  # of the tables asked, as IndexBuilder.write named them

    def holding(self, pieces: tuple[str, ...]) -> BitMap:
        """Documents holding every gram of the pieces (pieces with no indexed gram do not narrow anything)."""
        holding = self.everyone
        for gram in needed_grams(pieces):
            holding = holding & self.bitmaps.get(gram, _NOBODY)
        return holding

    def holding_keys(self, keys: tuple[str, ...]) -> BitMap:
        """Documents holding every key (a key absent from the index: none)."""
        if not keys:
            return self.everyone
        table = quote_identifier(f"{self.prefix}keys")
        rows = self.con.execute(f"SELECT key, decisions FROM {table} WHERE key IN (SELECT unnest(?))", [list(keys)])
        found = {key: loaded(decisions) for key, decisions in rows.fetchall()}
        return BitMap.intersection(*(found.get(key, _NOBODY) for key in keys))

    def holding_any_key(self, prefix: str, low: int | None, high: int | None) -> BitMap:
        """Documents holding a key `prefix<number>` with the number in range (the keys of every sum: a few hundred
        thousand short rows at 100,000 documents, read by DuckDB as numbers)."""
        rows = self.con.execute(
            f"""SELECT decisions FROM {quote_identifier(f"{self.prefix}keys")} WHERE starts_with(key, $prefix)
            AND ($low IS NULL OR TRY_CAST(substr(key, length($prefix) + 1) AS HUGEINT) >= $low)
            AND ($high IS NULL OR TRY_CAST(substr(key, length($prefix) + 1) AS HUGEINT) <= $high)""",
            {"prefix": prefix, "low": low, "high": high},
        )
        return BitMap.union(BitMap(), *(loaded(decisions) for (decisions,) in rows.fetchall()))

    def decided_between(self, first: date, last: date) -> BitMap:
        """Documents dated from `first` to `last`: none, unless a collection with dates says otherwise."""
        return BitMap()


def gram_bitmaps(con: duckdb.DuckDBPyConnection, grams: set[str], prefix: str = "") -> dict[str, BitMap]:
    """The documents holding each gram (absent: none), in the index written with `prefix`."""
    if not grams:
        return {}
    table = quote_identifier(f"{prefix}grams")
    rows = con.execute(f"SELECT gram, decisions FROM {table} WHERE gram IN (SELECT unnest(?))", [sorted(grams)])
    return {gram: loaded(decisions) for gram, decisions in rows.fetchall()}


def _add(holding: dict[str, list[int]], entries: set[str], number: int) -> None:
    for entry in entries:
        holding.setdefault(entry, []).append(number)


def _merge(holding: dict[str, BitMap], chunk: dict[str, list[int]]) -> None:
    for entry, numbers in chunk.items():
        if (known := holding.get(entry)) is None:
            holding[entry] = BitMap(numbers)
        else:
            known.update(numbers)


def _write_sets(
    con: duckdb.DuckDBPyConnection, table: str, column: str, holding: dict[str, BitMap], done: Callable[[int], None]
) -> None:
    """`holding` as a table of entries and the documents holding each, emptying it; `done` told how many are written
    as it goes."""
    name, named = quote_identifier(table), quote_identifier(column)
    con.execute(f"CREATE TABLE {name} ({named} VARCHAR, decisions BLOB)")
    ordered = sorted(holding)
    for start in range(0, len(ordered), _ROWS_PER_STATEMENT):
        done(start)
        chunk = ordered[start : start + _ROWS_PER_STATEMENT]
        con.execute(
            f"INSERT INTO {name} SELECT unnest($entries), unnest($sets)",
            {"entries": chunk, "sets": [stored(holding.pop(entry)) for entry in chunk]},
        )
    con.execute(f"CREATE UNIQUE INDEX {quote_identifier(f'{table}_{column}')} ON {name} ({named})")
