"""The kinds of action group, each owning its service, its models and the text the agent reads: a SQL table
(sql_table), case law (case_law) and statutes (statutes). Which kind an action group is, is said by its catalogue entry
(search_core/catalogue.py). A kind imports from the shelves below it (search_core/fulltext/ for text), never from
another kind."""
