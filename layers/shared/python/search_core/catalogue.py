"""The action groups this stack deploys, in one list: everything else (settings, the template's functions, payloads
and permissions, the upload, the demo, the test fixtures) is derived from it.

Each entry says which kind of tool it is (`SqlTable` or `CaseLaw`): the template, the upload, the attack targets,
the demo, the benchmarks and the tests derive what differs from the kind, never from a list of names.

To add a SQL dataset, write its spec in `search_core/datasets/<name>.py` and add `sql_group(<SPEC>, ...)` below;
`make schema` then writes its function folder and its part of template.yaml (docs/datasets.md). A new kind of tool
is a class here, beside `SqlTable` and `CaseLaw`, its package in `search_core/kinds/`, and one entry below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from search_core.datasets.events import EVENTS
from search_core.datasets.spec import DatasetSpec, camel
from search_core.datasets.stores import STORES

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
    # The objects its function may read: the CSV, and the prepared DuckDB file `make upload-data` puts beside it.
    key_suffixes: ClassVar[tuple[str, ...]] = ("", PREPARED_SUFFIX)
    # Its typical request, in events/<action group>/ (`make schema` writes it from the spec's first example).
    example_event: ClassVar[str] = "example.json"

    def example_calls(self) -> tuple[ToolCall, ...]:
        return (ToolCall(self.spec.search_operation, {"sql_query": self.spec.examples[0].sql}),)


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
    kind: SqlTable | CaseLaw
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


def sql_group(spec: DatasetSpec, title: str, summary: str) -> ActionGroup:
    """The action group serving SQL over `spec`'s CSV: search_<name>, POST /<name>/search."""
    return ActionGroup(
        name=f"search_{spec.name}",
        title=title,
        summary=summary,
        description=f"Action group search_{spec.name}: SELECT-only SQL over {spec.file_name}",
        data=spec.name,
        data_file=spec.file_name,
        kind=SqlTable(spec),
        key_description=f"{spec.file_name} (make upload-data puts its prepared DuckDB file beside it, at <key>.duckdb)",
    )


ACTION_GROUPS: dict[str, ActionGroup] = {
    group.name: group
    for group in (
        sql_group(EVENTS, "イベント検索", "イベント情報を SQL で検索する"),
        sql_group(STORES, "店舗・施設検索", "店舗・施設情報を SQL で検索する"),
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
    )
}
# The SQL tables' specs, by action group (search_events, ...) and by dataset (events, ...).
SQL_TABLES: dict[str, DatasetSpec] = {
    group.name: group.kind.spec for group in ACTION_GROUPS.values() if isinstance(group.kind, SqlTable)
}
SQL_DATASETS: dict[str, DatasetSpec] = {spec.name: spec for spec in SQL_TABLES.values()}
