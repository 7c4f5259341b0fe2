"""Case-law search and reading: requests checked, the live index queried under the deadline, answers fitted to the
budget (reading/answers.py)."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date
from typing import Any

from search_core.engine.budget import BUDGET_BYTES, embedded_bytes, fit_rows, largest
from search_core.engine.limits import QueryLimits
from search_core.engine.watchdog import bounded
from search_core.errors import InvalidRequest, NotFound, QueryAborted, QueryFailed
from search_core.fulltext.expression import Expression
from search_core.fulltext.normalize import normalize
from search_core.fulltext.places import (
    Place,
    Regions,
    aligned,
    near_places,
    occurrences,
    spans_in_parts,
    until_deadline,
)
from search_core.fulltext.terms import AwayFrom, Term
from search_core.kinds.case_law.descriptions import (
    EACH,
    FIND_IN_CASE,
    NEWEST,
    OUTLINE,
    READ_TEXT,
    RELEVANCE,
    SEARCH,
    SENTENCE,
    searched_in_part,
)
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.limits import (
    DEFAULT_LIMIT,
    MAX_BRIEF_LIMIT,
    MAX_HEADING_CHARS,
    MAX_KEYWORDS,
    MAX_KEYWORDS_CHARS,
    MAX_LIMIT,
)
from search_core.kinds.case_law.models import CaseQuery, Decision
from search_core.kinds.case_law.reading.answers import (
    excluded_names,
    fit_hits,
    hit,
    late_snippets_note,
    listed,
    outline_body,
    outside_the_text,
    page,
    passage,
    passages_body,
    search_body,
)
from search_core.kinds.case_law.reading.pages import page_end
from search_core.kinds.case_law.reading.shown_places import hit_places
from search_core.kinds.case_law.responses import (
    CaseOutlineResponse,
    CasePassagesResponse,
    CaseSearchResponse,
    CaseTextResponse,
)
from search_core.kinds.case_law.store.database import FILE_NAME, open_cases
from search_core.kinds.case_law.store.index import CaseIndex
from search_core.kinds.case_law.text.courts import canonical_court
from search_core.kinds.case_law.text.headings import (
    LINES_READ_FORWARD,
    REASONING,
    Section,
    heading_path,
    outline,
    section_at,
    sections,
)
from search_core.observability import logger, metrics
from search_core.settings import Settings
from search_core.storage.cache import LocalCopy
from search_core.storage.live import LiveDataset

# How many other parts a heading names are listed when it names more than one (the first is read).
_OTHERS_SHOWN = 5
# How far the last page's start moves forward to open at a line's start.
_LINE_SNAP_CHARS = 300
# How many outermost headings a message lists when a named heading is not found.
_OUTLINE_SHOWN = 20

# What warms the database before a SnapStart snapshot: one decision of a court, found by the index alone.
_WARMING_COURT = "最高裁判所"


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
        passages: str | None = None,
        brief: bool = False,
        outcome: str | None = None,
    ) -> CaseSearchResponse:
        most = MAX_BRIEF_LIMIT if brief else MAX_LIMIT
        query = case_query(keywords, court, limit, date_from, date_to, sort, most, outcome)
        if brief and passages:
            raise InvalidRequest("brief では passages を使えません（一覧には箇所を付けません）。")
        if brief:
            return self._listed(query, budget, _limit_note(limit, most))
        shown = _shown_places(passages)
        index = self._data.current()
        with self._deadline(index, _search_timeout_message(self.limits)) as deadline:
            found = index.search(query, deadline)
            places = self._places_of(found.decisions, shown, deadline)
        terms = query.expression.positive_terms
        hits = [hit(decision, terms, at, deadline) for decision, at in zip(found.decisions, places, strict=True)]
        rows = [shown.model_dump() for shown, _ in hits]
        late = late_snippets_note(sum(not in_time for _, in_time in hits))
        notes = " ".join(note for note in (_limit_note(limit, MAX_LIMIT), late) if note) or None
        fitted = fit_hits(rows, lambda r: search_body(r, found, notes, query).model_dump(), budget)
        if rows and not fitted:
            raise QueryFailed("結果が大きすぎて返せません。limit を小さくしてください。")
        metrics.add_metric(name="CasesReturned", unit="Count", value=len(fitted))
        logger.info(
            "case search", keywords=[t.text for t in query.expression.terms], court=query.court, rows=len(fitted)
        )
        return search_body(fitted, found, notes, query)

    def _listed(self, query: CaseQuery, budget: int, note: str | None) -> CaseSearchResponse:
        """A search's decisions named alone (brief): no 主文, snippet or passages, so a hundred fit one answer."""
        index = self._data.current()
        with self._deadline(index, _search_timeout_message(self.limits)) as deadline:
            found = index.search(query, deadline)
        rows = [listed(decision) for decision in found.decisions]
        cut = _BRIEF_CUT.format(shown=len(rows), asked=len(rows))  # as long as any count it will say

        def fits(count: int) -> bool:
            return (
                embedded_bytes(search_body([], found, _joined(note, cut), query, rows[:count]).model_dump()) <= budget
            )

        kept = len(rows) if fits(len(rows)) else largest(0, len(rows), fits)  # whole rows: a doc_id is never cut
        if kept < len(rows):
            note = _joined(note, _BRIEF_CUT.format(shown=kept, asked=len(rows)))
        metrics.add_metric(name="CasesReturned", unit="Count", value=kept)
        return search_body([], found, note, query, rows[:kept])

    def warm(self) -> None:
        self.search(None, BUDGET_BYTES, court=_WARMING_COURT, limit=1)

    def restored(self) -> None:
        self._data.expire()

    def text(
        self, doc_id: str, offset: int, budget: int, heading: str | None = None, from_end: bool = False
    ) -> CaseTextResponse:
        """A page of the decision from `offset`; with `heading`, of that part alone, from its start (or from
        `offset` within it) to its end at most; with `from_end`, the page that ends where the part (or the decision)
        ends."""
        if from_end and offset:
            raise InvalidRequest("from_end と offset は一緒に使えません（from_end は最後のページを返します）。")
        index = self._data.current()
        with self._deadline(index, self.limits.timeout_message) as deadline:
            decision = _found(index.decision(doc_id), doc_id)
            full = decision.full_text
            section, others = (None, None) if heading is None else _section(full, heading, offset, deadline)
        if section is not None:
            offset = offset or section.start
        if offset > len(full):
            raise InvalidRequest(f"offset が大きすぎます（この判決の全文は {len(full)} 文字です）。")
        until = len(full) if section is None else section.end
        readable = full if section is None else full[:until]

        def shown_at(start: int, headings: list[str]) -> Callable[[str, int | None], CaseTextResponse]:
            return lambda text, next_offset: page(decision, full, start, text, next_offset, headings, section, others)

        if from_end:
            offset = _last_page_start(full, offset, until, shown_at, budget)
        shown = shown_at(offset, heading_path(full, offset))  # once: the page's length is searched for with it
        end = page_end(readable, offset, shown, budget)
        return shown(full[offset:end], end if end < until else None)

    def passages(
        self,
        doc_id: str,
        keywords: str,
        limit: int,
        budget: int,
        start: int = 0,
        mode: str = EACH,
        heading: str | None = None,
    ) -> CasePassagesResponse:
        """The places in one decision where the expression's terms occur (each, or all of them near each other),
        from offset `start`, with their offsets and headings, fitted to `budget`; with `heading`, in that part
        alone."""
        expression = _to_find(keywords, "{}探す語を 1 つ以上指定してください。")
        terms, clauses = _away_from_excluded(expression)
        first = min(limit, MAX_LIMIT)
        index = self._data.current()
        # Bounded like a search: a 10-million-character decision takes 32 s in near mode.
        with self._deadline(index, _passages_timeout_message(self.limits)) as deadline:
            decision = _found(index.decision(doc_id), doc_id)
            full, searched = decision.full_text, decision.searched_text
            whole: Regions = decision.regions_for(expression.terms, deadline)
            section, others = (None, None) if heading is None else _section(full, heading, 0, deadline)
            regions = whole if section is None else _within(whole, section)
            found = (
                occurrences(searched, terms, first, start, regions, deadline, _named(expression))
                if mode == EACH
                else near_places(
                    searched, clauses, first, start, regions, deadline, _named(expression), mode == SENTENCE
                )
            )
        shown = [passage(full, hit).model_dump() for hit in found.first]
        nowhere = _nowhere(found.total, keywords, decision.searched_until, section, others)
        unjudged = _no_reasoning(expression, whole) if not found.total else None
        notes = (
            unjudged or outside_the_text(terms, _named(expression)) or nowhere,
            searched_in_part(decision.searched_until is not None, one=True),
        )
        message = " ".join(note for note in notes if note) or None

        def body(rows: list[dict[str, Any]]) -> CasePassagesResponse:
            return passages_body(decision, full, found, rows, message, section, others)

        fitted, _ = fit_rows(shown, lambda rows: body(rows).model_dump(), budget)
        return body(fitted)

    def outline(
        self, doc_id: str, keywords: str | None, budget: int, heading: str | None = None
    ) -> CaseOutlineResponse:
        """The decision's headings (text/headings.py sections), with how often the terms of `keywords` occur under
        each, fitted to `budget` by depth; with `heading`, that part's headings alone."""
        expression = _to_find(keywords, "{}数える語を 1 つ以上指定してください。") if keywords else None
        index = self._data.current()
        with self._deadline(index, _outline_timeout_message(self.limits)) as deadline:
            decision = _found(index.decision(doc_id), doc_id)
            every, whole = sections(decision.full_text, deadline)
            parts, section, others = every, None, None
            if heading is not None:
                section, others = _section(decision.full_text, heading, 0, deadline, every)
                parts = [part for part in every if section.start <= part.start < section.end]
            counts = None if expression is None else _counts(decision, parts, every, expression, deadline)
        return outline_body(decision, parts, whole, counts, budget, section, others)

    def close(self) -> None:
        self._data.close()

    def _places_of(
        self, decisions: list[Decision], shown: Expression | None, deadline: float
    ) -> list[tuple[list[Place], int] | None]:
        """Each hit's places that `passages` asks for, by the search's deadline; past it, the agent reads that the
        places, not the search, ran out of time, so it does not think its search terms too common."""
        try:
            return [_places(decision, shown, deadline) for decision in decisions]
        except TimeoutError:
            metrics.add_metric(name="AbortedQueries", unit="Count", value=1)
            raise QueryAborted(_hit_places_timeout_message(self.limits)) from None

    def _deadline(self, index: CaseIndex, message: str) -> AbstractContextManager[float]:
        """Bound one search or read by the query timeout (engine/watchdog.py)."""
        return bounded(index.con, self.limits.interrupt_seconds, message)

    def _open(self, local: LocalCopy) -> CaseIndex:
        return open_cases(local, self.limits, self.settings.cache_dir / "cases-prepared")


def case_query(
    keywords: str | None,
    court: str | None,
    limit: int,
    date_from: date | None = None,
    date_to: date | None = None,
    sort: str = NEWEST,
    most: int = MAX_LIMIT,
    outcome: str | None = None,
) -> CaseQuery:
    """The search an agent's parameters ask for, checked (InvalidRequest when it cannot be run); at most `most`
    decisions."""
    expression = parse(keywords or "")
    _check_size(expression)
    if date_from and date_to and date_from > date_to:
        raise InvalidRequest("date_from が date_to より後になっています。")
    court_name = canonical_court(court) if court and court.strip() else None
    written = normalize(court) if court and court_name else None
    query = CaseQuery(
        expression,
        min(limit, most),
        court_name,
        date_from,
        date_to,
        sort == RELEVANCE,
        court_as_written=written,
        outcome=outcome,
    )
    if not expression.clauses and not query.filtered:
        raise InvalidRequest(
            f"{_nothing_to_find(expression)}検索語を 1 つ以上指定するか、court・date_from・date_to で絞ってください。"
        )
    return query


def _shown_places(passages: str | None) -> Expression | None:
    """The expression whose places each hit shows, checked as keywords are; None when none is asked for (blank too)."""
    if passages is None or not passages.strip():
        return None
    return _to_find(passages, "passages: {}箇所を示す語を 1 つ以上指定してください。")


def _to_find(keywords: str, refusal: str) -> Expression:
    """The expression of places to find, checked as a search's keywords are, with at least one term to find; else
    InvalidRequest with `refusal`, its {} filled with why there is nothing to find."""
    expression = parse(keywords)
    _check_size(expression)
    if not expression.positive_terms:
        raise InvalidRequest(refusal.format(_nothing_to_find(expression)))
    return expression


def _away_from_excluded(expression: Expression) -> tuple[tuple[Term, ...], tuple[tuple[Term, ...], ...]]:
    """The expression's terms and clauses as findInCase finds them: a place whose sentence holds an excluded term
    is none (fulltext/terms.py AwayFrom)."""
    if not expression.excluded:
        return expression.positive_terms, expression.clauses
    away = {term: AwayFrom(term, expression.excluded) for term in expression.positive_terms}
    return tuple(away.values()), tuple(tuple(away[term] for term in clause) for clause in expression.clauses)


def _named(expression: Expression) -> Callable[[Term], str]:
    """How a place names its term: as the agent wrote it (a term kept away from excluded ones by its own name)."""
    return lambda term: expression.name(term.term if isinstance(term, AwayFrom) else term)


def _within(regions: Regions, section: Section) -> Regions:
    """The regions of a decision cut to one of its parts: terms are found in that part alone.

    >>> _within({"主文": (3, 10), "事実及び理由": (20, 90)}, Section(30, 50, 2, ("第2",)))
    {'主文': (30, 30), '事実及び理由': (30, 50)}
    """
    return {name: (max(low, section.start), max(min(high, section.end), section.start)) for name, (low, high) in
            regions.items()}  # fmt: skip


def _counts(
    decision: Decision, parts: list[Section], every: list[Section], expression: Expression, deadline: float
) -> list[int]:
    """How many times the expression's terms occur in each of `parts` (of `every` part of the decision), where a
    decision is searched (its regions, up to searched_until), counted on the normalised text and placed by where each
    occurrence begins as written."""
    normal, starts = aligned(decision.searched_text, deadline)
    terms, _ = _away_from_excluded(expression)
    regions = decision.regions_for(terms, deadline, every)
    found = sorted(
        starts[begin]
        for term in terms
        for begin, _ in until_deadline(deadline, spans_in_parts(term, normal, starts, regions))
    )
    return [bisect_left(found, part.end) - bisect_left(found, part.start) for part in parts]


def _places(decision: Decision, shown: Expression | None, deadline: float) -> tuple[list[Place], int] | None:
    """The places of a hit that `passages` asks for (reading/shown_places.py), or None when it asks for none."""
    if shown is None:
        return None
    return hit_places(decision, shown, deadline)


def _nowhere(
    hits: int,
    keywords: str,
    searched_until: int | None = None,
    section: Section | None = None,
    others: list[str] | None = None,
) -> str | None:
    """What a findInCase without a place says: the decision's text (up to where it is searched), or the part it was
    confined to, does not hold the terms, though a search may have found it by what lies outside the text (its
    date, court, case number, name or doc_id); a part named like others says which they are."""
    if hits:
        return None
    if section is not None:
        named = f"見出し「{' > '.join(section.path)}」の部分（offset {section.start:,}〜{section.end:,}）"
        if searched_until is not None and section.start >= searched_until:
            return (
                f"{named}は、この非常に長い判決で語を探す範囲（offset {searched_until:,} まで）の外にあるため、"
                f"語を探していません（箇所がないとは限りません）。{READ_TEXT} の heading で読んでください。"
            )
        elsewhere = f"同じ見出しのほかの部分（also_named: {'、'.join(others)}）や" if others else ""
        searched = (
            "" if searched_until is None or section.end <= searched_until else f"のうち offset {searched_until:,} まで"
        )
        return (
            f"{named}{searched}に「{keywords[:100]}」に当たる箇所はありません（判決のほかの部分にはあるかもしれません）。"
            f"{elsewhere}heading を外して探してください。"
        )
    where = (
        "本文（主文・事実及び理由）"
        if searched_until is None
        else f"本文のうち語を探す部分（offset {searched_until:,} まで）"
    )
    return (
        f"この判決の{where}に「{keywords[:100]}」に当たる箇所はありません。searchCases は判決日・"
        "裁判所・事件番号・事件名・doc_id にも一致するので、検索で見つかった判決でも本文にないことがあります。"
        "別の語で探すか、readCaseText で見出しから読んでください。"
    )


def _no_reasoning(expression: Expression, regions: Regions) -> str | None:
    """Why a term confined to the court's reasoning (判断:) is found nowhere when the decision has no heading of it
    (none read: a very long one's headings are read from its first lines only)."""
    low, high = regions.get(REASONING, (0, 1))
    if low < high or not any(term.field == REASONING for term in expression.terms):
        return None
    return (
        "判断: の語は裁判所の判断の見出し（当裁判所の判断・…に対する判断・【事実認定の補足説明】など）の部分で"
        "探しますが、"
        f"この判決にはその見出しが見つかりません（非常に長い判決では最初の {LINES_READ_FORWARD:,} 行の見出しだけを"
        "読みます）。判断: を外して探してください。"
    )


def _nothing_to_find(expression: Expression) -> str:
    """Why an expression finds nothing to look for: it is empty, or it only excludes (`-損害` alone is not empty).

    >>> _nothing_to_find(parse("-損害 NOT 控訴")), _nothing_to_find(parse(""))
    ('除外語（-損害、-控訴）だけでは探せません。', 'keywords が空です。')
    """
    if not expression.excluded:
        return "keywords が空です。"
    return f"除外語（{excluded_names(expression)}）だけでは探せません。"


def _search_timeout_message(limits: QueryLimits) -> str:
    """Why a search runs out of time: its terms' character pairs are common, so many decisions must be read through
    (a phrase no decision holds, whose every pair is everywhere, is the worst case)."""
    return limits.stopped_at_timeout(
        "検索",
        "検索語の文字の並びが多くの判決に現れ、一件ずつ確かめきれませんでした。"
        "court・date_from・date_to で絞るか、より特徴的な語を加えてください。",
    )


def _section(
    full: str, heading: str, offset: int, deadline: float = math.inf, every: list[Section] | None = None
) -> tuple[Section, list[str] | None]:
    """The part named `heading` in the decision's full text (of several, the court's: text/headings.py section_at),
    with `offset` (if given) inside it, and the other parts so named (a few, as paths; None if it names one);
    InvalidRequest if none is so named, naming the outermost headings, or if `offset` lies outside it. `every` is
    the decision's sections when they are read already."""
    named = section_at(full, heading, deadline, most=_OTHERS_SHOWN + 1, every=every)
    found = named[0] if named else None
    if found is not None and offset and not found.start <= offset < found.end:
        raise InvalidRequest(
            f"offset {offset} は見出し「{heading[:MAX_HEADING_CHARS]}」の部分（{found.start}〜{found.end}）の外です。"
            "heading と一緒に渡す offset は、その部分の next_offset にしてください。"
        )
    if found is None:
        titles = outline(full, deadline)
        more = f"（ほか {len(titles) - _OUTLINE_SHOWN} 件）" if len(titles) > _OUTLINE_SHOWN else ""
        shown = "、".join(titles[:_OUTLINE_SHOWN]) + more if titles else "（見出しなし）"
        read = (
            f"（非常に長い判決のため、見出しは最初の {LINES_READ_FORWARD:,} 行から読みました。その先の見出しは"
            f"名指せません。{READ_TEXT} の offset で読んでください）"
            if full.count("\n") > LINES_READ_FORWARD
            else ""
        )
        raise InvalidRequest(
            f"見出し「{heading[:MAX_HEADING_CHARS]}」はこの判決にありません{read}。この判決の大見出し: {shown}。"
            f"見出しの一覧は {OUTLINE} で、語で探すなら {FIND_IN_CASE} を使ってください。"
        )
    others = [" > ".join(part.path) for part in named[1]] if named else []
    return found, others or None


def _last_page_start(
    full: str,
    low: int,
    until: int,
    shown_at: Callable[[int, list[str]], Callable[[str, int | None], CaseTextResponse]],
    budget: int,
) -> int:
    """Where the last page of full[low:until] begins: as early as the budget allows, each start measured with its own
    headings; then at the next line's start if one is near and the page still fits, so it opens with whole
    sentences."""

    def fits(start: int) -> bool:
        page = shown_at(start, heading_path(full, start))(full[start:until], None)
        return embedded_bytes(page) <= budget

    start = until - largest(min(1, until - low), until - low, lambda length: fits(until - length))
    line = full.find("\n", start, min(until, start + _LINE_SNAP_CHARS))
    snapped = line + 1 if start > low and line != -1 and line + 1 < until else start
    return snapped if snapped == start or fits(snapped) else start


def _found(decision: Decision | None, doc_id: str) -> Decision:
    if decision is None:
        raise NotFound(
            f"doc_id「{doc_id[:100]}」の判決は見つかりません。{SEARCH} の結果にある doc_id を使ってください。"
        )
    return decision


def _hit_places_timeout_message(limits: QueryLimits) -> str:
    """Why showing each hit's places (passages) runs out of time: a hit is very long, or the terms are everywhere."""
    return limits.stopped_at_timeout(
        "passages の箇所の検索",
        "判決が非常に長いか、passages の語がほぼ至る所に現れます。passages をより特徴的な語にするか、limit を小さく"
        f"するか、passages を外して判決ごとに {FIND_IN_CASE} を使ってください。",
    )


def _outline_timeout_message(limits: QueryLimits) -> str:
    """Why an outline runs out of time: the decision has an extraordinary number of lines, or of terms to count."""
    return limits.stopped_at_timeout(
        f"見出しの一覧（{OUTLINE}）",
        "判決の行が非常に多いか、数える語がほぼ至る所に現れます。keywords を外すか減らし、readCaseText で offset を"
        "指定して読んでください。",
    )


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


_BRIEF_CUT = "応答サイズに収めるため、該当の {asked} 件のうち {shown} 件を示します（条件で絞ってください）。"


def _joined(*notes: str | None) -> str | None:
    return " ".join(note for note in notes if note) or None


def _limit_note(limit: int, most: int) -> str | None:
    if limit <= most:
        return None
    return f"limit は最大 {most} 件です（{limit} を {most} にしました）。続きは条件で絞ってください。"
