"""The statute answers as the agent reads them: an article with its versions and the search that finds the
decisions citing it, a search's hits, a table of contents; each fitted to the budget."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from search_core.datasets.clock import jst_today
from search_core.engine.budget import embedded_bytes, fit_rows
from search_core.errors import QueryFailed
from search_core.fulltext.expression import Expression
from search_core.fulltext.snippet import snippet
from search_core.kinds.statutes.descriptions import GET_ARTICLE
from search_core.kinds.statutes.limits import MAX_CITING_NAMES
from search_core.kinds.statutes.models import Article, Paragraph
from search_core.kinds.statutes.references import ArticleRef, law_number_key
from search_core.kinds.statutes.responses import (
    ArticleAnswer,
    ContentsAnswer,
    ContentsEntry,
    ItemText,
    ParagraphText,
    StatuteHit,
    StatuteSearchAnswer,
    VersionShown,
)
from search_core.kinds.statutes.store.index import Matches, StatuteIndex, StoredArticle, Version

# A law's name that is one term of the search language as it is (no space, quote, operator or bracket).
_PLAIN_NAME = re.compile('[^\\s"“”|｜()（）\\-−‐]{1,60}')
_CONTENTS_SHALLOWER = "応答サイズに収めるため、深さ {depth} までの見出しを示します（より深い見出しは省略）。"
_CONTENTS_CUT = (
    "応答サイズに収めるため、いちばん外側の見出しの前の方だけを示します。続きの条は getArticle で読むか、"
    "searchStatutes の law で探してください。"
)
# The heading of a law's articles outside any 編 or 章 (a short law's whole main provision).
_MAIN = "本則"
_ARTICLE_CUT = (
    " 応答サイズに収まらないため一部を省きました（末尾が …（省略） の項は途中まで、ない項は省略）。"
    "article に項や号を付けて読んでください。"
)


def supplement_label(article: Article) -> str:
    """The 附則 holding the article as its heading reads (附則（平成二九年六月二日法律第四四号）)."""
    return f"附則（{article.supplement}）" if article.supplement else "附則"


def article_value(article: Article) -> str:
    """The `article` value that names the article for getArticle: its title, after its 附則 named by the amending law's
    number (附則(平成29年法律第44号)第十七条; a 附則 of paragraphs alone: 附則(平成29年法律第44号)).

    >>> article_value(Article("17", "第十七条", None, (), (), "平成二九年六月二日法律第四四号"))
    '附則(平成29年法律第44号)第十七条'
    """
    if article.supplement is None:
        return article.title
    label = f"附則({law_number_key(article.supplement) or article.supplement})" if article.supplement else "附則"
    return label if article.key == "附則" else f"{label}{article.title}"


def version_shown(version: Version, has: bool | None = None, same: bool | None = None) -> VersionShown:
    return VersionShown(
        effective=version.effective.isoformat(),
        amended_by=version.amended_by,
        title=version.title,
        has_article=has,
        same_text=same,
    )


def article_answer(
    index: StatuteIndex,
    law_id: str,
    version: Version,
    article: Article,
    ref: ArticleRef,
    day: date,
    versions: tuple[list[VersionShown], int],
    others: list[str],
) -> ArticleAnswer:
    current = index.current(law_id, jst_today())
    paragraphs = _asked_paragraphs(article.paragraphs, ref)
    notes = [
        f"{day.isoformat()} の時点でデータにある最新の版（{version.effective.isoformat()} 施行）の条文です"
        "（データより後の改正は反映されていません）。"
    ]
    if version.title != current.title:
        notes.append(f"この日の題名は「{version.title}」、現在の題名は「{current.title}」です。")
    if others:
        notes.append(f"同じ番号の条は附則にもあります（article: {'、'.join(others)}）。")
    shown, held = versions
    if held == 1:
        notes.append("データにあるこの法令の版はこの 1 つです（それより前や後の版はデータにありません）。")
    changed = [v.effective for v in shown if v.same_text is False]
    if changed:
        notes.append(f"文言が異なる版: {'、'.join(changed)} 施行。")
    if held > len(shown):
        notes.append(f"データにはこの法令の版が {held:,} あり、versions はこの条が変わった版のうち近いものです。")
    return ArticleAnswer(
        law=current.title,
        law_num=current.law_num,
        law_id=law_id,
        title_on_date=version.title if version.title != current.title else None,
        date=day.isoformat(),
        article=article_value(article),
        asked=ref.written(article_value(article)),
        caption=article.caption,
        place=list(article.place),
        paragraphs=paragraphs,
        complete=True,
        version=version_shown(version),
        versions=shown,
        cited_by_keywords=cited_by_keywords(index, law_id, article, ref),
        message=" ".join(notes),
    )


def _asked_paragraphs(paragraphs: tuple[Paragraph, ...], ref: ArticleRef) -> list[ParagraphText]:
    """The paragraphs asked for, each with its text (with a 号 asked, its 柱書 too: the rule the item completes) and
    its items asked for."""
    shown = []
    for paragraph in paragraphs:
        if ref.paragraph is not None and paragraph.number != ref.paragraph:
            continue
        items = [item for item in paragraph.items if ref.item is None or item.key == ref.item]
        if ref.item is not None and not items:
            continue
        text = paragraph.text
        shown_items = [ItemText(number=item.key, title=item.title, text=item.text) for item in items]
        shown.append(ParagraphText(number=paragraph.number, label=paragraph.label, text=text, items=shown_items))
    return shown


def cited_by_keywords(index: StatuteIndex, law_id: str, article: Article, ref: ArticleRef) -> str:
    """The searchCases expression finding decisions that cite the article right after one of the law's names: each
    title its versions had and its short names, OR-ed (民法709条 OR …), with the 項 and 号 asked for; empty for a
    附則 or a provision without articles, which decisions cite by other means."""
    if article.supplement is not None or not article.key[:1].isdigit():
        return ""
    cited = ArticleRef(article.key, ref.paragraph, ref.item).arabic
    plain = [name for name in index.short_names(law_id) if _PLAIN_NAME.fullmatch(name) and name not in ("OR", "NOT")]
    names = sorted(plain, key=len)[:MAX_CITING_NAMES]
    return " OR ".join(f"{name}{cited}" for name in names)


def fitted_article(answer: ArticleAnswer, budget: int) -> ArticleAnswer:
    """The answer within `budget`: the longest paragraph and item texts cut (marked), then the last paragraphs and
    items left out, and said so. Paragraphs and items are cut as one list, so a paragraph of a thousand items keeps
    its first ones."""
    if embedded_bytes(answer.model_dump()) <= budget:
        return answer
    cut = answer.model_copy(update={"complete": False, "message": answer.message + _ARTICLE_CUT})
    units = [unit for paragraph in answer.paragraphs for unit in _units(paragraph)]
    kept, _ = fit_rows(units, lambda shown: cut.model_dump() | {"paragraphs": _regrouped(shown)}, budget)
    paragraphs = [ParagraphText.model_validate(paragraph) for paragraph in _regrouped(kept)]
    return cut.model_copy(update={"paragraphs": paragraphs})


def _units(paragraph: ParagraphText) -> list[dict[str, Any]]:
    """A paragraph as the units it is cut by: its own text, then each item."""
    head = {"number": paragraph.number, "label": paragraph.label, "text": paragraph.text}
    return [head, *({"paragraph": paragraph.number} | item.model_dump() for item in paragraph.items)]


def _regrouped(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The units as paragraphs again, each with the items kept after it."""
    paragraphs: list[dict[str, Any]] = []
    for unit in units:
        if "paragraph" in unit:
            item = {key: value for key, value in unit.items() if key != "paragraph"}
            paragraphs[-1]["items"].append(item)
        else:
            paragraphs.append(unit | {"items": []})
    return paragraphs


def hit(index: StatuteIndex, stored: StoredArticle, count: int, expression: Expression) -> StatuteHit:
    version = index.by_number[stored.version]
    article = stored.article
    excerpt, _, _ = snippet(article.text, expression.positive_terms)
    return StatuteHit(
        law=version.title,
        law_num=version.law_num,
        article=article_value(article),
        caption=article.caption,
        place=list(article.place),
        snippet=excerpt,
        occurrences=count,
        effective=version.effective.isoformat(),
    )


def search_answer(hits: list[StatuteHit], found: Matches, day: date, budget: int) -> StatuteSearchAnswer:
    """A search's answer within `budget`: long snippets cut first, then the last hits, and said so."""
    rows, cut = fit_rows(
        [shown.model_dump() for shown in hits], lambda shown: _search_body(shown, found, day, "").model_dump(), budget
    )
    if hits and not rows:
        raise QueryFailed("結果が大きすぎて返せません。limit を小さくしてください。")
    message = _search_message(found, len(rows), found.searched) + (
        " 応答サイズに収めるため一部を省略しました。" if cut else ""
    )
    return _search_body(rows, found, day, message)


def _search_message(found: Matches, shown: int, articles: int) -> str:
    if not found.total:
        return (
            f"該当なし（データの条 {articles:,} 件の中で）。語は書かれたとおりに探すので、条文の言葉（正当の事由、"
            "損害賠償）で言い換えるか語を減らしてください。データにない法令の条は見つかりません。"
        )
    counted = f"{found.total:,} 条" if found.exact else f"少なくとも {found.total:,} 条（時間内に数えきれず）"
    return (
        f"データの条 {articles:,} 件のうち{counted}が該当し、見出しに語がある条、語の多い条の順に {shown} 条を"
        f"返します。条の全体は {GET_ARTICLE} で読めます。"
    )


def _search_body(rows: list[dict[str, Any]], found: Matches, day: date, message: str) -> StatuteSearchAnswer:
    return StatuteSearchAnswer(
        date=day.isoformat(),
        total=found.total,
        total_exact=found.exact,
        more=found.total > len(rows) or not found.exact,
        hits=[StatuteHit.model_validate(row) for row in rows],
        message=message,
    )


def contents_entries(articles: list[StoredArticle]) -> list[ContentsEntry]:
    """The law's headings (every level of 編・章・節・款・目, and each 附則), each with its first and last article, in
    the law's order."""
    entries: list[ContentsEntry] = []
    open_at: dict[int, int] = {}  # depth -> index in entries of the heading open at that depth
    previous: tuple[str, ...] = ()
    for stored in articles:
        article = stored.article
        place = (
            (article.place or (_MAIN,)) if article.supplement is None else (supplement_label(article), *article.place)
        )
        shared = 0
        while shared < min(len(place), len(previous)) and place[shared] == previous[shared]:
            shared += 1
        for depth in range(shared, len(place)):
            open_at[depth] = len(entries)
            entries.append(
                ContentsEntry(heading=place[depth], depth=depth + 1, first_article=None, last_article=None, articles=0)
            )
        for depth in range(len(place)):
            entry = entries[open_at[depth]]
            entry.first_article = entry.first_article or article_value(article)
            entry.last_article = article_value(article)
            entry.articles += 1
        previous = place
    return entries


def fitted_contents(
    index: StatuteIndex, law_id: str, version: Version, day: date, entries: list[ContentsEntry], budget: int
) -> ContentsAnswer:
    """The table of contents within `budget`: its deepest levels left out first, then (a law of thousands of
    headings at one level) its last entries, and said so."""
    current = index.current(law_id, jst_today())
    opening = (
        f"{version.title}（{version.effective.isoformat()} 施行の版）の目次を、データにあるこの版の条 "
        f"{version.articles:,} 件から作りました（データにない条の見出しは出ません）。"
    )

    def answer(shown: list[dict[str, Any]], note: str) -> dict[str, Any]:
        return ContentsAnswer(
            law=current.title, law_num=current.law_num, law_id=law_id, date=day.isoformat(),
            effective=version.effective.isoformat(), entries=[], complete=len(shown) == len(entries),
            message=f"{opening}{len(entries):,} 項目のうち {len(shown):,} 項目です。{note}".strip(),
        ).model_dump() | {"entries": shown}  # fmt: skip

    rows = [entry.model_dump() for entry in entries]
    deepest = max((entry.depth for entry in entries), default=0)
    for depth in range(deepest, 0, -1):
        shown = [row for row in rows if row["depth"] <= depth]
        note = "" if depth == deepest else _CONTENTS_SHALLOWER.format(depth=depth)
        if embedded_bytes(answer(shown, note)) <= budget:
            return ContentsAnswer.model_validate(answer(shown, note))
    top = [row for row in rows if row["depth"] <= 1]
    kept, _ = fit_rows(top, lambda shown: answer(shown, _CONTENTS_CUT), budget)
    return ContentsAnswer.model_validate(answer(kept, _CONTENTS_CUT))
