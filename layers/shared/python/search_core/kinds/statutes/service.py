"""The statutes: an article as it stood on a day, a search over the articles in force, a law's table of contents;
each request checked, its law and version found, and run under the deadline (answers.py makes the answers)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import date

from search_core.datasets.clock import jst_today
from search_core.engine.budget import BUDGET_BYTES
from search_core.engine.limits import QueryLimits
from search_core.engine.watchdog import bounded
from search_core.errors import InvalidRequest, NotFound, UnreadableReference
from search_core.fulltext.expression import Expression, parse
from search_core.kinds.statutes.answers import (
    article_answer,
    contents_entries,
    fitted_article,
    fitted_contents,
    hit,
    search_answer,
    version_shown,
)
from search_core.kinds.statutes.limits import (
    DEFAULT_LIMIT,
    LISTED_LAWS,
    MAX_KEYWORDS,
    MAX_LIMIT,
    MAX_VERSIONS_SHOWN,
    NEAREST_NAMES,
)
from search_core.kinds.statutes.models import Article
from search_core.kinds.statutes.references import ACCEPTED_WRITINGS, ArticleRef, law_number_key
from search_core.kinds.statutes.responses import ArticleAnswer, ContentsAnswer, StatuteSearchAnswer, VersionShown
from search_core.kinds.statutes.store.database import FILE_NAME, open_statutes
from search_core.kinds.statutes.store.index import StatuteIndex, StoredArticle, Version
from search_core.observability import logger, metrics
from search_core.settings import Settings
from search_core.storage.cache import LocalCopy
from search_core.storage.live import LiveDataset

# What warms the database before a SnapStart snapshot: a search any statute data answers (possibly with nothing).
_WARMING = "法"


class StatuteSearch:
    """The statutes of STATUTES_URI, opened (and prepared if they are law XML) on first use, refreshed by ETag."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self.limits = QueryLimits.for_function(self.settings.memory_mb, self.settings.query_timeout_seconds)
        self._data = LiveDataset("statutes", FILE_NAME, self.settings, self._open, StatuteIndex.close)

    def article(self, law: str, article: str, budget: int, day: date | None = None) -> ArticleAnswer:
        ref = ArticleRef.read(article)
        if ref is None:
            raise UnreadableReference(
                f"article「{article[:50]}」を条・項・号として読めません。書き方の例: {ACCEPTED_WRITINGS}"
            )
        index = self._data.current()
        asked_day = day or jst_today()
        with self._deadline(index):
            law_id = _law(index, law)
            version = _version(index, law_id, asked_day)
            chosen, others = _article(index, version, ref, law)
            versions, held = _versions_with(index, law_id, chosen)
        answer = article_answer(index, law_id, version, chosen.article, ref, asked_day, (versions, held), others)
        metrics.add_metric(name="ArticlesReturned", unit="Count", value=1)
        return fitted_article(answer, budget)

    def search(
        self, keywords: str, budget: int, law: str | None = None, limit: int = DEFAULT_LIMIT, day: date | None = None
    ) -> StatuteSearchAnswer:
        expression = _expression(keywords)
        if not 1 <= limit <= MAX_LIMIT:
            raise InvalidRequest(f"limit は 1〜{MAX_LIMIT} にしてください。")
        index = self._data.current()
        asked_day = day or jst_today()
        with self._deadline(index) as deadline:
            law_ids = [_law(index, law)] if law else None
            found = index.search(expression, law_ids, asked_day, limit, deadline)
            stored = index.stored([row for row, _ in found.found])
        hits = [hit(index, stored[row], count, expression) for row, count in found.found]
        logger.info("statute search", terms=[t.text for t in expression.terms], law=law, rows=len(hits))
        return search_answer(hits, found, asked_day, budget)

    def contents(self, law: str, budget: int, day: date | None = None) -> ContentsAnswer:
        index = self._data.current()
        asked_day = day or jst_today()
        with self._deadline(index):
            law_id = _law(index, law)
            version = _version(index, law_id, asked_day)
            articles = index.contents(version)
        entries = contents_entries(articles)
        return fitted_contents(index, law_id, version, asked_day, entries, budget)

    def warm(self) -> None:
        self.search(_WARMING, BUDGET_BYTES, limit=1)

    def restored(self) -> None:
        self._data.expire()

    def close(self) -> None:
        self._data.close()

    def _deadline(self, index: StatuteIndex) -> AbstractContextManager[float]:
        return bounded(index.con, self.limits.interrupt_seconds, self.limits.timeout_message)

    def _open(self, local: LocalCopy) -> StatuteIndex:
        return open_statutes(local, self.limits, self.settings.cache_dir / "statutes-prepared", self.settings.memory_mb)


def _expression(keywords: str) -> Expression:
    expression = parse(keywords)
    if not expression.clauses:
        raise InvalidRequest("keywords に探す語を 1 つ以上指定してください（除外語だけでは検索できません）。")
    if len(expression.terms) > MAX_KEYWORDS:
        raise InvalidRequest(f"検索語は {MAX_KEYWORDS} 語までにしてください。")
    return expression


def _law(index: StatuteIndex, law: str) -> str:
    """The one law `law` names, else a 404 naming the nearest names the data holds."""
    laws = index.laws_named(law)
    if len(laws) == 1:
        return laws[0]
    if laws:
        titles = "、".join(f"{index.versions[law_id][-1].title}（{index.versions[law_id][-1].law_num}）"
                          for law_id in laws)  # fmt: skip
        raise NotFound(f"「{law[:50]}」に当たる法令が複数あります: {titles}。法令番号で指定してください。")
    if len(index.versions) <= LISTED_LAWS:
        held = "、".join(versions[-1].title for versions in index.versions.values())
        raise NotFound(f"法令「{law[:50]}」はデータにありません。データの法令は {len(index.versions)} 件です: {held}。")
    nearest = index.nearest_names(law, NEAREST_NAMES)
    hint = f" 名前の近い法令: {'、'.join(nearest)}。" if nearest else ""
    raise NotFound(
        f"法令「{law[:50]}」はデータにありません（データの法令は {len(index.versions):,} 件。データにない法令か、"
        f"別の名前で入っています）。{hint}法令番号（平成十三年法律第百三十七号）でも探せます。"
    )


def _version(index: StatuteIndex, law_id: str, day: date) -> Version:
    version = index.version_on(law_id, day)
    if version is None:
        first = index.versions[law_id][0]
        raise NotFound(
            f"{first.title} の {day.isoformat()} に施行されていた版はデータにありません（データで最も古い版は "
            f"{first.effective.isoformat()} 施行）。"
        )
    return version


def _article(index: StatuteIndex, version: Version, ref: ArticleRef, law: str) -> tuple[StoredArticle, list[str]]:
    """The article `ref` names in `version`, and the other 附則 holding an article of that number (when `ref` asks
    for the law's own 附則 and an amending law's also has one)."""
    found = index.articles(version, ref.article)
    supplements = [stored for stored in found if _supplement_key(stored.article) == ref.supplement]
    others = [
        _supplement_value(s.article, ref) for s in found if s.article.supplement is not None and s not in supplements
    ]
    if not supplements:
        raise NotFound(_missing_article(index, version, ref, others))
    chosen = supplements[0]
    _check_parts(chosen.article, ref)
    return chosen, others if ref.supplement is not None else []


def _supplement_key(article: Article) -> str | None:
    if article.supplement is None:
        return None
    return law_number_key(article.supplement) or "" if article.supplement else ""


def _supplement_value(article: Article, ref: ArticleRef) -> str:
    """The `article` value that names this 附則's article (附則(平成29年法律第44号)17条)."""
    amending = law_number_key(article.supplement or "") or article.supplement
    return f"附則({amending}){ref.arabic}" if amending else f"附則{ref.arabic}"


def _missing_article(index: StatuteIndex, version: Version, ref: ArticleRef, others: list[str]) -> str:
    where = "附則" if ref.supplement is not None else "本則"
    if others:
        return (
            f"{version.title} の{where}にこの条はありません。附則にあります。article に次のどれかを"
            f"渡してください: {'、'.join(others)}"
        )
    titles = [stored.article.title for stored in index.contents(version)
              if _supplement_key(stored.article) == ref.supplement and stored.article.title]  # fmt: skip
    span = f"{titles[0]}〜{titles[-1]}（{len(titles):,} 条）" if titles else "なし"
    return (
        f"データにある{version.title}（{version.effective.isoformat()} 施行の版）の{where}にこの条はありません"
        f"（法令にない条か、データにない条です）。データにある{where}の条: {span}。目次は lawContents で見られます。"
    )


def _check_parts(article: Article, ref: ArticleRef) -> None:
    """A 404 naming what the article holds when it lacks the 項 or 号 asked for (a 号 without its 項: in any 項)."""
    if ref.paragraph is None:
        if ref.item is not None and not any(ref.item in [i.key for i in p.items] for p in article.paragraphs):
            titles = "・".join(item.title for paragraph in article.paragraphs for item in paragraph.items) or "なし"
            raise NotFound(f"{article.title} に第{ref.item.replace('_', 'の')}号はありません（号: {titles}）。")
        return
    numbers = [paragraph.number for paragraph in article.paragraphs]
    if ref.paragraph not in numbers:
        raise NotFound(f"{article.title} に第{ref.paragraph}項はありません（この条の項は {len(numbers)} 項）。")
    paragraph = article.paragraphs[numbers.index(ref.paragraph)]
    if ref.item is not None and ref.item not in [item.key for item in paragraph.items]:
        titles = "・".join(item.title for item in paragraph.items) or "なし"
        raise NotFound(
            f"{article.title}第{ref.paragraph}項に第{ref.item.replace('_', 'の')}号はありません（号: {titles}）。"
        )


def _versions_with(index: StatuteIndex, law_id: str, chosen: StoredArticle) -> tuple[list[VersionShown], int]:
    """The law's versions that matter for the article, each saying whether it has the article and whether its
    wording is the chosen one's (as written: 三十日 and 30日 differ): the chosen version and each where the article
    first appears, changes or goes, the nearest MAX_VERSIONS_SHOWN of them; and how many versions the data holds."""
    versions = index.versions[law_id]
    wordings = index.wordings([v.number for v in versions], chosen.article.key, chosen.article.supplement)
    mine = wordings.get(chosen.version)
    shown: list[tuple[int, VersionShown]] = []
    previous: object = object()
    for position, version in enumerate(versions):
        wording = wordings.get(version.number)
        if wording != previous or version.number == chosen.version:
            same = None if wording is None else wording == mine
            shown.append((position, version_shown(version, wording is not None, same)))
        previous = wording
    at = next(position for position, version in enumerate(versions) if version.number == chosen.version)
    nearest = sorted(shown, key=lambda item: abs(item[0] - at))[:MAX_VERSIONS_SHOWN]
    return [entry for _, entry in sorted(nearest, key=lambda item: item[0])], len(versions)
