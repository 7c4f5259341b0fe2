"""The doors a call comes in by: a Bedrock Agent's action group (bedrock), an AgentCore Gateway's MCP tool call
(gateway, translated into the action group's event), and the response shape and byte budget both answer in.
Which door a call came by is decided in dispatch alone, from its list of doors (each a `door.Door`).

The local MCP server, the third door, is `local_mcp/server.py` at the repository's root: it needs the MCP SDK, which the
layer does not carry. It calls the functions as a Gateway does.
"""
