"""The one way an identifier reaches SQL text; values always go as bound parameters."""

from __future__ import annotations


def quote_identifier(name: str) -> str:
    """Quote a column or table name for DuckDB.

    >>> quote_identifier('events.csv')
    '"events.csv"'
    >>> quote_identifier('a"b')
    '"a""b"'
    """
    return '"' + name.replace('"', '""') + '"'
