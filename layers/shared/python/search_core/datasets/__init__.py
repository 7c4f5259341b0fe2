"""One column spec per dataset: the tables, the agent-facing descriptions and the examples all come from it."""
