"""Running one query in a process of its own: execute (guard, plan, run, fetch, explain), insight (counting an
empty answer's conditions), the worker process (process) and the parent's side of it (client), speaking the
line protocol (protocol) and returning one result (result)."""
