"""The shape of a dataset spec and the agent-facing text generated from it."""

from __future__ import annotations

import json
from dataclasses import dataclass

from search_core.datasets.clock import JST_MACROS
from search_core.engine.limits import MAX_ROWS
from search_core.engine.table import Column, Macro, TableSpec

__all__ = ["Column", "DatasetSpec", "Example", "Macro", "camel", "shown_type"]


def camel(snake: str) -> str:
    """
    >>> camel("search_events"), camel("tokyo_parks")
    ('SearchEvents', 'TokyoParks')
    """
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_"))


def shown_type(column: Column) -> str:
    """The type as the agent reads it: a JSON column is text holding JSON, not DuckDB's list or struct.

    >>> shown_type(Column("tags", "JSON", "")), shown_type(Column("since", "DATE", ""))
    ('JSON 文字列', 'DATE')
    """
    return "JSON 文字列" if column.is_json else column.type


@dataclass(frozen=True)
class Example:
    question: str
    sql: str


@dataclass(frozen=True, kw_only=True)
class DatasetSpec(TableSpec):
    """Everything about one SQL dataset that does not change as rows are added: its table, and the agent-facing
    text and examples generated from it."""

    title: str
    examples: tuple[Example, ...]
    no_results_message: str
    # Every SQL dataset has the clock of the agent's instruction (jst_now(), jst_today()); a spec that lists its
    # own macros includes them.
    macros: tuple[Macro, ...] = JST_MACROS

    @property
    def search_operation(self) -> str:
        """The operationId of the SQL search, e.g. searchEvents (POST /events/search)."""
        return f"search{camel(self.name)}"

    @property
    def profile_operation(self) -> str:
        """The operationId of the look at the data, e.g. profileEvents (GET /events/profile)."""
        return f"profile{camel(self.name)}"

    def operation_description(self) -> str:
        return (
            f"{self.title}を SQL（DuckDB 方言、SELECT のみ）で検索します。"
            f"テーブル {self.table}（'{self.file_name}' と書いても同じ）から最大 {MAX_ROWS} 行を返します。"
            "列・形式・例は sql_query の説明を参照してください。"
        )

    def profile_description(self) -> str:
        return (
            f"{self.title}の列（型・説明）と、いまのデータの概要を返します: 列ごとの NULL の割合、値の種類数、"
            "多い順の値と件数（JSON の配列は要素ごと、オブジェクトはキーごと）、日付・数値の最小と最大、"
            "自由記述の値の例。ある列の値の一覧が要るとき（言い換えの候補を探す、分類ごとに答える）や、値の形式・"
            f"データの期間が分からないときに、{self.search_operation} の前に呼んでください（column で 1 列だけ詳しく"
            "見られます）。"
        )

    def profile_column_description(self) -> str:
        return f"この列だけを、より多くの値とともに返す（省略時は全列）。列: {', '.join(c.name for c in self.columns)}"

    def sql_query_description(self) -> str:
        return "\n".join(
            [
                f"実行する SQL（DuckDB 方言）。テーブル名: {self.table}（FROM '{self.file_name}' も可）。",
                "規則: SELECT 文を 1 つだけ（WITH ... SELECT、FROM 始まりも可）。変更系の文、ファイル・ネットワーク"
                f"の読み取り、設定変更はできません。返るのは最大 {MAX_ROWS} 行（LIMIT がなければ {MAX_ROWS} 行に"
                "切り詰め、truncated=true。自分で書いた LIMIT の先は truncated に出ないので、件数は count(*) で"
                "数える）。集計は全行に対して行われます。長い値は「…（省略）」付きで切り詰めます。",
                "列の説明の「値の例」は同梱サンプルのもので、実データの表記（対象者・分類の呼び方など）や期間は"
                "違うことがある。値の条件は利用者の言葉で書いてよい: 該当がなければ応答の hints に、条件の列に実際に"
                "ある値と日付の範囲、その条件だけで合う行数（matching_rows）が返るので、それで書き直す。今日・現在時刻の"
                "条件で該当がなければ、message に今の日本時間とデータの期間が返る。言い換えを OR で並べると一部だけ"
                "当たって見落とすので、"
                f"値の一覧が要るときや年のない日付は {self.profile_operation} で確かめる。一覧は最初から一意な ORDER BY"
                f"（名前などを加える）を付け、続きは同じ ORDER BY で OFFSET {MAX_ROWS}。全件の名前だけなら string_agg"
                " が 1 行で返せる。",
                "列:",
                *(f"- {c.name} ({shown_type(c)}): {c.description}{_examples_of(c)}" for c in self.columns),
                *self._json_lines(),
                *self._macro_lines(),
                "例:",
                *(f"- {e.question} → {e.sql}" for e in self.examples),
            ]
        )

    def _json_lines(self) -> list[str]:
        if not any(c.is_json for c in self.columns):
            return []
        return [
            "JSON 文字列の列（型は VARCHAR、空白の入り方はデータ次第）: キーの値は 列->>'キー'（文字列）で"
            "取り出して比べる。配列の要素の一覧は unnest(列->>'$[*]')（例: SELECT v, count(*) FROM "
            f"{self.table}, unnest(列->>'$[*]') AS t(v) GROUP BY v）、要素の部分一致は 列 LIKE '%値%'。"
        ]

    def _macro_lines(self) -> list[str]:
        if not self.macros:
            return []
        return [
            "マクロ（時刻はすべて日本時間 JST）:",
            *(f"- {m.signature}: {m.description}。例: {m.example}" for m in self.macros),
        ]


def _examples_of(column: Column) -> str:
    """
    >>> _examples_of(Column("tags", "JSON", "配列", examples=("家族", "子供")))
    '（値の例: "家族", "子供"）'
    """
    if not column.examples:
        return ""
    return "（値の例: " + ", ".join(json.dumps(v, ensure_ascii=False) for v in column.examples) + "）"
