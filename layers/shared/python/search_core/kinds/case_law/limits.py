"""The bounds of the case-law operations: how many results, how long a request may be, how much an answer shows, and
how much of a decision is searched. The descriptions the agent reads (descriptions.py) state them from here.
"""

from __future__ import annotations

from search_core.engine.budget import BUDGET_BYTES

DEFAULT_LIMIT = 5
MAX_LIMIT = 20
# How many decisions a brief search names (doc_id, court, date, case number and name alone): a hundred fit the budget.
MAX_BRIEF_LIMIT = 100
# Bounds on what a request may send: far above any real search, far below what could cost time.
MAX_KEYWORDS_CHARS = 1_000
MAX_KEYWORDS = 20
MAX_COURT_CHARS = 100
MAX_DOC_ID_CHARS = 200
# About how many Japanese characters one page of readCaseText holds: three UTF-8 bytes each, the budget rounded down.
PAGE_CHARS = BUDGET_BYTES // 3 // 1000 * 1000
# The most of a court, case number or case name an answer shows (the longest real case names are ~150 characters).
NAME_CHARS = 300
# What a passage shows around its term, in characters: from its sentence's start if within PASSAGE_BACK (else
# PASSAGE_BEFORE ahead), to SHOWN_AFTER past it and on to that sentence's end if within PASSAGE_AHEAD.
PASSAGE_BEFORE, PASSAGE_BACK, PASSAGE_AHEAD = 80, 120, 120
# How many places a search hit shows with passages (reading/shown_places.py).
SHOWN_PLACES = 4
MAX_HEADING_CHARS = 100
# The most of a decision's doc_id, court, date, case number or case name that is searched: many times the longest
# real ones (case names run to ~150 characters), so no name can take a preparing function's time or a search's.
MAX_SEARCHED_NAME_CHARS = 10_000
# When the court and dates hold this few decisions and the terms leave none, the empty answer lists them.
MAX_NAMED_WITHIN_FILTERS = 3
# How much of a decision's 主文 and 事実及び理由, once normalised, is searched: several times the longest judgments
# read here (180,000 to 310,000 characters), it bounds the time and memory preparing one decision takes
# (scripts/bench_hostile_cases.py measures it), so no decision can exhaust a function that prepares a raw file. The
# rest stays readable; answers showing such a decision say where searching stops.
MAX_SEARCHED_CHARS = 2_000_000
# The most articles a hit or a page lists of those the decision cites (the most cited first).
MAX_CITED_ARTICLES = 10
