"""DuckDB's errors told as the agent can act on them, in a few hundred characters.

DuckDB answers a wrong type with every candidate signature (45 of them, 3.7 KB, for one call) and an unknown column
with five guesses. What helps is shorter: the columns there are, the value that would not convert and how to
convert it, the argument a macro expects, a name the catalog lacks without DuckDB's "Did you mean" (which may name
a function the guard refuses). Every message ends within MAX_MESSAGE_CHARS.

>>> first_part('Binder Error: No function matches ... casts.\\n\\tCandidate functions:\\n\\tsum(a DECIMAL)')
'Binder Error: No function matches ... casts.'
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

import duckdb

from search_core.advice.filters import Conversion, conversions
from search_core.engine.budget import TRUNCATION_MARKER
from search_core.engine.quoting import quote_identifier
from search_core.engine.table import Macro, TableSpec
from search_core.errors import QueryFailed, SearchError
from search_core.safety.guard import without_literals
from search_core.scrub import scrub_paths

if TYPE_CHECKING:
    from search_core.safety.policy import QueryPolicy

MAX_MESSAGE_CHARS = 500
# Every failure DuckDB reported starts so: the agent (and the attack corpus) tells it from a refusal of the guard.
FAILED_PREFIX = "SQL の実行エラー: "
# DuckDB may echo a whole input in its message (strptime does); only its start is read, so no pattern below runs
# over megabytes.
READ_CHARS = 2_000
_MISSING_COLUMN = re.compile(r'(?:Referenced column "?([^"\s]+)"? not found|does not have a column named "([^"]+)")')
_NO_MATCH = re.compile(r"(?:argument types '|function call \")(\w+|\S+?)\((.*?)\)['\"]")
_CANDIDATE = re.compile(r"^\s*\"?([^\s(\"]+)\"?\((.*)\)", re.MULTILINE)
_UNCONVERTED = re.compile(r"""(?:convert string|format:|numerical:) ['"](.*?)['"]""")
_MACRO_MISUSE = re.compile(r"Macro (\w+)\(\) does not support")
_CANNOT_COMPARE = re.compile(r"Cannot compare values of type (\S+) and type (\S+)")
# DuckDB underlines the expression at fault under its echo of the line: "LINE 2: <line>" then carets.
_UNDERLINED = re.compile(r"^(LINE \d+: )(.*)\n( *)(\^+)", re.MULTILINE)
_MALFORMED_JSON = re.compile(r'Malformed JSON.*?Input: "(.{0,60})', re.DOTALL)
# Types a conversion error may name, spelled as DuckDB accepts them in a CAST (anything else is not probed).
_CAST_TYPES = frozenset(
    {"INTEGER", "INT", "BIGINT", "SMALLINT", "HUGEINT", "DOUBLE", "FLOAT", "REAL", "DECIMAL", "NUMERIC"}
    | {"DATE", "TIMESTAMP", "TIME", "BOOLEAN", "INT4", "INT8", "UBIGINT", "UINTEGER"}
)


UNREADABLE_ERROR = (
    "SQL の実行エラー: 値の変換か JSON の読み取りに失敗しました。JSON 関数（->>、json_extract）は JSON 文字列の列に"
    "だけ使い、型の変換は TRY_CAST(値 AS 型) にしてください。"
)
_MISSING_TABLE = re.compile(r"Table with name (.+?) does not exist")
_MISSING_NAME = re.compile(
    r'(Scalar Function|Aggregate Function|Function|Macro Function|Type|Collation) with name "?([^"\s!]+)'
)
_KINDS = {
    "Scalar Function": "関数",
    "Aggregate Function": "集計関数",
    "Function": "関数",
    "Macro Function": "マクロ",
    "Type": "型",
    "Collation": "照合順序",
}
_MISSING_HINTS = {
    "Type": "使える型の例: INTEGER, BIGINT, DOUBLE, DECIMAL, VARCHAR, DATE, TIMESTAMP, BOOLEAN。",
    "Scalar Function": "関数名を確かめてください（マクロは説明の一覧にあるものだけ）。",
}
_MISSING_TABLE_FUNCTION = re.compile(r'Table Function with name "?([\w.]+)')


def explain(con: duckdb.DuckDBPyConnection, sql: str, error: duckdb.Error, table: TableSpec) -> QueryFailed:
    """The failure of `sql` on `table`, told briefly and with the way forward (probing the data where it helps)."""
    text = scrub_paths(str(error))[:READ_CHARS]
    macros = _macros_called(sql, table)
    if (misused := _MACRO_MISUSE.search(text)) and (macro := _macro_named(misused.group(1), table)):
        return _failed(f"マクロの引数が合いません。{_usage(macro)}")
    if missing := _MISSING_COLUMN.search(text):
        return _failed(_unknown_column(con, missing.group(1) or missing.group(2), table))
    if "Deprecated lambda arrow" in text:
        return _failed(_LAMBDA_SYNTAX)
    if compared := _CANNOT_COMPARE.search(text):
        return _failed(_comparison(text, compared.group(1), compared.group(2)))
    if "Conversion Error" in text:
        return _failed(_conversion(con, sql, text, table, brief=bool(macros)) + "".join(_usage(m) for m in macros))
    if no_match := _NO_MATCH.search(text):
        if _arrow_took_a_comparison(no_match.group(1), no_match.group(2)):
            return _failed(_ARROW_BINDS_LAST)
        return _failed(_wrong_types(no_match.group(1), no_match.group(2), text) + "".join(_usage(m) for m in macros))
    if malformed := _MALFORMED_JSON.search(text):
        return _failed(_malformed_json(malformed.group(1).split('"')[0]))
    return _failed(first_part(text) + "".join(_usage(m) for m in macros))


def unknown_name(error: duckdb.CatalogException, policy: QueryPolicy) -> SearchError:
    """DuckDB's catalog error, told with what the agent may use instead of the catalog's own suggestions (which name
    system tables the plan check would refuse).

    >>> import duckdb
    >>> from search_core.safety.policy import QueryPolicy
    >>> policy = QueryPolicy(frozenset(), frozenset({"events"}), frozenset())
    >>> unknown_name(duckdb.CatalogException('Catalog Error: Table with name stores does not exist!'), policy).message
    'テーブル stores はありません。使えるテーブル: events（WITH で定義した名前も可）。'
    """
    text = str(error)[:READ_CHARS]
    table, function = _MISSING_TABLE.search(text), _MISSING_TABLE_FUNCTION.search(text)
    if table:
        return QueryFailed(f"テーブル {scrub_paths(table.group(1))[:100]} はありません。{policy.tables_hint}")
    if function:
        return policy.refusal(function.group(1)[:100], table_function=True)
    if missing := _MISSING_NAME.search(text):
        # DuckDB's "Did you mean" may name a function the guard refuses, or a catalog the agent cannot use.
        kind, name = missing.group(1), scrub_paths(missing.group(2))[:100]
        message = f"{_KINDS.get(kind, kind)} {name} はありません。{_MISSING_HINTS.get(kind, '')}"
        return QueryFailed(short(FAILED_PREFIX + message))
    return QueryFailed(short(FAILED_PREFIX + first_part(scrub_paths(text))))


def short(message: str) -> str:
    """`message` cut to MAX_MESSAGE_CHARS, marked where it was cut."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - len(TRUNCATION_MARKER)] + TRUNCATION_MARKER


def _failed(message: str) -> QueryFailed:
    return QueryFailed(short(f"{FAILED_PREFIX}{message}"))


def first_part(text: str) -> str:
    """DuckDB's message without its candidate lists and the echo of the query."""
    return re.split(r"\n\s*\n|\n\s*Candidate|\nLINE \d+:", text, maxsplit=1)[0].strip()


def _columns_text(table: TableSpec) -> str:
    return f"{table.table} の列: {', '.join(c.name for c in table.columns)}。"


def _unknown_column(con: duckdb.DuckDBPyConnection, name: str, table: TableSpec) -> str:
    """The columns there are, and the JSON column holding `name` as a key, if one does."""
    if name in {c.name for c in table.columns}:  # the table's column, read where the table is not in FROM
        return (
            f"列 {name} は {table.table} の列ですが、この FROM（または別名）からは見えません。"
            f"FROM {table.table} から選んでください。"
        )
    message = f"列 {name[:60]} はありません。{_columns_text(table)}"
    holder = _json_column_with_key(con, name, table)
    if holder is not None:
        return message + f"{name[:60]} は {holder} の中のキーです: {holder}->>'{name[:60]}' と書きます。"
    if any(c.is_json for c in table.columns):
        message += "JSON 文字列の列の中の値は 列->>'キー' で取り出します。"
    return message


def _json_column_with_key(con: duckdb.DuckDBPyConnection, key: str, table: TableSpec) -> str | None:
    for column in table.columns:
        if not column.is_json:
            continue
        probe = (
            f"SELECT 1 FROM {quote_identifier(table.table)} "
            f"WHERE json_valid({quote_identifier(column.name)}) AND json_exists({quote_identifier(column.name)}, ?) "
            "LIMIT 1"
        )
        if con.execute(probe, ["$." + _json_key(key)]).fetchone():
            return column.name
    return None


def _json_key(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _conversion(con: duckdb.DuckDBPyConnection, sql: str, text: str, table: TableSpec, brief: bool) -> str:
    """The field and the value that would not convert, and how to convert it without failing (`brief`: only the
    value, when a macro's usage follows)."""
    columns = {c.name for c in table.columns}
    for conversion in conversions(con, sql, columns):
        value = _value_at_fault(con, conversion, table)
        if value is not None:
            return _conversion_advice(_field_text(conversion), value, conversion.type)
    stated = _UNCONVERTED.search(text)
    value = stated.group(1) if stated else None
    if value is not None and value in _keys_cast_after_arrow(sql):
        return _cast_binds_first(value)
    at_fault = f"値 '{value[:60]}' を" if value is not None else "値を"
    if brief:
        return f"{at_fault}変換できません。"
    return (
        f"{at_fault}変換できません（{first_part(text)[:160]}）。テキストの値は TRY_CAST で変換し（変換できない値は "
        "NULL）、日付は DATE '2025-10-05'、日時は TIMESTAMP '2025-10-05 10:00' と書きます。"
    )


# DuckDB's own advice for `x -> x` is a SET, which the sandbox refuses.
_LAMBDA_SYNTAX = (
    "ラムダ式は lambda x: x + 1 と書きます（例: list_transform(列, lambda x: upper(x))）。"
    "x -> x の書き方は使えません（設定の変更もできません）。"
)
_ARROW_BINDS_LAST = (
    "-> は比較（=、<、IS NULL など）より後に結びつくため、キーの代わりに比較の結果（真偽値）を受け取りました。"
    "(列->'キー') IS NULL のように括弧で囲むか、値を文字列で比べるなら 列->>'キー' = '値' と書いてください。"
)


def _arrow_took_a_comparison(function: str, given: str) -> bool:
    """`col->'k' IS NULL` parses as `col -> ('k' IS NULL)`: json_extract given a truth value for its path.

    >>> _arrow_took_a_comparison("json_extract", "VARCHAR, BOOLEAN"), _arrow_took_a_comparison("sum", "BOOLEAN")
    (True, False)
    """
    return function.lower() == "json_extract" and given.replace(" ", "").upper().endswith(",BOOLEAN")


def _cast_binds_first(key: str) -> str:
    return (
        f"'{key}' を変換しようとしました: :: は ->> より先に結びつきます。"
        f"(列->>'{key}')::型 のように括弧で囲んでください。"
    )


def _comparison(text: str, left: str, right: str) -> str:
    """Which comparison mixes types, as DuckDB underlined it, and how to make them one.

    >>> message = "Cannot compare ...\\n\\nLINE 1: SELECT 1 WHERE a > 5\\n" + " " * 23 + "^^^^^"
    >>> _comparison(message, "VARCHAR", "INTEGER_LITERAL")[:34]
    'a > 5 は VARCHAR と INTEGER を比べています。'
    """
    underlined = _underlined(text)
    if underlined and (cast_keys := _keys_cast_after_arrow(underlined)):
        return _cast_binds_first(cast_keys[0])
    types = " と ".join(t.removesuffix("_LITERAL") for t in (left, right))
    where = f"{underlined} は " if underlined else ""
    return (
        f"{where}{types} を比べています。比べる前に型を揃えてください: "
        "文字列の列は TRY_CAST(列 AS INTEGER) のように変換し（変換できない値は NULL）、"
        "値の側は '…'、DATE '2025-10-05'、TIMESTAMP '2025-10-05 10:00' のように書きます。"
    )


def _underlined(text: str) -> str | None:
    """The part of the query DuckDB underlined in its message, if short enough to quote. DuckDB places its carets by
    display width (a wide character takes two columns), so they are read back the same way.

    >>> _underlined("x\\n\\nLINE 1: WHERE n = '東京' AND c > 0\\n" + " " * 29 + "^^^^^")
    'c > 0'
    """
    found = _UNDERLINED.search(text)
    if found is None:
        return None
    start = len(found.group(3)) - len(found.group(1))
    part = _columns(found.group(2), start, start + len(found.group(4)))
    return part.strip() if part and len(part.strip()) <= 160 else None


def _columns(line: str, start: int, end: int) -> str | None:
    """The characters of `line` that fill display columns `start` to `end`, or None unless some begin and end
    exactly there."""
    column, kept, began, ended = 0, [], False, False
    for char in line:
        if column == start:
            began = True
        if start <= column < end:
            kept.append(char)
        column += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        ended = ended or column == end
    return "".join(kept) if began and ended else None


def _keys_cast_after_arrow(sql: str) -> list[str]:
    """The keys of `col->>'key'::TYPE` in the code of `sql` (never in its comments or strings), where the cast binds
    to the key before the arrow does.

    >>> _keys_cast_after_arrow("SELECT c->>'a'::INT -- c->>'b'::INT")
    ['a']
    """
    raw = sql.encode()
    tokens = duckdb.tokenize(sql)
    ends = [start for start, _ in tokens[1:]] + [len(raw)]
    pieces = [
        (kind, raw[start:end].decode(errors="replace").strip()) for (start, kind), end in zip(tokens, ends, strict=True)
    ]
    return [
        key.strip("'")
        for (_, arrow), (kind, key), (_, cast) in zip(pieces, pieces[1:], pieces[2:], strict=False)
        if arrow == "->>" and kind == duckdb.token_type.string_const and cast.startswith("::")
    ]


def _value_at_fault(con: duckdb.DuckDBPyConnection, conversion: Conversion, table: TableSpec) -> str | None:
    """The first value of the converted field that does not convert, if the type is one we can probe."""
    if conversion.type not in _CAST_TYPES:
        return None
    field = quote_identifier(conversion.column) + ("->>?" if conversion.key is not None else "")
    params = [conversion.key] if conversion.key is not None else []
    probe = (
        f"SELECT CAST({field} AS VARCHAR) FROM {quote_identifier(table.table)} "
        f"WHERE {field} IS NOT NULL AND TRY_CAST({field} AS {conversion.type}) IS NULL LIMIT 1"
    )
    row = con.execute(probe, params + params + params).fetchone()
    return None if row is None else str(row[0])


def _field_text(conversion: Conversion) -> str:
    return conversion.column if conversion.key is None else f"{conversion.column}->>'{conversion.key}'"


def _conversion_advice(field: str, value: str, type_name: str) -> str:
    """
    >>> _conversion_advice("cost->>'amount'", "1,000円", "INTEGER")[:47]
    "cost->>'amount' の値 '1,000円' は INTEGER に変換できません。"
    """
    advice = f"{field} の値 '{value[:60]}' は {type_name} に変換できません。変換できない値を NULL にするなら TRY_CAST("
    advice += f"{field} AS {type_name})"
    if type_name == "BOOLEAN":
        return advice + "。真偽値の文字列は 'true' / 'false' で比べられます。"
    if type_name in ("DATE", "TIMESTAMP", "TIME"):
        return (
            advice + f"、日付の部分だけなら TRY_CAST(regexp_extract({field}, '\\d{{4}}-\\d{{2}}-\\d{{2}}') AS DATE)。"
        )
    return advice + f"、数字だけ取り出すなら TRY_CAST(regexp_replace({field}, '[^0-9.]', '', 'g') AS {type_name})。"


def _wrong_types(function: str, given: str, text: str) -> str:
    """Which types `function` takes, instead of DuckDB's list of every signature."""
    accepted = []
    for name, parameters in _CANDIDATE.findall(text):
        if name.lower() == function.lower():
            first = re.sub(r'^"?\w+"?\s+', "", parameters.split(",")[0]).strip()
            if first and first not in accepted:
                accepted.append(first)
    message = f"関数 {function[:40]} に渡した型（{given[:80]}）が合いません。"
    if accepted:
        message += f"最初の引数に受け取る型: {', '.join(accepted[:6])}。"
    return message + (
        "テキストの列は TRY_CAST(列 AS 型) で変換し、日付・日時は DATE '2025-10-05' や TIMESTAMP '2025-10-05 10:00' と"
        "書きます。"
    )


def _malformed_json(value: str) -> str:
    return (
        f"JSON として読めない値を JSON 関数に渡しました（'{value[:40]}'）。JSON 関数に渡す文字列は JSON で書きます"
        f"（文字列なら '\"{value[:40]}\"'）。配列の要素や値の部分一致なら 列 LIKE '%{value[:40]}%' が簡単です。"
    )


def _macros_called(sql: str, table: TableSpec) -> list[Macro]:
    code = without_literals(sql)
    return [m for m in table.macros if re.search(rf"(?<![\w.]){re.escape(m.name)}\s*\(", code, re.IGNORECASE)]


def _macro_named(name: str, table: TableSpec) -> Macro | None:
    return next((m for m in table.macros if m.name.lower() == name.lower()), None)


def _usage(macro: Macro) -> str:
    return f"マクロ {macro.signature}: {macro.description}。例: {macro.example}"
