"""The action groups this stack deploys, in one list: everything else (settings, the template's functions, payloads
and permissions, the agent's instruction, the upload, the demo, the test fixtures) is derived from it.

Each entry says which kind of tool it is (`SqlTable`, `CaseLaw` or `Statutes`): the template, the agent's
instruction, the upload, the attack targets, the demo, the benchmarks and the tests derive what differs from the kind,
never from a list of names.

To add a SQL dataset, write its spec in `search_core/datasets/<name>.py` and add `sql_group(<SPEC>, ...)` below;
`make schema` then writes its function folder and its part of template.yaml, its mention in the agent's instruction
included (docs/datasets.md). A new kind of tool is a class here, beside `SqlTable`, `CaseLaw` and `Statutes`, with
the role it gives the agent, its package in `search_core/kinds/`, and one entry below.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from search_core.datasets.clock import JST_NOW, JST_TODAY
from search_core.datasets.events import EVENTS
from search_core.datasets.spec import DatasetSpec, camel
from search_core.datasets.stores import STORES
from search_core.engine.limits import MAX_ROWS

# A SQL dataset's prepared DuckDB file is published beside its CSV, under the CSV's key plus this suffix.
PREPARED_SUFFIX = ".duckdb"


class ToolCall(NamedTuple):
    """One call of a tool, by its name and arguments: what the demo, the benchmarks and the tests send."""

    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class SqlTable:
    """SELECT-only SQL over one dataset (search_core.kinds.sql_table): `make schema` writes its function, its
    example events and its part of the template from the spec."""

    spec: DatasetSpec
    # What the agent finds there, as its instruction names it (イベント); with 検索, its OpenAPI document's title.
    subject: str
    # The objects its function may read: the CSV, and the prepared DuckDB file `make upload-data` puts beside it.
    key_suffixes: ClassVar[tuple[str, ...]] = ("", PREPARED_SUFFIX)
    # Its typical request, in events/<action group>/ (`make schema` writes it from the spec's first example).
    example_event: ClassVar[str] = "example.json"

    def example_calls(self) -> tuple[ToolCall, ...]:
        return (ToolCall(self.spec.search_operation, {"sql_query": self.spec.examples[0].sql}),)

    @staticmethod
    def role(groups: Sequence[ActionGroup]) -> str:
        """The agent's role these SQL tables serve, in its instruction: each table named, with what it holds.

        >>> print(SqlTable.role([ACTION_GROUPS["search_events"]]).splitlines()[0])
        東京・麻布台周辺のコンシェルジュ: イベントを案内します。search_events
        """
        subjects = "と".join(group.kind.subject for group in groups if isinstance(group.kind, SqlTable))
        names = "・".join(group.name for group in groups)
        today, now = JST_TODAY.signature, JST_NOW.signature
        return f"""東京・麻布台周辺のコンシェルジュ: {subjects}を案内します。{names}
（search_ で始まり SQL を受け取るツール）に SQL（SELECT のみ）を渡して調べます。列や書き方は各ツールの
説明と profile の操作に従ってください。時刻と日付はすべて日本時間（JST）で、「今日」「今」は
{today}、{now} を使います。結果は最大 {MAX_ROWS} 行で、truncated が true なら続きがあります。"""


@dataclass(frozen=True)
class CaseLaw:
    """Keyword search and paged reading over court decisions (search_core.kinds.case_law), served by the
    hand-written functions/search_cases from one prepared database."""

    key_suffixes: ClassVar[tuple[str, ...]] = ("",)
    example_event: ClassVar[str] = "search_damages.json"

    def example_calls(self) -> tuple[ToolCall, ...]:
        return (
            ToolCall("searchCases", {"keywords": "損害賠償 慰謝料"}),
            ToolCall("readCaseText", {"doc_id": "R05-0930-LONG", "offset": 4000}),
        )

    @staticmethod
    def role(groups: Sequence[ActionGroup]) -> str:
        """The agent's role the case law serves, in its instruction: when to use each of its operations."""
        names = "・".join(group.name for group in groups)
        return f"""法律調査の助手: 日本の判例（裁判所の判決）を調べます。{names} の searchCases で検索し（検索式・
裁判所・日付。主文：や事件名：で部分を限定、金額はどの書き方でも同じ額に一致、court の 高裁・地裁・
最高裁 はその審級）、findInCase で判決の中の語の箇所へ進み（near で語が揃う箇所、next_start で続き）、
長い判決は caseOutline で見出しと語の数を見て、readCaseText の heading でその部分を読みます（全文は
next_offset をたどって）。判断：を付けた語は裁判所の判断の部分だけで探し、各結果の outcome は主文の結論です
（outcome で絞れ、brief で一覧）。答えには判決の doc_id・裁判所・判決日を示し、
判決の文言は元の表記のまま引用してください。total が該当の総数、more が true なら続きがあります。"""


@dataclass(frozen=True)
class Statutes:
    """Japanese statutes from e-Gov's law XML, each article as it stood on a day (search_core.kinds.statutes), served
    by the hand-written functions/search_statutes from one prepared database."""

    key_suffixes: ClassVar[tuple[str, ...]] = ("",)
    example_event: ClassVar[str] = "get_article.json"

    def example_calls(self) -> tuple[ToolCall, ...]:
        return (
            ToolCall("getArticle", {"law": "民法", "article": "第七百九条"}),
            ToolCall("searchStatutes", {"keywords": "発信者情報 開示"}),
        )

    @staticmethod
    def role(groups: Sequence[ActionGroup]) -> str:
        """The agent's role the statutes serve, and how they go with the case law."""
        names = "・".join(group.name for group in groups)
        return f"""法令の参照: 日本の法令の条文を調べます。{names} の getArticle で法令名（略称・旧題・法令番号も可）と
条・項・号から条文を読み（date の時点でデータにある最新の版。判決が適用した条文はまず判決日で、経過措置にも注意）、
searchStatutes で語から条を探し、lawContents で目次を見ます。条を引用する判例は getArticle の cited_by_keywords を
searchCases の keywords に渡して探し、判決が引用した条は searchCases の cited_articles にあります。条文は元の
表記のまま、法令名・条名・版の施行日を添えて引用してください。"""


@dataclass(frozen=True)
class ActionGroup:
    """One action group: one Lambda function serving one dataset.

    `name` names the function's folder (functions/<name>/), the action group and the service in logs; `data` is
    the dataset's name, which gives its environment variable (EVENTS_URI), the template parameter holding its S3
    key (EventsKey) and the key's default (data/events.csv); `kind` is the kind of tool it is.
    """

    name: str
    title: str
    summary: str
    description: str
    data: str
    data_file: str
    kind: SqlTable | CaseLaw | Statutes
    # The object the function reads, when it is not the sample file itself (case law is published prepared).
    published_file: str | None = None
    key_description: str | None = None
    memory_mb: int = 1769  # one vCPU's worth of CPU time: DuckDB runs one thread
    timeout_seconds: int = 30
    # /tmp holds the data twice while a new version replaces the old, plus DuckDB's spill files (up to 512 MB).
    tmp_storage_mb: int = 4096

    @property
    def data_variable(self) -> str:
        """
        >>> ACTION_GROUPS["search_events"].data_variable
        'EVENTS_URI'
        """
        return f"{self.data.upper()}_URI"

    @property
    def key_parameter(self) -> str:
        """
        >>> ACTION_GROUPS["search_events"].key_parameter
        'EventsKey'
        """
        return f"{camel(self.data)}Key"

    @property
    def example_event(self) -> str:
        """
        >>> ACTION_GROUPS["search_events"].example_event
        'search_events/example.json'
        """
        return f"{self.name}/{self.kind.example_event}"

    @property
    def default_key(self) -> str:
        return f"data/{self.published_file or self.data_file}"


def sql_group(spec: DatasetSpec, subject: str, summary: str) -> ActionGroup:
    """The action group serving SQL over `spec`'s CSV: search_<name>, POST /<name>/search; the agent's instruction
    says it holds `subject`."""
    return ActionGroup(
        name=f"search_{spec.name}",
        title=f"{subject}検索",
        summary=summary,
        description=f"Action group search_{spec.name}: SELECT-only SQL over {spec.file_name}",
        data=spec.name,
        data_file=spec.file_name,
        kind=SqlTable(spec, subject),
        key_description=f"{spec.file_name} (make upload-data puts its prepared DuckDB file beside it, at <key>.duckdb)",
    )


ACTION_GROUPS: dict[str, ActionGroup] = {
    group.name: group
    for group in (
        sql_group(EVENTS, "イベント", "イベント情報を SQL で検索する"),
        sql_group(STORES, "店舗・施設", "店舗・施設情報を SQL で検索する"),
        ActionGroup(
            name="search_cases",
            title="判例検索",
            summary="判例をキーワードで検索し、全文を読む",
            description="Action group search_cases: keyword search and paged reading over court decisions",
            data="cases",
            data_file="cases.db",
            kind=CaseLaw(),
            published_file="cases.duckdb",
            key_description="The prepared case-law database (make upload-data builds it); a raw SQLite file works too.",
            memory_mb=3008,
            timeout_seconds=60,
            # Lambda's most: 100,000 decisions prepare into 3.1 GB (BENCHMARKS.md), twice while versions swap.
            tmp_storage_mb=10240,
        ),
        ActionGroup(
            name="search_statutes",
            title="法令検索",
            summary="法令の条文を、指定した日に施行されていた版で読み、検索する",
            description="Action group search_statutes: Japanese statutes by article, as in force on a date",
            data="statutes",
            data_file="statutes",
            kind=Statutes(),
            published_file="statutes.duckdb",
            key_description=(
                "The prepared statute database (make upload-data builds it from e-Gov law XML); a zip of e-Gov's bulk "
                "download works too."
            ),
        ),
    )
}
# The SQL tables' specs, by action group (search_events, ...) and by dataset (events, ...).
SQL_TABLES: dict[str, DatasetSpec] = {
    group.name: group.kind.spec for group in ACTION_GROUPS.values() if isinstance(group.kind, SqlTable)
}
SQL_DATASETS: dict[str, DatasetSpec] = {spec.name: spec for spec in SQL_TABLES.values()}


# The frame of the agent's instruction (the classic agent's Instruction, the harness's system prompt) around the role
# of each kind of tool; `make schema` writes it into template.yaml.
INSTRUCTION_OPENING = "あなたには {roles} つの役割があります。利用者の質問に日本語で、丁寧かつ簡潔に答えてください。"
INSTRUCTION_CLOSING = """どの役割でも、ツールがエラーを返したらメッセージに従って直して再試行し、推測で答えず、
見つからないときはそう伝えてください。"""


def instruction_of(groups: Iterable[ActionGroup]) -> str:
    """The agent's instruction: the opening, then each kind's role with its action groups, numbered in the
    catalogue's order, then the closing.

    >>> print(instruction_of(ACTION_GROUPS.values()).splitlines()[1])
    1. 東京・麻布台周辺のコンシェルジュ: イベントと店舗・施設を案内します。search_events・search_stores
    """
    by_kind: dict[type[SqlTable | CaseLaw | Statutes], list[ActionGroup]] = {}
    for group in groups:
        by_kind.setdefault(type(group.kind), []).append(group)
    roles = [kind.role(members) for kind, members in by_kind.items()]
    numbered = [f"{number}. " + role.replace("\n", "\n   ") for number, role in enumerate(roles, 1)]
    return "\n".join([INSTRUCTION_OPENING.format(roles=len(roles)), *numbered, INSTRUCTION_CLOSING]) + "\n"
