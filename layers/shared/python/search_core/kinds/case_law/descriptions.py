"""What the agent reads of the case-law operations: their names, every description, and the messages about them;
the bounds they state come from limits.py.

The routes (functions/search_cases/app.py), the responses and the messages take them from here, so the schema the
model sees and the answers it gets say one thing.
"""

from __future__ import annotations

from search_core.fulltext.places import NEAR_CHARS, SHOWN_AFTER
from search_core.kinds.case_law.language import FIELDS
from search_core.kinds.case_law.limits import (
    DEFAULT_LIMIT,
    MAX_BRIEF_LIMIT,
    MAX_CITED_ARTICLES,
    MAX_KEYWORDS,
    MAX_KEYWORDS_CHARS,
    MAX_LIMIT,
    MAX_SEARCHED_CHARS,
    PASSAGE_AHEAD,
    PASSAGE_BACK,
    PASSAGE_BEFORE,
    SHOWN_PLACES,
)
from search_core.kinds.case_law.text.headings import LINES_READ_FORWARD
from search_core.kinds.case_law.text.outcome import OUTCOMES

NO_HITS = "該当なし。"
NEWEST, RELEVANCE = "newest", "relevance"
SORT_DESCRIPTION = (
    "並び順。newest（既定）: 判決日の新しい順。relevance: 語（除外語を除く）が検索対象の本文 1,000 文字あたりに"
    "出てくる回数の多い順（同じなら新しい順）。該当が多く時間内に数えきれないときは、新しい方から調べた判決の中での順"
)
# Ends a 主文 cut to fit the response, as snippets mark their cut ends.
MAIN_TEXT_CUT = "…"

# The operations' names (operationId): every door shows them to the model (a Bedrock Agent's tool names end in them,
# MCP tools are named by them), so the descriptions and messages refer to an operation by its name, never its path.
SEARCH, READ_TEXT, FIND_IN_CASE, OUTLINE = "searchCases", "readCaseText", "findInCase", "caseOutline"
# The statute operation that reads an article a decision cites (search_statutes' operationId).
GET_ARTICLE = "getArticle"
SEARCH_DESCRIPTION = (
    "日本の判例（裁判所の判決）をキーワード・裁判所・判決日で検索し、判決日の新しい順に返します"
    f"（既定 {DEFAULT_LIMIT} 件、最大 {MAX_LIMIT} 件）。応答の total は該当する判決の総数（total_exact が false なら"
    "数えきれず、少なくともその数）、more は返した件数より多く該当するか。キーワードなしで court や日付だけでも"
    "検索できます。各結果の main_text は主文（元の表記のまま）で、main_text_complete が true なら主文の全文です"
    f"（主文を読むために {READ_TEXT} を呼ぶ必要はありません）。全件の主文が応答サイズに収まらないときは、長い主文を"
    f"同じ長さで切って末尾に {MAIN_TEXT_CUT} を付け、main_text_complete を false にします（短い主文は全文のまま。"
    "message でも伝えます）。"
    "各結果の overview は事案の概要（「本件は」で始まる文）、snippet は最初に一致した箇所の抜粋、headings はその"
    "箇所がある部分の見出し、total_chars は全文の文字数。"
    f"事実及び理由を含む全文は doc_id を {READ_TEXT} に、語の箇所は {FIND_IN_CASE} で読めます。"
    f"cited_articles は判決が法令名を付けて引用した条（同法 も解決済み）で、law・article を {GET_ARTICLE} に渡せば"
    "条文を読めます。"
)
KEYWORDS_DESCRIPTION = (
    "検索式: 空白 = AND、OR（または ｜）= どちらか、先頭の - または NOT = 除外（語の一部にも一致: -控訴 は 控訴人 も"
    '除く）、"…" = 空白を含む 1 語'
    "（例: 不法行為 損害賠償 OR 慰謝料 -控訴）。OR は空白より強く結びつきます。doc_id・裁判所・日付・事件番号・"
    "事件名・主文・事実及び理由を対象に、全角半角・大文字小文字を区別せず、漢数字と算用数字を同一視します"
    "（漢数字は数として読むので、三百人 は 千三百人 にも一致し、千代 は 八千代 の一部には一致しません）。"
    "条文は 第709条・709条・七百九条 が同じ条を指し、709条 で 709条1項 も見つかります（1709条・709条の2 は別の条。"
    "除外語 -709条 も同じく読みます）。"
    "日付だけの語（2019-04-30、平成31年4月30日、令和元年、2019年4月）はその日・月・年の判決にも一致します。"
    "記号もそのままの文字として扱います。"
    "金額だけの語（300万円、金三百万円、3,000,000円）は同じ額のどの書き方（金参百萬円・0.03億円・"
    "金三、〇〇〇、〇〇〇円 も）にも一致し、1,300万円 などのより大きな"
    "額には一致しません（円のない 300万 は文字どおり）。金額の範囲は 1億円以上・300万円以下・300万円超・300万円未満"
    "（主文：1億円以上 は主文に 1 億円以上の額が書かれた判決）。"
    f"語の前に {'：・'.join(FIELDS)}： を付けると、その部分に語がある判決だけを探します（例: 主文：300万円 は主文に "
    "300万円 が書かれた判決。支払を命じた額か担保の額かなどは main_text で確かめてください。主文：取り消す、"
    "事件名：損害賠償。判断：過失 は裁判所の判断（当裁判所の判断・争点に対する判断 の見出しの部分、刑事判決では"
    "【事実認定の補足説明】から【量刑の理由】まで）に過失 が"
    "ある判決で、当事者の主張の部分だけにある語は数えません。ただし判断の部分の中の認定事実や、裁判所が引用した"
    "当事者の主張の文（…と主張する）には一致します。-主文：棄却 のように除外にも使えます）。付けた語だけに"
    "かかります（主文：取り消す OR "
    "主文：取消す のように OR の各語に付けます）。"
    f"最大 {MAX_KEYWORDS} 語・{MAX_KEYWORDS_CHARS:,} 文字。court か日付を指定するなら省略できます。"
)
COURT_DESCRIPTION = (
    "裁判所。最高裁・高裁・地裁・家裁・簡裁（正式名称も可）だけなら、その種類の裁判所すべて（例: 高裁 = 各高等裁判所と"
    "その支部・知財高裁。最高裁判所は含まない）。東京地裁・大阪高裁・知財高裁（知財）・最高裁第二小法廷 のように"
    "名指すと、その裁判所だけ（支部・部を含む: 東京地裁 は 東京地方裁判所立川支部 も）。名前の先頭からの一部"
    "（東京 = 東京で始まる各裁判所）や支部名（立川支部）でもよく、語の途中には一致しません（大阪 は 東大阪簡易裁判所 を"
    "含まない）。略称と正式名称は同一視します。"
)
LIMIT_DESCRIPTION = (
    f"返す件数（1〜{MAX_LIMIT}、既定 {DEFAULT_LIMIT}。{MAX_LIMIT} を超える値は {MAX_LIMIT} にし、message で伝えます）"
)
DATE_FROM_DESCRIPTION = (
    "この日以降の判決だけ（YYYY-MM-DD、当日を含む。判決日のない判決は除かれ、その数を message で伝えます）"
)
DATE_TO_DESCRIPTION = "この日以前の判決だけ（YYYY-MM-DD、当日を含む。判決日のない判決は除かれます）"
TEXT_DESCRIPTION = (
    "判決の全文（主文と事実及び理由）を、応答サイズに収まる長さずつ返します。offset は 0〜total_chars の"
    "どの位置でもよく、続きは next_offset を offset に渡して読みます（null なら最後まで読み終えています）。"
    f"長い判決で特定の語の箇所だけ読むなら、先に {FIND_IN_CASE} で位置を調べてください。見出しの名前（heading: "
    "第3の2、当裁判所の判断 など）を渡すと、その見出しの行から読めます。headings はページが始まる部分の見出し"
    "（例: 事実及び理由 > 第3 当裁判所の判断）。"
    f"cited_articles は判決が引用した条（{GET_ARTICLE} に渡せる law・article）。"
)
BRIEF_DESCRIPTION = (
    "true なら、該当した判決を doc_id・裁判所・判決日・事件番号・事件名・結論の種類（outcome）だけで一覧します"
    "（主文・抜粋・passages なし。"
    f"limit は最大 {MAX_BRIEF_LIMIT} 件）。「…した判決をすべて挙げて」のように数や一覧が要るときに。既定 False"
)
HIT_PASSAGES_DESCRIPTION = (
    f"各結果に、この検索式（keywords と同じ書き方。除外語を除く）の語が出てくる箇所を最大 {SHOWN_PLACES} か所、"
    f"{FIND_IN_CASE} と同じ形（offset・headings・text）で passages に付け、その判決での出現数を passage_hits に"
    "示します。示すのは、最初の箇所（争点や請求の述べ方）、次に語ごとに（書いた順に）その語の出てくる見出しの部分の"
    "最初の箇所を 1 つずつ（語が長い漢字の複合語の一部（貸倒懸念債権 の 懸念）でなく出てくる部分、裁判所の判断の中で"
    "当事者の主張の見出しでない部分、語を最も多く含む争点の中の部分、小括・結論・まとめ、語の多い部分の順に先）、"
    "残りは最後の箇所です。語が当事者の主張にあるのか当裁判所の判断にあるのかを、判決ごとに "
    f"{FIND_IN_CASE} を呼ばずに headings で確かめられます（例: keywords=解雇、passages=16条 OR 濫用。裁判所の判断の"
    "中でも「…と主張する」の文は当事者の主張の引用です）。ほかの箇所は "
    f"{FIND_IN_CASE} で読めます。1 件が大きくなるので、主文が切れたら limit を小さくしてください"
)
PASSAGES_DESCRIPTION = (
    "1 つの判決の中で、検索式の語（除外語を除く）が出てくる箇所を前後の文とともに、位置（offset）の順に返します。"
    f"全文を最初から読まずに、該当箇所へ直接進むための操作です。語の出現から {SHOWN_AFTER} 文字以内に続く出現は同じ"
    "箇所にまとめ（count がその数）、1 つの text に示します。各箇所の offset を "
    f"{READ_TEXT} に渡すと、そこから続けて読めます。各箇所の headings は、その箇所がある部分の見出し（例: 事実及び理由"
    " > 第3 当裁判所の判断 > 2）。hits は判決全体で見つかった数（正確。各箇所の count の合計）。続きの箇所は"
    " next_start を start に渡して読めます。"
    f"mode=near にすると、すべての語が {NEAR_CHARS} 文字以内に揃って出てくる箇所だけを、mode=sentence にすると同じ文"
    "にある箇所だけを返します（例: 監査役 懸念。語が近くにあるだけで、誰が何を述べたかは text で確かめてください）。"
    f"text は語を含む文の頭から（{PASSAGE_BACK} 字より前なら語の {PASSAGE_BEFORE} 字前から）、語の {SHOWN_AFTER} 字"
    f"後を含む文の終わりまで（{PASSAGE_AHEAD} 字以内なら）です。語は文字の並びとして探すので、否定の文の中にも"
    "一致します（相当の理由があった は「相当の理由があったともいえない」にも一致）。"
)
PASSAGES_START_DESCRIPTION = "この位置（offset）以降の箇所だけを返す（既定 0）。前の応答の next_start を渡します"
PASSAGES_MODE_DESCRIPTION = (
    f"each（既定）: 語ごとのすべての出現。near: すべての語が {NEAR_CHARS} 文字以内に揃う箇所。sentence: すべての語が"
    "同じ文（。または改行まで）にある箇所（語が 1 つなら near・sentence も each と同じ）"
)
EACH, NEAR, SENTENCE = "each", "near", "sentence"
PASSAGES_KEYWORDS_DESCRIPTION = (
    f"探す語（{SEARCH} と同じ検索式。OR・除外・引用符も可）。除外語（-主張）は文ごとに効き、除外語を含む文の箇所は"
    "数えません（当事者の主張の文を除くときに）。判断：を付けた語は裁判所の判断の部分だけで探します。本文（主文・"
    "事実及び理由）の中を探すので、事件名: を付けた語は数えません（事件名は応答の case_name）"
)
PASSAGES_LIMIT_DESCRIPTION = f"返す箇所の数（1〜{MAX_LIMIT}、既定 {DEFAULT_LIMIT}）"
DOC_ID_DESCRIPTION = f"読む判決の doc_id（{SEARCH} の結果にあるもの）"
OFFSET_DESCRIPTION = "読み始める位置（文字数、既定 0）。前のページの next_offset を渡します"
HEADING_DESCRIPTION = (
    "この見出しの部分だけを読む。見出しの番号を外側から（第3の2、第３ > ２ > （１）、主文）、または見出しの語"
    "（当裁判所の判断、争点2）。間の階層は省けます。当てはまる見出しが複数なら裁判所の判断の中のもの（なければ最初"
    "のもの）の行から、その部分の終わり（section_end）"
    "までを読みます。長い部分の続きは、同じ heading と next_offset を offset に渡して読みます（部分の結論は終わりに"
    "あることが多く、その最後のページは from_end で読めます。部分を読み終えたら "
    f"next_offset は null）。見出しの一覧は {OUTLINE} で"
)
FROM_END_DESCRIPTION = (
    "true なら、heading の部分（heading がなければ判決）の最後のページ、つまりその終わりまでを応答に収まるだけ"
    "返します（小括・結論・量刑の理由の結びなど、部分の終わりにある結論を 1 回で読むときに。offset とは併用不可）。"
    "その前は、返った offset より前を offset に指定して読めます。既定 False"
)
ALSO_NAMED_DESCRIPTION = (
    "heading がほかの部分の見出しにも当てはまるとき: その部分（外側からの見出し）。返したのは裁判所の判断の中のもの"
    "（なければ最初に当てはまったもの）です。別の部分なら、ここの見出しを heading に"
)
OUTLINE_HEADING_DESCRIPTION = (
    f"この見出しの部分の中の見出しだけを、深い階層まで返す（{READ_TEXT} の heading と同じ書き方: 第4の2、"
    "当裁判所の判断、争点2）。判決全体の一覧で深い見出しが省かれたとき、その部分の小見出し（ア 原告の主張、"
    "イ 被告の主張、小括 など）を見るために"
)
SEARCHED_UNTIL_DESCRIPTION = (
    f"非常に長い判決だけにある: 語を探すのは全文のこの位置（offset）まで（主文と事実及び理由の先頭から、正規化して "
    f"{MAX_SEARCHED_CHARS:,} 字）。この位置より後も {READ_TEXT} で読めますが、{SEARCH}・{FIND_IN_CASE} の語では"
    "見つかりません"
)


def searched_in_part(decisions: int, one: bool = False) -> str | None:
    """What the agent reads when an answer shows `decisions` searched only up to their searched_until (`one`: the
    answer is about one decision)."""
    if not decisions:
        return None
    which = "この判決は非常に長いため" if one else f"{decisions} 件は非常に長い判決のため"
    return f"{which}、語を探したのは全文の searched_until の位置までです（その先は {READ_TEXT} で読めます）。"


CITED_ARTICLES_DESCRIPTION = (
    f"判決が法令名を付けて引用した条（同法 は直前に名を挙げた法令）。多い順に最大 {MAX_CITED_ARTICLES} 件。条文は "
    f"{GET_ARTICLE} に law・article と、date にこの判決の判決日を渡せば、判決時に施行されていた版で読めます。note に"
    "「改正前」とあれば判決は改正前の版を適用しています（その改正の施行日より前の日を date に渡す）。"
    "法令名は判決の書いたとおりで、略称や旧題のこともあります"
)

OUTLINE_DESCRIPTION = (
    "判決の見出しの一覧（目次）を 1 回で返します: 主文、事実及び理由、第1 …、1、(1)、ア、(ア) … を判決の番号のまま、"
    "それぞれの位置（offset）・長さ（length）・それを囲む見出し（path）とともに。長い判決でどこに何が書かれているかを"
    f"先に見て、{READ_TEXT} の heading（見出しの番号や語: 第4の2、当裁判所の判断）でその部分だけを読めます。"
    "keywords を渡すと、各見出しの部分に語が出てくる回数（count）も返すので、当事者の主張（第2・第3）と裁判所の判断"
    "（当裁判所の判断）のどちらに語があるかが分かります。応答サイズに収まらなければ深い階層から省きます（message）。"
    "heading を渡すとその部分の中の見出しだけを深くまで返します"
)
OUTLINE_KEYWORDS_DESCRIPTION = (
    f"数える語（{SEARCH} の keywords と同じ書き方。除外語は数えません）。各見出しの count に、その部分に出てくる回数"
)
OUTLINE_SHALLOWER = (
    "応答サイズに収めるため、深さ {depth} の見出しは {shown:,} 件（keywords があれば語の多い順、なければ前から）を"
    "示し、残りとより深い見出しの計 {left:,} 件は省略しました（readCaseText の heading で部分を読むか、keywords の "
    "count で場所を絞ってください）。"
)
OUTLINE_CUT = "応答サイズに収めるため、いちばん外側の見出しの前の方だけを示します。"
OUTLINE_LINES_NOTE = (
    f"非常に長い判決のため、見出しは最初の {LINES_READ_FORWARD:,} 行から読みました（その先の見出しは出ません）。"
)
OUTLINE_COUNT_NOTE = "count は主文と事実及び理由の中で数えました（語を探す範囲の中だけ）。"

OUTCOME_KIND_DESCRIPTION = (
    f"結論の種類: {'、'.join(OUTCOMES)}（unknown は規則が当てはまらない主文。推測はしません）。原判決を取り消し・変更"
    "・破棄して自ら請求について言い渡した判決は、その請求の結論を括弧に添えます（原判決取消・変更（一部認容）、"
    "破棄自判（請求棄却））"
)
APPEAL_NOTE = (
    "控訴・上告を棄却した判決です: 原審の結論（請求が認められたか）はこの判決の主文にはなく、事実及び理由に書かれて"
    "いればそこで分かります（その文があれば decided_below に）"
)
PARTLY_ACQUITTED_NOTE = (
    "主文は一部の公訴事実（または一部の被告人）について無罪も言い渡しています（main_text を読んでください）"
)
OUTCOME_FILTER_DESCRIPTION = (
    f"主文が述べる結論で絞る（{'、'.join(OUTCOMES)}。有罪 は執行猶予付きも含む）。主文を決まった規則で読んだ結論です"
    "（unknown は読めなかった判決）。請求の結論（一部認容・請求棄却 など）は、控訴審・上告審が原判決を取り消し・"
    "変更・破棄して自ら言い渡した結論も含みます（一部認容 は 原判決取消・変更（一部認容）も）。控訴棄却・上告棄却 の"
    "判決は原審の結論を主文に書かないので含まれません（原審の結論は各結果の decided_below で）。有罪 には一部無罪の"
    "判決も入ります（outcome.note）"
)
PASSAGES_HEADING_DESCRIPTION = (
    "この見出しの部分の中だけで探す（readCaseText の heading と同じ書き方: 第4の2、当裁判所の判断）。当事者の主張を"
    f"除いて裁判所の判断だけを見るときに。hits もその部分の中の数。見出しの一覧は {OUTLINE} で"
)
