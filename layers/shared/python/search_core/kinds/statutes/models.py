"""A law as e-Gov's law XML gives it, one version at a time: its articles, each with its paragraphs and items, and
where it stands in the law (編・章・節)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Item:
    """A 号 of a paragraph: its number as e-Gov keys it (2, 2_2 for 二の二), its title as written (二の二) and its
    text, sub-items (イ, ロ, …) included."""

    key: str
    title: str
    text: str


@dataclass(frozen=True)
class Paragraph:
    """A 項: its number (1, 2, …), its label as written (２; empty for the first) and its sentences."""

    number: int
    label: str
    text: str
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Article:
    """A 条, or the paragraphs a provision holds without articles (key 本則 or 附則 alone).

    `key` is e-Gov's Num (709, 230_2); `supplement` says which 附則 holds it: None for the main provision, "" for the
    law's own 附則, else the number of the amending law that wrote it (平成29年法律第44号, as e-Gov labels it)."""

    key: str
    title: str
    caption: str | None
    place: tuple[str, ...]
    paragraphs: tuple[Paragraph, ...]
    supplement: str | None = None

    @property
    def text(self) -> str:
        """The article as one text, as it is printed: title, caption, then each paragraph with its items."""
        lines = [f"{self.caption or ''}{self.title}".strip()]
        for paragraph in self.paragraphs:
            lines.append(f"{paragraph.label}　{paragraph.text}".strip())
            lines.extend(f"{item.title}　{item.text}".strip() for item in paragraph.items)
        return "\n".join(line for line in lines if line)


@dataclass(frozen=True)
class LawVersion:
    """One revision of a law, as of the day it took effect: one folder of e-Gov's bulk download
    (`<law id>_<effective date>_<amending law id>`)."""

    law_id: str
    effective: date
    amended_by: str | None
    law_num: str
    title: str
    abbreviations: tuple[str, ...]
    law_type: str
    articles: tuple[Article, ...]
