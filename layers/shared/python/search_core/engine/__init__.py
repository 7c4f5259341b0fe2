"""The DuckDB engine every kind of tool runs on: the sandbox (what DuckDB may touch), the limits (how much it may
take, and the messages that name them), the watchdog (when it must stop), loading and preparing a table, and
turning DuckDB's values into JSON. It knows nothing of SQL safety, advice or the worker process above it."""
