"""Preparing a CSV: every problem found is reported by kind, column and row; a valid CSV becomes a DuckDB file."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest
from tooling.local import DATA_DIR

from search_core.catalogue import SQL_DATASETS
from search_core.engine.loading import attach_dataset_file
from search_core.engine.prepare import InvalidData, prepare_table, validate_csv
from search_core.engine.table import Column, TableSpec
from search_core.errors import DataUnavailable

TABLE = TableSpec(
    name="items",
    columns=(
        Column("name", "TEXT", "名前"),
        Column("tags", "JSON", "タグ"),
        Column("since", "DATE", "開始日"),
        Column("stock", "INTEGER", "在庫"),
    ),
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "items.csv"
    path.write_text(text, encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    return [str(problem) for problem in validate_csv(TABLE, write(tmp_path, text)).problems]


@pytest.mark.parametrize("name", SQL_DATASETS)
def test_the_bundled_samples_are_valid(name: str) -> None:
    assert validate_csv(SQL_DATASETS[name], DATA_DIR / SQL_DATASETS[name].file_name).ok


def test_a_missing_column_is_named_with_the_columns_found(tmp_path: Path) -> None:
    assert problems(tmp_path, "name,tags,since\na,[],2025-01-01\n") == [
        "ヘッダーに列がありません: stock（ファイルの列: name, tags, since）"
    ]


def test_values_not_of_their_type_are_counted_and_located(tmp_path: Path) -> None:
    rows = ["name,tags,since,stock", 'a,"[1]",2025-01-01,3', 'b,"{bad",2025-13-01,x', 'c,"{}",,4', 'd,"[",soon,5']
    assert problems(tmp_path, "\n".join(rows) + "\n") == [
        "列 tags: JSON として読めない値（2 件、行 3, 5） 例: 「{bad」",
        "列 since: DATE として読めない値（2 件、行 3, 5） 例: 「2025-13-01」",
        "列 stock: INTEGER として読めない値（1 件、行 3） 例: 「x」",
    ]


def test_rows_the_csv_reader_rejects_are_reported_by_line(tmp_path: Path) -> None:
    found = problems(tmp_path, "name,tags,since,stock\na,[],2025-01-01,1\nb,[],2025-01-01,2,extra\n")
    assert found == ["CSV として読めない行（TOO MANY COLUMNS）（1 件、行 3） 例: 「b,[],2025-01-01,2,extra」"]


def test_an_unterminated_quote_is_reported_by_line(tmp_path: Path) -> None:
    found = problems(tmp_path, 'name,tags,since,stock\na,[],2025-01-01,1\nb,"[,2025-01-01,2\n')
    assert found and all("行 3" in problem for problem in found)


def test_preparing_an_invalid_csv_writes_nothing(tmp_path: Path) -> None:
    destination = tmp_path / "items.duckdb"
    with pytest.raises(InvalidData, match="stock: INTEGER"):
        prepare_table(TABLE, write(tmp_path, "name,tags,since,stock\na,[],2025-01-01,many\n"), destination)
    assert not destination.exists()


def test_a_prepared_file_holds_the_table_alone(tmp_path: Path) -> None:
    destination = tmp_path / "stores-v1.duckdb"
    prepared = prepare_table(SQL_DATASETS["stores"], DATA_DIR / "stores.csv", destination)
    assert prepared.rows == 22 and prepared.bytes == destination.stat().st_size
    con = duckdb.connect(str(destination), read_only=True)
    assert con.execute("SELECT table_name FROM duckdb_tables()").fetchall() == [("stores",)]
    assert con.execute("SELECT count(*) FROM duckdb_views() WHERE NOT internal").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM duckdb_functions() WHERE NOT internal").fetchone() == (0,)
    con.close()


def test_attached_it_answers_to_every_name_with_the_macros_and_declared_types(tmp_path: Path) -> None:
    destination = tmp_path / "items.duckdb"
    prepare_table(
        TABLE, write(tmp_path, 'name,tags,since,stock\na,"[1]",2025-01-01,3\nb,"[]",2025-02-01,4\n'), destination
    )
    con = duckdb.connect()
    attach_dataset_file(con, TABLE, destination)
    assert con.execute('SELECT sum(stock), max(since) FROM "items.csv"').fetchone() == (7, date(2025, 2, 1))
    assert con.execute("SELECT count(*) FROM items.csv WHERE since < DATE '2025-02-01'").fetchone() == (1,)
    assert con.execute("SELECT current_database()").fetchone() == ("memory",)  # no file name shows


@pytest.mark.parametrize(
    "planted",
    [
        "CREATE MACRO duckdb_functions() AS TABLE SELECT 'lower' AS function_name",
        "CREATE MACRO upper(x) AS current_setting('temp_directory')",
        "CREATE VIEW leak AS SELECT current_setting('temp_directory') AS p",
        "CREATE TABLE secrets AS SELECT 'x' AS s",
        "CREATE SCHEMA other",
        "CREATE SEQUENCE counter",
        "CREATE TYPE mood AS ENUM ('a', 'b')",
        "ALTER TABLE items RENAME COLUMN stock TO amount",
        "ALTER TABLE items RENAME TO items_data; CREATE VIEW items AS SELECT * FROM items_data",
    ],
)
def test_a_file_that_holds_anything_but_the_table_is_refused(tmp_path: Path, planted: str) -> None:
    """A prepared file brings data, never code: a publisher's file with a macro, a view or anything else the spec
    does not know (the red team's forged file) is not served."""
    destination = tmp_path / "items.duckdb"
    prepare_table(TABLE, write(tmp_path, 'name,tags,since,stock\na,"[1]",2025-01-01,3\n'), destination)
    with duckdb.connect(str(destination)) as writer:
        writer.execute(planted)
    with pytest.raises(DataUnavailable, match="準備済みファイルが仕様と一致しません"):
        attach_dataset_file(duckdb.connect(), TABLE, destination)
