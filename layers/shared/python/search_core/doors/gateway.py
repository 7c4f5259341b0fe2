"""The AgentCore Gateway's door: a tool call translated into the action group event of the same operation, and the
action group's response translated back into the tool result the Gateway hands the model.

A Gateway invokes a Lambda target with the tool's arguments as the whole event and the tool's name, prefixed
"<target>___", in the client context. Nothing here answers a call: `search_core.doors.dispatch` serves the translated
event through the same resolver, validation, guard, deadlines and byte budget as an agent's.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from search_core.doors.door import UNENCODABLE, Operations, Refused
from search_core.doors.envelope import encodable
from search_core.doors.tools import Tool
from search_core.engine.budget import dumps_body
from search_core.observability import logger, metrics

TOOL_NAME_KEY = "bedrockAgentCoreToolName"
TARGET_SEPARATOR = "___"
# The action group a translated event names: it appears only in logs, where it tells the doors apart.
GATEWAY_ACTION_GROUP = "agentcore-gateway"
_MAX_NAME_CHARS = 100
# The MCP versions a Gateway serving these tools accepts: those whose initialize handshake the local MCP server's
# SDK speaks too and whose tool result (text content, isError) is the one `tool_result` makes; AWS's Gateway
# documents these three among its versions. The template's ProtocolConfiguration is generated from this.
MCP_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")


# What else a Gateway puts in the client context, as the keys a log line names it by: to find a call in both logs.
_GATEWAY_IDS = {
    "bedrockAgentCoreAwsRequestId": "gatewayRequestId",
    "bedrockAgentCoreGatewayId": "gatewayId",
    "bedrockAgentCoreTargetId": "gatewayTargetId",
    "bedrockAgentCoreMcpMessageId": "mcpMessageId",
}


def called_tool(context: Any) -> str | None:
    """The name of the tool a Gateway invocation calls, its target prefix removed; None when the invocation is not
    the Gateway's (a Bedrock Agent's carries no client context).

    >>> from types import SimpleNamespace as Context
    >>> called_tool(Context(client_context=Context(custom={"bedrockAgentCoreToolName": "cases___searchCases"})))
    'searchCases'
    >>> called_tool(Context(client_context=None)) is None
    True
    """
    custom = _custom(context)
    if TOOL_NAME_KEY not in custom:
        return None
    name = custom[TOOL_NAME_KEY]
    if not isinstance(name, str):
        return ""
    return name.partition(TARGET_SEPARATOR)[2] if TARGET_SEPARATOR in name else name


def gateway_ids(context: Any) -> dict[str, str]:
    """The Gateway's identifiers of a call, for the log.

    >>> from types import SimpleNamespace as Context
    >>> gateway_ids(Context(client_context=Context(custom={"bedrockAgentCoreGatewayId": "gw-1", "x": "y"})))
    {'gatewayId': 'gw-1'}
    """
    custom = _custom(context)
    return {
        name: custom[key][:_MAX_NAME_CHARS]
        for key, name in _GATEWAY_IDS.items()
        if isinstance(custom.get(key), str) and custom[key].isprintable()
    }


def _custom(context: Any) -> dict[str, Any]:
    """The client context's custom map (empty when there is none, as for a Bedrock Agent's invocation)."""
    custom = getattr(getattr(context, "client_context", None), "custom", None)
    return custom if isinstance(custom, dict) else {}


class GatewayDoor:
    """A Gateway's tool call: its arguments as the whole event, the tool's name in the client context."""

    def recognises(self, event: Any, context: LambdaContext) -> bool:
        return called_tool(context) is not None

    def request(self, arguments: Any, context: LambdaContext, function: Operations) -> dict[str, Any]:
        name = called_tool(context) or ""
        if not encodable([name, arguments]):  # the door's own messages quote names, which must then be sendable
            raise Refused(UNENCODABLE)
        logger.append_keys(tool=name[:200], **gateway_ids(context))
        metrics.add_metric(name="ToolCalls", unit="Count", value=1)
        try:
            return action_event(function.tools, name, arguments)
        except Refused:
            metrics.add_metric(name="InvalidRequests", unit="Count", value=1)
            raise

    def answer(self, response: dict[str, Any]) -> dict[str, Any]:
        return tool_result(response)


def action_event(tools: dict[str, Tool], name: str, arguments: Any) -> dict[str, Any]:
    """The Bedrock Agent event that asks the operation behind tool `name` what the arguments ask.

    Each value goes into the event as the call gives it, so the operation validates it as it validates an agent's;
    a null argument is left out, as if not given, and no arguments at all are an empty object.
    """
    tool = tools.get(name)
    if tool is None:
        raise Refused(unknown_tool(name, list(tools)))
    if arguments is None:  # a call without arguments, as MCP allows
        arguments = {}
    if not isinstance(arguments, dict):
        raise Refused(f"{tool.name} の引数は JSON オブジェクト（引数名と値の組）で渡してください。")
    unknown = [key for key in arguments if key not in tool.arguments]
    if unknown:
        raise Refused(
            f"{tool.name} に引数 {', '.join(str(k)[:_MAX_NAME_CHARS] for k in unknown[:5])} はありません。"
            f"使える引数: {', '.join(tool.arguments)}。"
        )
    given = {key: _single(tool, key, value) for key, value in arguments.items() if value is not None}
    event: dict[str, Any] = {
        "messageVersion": "1.0",
        "actionGroup": GATEWAY_ACTION_GROUP,
        "apiPath": tool.path,
        "httpMethod": tool.method,
        "parameters": [_property(tool, key, value) for key, value in given.items() if key in tool.query],
    }
    body = [_property(tool, key, value) for key, value in given.items() if key in tool.body]
    if body:
        event["requestBody"] = {"content": {"application/json": {"properties": body}}}
    return event


def unknown_tool(name: str, known: list[str]) -> str:
    return (
        f"ツール {name[:_MAX_NAME_CHARS]} はありません。使えるツール: {', '.join(known)}。"
        "tools/list にある名前で呼んでください。"
    )


def _single(tool: Tool, name: str, value: Any) -> Any:
    """The value of one argument, refused where the operation's validation would take it for another kind: one value
    for a list or object, a number for true or false (an agent's "true" is refused as a number; JSON's would not be)."""
    declared = _declared_type(tool, name)
    if isinstance(value, list | dict) and declared not in ("array", "object"):
        raise Refused(f"引数 {name} には値を 1 つ渡してください（配列やオブジェクトは受け付けません）。")
    if isinstance(value, bool) and declared != "boolean":
        raise Refused(f"引数 {name} に true / false は渡せません（型: {declared}）。")
    return value


def _declared_type(tool: Tool, name: str) -> str:
    declared: str = tool.input_schema["properties"][name].get("type", "string")
    return declared


def _property(tool: Tool, name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "type": _declared_type(tool, name), "value": value}


def tool_result(response: dict[str, Any]) -> dict[str, Any]:
    """An action group response as an MCP tool result: the same JSON body as text, an error flagged as one.

    >>> body = {"application/json": {"body": '{"error":"x"}'}}
    >>> tool_result({"response": {"httpStatusCode": 422, "responseBody": body}})
    {'content': [{'type': 'text', 'text': '{"error":"x"}'}], 'isError': True}
    """
    inner = response["response"]
    text = inner["responseBody"]["application/json"]["body"]
    return {"content": [{"type": "text", "text": text}], "isError": inner["httpStatusCode"] != 200}


def tool_error(message: str) -> dict[str, Any]:
    """A tool error in the shape of our error bodies, `{"error": "..."}`."""
    return {"content": [{"type": "text", "text": dumps_body({"error": message})}], "isError": True}
