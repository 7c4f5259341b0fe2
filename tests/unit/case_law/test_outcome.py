"""The outcome read from a 主文 by written rules, checked against hand-labelled 主文 of every form, the ones no rule
may read included (unknown, never a guess)."""

from __future__ import annotations

import pytest

from search_core.kinds.case_law.text.outcome import OUTCOMES, UNKNOWN, read_outcome

LABELLED = [
    ("１　原告の請求を棄却する。\n２　訴訟費用は原告の負担とする。", "請求棄却", "１　原告の請求を棄却する。"),
    ("原告らの請求をいずれも棄却する。", "請求棄却", None),
    ("１　被告は、原告に対し、１００万円及びこれに対する令和３年４月１日から支払済みまで年３分の割合による"
     "金員を支払え。\n２　訴訟費用は被告の負担とする。\n３　この判決は、仮に執行することができる。", "請求認容", None),
    ("被告は、原告に対し、別紙物件目録記載の建物を明け渡せ。", "請求認容", None),
    ("原告が別紙目録記載の土地につき所有権を有することを確認する。", "請求認容", None),
    ("処分行政庁が令和２年５月１日付けでした処分を取り消す。", "請求認容", None),
    ("１　被告は、原告に対し、５０万円を支払え。\n２　原告のその余の請求を棄却する。\n３　訴訟費用はこれを５分し…",
     "一部認容", "２　原告のその余の請求を棄却する。"),
    ("本件訴えを却下する。", "却下", None),
    ("本件申立てを却下する。", "却下", None),
    ("１　本件控訴を棄却する。\n２　控訴費用は控訴人の負担とする。", "控訴棄却", "１　本件控訴を棄却する。"),
    ("本件各控訴をいずれも棄却する。", "控訴棄却", None),
    ("１　原判決を取り消す。\n２　被控訴人の請求を棄却する。", "原判決取消・変更（請求棄却）",
     "１　原判決を取り消す。"),
    ("原判決を次のとおり変更する。\n被控訴人は、控訴人に対し、３００万円を支払え。", "原判決取消・変更（請求認容）",
     None),
    ("原判決中控訴人敗訴部分を取り消す。", "原判決取消・変更", None),
    ("本件上告を棄却する。\n上告費用は上告人の負担とする。", "上告棄却", None),
    ("原判決を破棄する。\n本件を東京高等裁判所に差し戻す。", "破棄差戻し", "本件を東京高等裁判所に差し戻す。"),
    ("原判決を破棄する。\n被上告人の控訴を棄却する。", "破棄自判", "原判決を破棄する。"),
    ("被告人を懲役３年に処する。\nこの裁判確定の日から５年間その刑の執行を猶予する。", "有罪（執行猶予）", None),
    ("被告人を懲役２年６月に処する。\n未決勾留日数中６０日をその刑に算入する。", "有罪",
     "被告人を懲役２年６月に処する。"),
    ("被告人を罰金３０万円に処する。", "有罪", None),
    ("被告人を拘禁刑１年に処する。", "有罪", None),
    ("被告人は無罪。", "無罪", "被告人は無罪。"),
    ("申立人と相手方を離婚する。", UNKNOWN, None),
    ("被相続人の遺産のうち別紙遺産目録記載の不動産は申立人が取得する。", UNKNOWN, None),
    ("本件を東京地方裁判所に移送する。", UNKNOWN, None),
    ("", UNKNOWN, None),
    (None, UNKNOWN, None),
]  # fmt: skip


@pytest.mark.parametrize(("main_text", "kind", "sentence"), LABELLED)
def test_each_outcome_is_read_from_its_sentence(main_text: str | None, kind: str, sentence: str | None) -> None:
    outcome = read_outcome(main_text)
    assert outcome.kind == kind
    if sentence is not None:
        assert outcome.sentence == sentence
    if kind == UNKNOWN:
        assert outcome.sentence is None
    else:
        assert outcome.sentence and outcome.sentence in (main_text or "")


def test_every_outcome_has_a_labelled_main_text() -> None:
    assert {
        kind.split("（")[0] if "（" in kind and kind != "有罪（執行猶予）" else kind for _, kind, _ in LABELLED
    } == set(OUTCOMES)


@pytest.mark.parametrize(
    ("main_text", "kind"),
    [
        ("被告人を懲役２年に処する。この裁判が確定した日から４年間その刑の全部の執行を猶予する。", "有罪（執行猶予）"),
        ("１　被告は、原告に対し、３０万円を支払え。２　原告のその余の請求をいずれも棄却する。", "一部認容"),
        ("１　被告は、原告に対し、３０万円を支払え。２　原告のその余の訴えを却下する。", "一部認容"),
        ("原判決を破棄し、第１審判決を取り消す。被上告人の請求を棄却する。", "破棄自判（請求棄却）"),
        ("原判決を破棄し、被上告人の控訴を棄却する。", "破棄自判"),
        ("原判決を次のように変更する。被控訴人は、控訴人に対し、１０万円を支払え。", "原判決取消・変更（請求認容）"),
        ("原判決主文第１項を次のとおり変更する。", "原判決取消・変更"),
        ("原決定を取り消す。", "原判決取消・変更"),
        ("被告の反訴請求を棄却する。", "unknown"),
        ("被告人を懲役１年に処する。本件公訴事実中窃盗の点については、被告人は無罪。", "有罪"),
        # From the agent frame: a claim granted against one defendant, the rest and the others' dismissed together.
        (
            "１　被告市は、原告Ａに対し、３０５０万円を支払え。\n２　原告らの被告市に対するその余の請求並びに被告県及び"
            "被告会社に対する請求をいずれも棄却する。",
            "一部認容",
        ),
        ("１　被告Ａに対する請求を棄却する。\n２　被告Ｂは、原告に対し、１００万円を支払え。", "一部認容"),
        ("１　原告の請求を棄却する。\n２　原告（反訴被告）は、被告（反訴原告）に対し、５０万円を支払え。", "請求棄却"),
        ("１　被告は、原告に対し、５０万円を支払え。\n２　被告の反訴請求を棄却する。", "請求認容"),
        # A higher court that orders anew: how the claim ends, read from its other sentences.
        (
            "１　原判決を次のとおり変更する。\n（１）　被控訴人は、控訴人に対し、１億円を支払え。\n"
            "（２）　控訴人のその余の請求をいずれも棄却する。",
            "原判決取消・変更（一部認容）",
        ),
        (
            "１　原判決中控訴人敗訴部分を取り消す。\n２　前項の部分につき、被控訴人の請求を棄却する。",
            "原判決取消・変更（請求棄却）",
        ),
        ("１　原判決を取り消す。\n２　本件を東京地方裁判所に差し戻す。", "原判決取消・変更"),
        # From the red team: orders beside the claim's disposal, several defendants, the old style.
        ("１　原告の請求を棄却する。\n２　本件につき当裁判所がした強制執行停止決定を取り消す。", "請求棄却"),
        (
            "１　被告は原告に対し１００万円を支払え。\n２　訴訟費用は被告の負担とする。\n３　原告の仮執行宣言の申立てを"
            "却下する。",
            "請求認容",
        ),
        (
            "１　原判決を取り消す。\n２　被控訴人の請求を棄却する。\n３　強制執行停止決定を取り消す。",
            "原判決取消・変更（請求棄却）",
        ),
        ("被告人Ａを懲役３年に処する。\n被告人Ｂは無罪。", "有罪"),
        ("被告人Ｂは無罪。", "無罪"),
        ("本件控訴はこれを棄却する。", "控訴棄却"),
        ("原告の請求はこれを棄却する。", "請求棄却"),
        # From the agent frame: some plaintiffs' suits found inadmissible, the permit set aside on the others'.
        (
            "１　原告Ｘ６ないしＸ９の訴えをいずれも却下する。\n２　処分行政庁が令和４年３月１日付けでした開発許可を"
            "取り消す。",
            "一部認容",
        ),
    ],
)
def test_red_team_main_texts_are_read_as_lawyers_read_them(main_text: str, kind: str) -> None:
    assert read_outcome(main_text).kind == kind
