"""The answers of the statute operations as the agent receives them: an article as it stood on a day, the articles
a search finds, a law's table of contents."""

from __future__ import annotations

from pydantic import BaseModel, Field

from search_core.doors.envelope import absent_when_none
from search_core.kinds.statutes.descriptions import CITED_BY_DESCRIPTION, GET_ARTICLE


class ItemText(BaseModel):
    number: str = Field(description="号の番号（e-Gov の番号: 2、2_2 は 二の二）")
    title: str = Field(description="号の名（書かれたとおり: 二の二）")
    text: str


class ParagraphText(BaseModel):
    number: int = Field(description="項の番号（1 から）")
    label: str = Field(description="項番号の表記（書かれたとおり。第 1 項は空）")
    text: str = Field(description="項の本文（号を除く。号を指定したときも、その項の柱書として返す）")
    items: list[ItemText] = Field(description="この項の号（イ・ロ などの細分は号の本文に含む）")


class VersionShown(BaseModel):
    effective: str = Field(description="この版の施行日（YYYY-MM-DD）")
    amended_by: str | None = Field(description="この版を作った改正法令の法令ID（制定時の版は null）")
    title: str = Field(description="この版での法令の題名")
    has_article: bool | None = absent_when_none("この版にこの条があるか")
    same_text: bool | None = absent_when_none(
        "この版のこの条の文言が、返した版（version）の条と同じか（書かれたとおりに比べる。条がなければ省略）"
    )


class LawShown(BaseModel):
    law: str = Field(description=f"法令の現在の題名（今日施行されている版の題名。{GET_ARTICLE} の law に使える）")
    law_num: str = Field(description="法令番号（書かれたとおり）")
    law_id: str = Field(description="e-Gov の法令ID")


class ArticleAnswer(LawShown):
    title_on_date: str | None = absent_when_none("date の日の題名（現在の題名と異なるときだけ）")
    date: str = Field(description="条文を選んだ日（YYYY-MM-DD）")
    article: str = Field(description="条名（書かれたとおり: 第二百三十条の二。附則ならその附則の名を前に付ける）")
    asked: str = Field(description="返した範囲（条名に項・号を付けたもの）")
    caption: str | None = Field(description="条の見出し（（不法行為による損害賠償）など。なければ null）")
    place: list[str] = Field(description="条がある編・章・節（外側から順に）")
    paragraphs: list[ParagraphText]
    complete: bool = Field(description="求めた範囲の全文を返したか（false なら応答サイズに収まらず、項を指定して読む）")
    version: VersionShown = Field(description="条文を取った版")
    versions: list[VersionShown] = Field(
        description="データにあるこの法令の版のうち、返した版と、この条が現れ・変わり・なくなった版（施行日の順。"
        "多ければ返した版に近いもの。message が版の総数を言う）"
    )
    cited_by_keywords: str = Field(description=CITED_BY_DESCRIPTION)
    message: str


class StatuteHit(BaseModel):
    law: str = Field(description=f"法令の題名（その日の版。{GET_ARTICLE} の law に使える）")
    law_num: str
    article: str = Field(description=f"条名（{GET_ARTICLE} の article に使える）")
    caption: str | None
    place: list[str]
    snippet: str = Field(description="最初に一致した箇所の前後（条文の表記のまま）")
    occurrences: int = Field(description="この条に語が出てくる回数")
    effective: str = Field(description="この条を取った版の施行日")


class StatuteSearchAnswer(BaseModel):
    date: str = Field(description="検索した版の日（YYYY-MM-DD）")
    total: int = Field(description="語を含む条の数（total_exact が false なら、時間内に確かめた中での数）")
    total_exact: bool = Field(description="total がすべての候補を確かめた正確な数なら true")
    more: bool = Field(description="返した条のほかにも該当する（total_exact が false なら、するかもしれない）なら true")
    hits: list[StatuteHit]
    message: str


class ContentsEntry(BaseModel):
    heading: str = Field(description="編・章・節・款・目の名（書かれたとおり）、または 附則")
    depth: int = Field(description="入れ子の深さ（編や章が 1）")
    first_article: str | None = Field(description="最初の条名（getArticle の article に使える）")
    last_article: str | None
    articles: int = Field(description="この中の条の数")


class ContentsAnswer(LawShown):
    date: str
    effective: str = Field(description="目次を取った版の施行日")
    entries: list[ContentsEntry]
    complete: bool = Field(
        description="データから作った目次を全部返したか（false なら応答サイズのため深い階層か後ろを省いた。法令の全体が"
        "データにあるかどうかではない: message がデータにある条の数を言う）"
    )
    message: str
