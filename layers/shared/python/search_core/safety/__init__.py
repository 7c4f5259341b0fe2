"""SQL safety: what an agent's statement may be (parse, guard), what it may do while DuckDB binds it (bind_time),
and what the plan DuckDB will run may touch (policy, plan)."""
