"""The action groups this stack deploys, in one list: everything else (settings, the template's functions, payloads
and permissions, the upload, the demo, the test fixtures) is derived from it.

To add a SQL dataset, write its spec in `search_core/datasets/<name>.py` and add `sql_group(<SPEC>, ...)` below;
`make schema` then writes its function folder and its part of template.yaml (README, "Add your own dataset").
"""

from __future__ import annotations

from dataclasses import dataclass

from search_core.datasets.events import EVENTS
from search_core.datasets.spec import DatasetSpec, camel
from search_core.datasets.stores import STORES


@dataclass(frozen=True)
class ActionGroup:
    """One action group: one Lambda function serving one dataset.

    `name` names the function's folder (functions/<name>/), the action group and the service in logs; `data` is
    the dataset's name, which gives its environment variable (EVENTS_URI), the template parameter holding its S3
    key (EventsKey) and the key's default (data/events.csv); `spec` is set for SQL datasets, whose function is
    generated, and None for a hand-written one (case law).
    """

    name: str
    title: str
    summary: str
    description: str
    data: str
    data_file: str
    spec: DatasetSpec | None = None
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
        spec=spec,
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
            published_file="cases.duckdb",
            key_description="The prepared case-law database (make upload-data builds it); a raw SQLite file works too.",
            memory_mb=3008,
            timeout_seconds=60,
            # Lambda's most: 100,000 decisions prepare into 3.1 GB (BENCHMARKS.md), twice while versions swap.
            tmp_storage_mb=10240,
        ),
    )
}
# The SQL datasets by name (events, stores, ...).
SQL_DATASETS: dict[str, DatasetSpec] = {g.data: g.spec for g in ACTION_GROUPS.values() if g.spec is not None}
