"""What the SQL layer needs to know about a table: its columns, helper expressions and macros.

The agent-facing parts of a dataset (title, examples, messages) live in `search_core.datasets`; this is the part
that crosses to the worker in its boot message, so it holds plain values only.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from importlib import metadata
from typing import Any

# How a prepared file is laid out (engine/loading.py): a file of another layout is not used.
PREPARED_LAYOUT = "the table alone, v2"


@dataclass(frozen=True)
class Column:
    """A column as the agent sees it. `expression` is set for helper columns computed at load time; `examples` are
    values the column holds (a JSON array's elements, a JSON object's values), shown to the agent and checked
    against the bundled sample data."""

    name: str
    type: str
    description: str
    expression: str | None = None
    examples: tuple[str, ...] = ()

    @property
    def is_text(self) -> bool:
        """Whether values stay as the CSV has them: TEXT, and JSON (text DuckDB reads with ->> and json_*).

        >>> Column("a", "JSON", "").is_text, Column("b", "INTEGER", "").is_text
        (True, False)
        """
        return self.is_json or self.type.upper() in ("TEXT", "VARCHAR")

    @property
    def is_json(self) -> bool:
        return self.type.upper() == "JSON"


@dataclass(frozen=True)
class Macro:
    """A SQL macro installed in the sandbox before it is locked, with a worked example (a query that returns rows
    on the bundled sample data) for the agent."""

    signature: str
    body: str
    description: str
    example: str = ""

    @property
    def name(self) -> str:
        return self.signature.split("(", 1)[0]


@dataclass(frozen=True, kw_only=True)
class TableSpec:
    """One table loaded from one CSV: `events` is the table `events`, loaded from `events.csv`; queries may name it
    either way."""

    name: str
    columns: tuple[Column, ...]
    macros: tuple[Macro, ...] = field(default_factory=tuple)

    @property
    def table(self) -> str:
        return self.name

    @property
    def file_name(self) -> str:
        return f"{self.name}.csv"

    @property
    def table_names(self) -> frozenset[str]:
        """Names a query may use for the table: the agent prompts in use write FROM 'events.csv'."""
        return frozenset({self.table, self.file_name})

    @property
    def csv_columns(self) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if c.expression is None)

    @property
    def helper_columns(self) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if c.expression is not None)

    def table_spec(self) -> TableSpec:
        """Only the table's own fields (a subclass's agent-facing text stays behind)."""
        return TableSpec(name=self.name, columns=self.columns, macros=self.macros)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self.table_spec())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSpec:
        """
        >>> spec = TableSpec(name="t", columns=(Column("a", "TEXT", "A"),))
        >>> TableSpec.from_dict(spec.to_dict()) == spec
        True
        """
        return TableSpec(
            name=data["name"],
            columns=tuple(Column(**{**c, "examples": tuple(c.get("examples", ()))}) for c in data["columns"]),
            macros=tuple(Macro(**macro) for macro in data["macros"]),
        )

    def fingerprint(self) -> str:
        """What a prepared DuckDB file of this table depends on: the table's definition and the DuckDB release
        that wrote it (read from the package's metadata, so the function process need not import DuckDB).

        >>> len(TableSpec(name="t", columns=()).fingerprint())
        16
        """
        layout = [self.to_dict(), metadata.version("duckdb"), PREPARED_LAYOUT]
        definition = json.dumps(layout, ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(definition.encode()).hexdigest()[:16]
