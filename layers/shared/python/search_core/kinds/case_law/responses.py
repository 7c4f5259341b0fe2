"""The answers of the case-law operations as the agent receives them: a search's hits, a page of a decision, the
places a decision holds its terms."""

from __future__ import annotations

from pydantic import BaseModel, Field

from search_core.doors.envelope import absent_when_none
from search_core.fulltext.places import NEAR_CHARS
from search_core.fulltext.snippet import SCAN_CHARS
from search_core.kinds.case_law.descriptions import (
    ALSO_NAMED_DESCRIPTION,
    APPEAL_NOTE,
    CITED_ARTICLES_DESCRIPTION,
    FIND_IN_CASE,
    GET_ARTICLE,
    MAIN_TEXT_CUT,
    OUTCOME_KIND_DESCRIPTION,
    PARTLY_ACQUITTED_NOTE,
    READ_TEXT,
    SEARCHED_UNTIL_DESCRIPTION,
)
from search_core.kinds.case_law.limits import (
    MAX_BRIEF_LIMIT,
    MAX_CITED_ARTICLES,
    MAX_NAMED_WITHIN_FILTERS,
    PAGE_CHARS,
    PASSAGE_BACK,
    PASSAGE_BEFORE,
    SHOWN_PLACES,
)
from search_core.kinds.case_law.models import Decision
from search_core.kinds.case_law.text.outcome import (
    ACQUITTED,
    APPEAL_DISMISSED,
    CONVICTED,
    FINAL_APPEAL_DISMISSED,
    requested,
)
from search_core.kinds.case_law.text.overview import BELOW_CHARS, OVERVIEW_CHARS


class SentenceShown(BaseModel):
    text: str = Field(description="判決の文（書かれたとおり）")
    offset: int = Field(description=f"文の位置（全文の先頭からの文字数。{READ_TEXT} の offset に使える）")
    headings: list[str] = Field(description="この文がある部分の見出し（外側から順に）")


class Passage(BaseModel):
    offset: int = Field(
        description=f"語の位置（全文の先頭からの文字数）。{READ_TEXT} の offset にそのまま使える（text は語を含む文の"
        f"頭から。文の頭が {PASSAGE_BACK} 字より前なら語の {PASSAGE_BEFORE} 字前から）"
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


class CitedArticleShown(BaseModel):
    law: str = Field(description=f"法令名（判決の書いたとおり。{GET_ARTICLE} の law に渡せる）")
    article: str = Field(description=f"条（項・号が続けばそれも。{GET_ARTICLE} の article に渡せる）")
    note: str | None = absent_when_none("法令名と条の間の括弧書き（改正前のもの など、版についての注記）")
    count: int = Field(description="判決の中で引用した回数")


def cited_articles_of(decision: Decision) -> list[CitedArticleShown]:
    return [
        CitedArticleShown(law=cited.law, article=cited.article, note=cited.note or None, count=cited.times)
        for cited in decision.cited_articles[:MAX_CITED_ARTICLES]
    ]


class OutcomeShown(BaseModel):
    kind: str = Field(description=OUTCOME_KIND_DESCRIPTION)
    sentence: str | None = Field(description="結論を読んだ主文の文（書かれたとおり。unknown なら null）")
    note: str | None = absent_when_none(
        f"控訴・上告の棄却なら「{APPEAL_NOTE}」、一部無罪なら「{PARTLY_ACQUITTED_NOTE}」"
    )
    requested: str | None = absent_when_none(
        "刑事判決が末尾に書く検察官の求刑（（求刑　…）の中身、書かれたとおり）。宣告刑と比べるときに"
    )


def outcome_of(decision: Decision) -> OutcomeShown:
    read = decision.outcome
    if read.kind in (APPEAL_DISMISSED, FINAL_APPEAL_DISMISSED):
        note: str | None = APPEAL_NOTE
    elif read.kind in CONVICTED and ACQUITTED in (decision.main_text or ""):
        note = PARTLY_ACQUITTED_NOTE
    else:
        note = None
    criminal = read.kind in CONVICTED or read.kind == ACQUITTED
    asked = requested(decision.facts_and_reasons) if criminal else None
    return OutcomeShown(kind=read.kind, sentence=read.sentence, note=note, requested=asked)


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
    decided_below: list[SentenceShown] | None = absent_when_none(
        "控訴審・上告審などで、原審（第1審）の結論を述べた判決の文があるとき: その文（「原審（…）は、…請求を棄却"
        "した」「第１審は、…一部認容した」の形の文。第1審と原審について最初の 1 文ずつ、判決の言葉のまま。"
        f"{BELOW_CHARS} 字を超えれば … で切る）と、その位置（offset）・見出し（headings）。原審の結論は上訴審の主文"
        "にはないので、ここで確かめられます"
    )
    snippet: str = Field(
        description=f"最初に一致した箇所の前後の抜粋（先頭から {SCAN_CHARS:,} 字以内に語がなければ判決の冒頭）"
    )
    headings: list[str] = Field(description="抜粋の箇所がある部分の見出し（外側から順に。例: 事実及び理由 > 第3）")
    passages: list[Passage] | None = absent_when_none(
        f"passages を指定したとき: その語の箇所を最大 {SHOWN_PLACES} か所（最初の箇所、語ごとに最も多く出てくる部分、"
        "最後の箇所。位置の順。語がなければ空）"
    )
    passage_hits: int | None = absent_when_none("passages を指定したとき: その語がこの判決に出てくる数（正確）")
    total_chars: int = Field(
        description=f"全文（{READ_TEXT} で読む主文と事実及び理由）の文字数。1 ページ（日本語で約 {PAGE_CHARS:,} 字）に"
        "収まる短い判決は "
        f"{READ_TEXT} を offset 0 で 1 回呼べば全部読めます"
    )
    searched_until: int | None = absent_when_none(SEARCHED_UNTIL_DESCRIPTION)
    cited_articles: list[CitedArticleShown] = Field(description=CITED_ARTICLES_DESCRIPTION)
    outcome: OutcomeShown = Field(description="主文が述べる結論（決まった規則で読む。当てはまらなければ unknown）")


class TermCount(BaseModel):
    term: str
    count: int | None = Field(
        description="court・日付の条件の中で、その語だけを含む判決の数（時間内に数えきれなければ null）"
    )


class DecisionWithinFilters(BaseModel):
    doc_id: str
    date: str | None = Field(description="判決日（ISO 形式 YYYY-MM-DD、不明なら null）")
    case_name: str | None
    searched_in_part: bool | None = absent_when_none(
        "非常に長い判決で、語を探したのが先頭だけなら true（その先は readCaseText で読めます）"
    )


class ListedDecision(BaseModel):
    doc_id: str
    court: str | None
    date: str | None = Field(description="判決日（ISO 形式 YYYY-MM-DD、不明なら null）")
    case_number: str | None
    case_name: str | None
    outcome: str = Field(description=f"主文の結論の種類（検索結果の outcome.kind と同じ）。{OUTCOME_KIND_DESCRIPTION}")


class CaseSearchResponse(BaseModel):
    results: list[CaseHit] = Field(description="該当した判決（brief のときは空で、listed に並ぶ）")
    listed: list[ListedDecision] | None = absent_when_none(
        "brief のとき: 該当した判決の doc_id・裁判所・判決日・事件番号・事件名・結論の種類だけ"
        f"（最大 {MAX_BRIEF_LIMIT} 件）"
    )
    count: int = Field(description="返した件数")
    total: int = Field(description="条件を満たす判決の総数（total_exact が false なら少なくともこの数）")
    total_exact: bool = Field(description="total が正確なら true、時間内に数えきれなかったら false")
    more: bool = Field(
        description="返した件数より多く該当する（total_exact が false なら、するかもしれない）なら true"
        "（条件で絞るか limit を増やす）"
    )
    message: str | None = absent_when_none("limit を調整したときや該当がないときの説明")
    term_counts: list[TermCount] | None = absent_when_none(
        "該当がないとき: 語ごとに、その語だけを含む判決の数（court・日付を指定したときはその条件の中で数えます）"
    )
    within_filters: list[DecisionWithinFilters] | None = absent_when_none(
        f"該当がなく、court・日付の条件を満たす判決が {MAX_NAMED_WITHIN_FILTERS} 件以下のとき: その判決（語を外すか、"
        f"doc_id を {FIND_IN_CASE}・{READ_TEXT} に渡して確かめられます）"
    )


class NamedDecision(BaseModel):
    """The fields that name the decision an answer is about (reading/answers.py identity)."""

    doc_id: str
    court: str | None
    date: str | None
    case_number: str | None
    case_name: str | None


class CaseTextResponse(NamedDecision):
    headings: list[str] = Field(description="このページが始まる部分の見出し（外側から順に。例: 事実及び理由 > 第3）")
    text: str = Field(description="全文のうち offset から始まる部分")
    offset: int
    next_offset: int | None = Field(
        description="続きを読むときの offset。最後まで読んだら null（heading を指定したときは、その部分を読み終えたら"
        " null）"
    )
    total_chars: int
    searched_until: int | None = absent_when_none(SEARCHED_UNTIL_DESCRIPTION)
    section: list[str] | None = absent_when_none("heading を指定したとき: 読んでいる部分の見出し（外側から順に）")
    also_named: list[str] | None = absent_when_none(ALSO_NAMED_DESCRIPTION)
    section_end: int | None = absent_when_none(
        "heading を指定したとき: その部分が終わる位置（ここから先は次の見出し。続けて読むなら offset にこの値を渡す）"
    )
    cited_articles: list[CitedArticleShown] = Field(description=CITED_ARTICLES_DESCRIPTION)


class OutlineEntry(BaseModel):
    heading: str = Field(description=f"見出し（書かれたとおり。{READ_TEXT} の heading に path と合わせて渡せる）")
    path: list[str] = Field(description="この見出しを囲む見出し（外側から順に。自分は含まない）")
    depth: int = Field(description="入れ子の深さ（主文・事実及び理由が 1、第1 が 2 …）")
    offset: int = Field(description=f"見出しの行の位置（全文の先頭からの文字数。{READ_TEXT} の offset に使える）")
    length: int = Field(description="この部分（次の同じか外側の見出しまで）の文字数")
    count: int | None = absent_when_none(
        "keywords を指定したとき: この部分（その中の小見出しの部分も含む）に語が出てくる回数"
    )


class CaseOutlineResponse(NamedDecision):
    total_chars: int
    headings: list[OutlineEntry]
    depth_shown: int = Field(
        description="返した見出しの最も深い階層（応答サイズに収めるため浅くしたら message が言う）"
    )
    complete: bool = Field(description="この判決（heading を指定したときはその部分）の見出しをすべて返したなら true")
    searched_until: int | None = absent_when_none(SEARCHED_UNTIL_DESCRIPTION)
    message: str | None = absent_when_none("見出しを省いたときや、語の数え方の説明")
    section: list[str] | None = absent_when_none(
        "heading を指定したとき: 見出しを返した部分（外側から順に。headings はこの部分とその中の見出し）"
    )
    also_named: list[str] | None = absent_when_none(ALSO_NAMED_DESCRIPTION)


class CasePassagesResponse(NamedDecision):
    total_chars: int
    searched_until: int | None = absent_when_none(SEARCHED_UNTIL_DESCRIPTION)
    hits: int = Field(
        description="判決全体で見つかった数（すべて数えた正確な数。全ページの各箇所の count の合計）。each では語"
        "ごとの出現回数の合計（同じ位置に 2 語が重なればそれぞれ数える）。near・sentence では語が揃うまとまり"
        f"（near: {NEAR_CHARS} 字以内、sentence: 1 文）の数で、語の出現回数ではありません"
    )
    more: bool = Field(description="返した箇所より後にも箇所があれば true（next_start から続きを読めます）")
    next_start: int | None = Field(description="続きの箇所を読むときに start に渡す位置。続きがなければ null")
    passages: list[Passage]
    message: str | None = absent_when_none("hits に数えなかった語（本文の外の部分に限った語）や、箇所がないときの説明")
    section: list[str] | None = absent_when_none(
        "heading を指定したとき: 探した部分の見出し（外側から順に。hits・passages はこの部分の中だけ）"
    )
    also_named: list[str] | None = absent_when_none(ALSO_NAMED_DESCRIPTION)
