"""Japanese statutes from e-Gov's law XML, each law in every version the data holds, on the full-text engine
(search_core/fulltext/):

- `service.py`: StatuteSearch, what the function calls (an article as it stood on a day, a search, a table of
  contents); `answers.py`: the answers it makes, fitted to the budget;
- `egov/`: the law XML and the bulk download's folders, read safely; `models.py`: a law version and its articles;
- `references.py`: an article and a law number in any writing; `names.py`: the short names the data does not give;
- `store/`: the prepared database (built, opened, asked);
- `responses.py`, `descriptions.py`, `limits.py`: the answers, what the agent is told, and the bounds.

No event or HTTP code here: functions/search_statutes wires these to the doors.
"""
