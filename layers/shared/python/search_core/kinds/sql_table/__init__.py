"""The SQL table kind: SELECT-only SQL over one dataset (service), its answer (responses), its profile (profile),
its routes (app) and its upload as a prepared DuckDB file (publish)."""
