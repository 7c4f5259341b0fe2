"""The outcome of a decision as its 主文 states it, read by written rules, one per kind of outcome, each naming the
sentence it was read from; `unknown` where no rule applies (never a guess).

>>> read_outcome("一　原告の請求を棄却する。二　訴訟費用は原告の負担とする。")
Outcome(kind='請求棄却', sentence='一　原告の請求を棄却する。')
>>> read_outcome("本件控訴を棄却する。").kind, read_outcome("原判決を破棄する。本件を東京高等裁判所に差し戻す。").kind
('控訴棄却', '破棄差戻し')
>>> read_outcome("申立人と相手方は離婚する。").kind
'unknown'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

UNKNOWN = "unknown"
# How much of a 主文 the rules read: real ones state their outcome in a few sentences.
READ_CHARS, READ_SENTENCES = 5_000, 50
# A higher court's dismissal of an appeal: the outcome below is not in its 主文.
APPEAL_DISMISSED, FINAL_APPEAL_DISMISSED = "控訴棄却", "上告棄却"
# A conviction, and what a 主文 says of a count not proved (a conviction may acquit of another count).
CONVICTED, ACQUITTED = ("有罪", "有罪（執行猶予）"), "無罪"
# The outcomes, as the rules below name them (the filter's values).
OUTCOMES = (
    "請求認容", "一部認容", "請求棄却", "却下", "控訴棄却", "原判決取消・変更", "上告棄却", "破棄差戻し", "破棄自判",
    "有罪", "有罪（執行猶予）", "無罪", UNKNOWN,
)  # fmt: skip
# What a 主文 orders when it grants a claim: to pay, to hand over, to refrain, a right declared.
_GRANTS = re.compile(
    "支払え|明け渡せ|引き渡せ|返還せよ|収去|退去せよ|登記手続をせよ|してはならない|差し止め|廃棄せよ|確認する|"
    "取り消す|無効であることを確認|謝罪広告|削除せよ|開示せよ|履行せよ|分割する"
)
_SENTENCE = re.compile(r"[^。]*。?")
# A rule reads one sentence of the 主文 (and may look at the whole 主文 but its counterclaim's sentences), both with
# NFKC and without spaces.
Rule = Callable[[str, str], bool]


class Outcome(NamedTuple):
    kind: str
    sentence: str | None


def read_outcome(main_text: str | None) -> Outcome:
    """The outcome the 主文 states, and the sentence it is read from (as written). The rules read its first
    READ_CHARS characters: far more than any 主文 states its outcome in, so a hostile one costs no more."""
    text = (main_text or "")[:READ_CHARS]
    sentences = [found.group() for found in _SENTENCE.finditer(text) if found.group().strip()][:READ_SENTENCES]
    plain = [_plain(sentence) for sentence in sentences]
    found = _first_read(_RULES, sentences, plain)
    if found is None:
        return Outcome(UNKNOWN, None)
    kind, at = found
    if kind in _ORDERED_ANEW:
        rest = [index for index in range(len(plain)) if index != at]
        claim = _first_read(_CLAIM_RULES, [sentences[i] for i in rest], [plain[i] for i in rest])
        kind = kind if claim is None else f"{kind}（{claim[0]}）"
    return Outcome(kind, sentences[at].strip())


def _first_read(rules: tuple[tuple[str, Rule], ...], sentences: list[str], plain: list[str]) -> tuple[str, int] | None:
    """The first rule that reads a sentence, and that sentence's index. A counterclaim's sentences and the orders
    beside the claim (a stay of execution lifted, a provisional execution refused, the costs) are read by no rule and
    looked at by none: they order nothing on the claim."""
    read_too = [index for index, read in enumerate(plain) if not _ASIDE.search(read)]
    whole = "".join(plain[index] for index in read_too if _COUNTERCLAIM not in plain[index])
    for kind, rule in rules:
        for index in read_too:
            if rule(plain[index], whole):
                return kind, index
    return None


def _plain(text: str) -> str:
    return re.sub(r"\s", "", unicodedata.normalize("NFKC", text))


def _has(*phrases: str) -> Rule:
    """A rule: the sentence holds one of `phrases` (regular expressions)."""
    pattern = re.compile("|".join(phrases))
    return lambda sentence, whole: pattern.search(sentence) is not None


def _granted_in_part(sentence: str, whole: str) -> bool:
    """The rest refused where a claim is granted, or one claim dismissed or one plaintiff's suit found inadmissible
    beside another granted (a defendant's, a plaintiff's)."""
    refused = (
        _REST_REFUSED.search(sentence) is not None
        or _dismissed(sentence, whole)
        or (_COUNTERCLAIM not in sentence and _SUIT_REFUSED.search(sentence) is not None)
    )
    return refused and _GRANTS.search(whole) is not None


def _granted(sentence: str, whole: str) -> bool:
    return (
        _GRANTS.search(sentence) is not None
        and _COUNTERCLAIM not in sentence
        and "請求を棄却" not in whole
        and "却下" not in whole
    )


def _dismissed(sentence: str, whole: str) -> bool:
    return _COUNTERCLAIM not in sentence and _DISMISSED.search(sentence) is not None


def _suspended(sentence: str, whole: str) -> bool:
    return "執行を猶予" in sentence and _SENTENCED.search(whole) is not None


def _sentenced(sentence: str, whole: str) -> bool:
    return _SENTENCED.search(sentence) is not None and "執行を猶予" not in whole


def _remanded(sentence: str, whole: str) -> bool:
    return "破棄" in whole and re.search("差し?戻す|移送する", sentence) is not None


_SENTENCED = re.compile("被告人[^をは、。]{0,10}を(?:死刑|無期|懲役|禁錮|拘禁刑|罰金|拘留|科料)")
_REST_REFUSED = re.compile("その余の(?:請求|訴え)[^。]*?を(?:いずれも)?(?:棄却|却下)")
_DISMISSED = re.compile("(?<!その余の)請求(?:をいずれも|を|はいずれもこれを|はこれを)棄却")
_SUIT_REFUSED = re.compile("訴え(?:をいずれも|を)却下")
_SET_ASIDE = "原(?:判決|決定|審判)(?:中.*)?を取り消す"
_VARIED = "原判決.{0,60}を(?:次のとおり|次のように)?変更する"
# A counterclaim's disposal is not the claim's: its sentences are read by no rule of a claim.
_COUNTERCLAIM = "反訴"
# Orders beside the claim's disposal: a stay of execution lifted (請求異議), a provisional execution declared or
# refused, the costs.
_ASIDE = re.compile("執行停止決定|仮執行|訴訟費用|控訴費用|上告費用")
# A first instance's disposal of a claim: 却下 last, as it may dismiss only part of a claim granted in the rest.
_CLAIM_RULES: tuple[tuple[str, Rule], ...] = (
    ("一部認容", _granted_in_part),
    ("請求棄却", _dismissed),
    ("請求認容", _granted),
    ("却下", _has("却下する")),
)
# In order: a higher court's disposal first (its 主文 also restates what it orders), then a criminal judgment, then a
# claim's.
_RULES: tuple[tuple[str, Rule], ...] = (
    ("破棄差戻し", _remanded),
    ("破棄自判", _has("原判決(?:中.*)?を破棄(?:する|し)")),
    ("上告棄却", _has("上告(?:を(?:いずれも)?|はこれを)棄却する")),
    (
        "原判決取消・変更",
        _has("原(?:判決|決定|審判)(?:中.*)?を取り消す", "原判決.{0,60}を(?:次のとおり|次のように)?変更する"),
    ),
    ("控訴棄却", _has("控訴(?:を(?:いずれも)?|はこれを)棄却する")),
    ("有罪（執行猶予）", _suspended),
    ("有罪", _sentenced),
    ("無罪", _has("被告人[^をは、。]{0,10}は無罪")),
    *_CLAIM_RULES,
)
# A higher court that sets aside the decision below and orders anew: its kind says how the claim then ends
# (原判決取消・変更（一部認容）), read from its other sentences by the rules of a claim.
_ORDERED_ANEW = ("原判決取消・変更", "破棄自判")


# Where a criminal judgment states what the prosecution asked for: at its end, （求刑　懲役８年） or 【求刑】 on a line.
_REQUESTED = re.compile(r"[（(]求刑[ 　]*([^（）()\n]{1,100})[）)]|【求刑】[ 　]*\n?[ 　]*([^\n]{1,100})")
# How much of a judgment's end is read for it: the 求刑 line comes after the reasons, before the judges' names.
_END_CHARS = 3_000


def requested(facts_and_reasons: str | None) -> str | None:
    """The sentence the prosecution asked for, as a criminal judgment states it at its end (None if it does not).

    >>> requested("重い。\\n（求刑　懲役８年、ナイフの没収）\\n南山地方裁判所"), requested("【求刑】\\n　懲役４年\\n")
    ('懲役８年、ナイフの没収', '懲役４年')
    """
    found = list(_REQUESTED.finditer((facts_and_reasons or "")[-_END_CHARS:]))
    return (found[-1].group(1) or found[-1].group(2)).strip(" 　") if found else None
