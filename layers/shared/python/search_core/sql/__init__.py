"""The SQL safety, one concern per module: guard (what may run), sandbox (what DuckDB may touch),
limits (how much it may take), execute (running one bounded query), worker/client (process isolation)."""
