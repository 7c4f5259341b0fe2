"""The profile of a table: JSON unpacked into elements and keys, ranges for typed columns, a sample for big tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb

from search_core.advice import profile as profile_module
from search_core.advice.profile import KEPT_VALUES, VALUE_CHARS, TableProfile, build_profile
from search_core.datasets.events import EVENTS
from search_core.datasets.stores import STORES
from search_core.engine.table import Column, TableSpec


def test_a_json_array_is_counted_by_its_elements(sandbox: Callable[..., Any]) -> None:
    profile = build_profile(sandbox("events"), EVENTS)
    audience = profile.field("target_audience")
    assert audience is not None and audience.complete
    expected = sandbox("events").execute(
        "SELECT v, count(*) FROM events, unnest(target_audience->>'$[*]') AS t(v) GROUP BY v"
    )
    assert dict(audience.values) == dict(expected.fetchall())


def test_a_json_object_is_counted_by_its_keys_and_each_key_by_its_values(sandbox: Callable[..., Any]) -> None:
    profile = build_profile(sandbox("stores"), STORES)
    location = profile.field("location")
    assert location is not None and {key for key, _ in location.values} == {"building", "floor", "address"}
    floor = profile.field("location", "floor")
    assert floor is not None and floor.name == "location->>'floor'"
    assert (
        dict(floor.values)["B1"]
        == sandbox("stores").execute("SELECT count(*) FROM stores WHERE location->>'floor' = 'B1'").fetchone()[0]
    )
    assert [f.key for f in profile.keys_of("opening_hours")]  # every weekday is a field of its own


def test_typed_columns_have_their_range_and_text_columns_their_null_share(sandbox: Callable[..., Any]) -> None:
    con = sandbox("events")
    profile = build_profile(con, EVENTS)
    start = profile.field("start_date")
    assert start is not None
    assert (start.minimum, start.maximum) == tuple(
        str(v) for v in con.execute("SELECT min(start_date), max(start_date) FROM events").fetchone()
    )
    capacity = profile.field("capacity")
    assert capacity is not None and capacity.minimum is None
    assert capacity.present == con.execute("SELECT count(capacity) FROM events").fetchone()[0] < profile.rows


def test_a_big_table_is_counted_on_a_sample_and_keeps_a_bounded_number_of_short_values(monkeypatch: Any) -> None:
    monkeypatch.setattr(profile_module, "PROFILE_SAMPLE_ROWS", 20_000)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT i || repeat('名', 200) AS name, CAST(i % 7 AS VARCHAR) AS kind "
        "FROM range(200000) r(i)"
    )
    table = TableSpec(name="t", columns=(Column("name", "TEXT", ""), Column("kind", "TEXT", "")))
    profile = build_profile(con, table)
    assert profile.rows == 200_000 and profile.sampled_rows < 100_000
    name, kind = profile.field("name"), profile.field("kind")
    assert name is not None and kind is not None
    assert len(name.values) == KEPT_VALUES and not name.complete
    assert max(len(v) for v, _ in name.values) == VALUE_CHARS
    assert {v for v, _ in kind.values} == {str(i) for i in range(7)} and not kind.complete
    assert name.distinct > 150_000  # estimated over the whole table, not the sample


def test_values_cut_to_their_first_characters_never_count_as_all_the_values() -> None:
    con = duckdb.connect()
    con.execute(f"CREATE TABLE t AS SELECT repeat('名', {VALUE_CHARS}) || i AS name FROM range(3) r(i)")
    name = build_profile(con, TableSpec(name="t", columns=(Column("name", "TEXT", ""),))).field("name")
    assert name is not None and name.values == [("名" * VALUE_CHARS, 3)] and not name.complete


def test_a_profile_crosses_the_process_boundary_unchanged(sandbox: Callable[..., Any]) -> None:
    profile = build_profile(sandbox("stores"), STORES)
    assert TableProfile.from_dict(profile.to_dict()) == profile
