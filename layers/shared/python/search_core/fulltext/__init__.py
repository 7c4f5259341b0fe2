"""The full-text engine a kind of documents builds on: text normalised to one form, the search expression and its
kinds of term (phrases, dates, citations of 条・項・号, sums), the gram index that narrows a search to candidates, the
packed texts it checks, and the places a text holds its terms. Case law uses it today; nothing here knows a decision.
"""
