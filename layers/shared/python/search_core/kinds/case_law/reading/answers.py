"""Decisions made into answers: the fields that name a decision, a hit with its 主文, snippet and overview, hits
fitted to the response budget, the message when nothing matches, a passage, a page."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from search_core.engine.budget import TRUNCATION_MARKER, embedded_bytes, fit_rows, largest
from search_core.fulltext.expression import Expression
from search_core.fulltext.places import SHOWN_AFTER, Occurrences, Place
from search_core.fulltext.snippet import sentence_excerpt, snippet
from search_core.fulltext.terms import Term
from search_core.kinds.case_law.descriptions import (
    FIND_IN_CASE,
    MAIN_TEXT_CUT,
    NO_HITS,
    OUTLINE_COUNT_NOTE,
    OUTLINE_CUT,
    OUTLINE_LINES_NOTE,
    OUTLINE_SHALLOWER,
    READ_TEXT,
    searched_in_part,
)
from search_core.kinds.case_law.language import FIELDS
from search_core.kinds.case_law.limits import NAME_CHARS, PASSAGE_AHEAD, PASSAGE_BACK, PASSAGE_BEFORE
from search_core.kinds.case_law.models import CaseMatches, CaseQuery, Decision, Listed
from search_core.kinds.case_law.responses import (
    CaseHit,
    CaseOutlineResponse,
    CasePassagesResponse,
    CaseSearchResponse,
    CaseTextResponse,
    DecisionWithinFilters,
    ListedDecision,
    OutlineEntry,
    Passage,
    SentenceShown,
    TermCount,
    cited_articles_of,
    outcome_of,
)
from search_core.kinds.case_law.store.index import MAX_COUNTED_TERMS
from search_core.kinds.case_law.text.courts import names_a_court
from search_core.kinds.case_law.text.headings import Section, heading_path
from search_core.kinds.case_law.text.overview import decided_below, overview


def excluded_names(expression: Expression) -> str:
    """The excluded terms as a message names them (-損害、-控訴), each as the agent wrote it."""
    return "、".join(f"-{expression.name(term)[:60]}" for term in expression.excluded)


def identity(decision: Decision) -> dict[str, Any]:
    """The fields that name a decision in every response, each cut to NAME_CHARS (marked): a name as long as a
    page would leave no room for the text it names."""
    return {
        "doc_id": decision.doc_id,
        "court": _name(decision.court),
        "date": decision.date.isoformat() if decision.date else None,
        "case_number": _name(decision.case_number),
        "case_name": _name(decision.case_name),
    }


def listed(decision: Decision) -> dict[str, Any]:
    """A decision as a brief search lists it: its names and the kind of its outcome."""
    return identity(decision) | {"outcome": decision.outcome.kind}


def _name(value: str | None) -> str | None:
    return value if value is None or len(value) <= NAME_CHARS else value[:NAME_CHARS] + TRUNCATION_MARKER


def hit(
    decision: Decision,
    keywords: tuple[Term, ...],
    places: tuple[list[Place], int] | None = None,
    deadline: float = math.inf,
) -> tuple[CaseHit, bool]:
    """The decision with its 主文 whole and a passage around its first hit of a positive term (the opening if
    none); with `places` (reading/shown_places.py), the passages of the places asked for and how many occurrences
    there are. Also whether the passage's term was looked for in time (else the passage is the opening)."""
    # A term confined to a part is left to that part: the 主文 comes whole in the hit.
    terms = tuple(term for term in keywords if term.field is None)
    shown, at, in_time = snippet(decision.searched_body, terms, deadline)
    found = CaseHit(
        passages=None if places is None else [passage(decision.full_text, place) for place in places[0]],
        passage_hits=None if places is None else places[1],
        **identity(decision),
        date_text=decision.date_text,
        main_text=decision.main_text,
        main_text_complete=True,
        overview=overview(decision.facts_and_reasons),
        decided_below=_decided_below(decision) or None,
        snippet=shown,
        headings=heading_path(decision.full_text, decision.full_offset(at)),
        total_chars=len(decision.full_text),
        searched_until=decision.searched_until,
        cited_articles=cited_articles_of(decision),
        outcome=outcome_of(decision),
    )
    return found, in_time


def _decided_below(decision: Decision) -> list[SentenceShown]:
    """decided_below's sentences of an appeal (a first instance may tell of an earlier suit's courts), each with
    where it is in the full text and the headings of its part."""
    appeal = _APPEAL.search(
        f"{decision.case_name or ''} {decision.case_number or ''}"
    ) or decision.outcome.kind.startswith(_APPELLATE)
    if not appeal:
        return []
    reasons = decision.regions["事実及び理由"][0]
    return [
        SentenceShown(text=sentence, offset=reasons + start, headings=heading_path(decision.full_text, reasons + start))
        for start, sentence in decided_below(decision.facts_and_reasons)
    ]


# What names an appeal: its case's name (…控訴事件), its number's mark ((ネ), (受), (う) …), or a higher court's
# outcome.
_APPEAL = re.compile(r"控訴|上告|抗告|[(（](?:ネ|行コ|受|オ|ラ|う|あ|行ヒ|行ツ|許|ク)[)）]")
_APPELLATE = ("控訴棄却", "原判決取消・変更", "上告棄却", "破棄差戻し", "破棄自判")


def late_snippets_note(late: int) -> str | None:
    """What the agent reads when some hits' passages are their openings because the deadline came first."""
    if not late:
        return None
    return (
        f"{late} 件は時間内に語の箇所まで読めなかったため、snippet は判決の冒頭です（判決が非常に長いため）。"
        f"語の箇所は doc_id を {FIND_IN_CASE} に渡して探せます。"
    )


def fit_hits(
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


def search_body(
    rows: list[dict[str, Any]],
    found: CaseMatches,
    note: str | None,
    query: CaseQuery,
    listed: list[dict[str, Any]] | None = None,
) -> CaseSearchResponse:
    """A search's answer: its hits in full (`rows`), or named alone (`listed`, a brief search)."""
    hits = [CaseHit.model_validate(row) for row in rows]
    shown = len(hits) if listed is None else len(listed)
    named = query.expression.name
    counts = [TermCount(term=named(t)[:100], count=n) for t, n in found.term_counts.items()] or None
    estimate = None if found.total_exact else f"該当は少なくとも {found.total} 件です（すべては数えていません）。"
    cut = _main_texts_cut_note(hits)
    asides = (
        _courts_as_keywords(query),
        _undated_note(found),
        searched_in_part(sum(h.searched_until is not None for h in hits)),
    )
    parts = (note, estimate, cut, None if shown else _no_hits(found, query), *asides)
    message = " ".join(part for part in parts if part) or None
    return CaseSearchResponse(
        within_filters=[_within_filters(listed) for listed in found.within_filters] or None,
        results=hits,
        listed=None if listed is None else [ListedDecision.model_validate(row) for row in listed],
        count=shown,
        total=found.total,
        total_exact=found.total_exact,
        more=found.total > shown or not found.total_exact,  # uncounted candidates may hold more
        message=message,
        term_counts=counts,
    )


def _within_filters(listed: Listed) -> DecisionWithinFilters:
    return DecisionWithinFilters(
        doc_id=listed.doc_id,
        date=listed.date.isoformat() if listed.date else None,
        case_name=_name(listed.case_name),
        searched_in_part=listed.searched_in_part or None,
    )


def _courts_as_keywords(query: CaseQuery) -> str | None:
    """A court's name written as a keyword is only looked for in the texts: say that `court` is the filter."""
    courts = [term.text for term in query.expression.positive_terms if names_a_court(term.text)]
    if not courts:
        return None
    return (
        f"「{'」「'.join(courts)}」は裁判所の名前です。キーワードとしては判決の本文の語を探します。"
        "裁判所で絞るなら court に書いてください（最高裁、東京地裁、高裁 など。"
        "大法廷・小法廷の判決は court: 最高裁 で）。"
    )


def _undated_note(found: CaseMatches) -> str | None:
    """Decisions without a date that a date filter left out, though they match all else."""
    if not found.undated:
        return None
    return (
        f"判決日のない判決 {found.undated} 件は、ほかの条件には合いますが date_from・date_to の対象外です"
        "（日付を指定せずに検索すると含まれます）。"
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
    """Why nothing matched: the filters that leave nothing (then nothing else is said: no wording of the terms
    could help), or the terms no decision holds."""
    if found.filtered_total == 0 and query.outcome and not (query.court or query.dated):
        return (
            NO_HITS + f"主文の結論が「{query.outcome}」と読める判決はデータにありません（語によらず該当はありません）。"
        )
    if found.filtered_total == 0:
        conditions = "court・日付・結論" if query.outcome else "court・日付"
        return f"{NO_HITS}{conditions}の条件だけで 0 件です（語によらず該当はありません）。{_court_span(found, query)}"
    parts = [NO_HITS, *_terms_missing(found, query)]
    if found.filtered_total is not None:
        listed = "（within_filters にあります）" if found.within_filters else ""
        parts.append(f"court・日付の条件を満たす判決は {found.filtered_total} 件あります{listed}。")
    return "".join(parts)


def _terms_missing(found: CaseMatches, query: CaseQuery) -> list[str]:
    """The terms no decision (within the filters) holds, those that do not explain the answer, and those not
    counted; or that every term is held but not together; and what the exclusions took."""
    parts = []
    counts, named = found.term_counts, query.expression.name
    # A term no decision holds is why nothing matched only when no other term of its OR is held: a missing 266条
    # beside 取締役 OR 理事 is not the cause.
    blocking = [
        term for clause in query.expression.clauses if all(counts.get(t) == 0 for t in clause) for term in clause
    ]
    spare = [term for term, n in counts.items() if n == 0 and term not in blocking]
    where = "court・日付の条件の中に、" if query.filtered else ""
    every_term_counted = len(counts) == len(query.expression.positive_terms)
    every_clause_held = all(any(counts.get(t) for t in clause) for clause in query.expression.clauses)
    if blocking:
        names = "、".join(named(term)[:60] for term in blocking)
        everything = "" if query.filtered or found.in_all is None else f"（データの判決は全部で {found.in_all} 件）"
        parts.append(f"{where}次の語を含む判決はありません{everything}: {names}。{_rewording_advice(blocking)}")
        if found.searched_in_part:
            parts.append(
                f"ただし非常に長い判決 {found.searched_in_part} 件は先頭だけを検索しているため、"
                "その先にある語は数えていません。"
            )
    elif counts and every_term_counted and every_clause_held and not found.without_excluded:
        parts.append(
            "語（OR はどれか）はそれぞれ見つかりますが、すべてを満たす判決はありません（term_counts を参照）。"
            "OR を使うか語を減らしてください。"
        )
    if spare:
        names = "、".join(named(term)[:60] for term in spare)
        parts.append(
            f"{where}次の語を含む判決はありませんが、同じ OR の他の語があるので該当なしの原因ではありません: {names}。"
        )
    uncounted = [named(t)[:60] for t in query.expression.positive_terms if t not in counts]
    if uncounted:  # every term is accounted for, counted or not
        parts.append(f"次の語は数えていません（数えるのは最初の {MAX_COUNTED_TERMS} 語まで）: {'、'.join(uncounted)}。")
    if found.without_excluded:
        excluded = excluded_names(query.expression)
        parts.append(
            f"除外語（{excluded}）を外すと {found.without_excluded} 件あります（除外は語の一部にも一致します。"
            "たとえば -控訴 は 控訴人 を含む判決も除きます）。"
        )
    return parts


def _rewording_advice(missing: list[Term]) -> str:
    """What to do about terms no decision holds: another wording, unless each is an article or a sum, whose every
    wording (第415条, 415条, 四百十五条; 300万円, 金三百万円) was already looked for."""
    if all(term.every_writing for term in missing):
        return (
            "条文や金額はどの書き方（第415条・415条・四百十五条、300万円・金三百万円 など）でも同じに探しているので、"
            "表記を変えても見つかりません。語を外すか別の語で探してください。"
        )
    return "表記を変えるか語を外してください。"


def _court_span(found: CaseMatches, query: CaseQuery) -> str:
    """What the court asked for (the collection, if none is) holds, dates aside: how many decisions and from when to
    when; or, with no dates asked for, that the court has none."""
    span = found.court_span
    if span is None or not span[0]:
        return (
            "この court の判決はデータにありません（名前が正しければ、この裁判所の判決がデータにないということです）。"
        )
    count, first, last = span
    dates = f"（判決日 {first.isoformat()}〜{last.isoformat()}）" if first and last else ""
    whose = "この court の判決" if query.court else "データの判決"
    return f"{whose}は日付を問わなければ {count} 件あります{dates}。期間を見直してください。"


def passage(full: str, place: Place) -> Passage:
    text = sentence_excerpt(full, place.start, place.end, PASSAGE_BACK, PASSAGE_BEFORE, SHOWN_AFTER, PASSAGE_AHEAD)
    return Passage(
        offset=place.start,
        term="、".join(place.terms),
        count=place.count,
        headings=heading_path(full, place.start),
        text=text,
    )


def passages_body(
    decision: Decision,
    full: str,
    found: Occurrences,
    rows: list[dict[str, Any]],
    message: str | None = None,
    section: Section | None = None,
    others: list[str] | None = None,
) -> CasePassagesResponse:
    # Passages the budget left out are read from the next page, which begins at the first of them.
    next_start = found.first[len(rows)].start if len(rows) < len(found.first) else found.next_start
    return CasePassagesResponse(
        **identity(decision),
        total_chars=len(full),
        searched_until=decision.searched_until,
        hits=found.total,
        more=next_start is not None,
        next_start=next_start,
        passages=[Passage.model_validate(row) for row in rows],
        message=message,
        section=None if section is None else list(section.path),
        also_named=others,
    )


def outside_the_text(terms: tuple[Term, ...], named: Callable[[Term], str] = lambda t: t.text) -> str | None:
    """What the agent reads when terms are confined to a part the full text does not hold (事件名): findInCase
    reads the text, so they are not counted, and their part is in the answer already.

    >>> from search_core.fulltext.terms import InField, Phrase
    >>> outside_the_text((InField("事件名", Phrase("損害賠償")), InField("主文", Phrase("棄却"))))[:40]
    '事件名:損害賠償 は事件名（本文の外）に限った語です。findInCase は本'
    """
    outside = [t for t in terms if t.field is not None and not FIELDS[t.field].in_text]
    if not outside:
        return None
    parts = list(dict.fromkeys(FIELDS[str(t.field)] for t in outside))
    names = "・".join(part.name for part in parts)
    shown = "・".join(str(part.shown_as) for part in parts)
    return (
        f"{'、'.join(named(t) for t in outside)} は{names}（本文の外）に限った語です。"
        "findInCase は本文（主文・事実及び理由）の中を探すため、これらは数えません（hits に含まれません）。"
        f"{names}はこの応答の {shown} にあります。"
        f"本文の中で探すなら「{parts[0].name}:」を付けずに書いてください。"
    )


def page(
    decision: Decision,
    full: str,
    offset: int,
    text: str,
    next_offset: int | None,
    headings: list[str],
    section: Section | None = None,
    others: list[str] | None = None,
) -> CaseTextResponse:
    return CaseTextResponse(
        **identity(decision),
        headings=headings,
        text=text,
        offset=offset,
        next_offset=next_offset,
        total_chars=len(full),
        searched_until=decision.searched_until,
        section=None if section is None else list(section.path),
        section_end=None if section is None else section.end,
        also_named=others,
        cited_articles=cited_articles_of(decision),
    )


def outline_body(
    decision: Decision,
    parts: list[Section],
    whole: bool,
    counts: list[int] | None,
    budget: int,
    section: Section | None = None,
    others: list[str] | None = None,
) -> CaseOutlineResponse:
    """The decision's headings (or `section`'s, with the other parts its heading names) with their offsets, lengths
    and paths (and, with `counts`, their terms' occurrences), as deep as the budget allows: the deepest levels are
    left out first, then, at the outermost, the last headings; each cut is said."""
    total = len(parts)
    parts, counts = _within_reach(parts, counts, budget)
    rows = [
        OutlineEntry(
            heading=part.path[-1],
            path=list(part.path[:-1]),
            depth=len(part.path),
            offset=part.start,
            length=part.end - part.start,
            count=None if counts is None else counts[index],
        ).model_dump()
        for index, part in enumerate(parts)
    ]
    deepest = max((row["depth"] for row in rows), default=0)
    outermost = min((row["depth"] for row in rows), default=1)

    def body(shown: list[dict[str, Any]], depth: int, note: str | None) -> dict[str, Any]:
        complete = whole and len(shown) == total
        notes = [note, None if whole else OUTLINE_LINES_NOTE, OUTLINE_COUNT_NOTE if counts is not None else None]
        return CaseOutlineResponse(
            **identity(decision),
            total_chars=len(decision.full_text),
            headings=[],
            depth_shown=depth,
            complete=complete,
            searched_until=decision.searched_until,
            message=" ".join(n for n in notes if n) or None,
            section=None if section is None else list(section.path),
            also_named=others,
        ).model_dump() | {"headings": shown}

    for depth in range(deepest, outermost - 1, -1):
        shown = [row for row in rows if row["depth"] <= depth]
        if depth == deepest and embedded_bytes(body(shown, depth, None)) <= budget:
            return CaseOutlineResponse.model_validate(body(shown, depth, None))
        longest_note = OUTLINE_SHALLOWER.format(depth=depth + 1, shown=total, left=total)
        if embedded_bytes(body(shown, depth, longest_note)) <= budget:
            return _deepened(rows, total, depth, partial(_at_depth, body, depth + 1), budget)
    top = [row for row in rows if row["depth"] <= outermost]
    kept, _ = fit_rows(top, lambda shown: body(shown, outermost, OUTLINE_CUT), budget)
    return CaseOutlineResponse.model_validate(body(kept, outermost, OUTLINE_CUT))


# No heading takes fewer bytes in an answer than this, so no more than budget / it can be shown.
_LEAST_ENTRY_BYTES = 60


def _within_reach(
    parts: list[Section], counts: list[int] | None, budget: int
) -> tuple[list[Section], list[int] | None]:
    """The parts an outline within `budget` could show, with their counts: every level that could fit whole, and of
    the next as many as could fit (where the terms occur most, else the first), in order. A decision of 100,000
    heading lines is then fitted from a few hundred (fitting them all took 2.8 s).

    >>> parts = [Section(n, n + 1, 1, ("第1",)) for n in range(3)] + [Section(9, 10, 2, ("第1", "1"))]
    >>> [len(part.path) for part in _within_reach(parts, None, 2 * _LEAST_ENTRY_BYTES)[0]]
    [1, 1]
    """
    most = budget // _LEAST_ENTRY_BYTES
    by_depth = sorted({len(part.path) for part in parts})
    reached = [depth for depth in by_depth if sum(len(part.path) <= depth for part in parts) <= most]
    whole = reached[-1] if reached else 0
    if whole == (by_depth[-1] if by_depth else 0):
        return parts, counts
    nearest = [index for index, part in enumerate(parts) if len(part.path) == min(d for d in by_depth if d > whole)]
    room = most - sum(len(part.path) <= whole for part in parts)
    ranked = counts if counts is not None and whole > 0 else None  # the outermost level is cut from its end
    chosen = set(sorted(nearest, key=lambda index: (-(ranked[index] if ranked else 0), index))[:room])
    kept = [index for index, part in enumerate(parts) if len(part.path) <= whole or index in chosen]
    return [parts[index] for index in kept], None if counts is None else [counts[index] for index in kept]


def _at_depth(
    body: Callable[[list[dict[str, Any]], int, str | None], dict[str, Any]],
    depth: int,
    shown: list[dict[str, Any]],
    note: str,
) -> dict[str, Any]:
    return body(shown, depth, note)


def _deepened(
    rows: list[dict[str, Any]],
    total: int,
    depth: int,
    body: Callable[[list[dict[str, Any]], str], dict[str, Any]],
    budget: int,
) -> CaseOutlineResponse:
    """Every heading to `depth`, which fit, and as many of the next level's as fit beside them: those where the
    keywords occur most first (without keywords, in order), shown in the decision's order."""
    deeper = sorted(
        (index for index, row in enumerate(rows) if row["depth"] == depth + 1),
        key=lambda index: (-(rows[index].get("count") or 0), index),
    )

    def shown(count: int) -> list[dict[str, Any]]:
        chosen = set(deeper[:count])
        return [row for index, row in enumerate(rows) if row["depth"] <= depth or index in chosen]

    def note(count: int) -> str:
        return OUTLINE_SHALLOWER.format(depth=depth + 1, shown=count, left=total - len(shown(count)))

    count = largest(0, len(deeper), lambda count: embedded_bytes(body(shown(count), note(count))) <= budget)
    return CaseOutlineResponse.model_validate(body(shown(count), note(count)))
