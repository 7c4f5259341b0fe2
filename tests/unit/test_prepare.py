"""Preparing a CSV: every problem found is reported by kind, column and row; a valid CSV becomes a DuckDB file."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from search_core.catalogue import SQL_DATASETS
from search_core.sql.prepare import InvalidData, prepare_table, validate_csv
from search_core.sql.table import Column, TableSpec
from tests.conftest import DATA_DIR

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
        "列 tags: JSON として読めない値（2 件、行 3, 5）",
        "列 since: DATE として読めない値（2 件、行 3, 5）",
        "列 stock: INTEGER として読めない値（1 件、行 3）",
    ]


def test_rows_the_csv_reader_rejects_are_reported_by_line(tmp_path: Path) -> None:
    found = problems(tmp_path, "name,tags,since,stock\na,[],2025-01-01,1\nb,[],2025-01-01,2,extra\n")
    assert found == ["CSV として読めない行（TOO MANY COLUMNS）（1 件、行 3）"]


def test_an_unterminated_quote_is_reported_by_line(tmp_path: Path) -> None:
    found = problems(tmp_path, 'name,tags,since,stock\na,[],2025-01-01,1\nb,"[,2025-01-01,2\n')
    assert found and all("行 3" in problem for problem in found)


def test_preparing_an_invalid_csv_writes_nothing(tmp_path: Path) -> None:
    destination = tmp_path / "items.duckdb"
    with pytest.raises(InvalidData, match="stock: INTEGER"):
        prepare_table(TABLE, write(tmp_path, "name,tags,since,stock\na,[],2025-01-01,many\n"), destination)
    assert not destination.exists()


def test_a_prepared_file_holds_the_table_its_aliases_and_macros(tmp_path: Path) -> None:
    stores = SQL_DATASETS["stores"]
    destination = tmp_path / "stores-v1.duckdb"
    prepared = prepare_table(stores, DATA_DIR / "stores.csv", destination)
    assert prepared.rows == 22 and prepared.bytes == destination.stat().st_size
    con = duckdb.connect(str(destination), read_only=True)
    assert con.execute('SELECT count(*) FROM "stores.csv"').fetchone() == (22,)
    open_at_noon = "SELECT count(*) FROM stores WHERE is_open_at(opening_hours, TIMESTAMP '2025-10-04 12:00')"
    assert 0 < con.execute(open_at_noon).fetchone()[0] < 22  # type: ignore[index]
    con.close()
