"""What a table holds, column by column: the profile behind zero-row hints and the agent's look at the data.

Built by the worker inside its sandbox, once per version of the data and only when first asked for: a call that
returns rows never pays for it. Counts, nulls, distinct counts and ranges are read from the whole table; the most
frequent values from a sample of at most PROFILE_SAMPLE_ROWS rows (whole blocks, so that a million-row table is not
read twice). A JSON array is counted by its elements and a JSON object by its keys, each key a field of its own
(`location->>'venue'`), since that is how a query reaches into them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from search_core.engine.quoting import quote_identifier
from search_core.engine.table import Column, TableSpec

if TYPE_CHECKING:  # the function process reads profiles without importing DuckDB
    import duckdb

PROFILE_SAMPLE_ROWS = 100_000
# Values kept per field: enough for the nearest spellings of a literal among a column's many names; the agent
# sees a few dozen of them at most.
KEPT_VALUES = 200
# Longer values are kept cut to this many characters: a hint names values, it does not quote documents.
VALUE_CHARS = 80
MAX_KEYS = 20

FieldKey = tuple[str, str | None]
# A field's most frequent values with their counts, and whether any value was cut to VALUE_CHARS.
Counted = tuple[list[tuple[str, int]], bool]


@dataclass(frozen=True)
class FieldProfile:
    """One column, or one key inside a JSON object column (`key` set). `values` are the most frequent values
    (JSON array elements for an array column, key names for an object column) with their counts in the sample."""

    column: str
    key: str | None
    present: int
    distinct: int
    values: list[tuple[str, int]]
    minimum: str | None = None
    maximum: str | None = None
    # Whether `values` holds every value of the field, whole: counted over the whole table, fewer than kept, none cut.
    complete: bool = False

    @property
    def name(self) -> str:
        """How a query names the field: `location->>'venue'`, or the column."""
        return f"{self.column}->>'{self.key}'" if self.key is not None else self.column


@dataclass(frozen=True)
class TableProfile:
    rows: int
    sampled_rows: int
    fields: tuple[FieldProfile, ...]

    def field(self, column: str, key: str | None = None) -> FieldProfile | None:
        return next((f for f in self.fields if f.column == column and f.key == key), None)

    def keys_of(self, column: str) -> list[FieldProfile]:
        return [f for f in self.fields if f.column == column and f.key is not None]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableProfile:
        """
        >>> profile = TableProfile(3, 3, (FieldProfile("a", None, 3, 1, [("x", 3)]),))
        >>> TableProfile.from_dict(profile.to_dict()) == profile
        True
        """
        fields = tuple(
            FieldProfile(**{**f, "values": [(str(v), int(n)) for v, n in f["values"]]}) for f in data["fields"]
        )
        return cls(rows=data["rows"], sampled_rows=data["sampled_rows"], fields=fields)


def build_profile(con: duckdb.DuckDBPyConnection, table: TableSpec) -> TableProfile:
    """The profile of `table` as loaded on `con` (raises duckdb.Error, e.g. when interrupted)."""
    name = quote_identifier(table.table)
    totals = _totals(con, name, table.columns)
    rows = totals.pop("*")
    sample = (
        f"{name} USING SAMPLE {PROFILE_SAMPLE_ROWS * 100 / rows:.4f}% (system, 7)"
        if rows > PROFILE_SAMPLE_ROWS
        else name
    )
    sampled_rows = _scalar(con, f"SELECT count(*) FROM {sample}") if sample != name else rows
    counted = _frequent_values(con, sample, table.columns)
    fields = [
        field
        for column in table.columns
        for field in _column_fields(column, totals[column.name], counted, whole=sampled_rows == rows)
    ]
    return TableProfile(rows, sampled_rows, tuple(fields))


def _column_fields(
    column: Column, totals: tuple[Any, ...], counted: dict[FieldKey, Counted], whole: bool
) -> list[FieldProfile]:
    """The column's field, then one per key of a JSON object column (the most present first)."""
    present, distinct, low, high = totals
    values, cut = counted.get((column.name, None), ([], False))
    complete = _complete(values, cut, whole)
    # All values in hand give the exact count; a JSON column's values are elements or keys, not the texts the
    # totals estimated.
    if complete:
        distinct = len(values)
    elif column.is_json:
        distinct = max(distinct, len(values))
    fields = [FieldProfile(column.name, None, present, distinct, values, low, high, complete)]
    keys = [(key, v) for (col, key), v in counted.items() if col == column.name and key is not None]
    for key, (values, cut) in sorted(keys, key=lambda item: -sum(n for _, n in item[1][0]))[:MAX_KEYS]:
        complete = _complete(values, cut, whole)
        fields.append(FieldProfile(column.name, key, sum(n for _, n in values), len(values), values, complete=complete))
    return fields


def _complete(values: list[tuple[str, int]], cut: bool, whole: bool) -> bool:
    return whole and len(values) < KEPT_VALUES and not cut


def _totals(con: duckdb.DuckDBPyConnection, table: str, columns: tuple[Column, ...]) -> dict[str, Any]:
    """Per column: non-null rows, distinct values (estimated), and min/max of a typed column; "*": all rows."""
    parts = ["count(*)"]
    for column in columns:
        ref = quote_identifier(column.name)
        ranged = not column.is_text
        parts += [
            f"count({ref})",
            f"approx_count_distinct({ref})",
            f"CAST(min({ref}) AS VARCHAR)" if ranged else "NULL",
            f"CAST(max({ref}) AS VARCHAR)" if ranged else "NULL",
        ]
    row = con.execute(f"SELECT {', '.join(parts)} FROM {table}").fetchone()
    assert row is not None
    totals: dict[str, Any] = {"*": row[0]}
    for index, column in enumerate(columns):
        totals[column.name] = tuple(row[1 + 4 * index : 5 + 4 * index])
    return totals


def _frequent_values(
    con: duckdb.DuckDBPyConnection, sample: str, columns: tuple[Column, ...]
) -> dict[FieldKey, Counted]:
    """The KEPT_VALUES most frequent values of each field in one pass over the sample, as (values, any cut)."""
    streams = [(branch, column.name) for column in columns for branch in _value_streams(column)]
    branches = [branch for branch, _ in streams]
    sql = (
        f"WITH s AS (SELECT * FROM {sample}), pairs AS ({' UNION ALL '.join(branches)}) "
        f"SELECT col, key, left(v, {VALUE_CHARS}) AS shown, count(*) AS n, bool_or(length(v) > {VALUE_CHARS}) "
        "FROM pairs WHERE v IS NOT NULL GROUP BY col, key, shown "
        f"QUALIFY row_number() OVER (PARTITION BY col, key ORDER BY n DESC, shown) <= {KEPT_VALUES} "
        "ORDER BY col, key, n DESC, shown"
    )
    counted: dict[FieldKey, Counted] = {}
    # Each stream is labelled with its column's name, bound as a parameter.
    for col, key, value, n, cut in con.execute(sql, [name for _, name in streams]).fetchall():
        values, any_cut = counted.get((col, key), ([], False))
        values.append((value, n))
        counted[(col, key)] = (values, any_cut or cut)
    return counted


def _value_streams(column: Column) -> list[str]:
    """SELECTs of (col, key, v) over the sample `s`: the column's values, or its JSON elements and keys."""
    ref = quote_identifier(column.name)
    label = "CAST(? AS VARCHAR)"
    if not column.is_json:
        return [f"SELECT {label} AS col, NULL::VARCHAR AS key, CAST({ref} AS VARCHAR) AS v FROM s"]
    valid = f"json_valid({ref})"
    return [
        # An array's elements; its column field holds them.
        f"SELECT {label}, NULL, e FROM s, unnest(json_extract_string({ref}, '$[*]')) AS t(e) "
        f"WHERE {valid} AND json_type({ref}) = 'ARRAY'",
        # An object's keys: the column field counts them, and each key is a field of its values.
        f"SELECT {label}, NULL, k FROM s, unnest(json_keys({ref})) AS t(k) "
        f"WHERE {valid} AND json_type({ref}) = 'OBJECT'",
        f"SELECT {label}, k, {ref}->>k FROM s, unnest(json_keys({ref})) AS t(k) "
        f"WHERE {valid} AND json_type({ref}) = 'OBJECT'",
    ]


def _scalar(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    row = con.execute(sql).fetchone()
    assert row is not None
    return int(row[0])
