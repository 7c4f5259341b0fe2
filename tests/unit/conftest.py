"""The locked sandbox connection the worker uses on the events sample, its policy, and a query through every
in-process layer on it, shared by the guard's tests."""

from __future__ import annotations

import duckdb
import pytest

from search_core.datasets.events import EVENTS
from search_core.safety.policy import QueryPolicy
from search_core.worker.execute import run_query
from search_core.worker.result import QueryResult
from tests.conftest import TEST_LIMITS, open_dataset_sandbox


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    connection: duckdb.DuckDBPyConnection = open_dataset_sandbox("events", tmp_path_factory.mktemp("events"))
    return connection


@pytest.fixture(scope="module")
def policy(con: duckdb.DuckDBPyConnection) -> QueryPolicy:
    return QueryPolicy.for_connection(con, "events", frozenset({"events", "events.csv"}))


def run(con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str) -> QueryResult:
    return run_query(con, sql, policy, TEST_LIMITS, EVENTS)
