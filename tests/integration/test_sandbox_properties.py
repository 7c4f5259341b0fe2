"""Property-based: the variants of each attack class the sandbox issue names, generated rather than listed.

Catalog names in every scope and letter case, this run's paths in every encoding a query can produce, DML hidden in
CTEs, the worker's own temp folder, and envelopes and case-law requests of any size or encoding: each through the
real `lambda_handler` by every door (an agent's event, a Gateway's tool call, the local MCP server over stdio; the
envelope by the agent's, the only one that has it), with canaries planted in the environment and in the worker's
DuckDB folder.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooling.attacks import TARGETS, ask_through, outcome
from tooling.doors import DOORS, Door, door_name, reply_of
from tooling.local import LambdaContext, load_event, sample_functions, status_of

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES
from tests.integration.test_properties import EXAMPLES

# Each example is a real call; a tenth of the general property tests' count keeps CI within its time.
SQL_EXAMPLES = max(50, EXAMPLES // 10)
SECRET = f"canary-secret-{secrets.token_hex(8)}"
FILE_SECRET = f"canary-file-{secrets.token_hex(8)}"
PROPERTY = settings(
    max_examples=SQL_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

CATALOG_SOURCES = [
    "pg_settings", "pg_proc", "sqlite_master", "duckdb_tables", "duckdb_databases", "duckdb_logs",
    "pg_catalog.pg_class", "information_schema.tables", "information_schema.schemata", "duckdb_settings()",
    "pragma_database_list", "duckdb_databases()", "duckdb_temporary_files()", "duckdb_secrets()",
]  # fmt: skip
SCOPES = [
    "WITH {cte} AS ({src}) SELECT * FROM {cte}",
    "WITH RECURSIVE {cte} AS ({src}) SELECT * FROM {cte}",
    "SELECT * FROM (WITH {cte} AS ({src}) SELECT * FROM {cte}) AS s",
    "SELECT count(*) FROM {table} WHERE EXISTS (WITH {cte} AS ({src}) SELECT 1 FROM {cte})",
    "SELECT CAST({column} AS VARCHAR) AS v FROM {table} UNION ALL (WITH {cte} AS ({src}) "
    "SELECT CAST(COLUMNS(*) AS VARCHAR) FROM {cte} LIMIT 1)",
    "SELECT * FROM {table}, LATERAL (WITH {cte} AS ({src}) SELECT * FROM {cte}) AS l",
    "SELECT (WITH {cte} AS ({src}) SELECT count(*) FROM {cte}) AS n",
]
PATH_SOURCES = [
    "SELECT value AS v FROM duckdb_settings() WHERE name LIKE '%directory%'",
    "SELECT setting AS v FROM pg_settings",
    "SELECT path AS v FROM duckdb_databases()",
    "SELECT current_setting('home_directory') AS v",
    "SELECT current_setting('temp_directory') AS v",
    "SELECT file AS v FROM glob('*')",
    "SELECT getenv('HOME') AS v",
]
ENCODERS = [
    "replace({x}, '/', ' | ')", "to_base64(CAST({x} AS BLOB))", "hex({x})", "reverse({x})", "upper({x})",
    "array_to_string(string_split({x}, '/'), ' ')", "error({x})", "CAST({x} AS INTEGER)", "md5({x})",
    "regexp_replace({x}, '(.)', '\\1 ', 'g')", "list_reverse(string_split({x}, ''))", "to_json({x})",
]  # fmt: skip
DML = [
    "DELETE FROM {table} RETURNING *",
    "UPDATE {table} SET {column} = 'x' RETURNING *",
    "INSERT INTO {table} SELECT * FROM {table} RETURNING *",
]
TEMP_READERS = [
    "SELECT * FROM '{path}'", "SELECT * FROM read_csv('{path}')", "SELECT * FROM read_text('{path}')",
    "SELECT * FROM read_blob('{path}')", "SELECT * FROM glob('{path}')", "SELECT * FROM read_csv_auto('{path}')",
]  # fmt: skip


def random_case(draw: st.DrawFn, text: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    return "".join(c.upper() if flip else c for c, flip in zip(text, flips, strict=True))


ENV = {"QUERY_TIMEOUT_SECONDS": "2", "AWS_SECRET_ACCESS_KEY": SECRET, "CANARY_SECRET": SECRET}


@dataclass
class Served:
    door: Door
    cache_dir: Path


@pytest.fixture(scope="module", params=DOORS, ids=door_name)
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The functions behind one door, canaries in their environment and, once each worker is up, in its folder."""
    cache_dir = tmp_path_factory.mktemp("cache")
    with request.param.serving([*TARGETS, "search_cases"], "sandbox_properties", cache_dir, **ENV) as door:
        for name, names in TARGETS.items():
            ask_through(door, name, "SELECT 1")
            temp_dir = cache_dir / f"{names['table']}-worker" / "duckdb-tmp"
            (temp_dir / "canary.csv").write_text(f"secret\n{FILE_SECRET}\n", encoding="utf-8")
        yield Served(door, cache_dir)


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    """For what only an agent's event has: its envelope."""
    with sample_functions([*TARGETS, "search_cases"], "envelopes", tmp_path_factory.mktemp("cache"), **ENV) as loaded:
        yield loaded


def refused(response: dict[str, Any]) -> bool:
    return outcome(response) in ("rejected", "failed")


def assert_nothing_leaked(response: dict[str, Any], cache_dir: Path) -> None:
    raw = json.dumps(response, ensure_ascii=False)
    assert SECRET not in raw and FILE_SECRET not in raw
    assert str(cache_dir) not in raw and cache_dir.name not in raw
    assert response_bytes(response) <= BUDGET_BYTES


@pytest.mark.parametrize("name", TARGETS)
@PROPERTY
@given(data=st.data())
def test_catalog_sources_are_refused_in_every_scope_and_letter_case(
    served: Served, name: str, data: st.DataObject
) -> None:
    source = random_case(data.draw, data.draw(st.sampled_from(CATALOG_SOURCES)))
    cte = data.draw(st.sampled_from([source.split(".")[-1].rstrip("()"), TARGETS[name]["table"], "x"]))
    scope = data.draw(st.sampled_from(SCOPES))
    sql = scope.format(cte=random_case(data.draw, cte), src=f"SELECT * FROM {source}", **TARGETS[name])
    response = ask_through(served.door, name, sql)
    assert refused(response), sql
    assert_nothing_leaked(response, served.cache_dir)


@pytest.mark.parametrize("name", TARGETS)
@PROPERTY
@given(source=st.sampled_from(PATH_SOURCES), encoders=st.lists(st.sampled_from(ENCODERS), min_size=1, max_size=3))
def test_host_paths_do_not_leave_in_any_encoding(served: Served, name: str, source: str, encoders: list[str]) -> None:
    expression = "v"
    for encoder in encoders:
        expression = encoder.format(x=f"CAST({expression} AS VARCHAR)")
    response = ask_through(served.door, name, f"WITH t AS ({source}) SELECT {expression} AS leak FROM t")
    assert refused(response)
    assert_nothing_leaked(response, served.cache_dir)


@pytest.mark.parametrize("name", TARGETS)
@PROPERTY
@given(dml=st.sampled_from(DML), scope=st.sampled_from(SCOPES[:5]))
def test_data_modifying_ctes_are_refused_and_change_nothing(served: Served, name: str, dml: str, scope: str) -> None:
    checksum = f"SELECT count(*) AS n, sum(hash(COLUMNS(*))) AS h FROM {TARGETS[name]['table']}"
    before = reply_of(ask_through(served.door, name, checksum)).body
    sql = scope.format(cte="x", src=dml.format(**TARGETS[name]), **TARGETS[name])
    assert refused(ask_through(served.door, name, sql))
    assert reply_of(ask_through(served.door, name, checksum)).body == before


@pytest.mark.parametrize("name", TARGETS)
@PROPERTY
@given(
    reader=st.sampled_from(TEMP_READERS),
    path=st.sampled_from(["{temp}/canary.csv", "~/duckdb-tmp/canary.csv", "duckdb-tmp/canary.csv", "{temp}/*.csv",
                          "{temp}/../duckdb-tmp/canary.csv", "{temp}/canary*", "~/*/canary.csv"]),
    wrapper=st.sampled_from(["{q}", "WITH x AS ({q}) SELECT hex(CAST(COLUMNS(*) AS VARCHAR)) FROM x",
                             "WITH x AS ({q}) SELECT error(CAST(COLUMNS(*) AS VARCHAR)) FROM x",
                             "WITH duckdb_tmp AS ({q}) SELECT * FROM duckdb_tmp"]),
)  # fmt: skip
def test_the_workers_own_folder_is_unreadable(served: Served, name: str, reader: str, path: str, wrapper: str) -> None:
    temp = served.cache_dir / f"{TARGETS[name]['table']}-worker" / "duckdb-tmp"
    sql = wrapper.format(q=reader.format(path=path.format(temp=temp)))
    response = ask_through(served.door, name, sql)
    assert refused(response)
    assert_nothing_leaked(response, served.cache_dir)


HOSTILE_TEXT = st.one_of(
    st.builds(
        lambda unit, times: unit * times, st.text(alphabet="xあ/", min_size=1, max_size=4), st.integers(5_000, 12_000)
    ),
    st.text(max_size=20).map(lambda t: t + "\udcff"),
    st.integers(4_400, 6_000).map(lambda digits: "9" * digits),
)
ENVELOPE_FIELDS = ["apiPath", "actionGroup", "httpMethod", "sessionId", "inputText"]
ATTRIBUTE_FIELDS = ["sessionAttributes", "promptSessionAttributes"]


@pytest.mark.parametrize("name", [*TARGETS, "search_cases"])
@PROPERTY
@given(data=st.data())
def test_envelope_fields_of_any_size_or_encoding_get_a_bounded_answer(
    functions: dict[str, ModuleType], name: str, data: st.DataObject
) -> None:
    event = load_event(
        "search_cases/search_damages.json" if name == "search_cases" else "search_events/free_events.json"
    )
    event["actionGroup"] = name
    event["apiPath"] = "/cases/search" if name == "search_cases" else f"/{TARGETS[name]['table']}/search"
    field = data.draw(st.sampled_from([*ENVELOPE_FIELDS, *ATTRIBUTE_FIELDS, "body"]))
    value = data.draw(HOSTILE_TEXT)
    if field in ATTRIBUTE_FIELDS:
        event[field] = {data.draw(st.sampled_from(["k", value])): value}
    elif field == "body":
        event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = value
    else:
        event[field] = value
    response = functions[name].lambda_handler(event, LambdaContext())
    assert status_of(response) in (200, 400, 404, 422)
    assert response_bytes(response) <= BUDGET_BYTES


CASE_TEXT = st.text(alphabet="一二三四五六七八九十百千万億兆〇零第条項号0123456789０１２%_\\'\"　 ", max_size=1_100)


@PROPERTY
@given(keywords=CASE_TEXT, court=st.one_of(st.none(), CASE_TEXT), doc_id=st.text(max_size=300))
def test_case_requests_of_any_length_or_numerals_get_a_bounded_answer(
    served: Served, keywords: str, court: str | None, doc_id: str
) -> None:
    for tool, arguments in (
        ("searchCases", {"keywords": keywords, "court": court}),
        ("readCaseText", {"doc_id": doc_id}),
    ):
        response = served.door.call("search_cases", tool, arguments)
        reply = reply_of(response)
        assert reply.ok or isinstance(reply.body["error"], str)
        assert_nothing_leaked(response, served.cache_dir)
