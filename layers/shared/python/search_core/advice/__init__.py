"""Advice to the agent: what a failed query's error means (explain), which conditions a query holds (filters,
scope), what an empty answer's conditions matched (hints), and what the data looks like (profile)."""
