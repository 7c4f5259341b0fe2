"""Action group search_events: SQL over events.csv (made by `make schema`)."""

from search_core.kinds.sql_table.app import sql_function

function = sql_function("search_events")
app = function.app
lambda_handler = function.lambda_handler
