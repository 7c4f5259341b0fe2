"""The locked sandbox connection the worker uses on the events sample, and its policy, shared by the guard's tests."""

from __future__ import annotations

import duckdb
import pytest

from search_core.sql.policy import QueryPolicy
from tests.conftest import open_dataset_sandbox


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    connection: duckdb.DuckDBPyConnection = open_dataset_sandbox("events", tmp_path_factory.mktemp("events"))
    return connection


@pytest.fixture(scope="module")
def policy(con: duckdb.DuckDBPyConnection) -> QueryPolicy:
    return QueryPolicy.for_connection(con, "events", frozenset({"events", "events.csv"}))
