"""Case-law search and reading: requests checked, the live index queried, responses fitted to the budget."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import duckdb
from pydantic import BaseModel, Field

from search_core.doors.responses import absent_when_none
from search_core.engine.budget import BUDGET_BYTES, embedded_bytes, fit_rows
from search_core.engine.limits import TRUNCATION_MARKER, QueryLimits
from search_core.engine.watchdog import WATCHDOG
from search_core.errors import InvalidRequest, NotFound, QueryAborted, QueryFailed
from search_core.kinds.case_law.courts import canonical_court
from search_core.kinds.case_law.database import FILE_NAME, open_cases
from search_core.kinds.case_law.headings import heading_offset, heading_path, outline
from search_core.kinds.case_law.index import MAX_COUNTED_TERMS, CaseIndex
from search_core.kinds.case_law.models import CaseMatches, CaseQuery, Decision
from search_core.kinds.case_law.normalize import normalize
from search_core.kinds.case_law.overview import OVERVIEW_CHARS, overview
from search_core.kinds.case_law.pages import largest, page_end
from search_core.kinds.case_law.passages import NEAR_CHARS, SHOWN_AFTER, Occurrences, Place, near_places, occurrences
from search_core.kinds.case_law.query import Expression, parse
from search_core.kinds.case_law.snippet import SCAN_CHARS, excerpt, snippet
from search_core.kinds.case_law.terms import FIELDS, Term
from search_core.observability import logger, metrics
from search_core.settings import Settings
from search_core.storage.cache import LocalCopy
from search_core.storage.live import LiveDataset

DEFAULT_LIMIT = 5
MAX_LIMIT = 20
# Bounds on what a request may send: far above any real search, far below what could cost time.
MAX_KEYWORDS_CHARS = 1_000
MAX_KEYWORDS = 20
MAX_COURT_CHARS = 100
MAX_DOC_ID_CHARS = 200
NO_HITS = "該当なし。"
NEWEST, RELEVANCE = "newest", "relevance"
SORT_DESCRIPTION = (
    "並び順。newest（既定）: 判決日の新しい順。relevance: 語（除外語を除く）が検索対象の本文 1,000 文字あたりに"
    "出てくる回数の多い順（同じなら新しい順）。該当が多く時間内に数えきれないときは、新しい方から調べた判決の中での順"
)
# About how many Japanese characters one page of readCaseText holds: three UTF-8 bytes each, the budget rounded down.
PAGE_CHARS = BUDGET_BYTES // 3 // 1000 * 1000
# The most of a court, case number or case name an answer shows (the longest real case names are ~150 characters).
NAME_CHARS = 300
# What a passage shows around its term, in characters.
PASSAGE_BEFORE = 80
# Ends a 主文 cut to fit the response, as snippets mark their cut ends.
MAIN_TEXT_CUT = "…"

# The operations' names (operationId): every door shows them to the model (a Bedrock Agent's tool names end in them,
# MCP tools are named by them), so the descriptions and messages refer to an operation by its name, never its path.
SEARCH, READ_TEXT, FIND_IN_CASE = "searchCases", "readCaseText", "findInCase"
SEARCH_DESCRIPTION = (
    "日本の判例（裁判所の判決）をキーワード・裁判所・判決日で検索し、判決日の新しい順に返します"
    f"（既定 {DEFAULT_LIMIT} 件、最大 {MAX_LIMIT} 件）。応答の total は該当する判決の総数（total_exact が false なら"
    "数えきれず、少なくともその数）、more は返した件数より多く該当するか。キーワードなしで court や日付だけでも"
    "検索できます。各結果の main_text は主文（元の表記のまま）で、main_text_complete が true なら主文の全文です"
    f"（主文を読むために {READ_TEXT} を呼ぶ必要はありません）。全件の主文が応答サイズに収まらないときは、長い主文を"
    f"同じ長さで切って末尾に {MAIN_TEXT_CUT} を付け、main_text_complete を false にします（短い主文は全文のまま。"
    "message でも伝えます）。"
    "各結果の overview は事案の概要（「本件は」で始まる文）、snippet は最初に一致した箇所の抜粋、headings はその"
    "箇所がある部分の見出し、total_chars は全文の文字数。"
    f"事実及び理由を含む全文は doc_id を {READ_TEXT} に、語の箇所は {FIND_IN_CASE} で読めます。"
)
KEYWORDS_DESCRIPTION = (
    "検索式: 空白 = AND、OR（または ｜）= どちらか、先頭の - または NOT = 除外（語の一部にも一致: -控訴 は 控訴人 も"
    '除く）、"…" = 空白を含む 1 語'
    "（例: 不法行為 損害賠償 OR 慰謝料 -控訴）。OR は空白より強く結びつきます。doc_id・裁判所・日付・事件番号・"
    "事件名・主文・事実及び理由を対象に、全角半角・大文字小文字を区別せず、漢数字と算用数字を同一視します"
    "（漢数字は数として読むので、三百人 は 千三百人 にも一致し、千代 は 八千代 の一部には一致しません）。"
    "条文は 第709条・709条・七百九条 が同じ条を指し、709条 で 709条1項 も見つかります（1709条・709条の2 は別の条。"
    "除外語 -709条 も同じく読みます）。"
    "日付だけの語（2019-04-30、平成31年4月30日、令和元年、2019年4月）はその日・月・年の判決にも一致します。"
    "記号もそのままの文字として扱います。"
    "金額だけの語（300万円、金三百万円、3,000,000円）は同じ額のどの書き方（金参百萬円・0.03億円・"
    "金三、〇〇〇、〇〇〇円 も）にも一致し、1,300万円 などのより大きな"
    "額には一致しません（円のない 300万 は文字どおり）。金額の範囲は 1億円以上・300万円以下・300万円超・300万円未満"
    "（主文：1億円以上 は主文に 1 億円以上の額が書かれた判決）。"
    f"語の前に {'：・'.join(FIELDS)}： を付けると、その部分に語がある判決だけを探します（例: 主文：300万円 は主文に "
    "300万円 が書かれた判決。支払を命じた額か担保の額かなどは main_text で確かめてください。主文：取り消す、"
    "事件名：損害賠償。-主文：棄却 のように除外にも使えます）。付けた語だけにかかります（主文：取り消す OR "
    "主文：取消す のように OR の各語に付けます）。"
    f"最大 {MAX_KEYWORDS} 語・{MAX_KEYWORDS_CHARS:,} 文字。court か日付を指定するなら省略できます。"
)
COURT_DESCRIPTION = (
    "裁判所。最高裁・高裁・地裁・家裁・簡裁（正式名称も可）だけなら、その種類の裁判所すべて（例: 高裁 = 各高等裁判所と"
    "その支部・知財高裁。最高裁判所は含まない）。東京地裁・大阪高裁・知財高裁（知財）・最高裁第二小法廷 のように"
    "名指すと、その裁判所だけ（支部・部を含む: 東京地裁 は 東京地方裁判所立川支部 も）。名前の先頭からの一部"
    "（東京 = 東京で始まる各裁判所）や支部名（立川支部）でもよく、語の途中には一致しません（大阪 は 東大阪簡易裁判所 を"
    "含まない）。略称と正式名称は同一視します。"
)
LIMIT_DESCRIPTION = (
    f"返す件数（1〜{MAX_LIMIT}、既定 {DEFAULT_LIMIT}。{MAX_LIMIT} を超える値は {MAX_LIMIT} にし、message で伝えます）"
)
DATE_FROM_DESCRIPTION = "この日以降の判決だけ（YYYY-MM-DD、当日を含む）"
DATE_TO_DESCRIPTION = "この日以前の判決だけ（YYYY-MM-DD、当日を含む）"
TEXT_DESCRIPTION = (
    "判決の全文（主文と事実及び理由）を、応答サイズに収まる長さずつ返します。offset は 0〜total_chars の"
    "どの位置でもよく、続きは next_offset を offset に渡して読みます（null なら最後まで読み終えています）。"
    f"長い判決で特定の語の箇所だけ読むなら、先に {FIND_IN_CASE} で位置を調べてください。見出しの名前（heading: "
    "第3の2、当裁判所の判断 など）を渡すと、その見出しの行から読めます。headings はページが始まる部分の見出し"
    "（例: 事実及び理由 > 第3 当裁判所の判断）。"
)
PASSAGES_DESCRIPTION = (
    "1 つの判決の中で、検索式の語（除外語を除く）が出てくる箇所を前後の文とともに、位置（offset）の順に返します。"
    f"全文を最初から読まずに、該当箇所へ直接進むための操作です。語の出現から {SHOWN_AFTER} 文字以内に続く出現は同じ"
    "箇所にまとめ（count がその数）、1 つの text に示します。各箇所の offset を "
    f"{READ_TEXT} に渡すと、そこから続けて読めます。各箇所の headings は、その箇所がある部分の見出し（例: 事実及び理由"
    " > 第3 当裁判所の判断 > 2）。hits は判決全体で見つかった数（正確。各箇所の count の合計）。続きの箇所は"
    " next_start を start に渡して読めます。"
    f"mode=near にすると、すべての語が {NEAR_CHARS} 文字以内に揃って出てくる箇所だけを、mode=sentence にすると同じ文"
    "にある箇所だけを返します（例: 監査役 懸念。語が近くにあるだけで、誰が何を述べたかは text で確かめてください）。"
    f"text は語の {PASSAGE_BEFORE} 字前から始まります。"
)
PASSAGES_START_DESCRIPTION = "この位置（offset）以降の箇所だけを返す（既定 0）。前の応答の next_start を渡します"
PASSAGES_MODE_DESCRIPTION = (
    f"each（既定）: 語ごとのすべての出現。near: すべての語が {NEAR_CHARS} 文字以内に揃う箇所。sentence: すべての語が"
    "同じ文（。または改行まで）にある箇所（語が 1 つなら near・sentence も each と同じ）"
)
EACH, NEAR, SENTENCE = "each", "near", "sentence"
PASSAGES_KEYWORDS_DESCRIPTION = f"探す語（{SEARCH} と同じ検索式。OR・除外・引用符も可）"
PASSAGES_LIMIT_DESCRIPTION = f"返す箇所の数（1〜{MAX_LIMIT}、既定 {DEFAULT_LIMIT}）"
DOC_ID_DESCRIPTION = f"読む判決の doc_id（{SEARCH} の結果にあるもの）"
OFFSET_DESCRIPTION = "読み始める位置（文字数、既定 0）。前のページの next_offset を渡します"
MAX_HEADING_CHARS = 100
HEADING_DESCRIPTION = (
    "この見出しの行から読む（offset の代わりに指定）。見出しの番号を外側から（第3の2、第３ > ２ > （１）、主文）、"
    "または見出しの語（当裁判所の判断、争点2）。間の階層は省けます。最初に当てはまる見出しから読みます（その部分の"
    "終わりでは止まらず、ページの長さまで続きます。続きは next_offset）"
)
# How many outermost headings a message lists when a named heading is not found.
_OUTLINE_SHOWN = 20


class CaseHit(BaseModel):
    doc_id: str
    court: str | None
    date: str | None = Field(description="判決日（ISO 形式 YYYY-MM-DD、不明なら null）")
    date_text: str | None = Field(description="判決日（データに記録されたままの表記）")
    case_number: str | None
    case_name: str | None
    main_text: str | None = Field(
        description=f"主文（元の表記のまま）。main_text_complete が false なら途中までで、末尾に {MAIN_TEXT_CUT} "
        "が付きます。データに主文がなければ null"
    )
    main_text_complete: bool = Field(
        description="main_text が主文の全文なら true。応答サイズに収めるため途中で切ったなら false（続きは "
        f"{READ_TEXT} で offset 0 から読めます）"
    )
    overview: str | None = Field(
        description="事案の概要: 事実及び理由の中で最初の「本件は」で始まる文（判決の言葉のまま。"
        f"{OVERVIEW_CHARS} 字を超えれば … で切る。なければ null）"
    )
    snippet: str = Field(
        description=f"最初に一致した箇所の前後の抜粋（先頭から {SCAN_CHARS:,} 字以内に語がなければ判決の冒頭）"
    )
    headings: list[str] = Field(description="抜粋の箇所がある部分の見出し（外側から順に。例: 事実及び理由 > 第3）")
    total_chars: int = Field(
        description=f"全文（{READ_TEXT} で読む主文と事実及び理由）の文字数。1 ページ（日本語で約 {PAGE_CHARS:,} 字）に"
        "収まる短い判決は "
        f"{READ_TEXT} を offset 0 で 1 回呼べば全部読めます"
    )


class TermCount(BaseModel):
    term: str
    count: int | None = Field(
        description="court・日付の条件の中で、その語だけを含む判決の数（時間内に数えきれなければ null）"
    )


class CaseSearchResponse(BaseModel):
    results: list[CaseHit]
    count: int = Field(description="返した件数")
    total: int = Field(description="条件を満たす判決の総数（total_exact が false なら少なくともこの数）")
    total_exact: bool = Field(description="total が正確なら true、時間内に数えきれなかったら false")
    more: bool = Field(
        description="返した件数より多く該当する（total_exact が false なら、するかもしれない）なら true"
        "（条件で絞るか limit を増やす）"
    )
    message: str | None = absent_when_none("limit を調整したときや該当がないときの説明")
    term_counts: list[TermCount] | None = absent_when_none("該当がないとき: 語ごとに、その語だけを含む判決の数")


class CaseTextResponse(BaseModel):
    doc_id: str
    court: str | None
    date: str | None
    case_number: str | None
    case_name: str | None
    headings: list[str] = Field(description="このページが始まる部分の見出し（外側から順に。例: 事実及び理由 > 第3）")
    text: str = Field(description="全文のうち offset から始まる部分")
    offset: int
    next_offset: int | None = Field(description="続きを読むときの offset。最後まで読んだら null")
    total_chars: int


class Passage(BaseModel):
    offset: int = Field(
        description=f"語の位置（全文の先頭からの文字数）。{READ_TEXT} の offset にそのまま使える（text はこの "
        f"{PASSAGE_BEFORE} 字前から。文の頭から読むなら offset − {PASSAGE_BEFORE} を渡す）"
    )
    term: str = Field(
        description="この箇所で見つかった語（検索式に書いたとおり。複数なら 、 区切り。near では揃った語を空白で"
        "つないだもの）"
    )
    count: int = Field(
        description="この箇所（text）で見つかった数（each: 語の出現回数。near・sentence: 語が揃うまとまりの数）"
    )
    headings: list[str] = Field(description="この箇所（その最初の語）がある部分の見出し（外側から順に）")
    text: str = Field(description="語の前後の文（元の表記のまま）")


class CasePassagesResponse(BaseModel):
    doc_id: str
    court: str | None
    date: str | None
    case_number: str | None
    case_name: str | None
    total_chars: int
    hits: int = Field(
        description="判決全体で見つかった数（すべて数えた正確な数。全ページの各箇所の count の合計）。each では語"
        "ごとの出現回数の合計（同じ位置に 2 語が重なればそれぞれ数える）。near・sentence では語が揃うまとまり"
        f"（near: {NEAR_CHARS} 字以内、sentence: 1 文）の数で、語の出現回数ではありません"
    )
    more: bool = Field(description="返した箇所より後にも箇所があれば true（next_start から続きを読めます）")
    next_start: int | None = Field(description="続きの箇所を読むときに start に渡す位置。続きがなければ null")
    passages: list[Passage]


class CaseSearch:
    """The case-law database of CASES_URI, opened (and prepared if raw) on first use, refreshed by ETag."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self.limits = QueryLimits.for_function(self.settings.memory_mb, self.settings.query_timeout_seconds)
        self._data = LiveDataset("cases", FILE_NAME, self.settings, self._open, CaseIndex.close)

    def search(
        self,
        keywords: str | None,
        budget: int,
        court: str | None = None,
        limit: int = DEFAULT_LIMIT,
        date_from: date | None = None,
        date_to: date | None = None,
        sort: str = NEWEST,
    ) -> CaseSearchResponse:
        query = case_query(keywords, court, limit, date_from, date_to, sort)
        index = self._data.current()
        with self._deadline(index, _search_timeout_message(self.limits)) as deadline:
            found = index.search(query, deadline)
        terms = query.expression.positive_terms
        rows = [_hit(decision, terms).model_dump() for decision in found.decisions]
        notes = _limit_note(limit)
        fitted = _fit_hits(rows, lambda r: _search_body(r, found, notes, query).model_dump(), budget)
        if rows and not fitted:
            raise QueryFailed("結果が大きすぎて返せません。limit を小さくしてください。")
        metrics.add_metric(name="CasesReturned", unit="Count", value=len(fitted))
        logger.info(
            "case search", keywords=[t.text for t in query.expression.terms], court=query.court, rows=len(fitted)
        )
        return _search_body(fitted, found, notes, query)

    def text(self, doc_id: str, offset: int, budget: int, heading: str | None = None) -> CaseTextResponse:
        decision = self._decision(doc_id)
        full = decision.full_text
        if heading is not None:
            offset = _heading_start(full, heading, offset)
        if offset > len(full):
            raise InvalidRequest(f"offset が大きすぎます（この判決の全文は {len(full)} 文字です）。")
        headings = heading_path(full, offset)  # once: the page's length is searched for with it unchanged
        end = page_end(
            full, offset, lambda text, next_offset: _page(decision, full, offset, text, next_offset, headings), budget
        )
        return _page(decision, full, offset, full[offset:end], end if end < len(full) else None, headings)

    def passages(
        self, doc_id: str, keywords: str, limit: int, budget: int, start: int = 0, mode: str = EACH
    ) -> CasePassagesResponse:
        """The places in one decision where the expression's terms occur (each, or all of them near each other),
        from offset `start`, with their offsets and headings, fitted to `budget`."""
        expression = parse(keywords)
        _check_size(expression)
        terms = expression.positive_terms
        if not terms:
            raise InvalidRequest(f"{_nothing_to_find(expression)}探す語を 1 つ以上指定してください。")
        first = min(limit, MAX_LIMIT)
        index = self._data.current()
        # Bounded like a search (red team: a 10-million-character decision took 32 s in near mode).
        with self._deadline(index, _passages_timeout_message(self.limits)) as deadline:
            decision = _found(index.decision(doc_id), doc_id)
            full = decision.full_text
            found = (
                occurrences(full, terms, first, start, decision.regions, deadline, expression.name)
                if mode == EACH
                else near_places(
                    full,
                    expression.clauses,
                    first,
                    start,
                    decision.regions,
                    deadline,
                    expression.name,
                    mode == SENTENCE,
                )
            )
        shown = [_passage(full, hit).model_dump() for hit in found.first]
        fitted, _ = fit_rows(shown, lambda r: _passages_body(decision, full, found, r).model_dump(), budget)
        return _passages_body(decision, full, found, fitted)

    def close(self) -> None:
        self._data.close()

    def _decision(self, doc_id: str) -> Decision:
        index = self._data.current()
        with self._deadline(index, self.limits.timeout_message):
            return _found(index.decision(doc_id), doc_id)

    @contextmanager
    def _deadline(self, index: CaseIndex, message: str) -> Iterator[float]:
        """Bound one search or read by the query timeout: DuckDB is interrupted at the interrupt deadline and
        candidate checking stops there; either way the agent gets the timeout message."""
        seconds = self.limits.interrupt_seconds
        try:
            with WATCHDOG.deadline(index.con, seconds):
                yield time.monotonic() + seconds
        except (duckdb.InterruptException, TimeoutError):
            metrics.add_metric(name="AbortedQueries", unit="Count", value=1)
            raise QueryAborted(message) from None

    def _open(self, local: LocalCopy) -> CaseIndex:
        return open_cases(local, self.limits, self.settings.cache_dir / "cases-prepared")


def case_query(
    keywords: str | None,
    court: str | None,
    limit: int,
    date_from: date | None = None,
    date_to: date | None = None,
    sort: str = NEWEST,
) -> CaseQuery:
    """The search an agent's parameters ask for, checked (InvalidRequest when it cannot be run)."""
    expression = parse(keywords or "")
    _check_size(expression)
    if date_from and date_to and date_from > date_to:
        raise InvalidRequest("date_from が date_to より後になっています。")
    court_name = canonical_court(court) if court and court.strip() else None
    written = normalize(court) if court and court_name else None
    query = CaseQuery(
        expression, min(limit, MAX_LIMIT), court_name, date_from, date_to, sort == RELEVANCE, court_as_written=written
    )
    if not expression.clauses and not query.filtered:
        raise InvalidRequest(
            f"{_nothing_to_find(expression)}検索語を 1 つ以上指定するか、court・date_from・date_to で絞ってください。"
        )
    return query


def _nothing_to_find(expression: Expression) -> str:
    """Why an expression finds nothing to look for: it is empty, or it only excludes (red team: `-損害` alone was
    called empty).

    >>> _nothing_to_find(parse("-損害 NOT 控訴")), _nothing_to_find(parse(""))
    ('除外語（-損害、-控訴）だけでは探せません。', 'keywords が空です。')
    """
    if not expression.excluded:
        return "keywords が空です。"
    return f"除外語（{_excluded_names(expression)}）だけでは探せません。"


def _excluded_names(expression: Expression) -> str:
    return "、".join(f"-{expression.name(term)[:60]}" for term in expression.excluded)


def _search_timeout_message(limits: QueryLimits) -> str:
    """Why a search runs out of time: its terms' character pairs are common, so many decisions must be read through
    (a phrase no decision holds, whose every pair is everywhere, is the worst case)."""
    return limits.stopped_at_timeout(
        "検索",
        "検索語の文字の並びが多くの判決に現れ、一件ずつ確かめきれませんでした。"
        "court・date_from・date_to で絞るか、より特徴的な語を加えてください。",
    )


def _heading_start(full: str, heading: str, offset: int) -> int:
    """Where the part named `heading` begins in the decision's full text (InvalidRequest if none is so named, or if
    an offset is given too: one place to read from)."""
    if offset:
        raise InvalidRequest("offset と heading はどちらか一方だけを指定してください。")
    found = heading_offset(full, heading)
    if found is None:
        titles = outline(full)
        more = f"（ほか {len(titles) - _OUTLINE_SHOWN} 件）" if len(titles) > _OUTLINE_SHOWN else ""
        shown = "、".join(titles[:_OUTLINE_SHOWN]) + more if titles else "（見出しなし）"
        raise InvalidRequest(
            f"見出し「{heading[:MAX_HEADING_CHARS]}」はこの判決にありません。この判決の大見出し: {shown}。"
            f"語で探すなら {FIND_IN_CASE} を使ってください。"
        )
    return found


def _found(decision: Decision | None, doc_id: str) -> Decision:
    if decision is None:
        raise NotFound(
            f"doc_id「{doc_id[:100]}」の判決は見つかりません。{SEARCH} の結果にある doc_id を使ってください。"
        )
    return decision


def _passages_timeout_message(limits: QueryLimits) -> str:
    """Why finding places runs out of time: the decision is very long, or a term occurs almost everywhere."""
    return limits.stopped_at_timeout(
        f"箇所の検索（{FIND_IN_CASE}）",
        f"判決が非常に長いか、語がほぼ至る所に現れます。より特徴的な語にするか、{READ_TEXT} で offset を指定して"
        "読んでください。",
    )


def _check_size(expression: Expression) -> None:
    """At most MAX_KEYWORDS terms and MAX_KEYWORDS_CHARS characters once normalised (NFKC can lengthen text: one
    ㌖ is キロメートル), so counts and messages stay small."""
    if len(expression.terms) > MAX_KEYWORDS:
        raise InvalidRequest(
            f"keywords は {MAX_KEYWORDS} 語までです（{len(expression.terms)} 語ありました）。語を絞ってください。"
        )
    length = sum(len(term.text) for term in expression.terms)
    if length > MAX_KEYWORDS_CHARS:
        raise InvalidRequest(
            f"keywords が長すぎます（正規化すると {length:,} 文字）。{MAX_KEYWORDS_CHARS:,} 文字以内にしてください。"
        )


def _limit_note(limit: int) -> str | None:
    if limit <= MAX_LIMIT:
        return None
    return f"limit は最大 {MAX_LIMIT} 件です（{limit} を {MAX_LIMIT} にしました）。続きは条件で絞ってください。"


def _identity(decision: Decision) -> dict[str, Any]:
    """The fields that name a decision in every response, each cut to NAME_CHARS (marked): a name as long as a
    page would leave no room for the text it names (red team: a 40,000-character case name made a decision
    unreadable)."""
    return {
        "doc_id": decision.doc_id,
        "court": _name(decision.court),
        "date": decision.date.isoformat() if decision.date else None,
        "case_number": _name(decision.case_number),
        "case_name": _name(decision.case_name),
    }


def _name(value: str | None) -> str | None:
    return value if value is None or len(value) <= NAME_CHARS else value[:NAME_CHARS] + TRUNCATION_MARKER


def _hit(decision: Decision, keywords: tuple[Term, ...]) -> CaseHit:
    """The decision with its 主文 whole and a passage around its first hit of a positive term (the opening if
    none)."""
    # A term confined to a part is left to that part: the 主文 comes whole in the hit.
    shown, at = snippet(decision.body, tuple(term for term in keywords if term.field is None))
    return CaseHit(
        **_identity(decision),
        date_text=decision.date_text,
        main_text=decision.main_text,
        main_text_complete=True,
        overview=overview(decision.facts_and_reasons),
        snippet=shown,
        headings=heading_path(decision.full_text, decision.full_offset(at)),
        total_chars=len(decision.full_text),
    )


def _fit_hits(
    rows: list[dict[str, Any]], make_body: Callable[[list[dict[str, Any]]], Any], budget: int
) -> list[dict[str, Any]]:
    """The hits within `budget`: every 主文 whole when they fit; else every 主文 longer than one length cut to it,
    the longest length that lets every hit fit (so short ones stay whole); hits are dropped (and other values
    clipped, fit_rows) only when no 主文 at all leaves room for them."""

    def fits(length: int) -> bool:
        return embedded_bytes(make_body(_cut_main_texts(rows, length))) <= budget

    longest = max((len(row["main_text"] or "") for row in rows), default=0)
    if fits(longest):
        return rows
    if not fits(0):
        return fit_rows(_cut_main_texts(rows, 0), make_body, budget)[0]
    return _cut_main_texts(rows, largest(0, longest, fits))


def _cut_main_texts(rows: list[dict[str, Any]], length: int) -> list[dict[str, Any]]:
    """The hits with each 主文 longer than `length` characters cut there, marked, and said not to be whole.

    >>> _cut_main_texts([{"main_text": "本件控訴を棄却する。", "main_text_complete": True}], 4)
    [{'main_text': '本件控訴…', 'main_text_complete': False}]
    """
    return [
        {**row, "main_text": row["main_text"][:length] + MAIN_TEXT_CUT, "main_text_complete": False}
        if len(row["main_text"] or "") > length
        else row
        for row in rows
    ]


def _search_body(
    rows: list[dict[str, Any]], found: CaseMatches, note: str | None, query: CaseQuery
) -> CaseSearchResponse:
    hits = [CaseHit.model_validate(row) for row in rows]
    named = query.expression.name
    counts = [TermCount(term=named(t)[:100], count=n) for t, n in found.term_counts.items()] or None
    estimate = None if found.total_exact else f"該当は少なくとも {found.total} 件です（すべては数えていません）。"
    cut = _main_texts_cut_note(hits)
    message = " ".join(part for part in (note, estimate, cut, None if hits else _no_hits(found, query)) if part) or None
    return CaseSearchResponse(
        results=hits,
        count=len(hits),
        total=found.total,
        total_exact=found.total_exact,
        more=found.total > len(hits) or not found.total_exact,  # uncounted candidates may hold more
        message=message,
        term_counts=counts,
    )


def _main_texts_cut_note(hits: list[CaseHit]) -> str | None:
    cut = sum(not hit.main_text_complete for hit in hits)
    if not cut:
        return None
    return (
        f"応答サイズに収めるため、{cut} 件の主文を途中で切りました（main_text_complete が false、"
        f"末尾 {MAIN_TEXT_CUT}）。その主文の全文は doc_id を {READ_TEXT} に渡して offset 0 から読めます。"
        "limit を小さくすると 1 件あたりの主文を長く返せます。"
    )


def _no_hits(found: CaseMatches, query: CaseQuery) -> str:
    """Why nothing matched: the terms no decision holds, or the filters that leave nothing."""
    parts = [NO_HITS]
    missing = [query.expression.name(term)[:60] for term, n in found.term_counts.items() if n == 0]
    where = "court・日付の条件の中に、" if query.filtered else ""
    every_term_counted = len(found.term_counts) == len(query.expression.positive_terms)
    if missing:
        parts.append(f"{where}次の語を含む判決はありません: {'、'.join(missing)}。表記を変えるか語を外してください。")
    elif found.term_counts and every_term_counted and all(found.term_counts.values()) and not found.without_excluded:
        parts.append(
            "語はそれぞれ見つかりますが、すべてを満たす判決はありません（term_counts を参照）。"
            "OR を使うか語を減らしてください。"
        )
    uncounted = [query.expression.name(t)[:60] for t in query.expression.positive_terms if t not in found.term_counts]
    if uncounted:  # red team: the terms past the counted ones were left unsaid
        parts.append(f"次の語は数えていません（数えるのは最初の {MAX_COUNTED_TERMS} 語まで）: {'、'.join(uncounted)}。")
    if found.without_excluded:
        excluded = _excluded_names(query.expression)
        parts.append(
            f"除外語（{excluded}）を外すと {found.without_excluded} 件あります（除外は語の一部にも一致します。"
            "たとえば -控訴 は 控訴人 を含む判決も除きます）。"
        )
    if found.filtered_total == 0:
        parts.append("court・日付の条件だけで 0 件です。裁判所名や期間を見直してください。")
    elif found.filtered_total is not None:
        parts.append(f"court・日付の条件を満たす判決は {found.filtered_total} 件あります。")
    return "".join(parts)


def _passage(full: str, place: Place) -> Passage:
    text = excerpt(full, place.start, place.end, PASSAGE_BEFORE, SHOWN_AFTER)
    return Passage(
        offset=place.start,
        term="、".join(place.terms),
        count=place.count,
        headings=heading_path(full, place.start),
        text=text,
    )


def _passages_body(
    decision: Decision, full: str, found: Occurrences, rows: list[dict[str, Any]]
) -> CasePassagesResponse:
    # Passages the budget left out are read from the next page, which begins at the first of them.
    next_start = found.first[len(rows)].start if len(rows) < len(found.first) else found.next_start
    return CasePassagesResponse(
        **_identity(decision),
        total_chars=len(full),
        hits=found.total,
        more=next_start is not None,
        next_start=next_start,
        passages=[Passage.model_validate(row) for row in rows],
    )


def _page(
    decision: Decision, full: str, offset: int, text: str, next_offset: int | None, headings: list[str]
) -> CaseTextResponse:
    return CaseTextResponse(
        **_identity(decision),
        headings=headings,
        text=text,
        offset=offset,
        next_offset=next_offset,
        total_chars=len(full),
    )
