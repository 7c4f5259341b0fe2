"""What the agent reads of the statute operations: their names, every description, and the messages about them; the
bounds they state come from limits.py."""

from __future__ import annotations

from search_core.kinds.statutes.limits import DEFAULT_LIMIT, MAX_KEYWORDS, MAX_KEYWORDS_CHARS, MAX_LIMIT
from search_core.kinds.statutes.references import ACCEPTED_WRITINGS

# The operations' names (operationId), as every door shows them to the model.
GET_ARTICLE, SEARCH, CONTENTS = "getArticle", "searchStatutes", "lawContents"
# The case-law operation an answer points to for the decisions citing an article (its operationId).
CASE_SEARCH = "searchCases"

GET_ARTICLE_DESCRIPTION = (
    "法令の条文を、指定した日の時点でデータにある最新の版で返します（e-Gov 法令データ）。law は法令名（正式名・通称・"
    "略称: 民法、民訴法、金商法、労契法、個人情報保護法、プロバイダ責任制限法、情プラ法 など）か法令番号"
    "（平成十三年法律第百三十七号、平成13年法律第137号）。改題された法令は旧題でも新題でも同じ法令です。"
    f"article は条・項・号（漢数字も算用数字も可: {ACCEPTED_WRITINGS}）。項を指定しなければ条の全体、"
    "項や号を指定すればその部分を返します（号ならその項の柱書も）。date（YYYY-MM-DD、既定は日本時間の今日）で版を"
    "選びます（データより後の改正は反映されません）。判決が適用した条文はまず判決日で読み、経過措置で改正前の条文が"
    "適用されることもあるので、判決の文言や引用の注記（改正前のもの）と照らしてください。応答: 法令の現在の題名と"
    "番号、その日の題名（異なるとき）、条の見出しと本文、編・章・節、版の施行日、データにある他の版（条文が変わったか"
    f"どうか）、その条を引用する判例を {CASE_SEARCH} で探す検索式（cited_by_keywords）。"
)
LAW_DESCRIPTION = "法令名（正式名・通称・略称・旧題）または法令番号。例: 民法、金商法、平成十五年法律第五十七号"
ARTICLE_DESCRIPTION = f"条・項・号。例: {ACCEPTED_WRITINGS}"
DATE_DESCRIPTION = (
    "この日（YYYY-MM-DD）の時点でデータにある最新の版を使う。既定は日本時間の今日。判決が適用した条文はまず判決日"
    "（経過措置で改正前の版が適用されることもある）"
)
SEARCH_DESCRIPTION = (
    "法令の条文をキーワードで検索し、語が多く出てくる条から返します"
    f"（既定 {DEFAULT_LIMIT} 件、最大 {MAX_LIMIT} 件）。date（既定は今日）に施行されていた版の条文が対象で、law で"
    "1 つの法令に絞れます。各結果の law と article をそのまま getArticle に渡せば条文の全体を読めます。total は該当する"
    "条の数（total_exact が false なら時間内に数えきれず、少なくともその数）、more は返した件数より多く該当するか。"
)
KEYWORDS_DESCRIPTION = (
    '検索式: 空白 = AND、OR（または ｜）= どちらか、先頭の - または NOT = 除外、"…" = 空白を含む 1 語'
    "（例: 発信者情報 開示 OR 消去）。全角半角・大文字小文字を区別せず、漢数字と算用数字を同一視します（第七百九条 と "
    "709条 は同じ）。語は書かれたとおりに探します（正当事由 は 正当の事由 に一致しないので、条文の言葉で）。"
    f"条文の見出し・条名・本文が対象。{MAX_KEYWORDS} 語・{MAX_KEYWORDS_CHARS:,} 文字まで"
)
SEARCH_LAW_DESCRIPTION = "この法令の条文だけを検索する（法令名・略称・法令番号）。省略するとすべての法令"
LIMIT_DESCRIPTION = f"返す条の数（既定 {DEFAULT_LIMIT}、最大 {MAX_LIMIT}）"
CONTENTS_DESCRIPTION = (
    "法令の目次（編・章・節・款・目と、それぞれの最初と最後の条）を、データにある条から作って返します（データが法令の"
    "一部の条しか持たなければ、その条がある見出しだけ）。date（既定は今日）の時点でデータにある最新の版。"
    "条名は getArticle の article にそのまま使えます。附則は改正法ごとに 1 つずつ並びます。"
)
CITED_BY_DESCRIPTION = (
    f"この条を引用する判例を {CASE_SEARCH} で探す検索式（keywords にそのまま渡す）。法令名の直後に条を書いた引用"
    "（民法709条、民法第七百九条、民法（平成29年法律第44号による改正前のもの）415条）に一致し、同法・前記法など"
    "法令名を省いた引用には一致しません。改題前後の題名と略称を OR でつないでいます。附則の条など、判決が法令名と"
    "条番号で引用しない条では空"
)
