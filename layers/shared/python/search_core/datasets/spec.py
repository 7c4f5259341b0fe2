"""The shape of a dataset spec and the agent-facing text generated from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from search_core.sql.limits import MAX_ROWS


@dataclass(frozen=True)
class Column:
    """A column as the agent sees it. `expression` is set for helper columns computed at load time."""

    name: str
    type: str
    description: str
    expression: str | None = None


@dataclass(frozen=True)
class Macro:
    """A SQL macro installed in the sandbox before it is locked."""

    signature: str
    body: str
    description: str

    @property
    def name(self) -> str:
        return self.signature.split("(", 1)[0]


@dataclass(frozen=True)
class Example:
    question: str
    sql: str


@dataclass(frozen=True)
class DatasetSpec:
    """Everything about one SQL dataset that does not change as rows are added.

    The dataset `events` is the table `events`, loaded from `events.csv`; queries may name it either way.
    """

    name: str
    title: str
    columns: tuple[Column, ...]
    examples: tuple[Example, ...]
    no_results_message: str
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

    def operation_description(self) -> str:
        return (
            f"{self.title}を SQL（DuckDB 方言、SELECT のみ）で検索します。"
            f"テーブル {self.table}（'{self.file_name}' と書いても同じ）から最大 {MAX_ROWS} 行を返します。"
            "列・形式・例は sql_query の説明を参照してください。"
        )

    def sql_query_description(self) -> str:
        return "\n".join(
            [
                f"実行する SQL（DuckDB 方言）。テーブル名: {self.table}（FROM '{self.file_name}' も可）。",
                "規則: SELECT 文を 1 つだけ（WITH ... SELECT、FROM 始まりも可）。変更系の文、ファイル・ネットワーク"
                f"の読み取り、設定変更はできません。返るのは最大 {MAX_ROWS} 行（LIMIT がなければ {MAX_ROWS} 行に"
                "切り詰め、truncated=true）。集計は全行に対して行われます。長い値は「…（省略）」付きで切り詰めます。",
                "列:",
                *(f"- {c.name} ({c.type}): {c.description}" for c in self.columns),
                *self._macro_lines(),
                "例:",
                *(f"- {e.question} → {e.sql}" for e in self.examples),
            ]
        )

    def _macro_lines(self) -> list[str]:
        if not self.macros:
            return []
        return ["マクロ（時刻はすべて日本時間 JST）:", *(f"- {m.signature}: {m.description}" for m in self.macros)]
