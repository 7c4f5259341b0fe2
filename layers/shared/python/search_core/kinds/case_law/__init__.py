"""Case-law search over Japanese court decisions, on the full-text engine (search_core/fulltext/):

- `service.py`: CaseSearch, what the function calls (search, read, find in a decision);
- `language.py`: the search expression with a decision's fields; `models.py`: a search and a decision;
- `text/`: what is read from a decision (courts, headings, overview);
- `store/`: the prepared database (exports read, built, opened, searched);
- `reading/`: answers fitted to the budget; `responses.py`: their models; `descriptions.py`, `limits.py`: what the
  agent is told, and the bounds it is told.

No event or HTTP code here: functions/search_cases wires these to the doors.
"""
