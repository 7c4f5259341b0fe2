"""Action group search_stores: SQL over stores.csv (made by `make schema`)."""

from search_core.kinds.sql_table.app import sql_function

function = sql_function("search_stores")
app = function.app
lambda_handler = function.lambda_handler
