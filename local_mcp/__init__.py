"""The third door: a local MCP server over stdio serving every tool of every function in this checkout (`make mcp`),
and the client the tests and benchmarks speak to it with. Outside the layer: it needs the MCP SDK, which Lambda does
not."""
