"""A local endpoint speaking, on the wire, the three AWS operations `make chat` calls, so its tests need no account:

- CloudFormation DescribeStacks: the query protocol, a form in and XML out (the ValidationError of a missing stack);
- AgentCore InvokeHarness and Bedrock Agent Runtime InvokeAgent: REST-JSON in, an `application/vnd.amazon.eventstream`
  out (tooling/eventstream.py), sent chunk by chunk as the scripted model (tooling/fake_aws_agents.py) runs our
  functions, so a client can show each tool call before the next one runs.

boto3 reaches it through the AWS_ENDPOINT_URL_<SERVICE> variables of `environment()`. Requests are not signed-checked.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from tooling.fake_aws_agents import ScriptedModel

_SERVICES = ("CLOUDFORMATION", "BEDROCK_AGENTCORE", "BEDROCK_AGENT_RUNTIME")
_CLOUDFORMATION_XMLNS = "http://cloudformation.amazonaws.com/doc/2010-05-15/"
_INVOKE_AGENT = re.compile(
    r"/agents/(?P<agentId>[^/]+)/agentAliases/(?P<agentAliasId>[^/]+)/sessions/(?P<sessionId>[^/]+)/text"
)
_SESSION_HEADER = "X-Amzn-Bedrock-AgentCore-Runtime-Session-Id"


@dataclass(frozen=True)
class Invocation:
    """One InvokeHarness or InvokeAgent call as it arrived: the session it named and its JSON body."""

    session_id: str
    body: dict[str, Any]


class FakeAws:
    """The endpoint, serving `stacks` (name → outputs) and answering every question with `model`'s next turn.

    with FakeAws(model, {"concierge": {"AgentPlatform": "harness", "HarnessArn": ARN}}) as aws:
        os.environ.update(aws.environment())
    """

    def __init__(self, model: ScriptedModel, stacks: dict[str, dict[str, str]]) -> None:
        self.model, self.stacks = model, stacks
        self.invocations: list[Invocation] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (_Handler,), {"aws": self}))
        # A short poll: shutdown waits for it, and every test that stops the fake pays that wait.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> FakeAws:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def environment(self) -> dict[str, str]:
        """What points boto3 here, with credentials and a Region, and no profile's settings."""
        url = f"http://127.0.0.1:{self.server.server_address[1]}"
        return {
            **{f"AWS_ENDPOINT_URL_{service}": url for service in _SERVICES},
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "AWS_DEFAULT_REGION": "ap-northeast-1",
            "AWS_CONFIG_FILE": "/dev/null",
            "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
        }

    def known(self, output: str, value: str) -> bool:
        return any(outputs.get(output) == value for outputs in self.stacks.values())


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    aws: FakeAws

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        agent = _INVOKE_AGENT.fullmatch(url.path)
        if url.path == "/":
            self._describe_stacks(parse_qs(body.decode())["StackName"][0])
        elif url.path == "/harnesses/invoke":
            self._invoke_harness(parse_qs(url.query)["harnessArn"][0], json.loads(body))
        elif agent is not None:
            self._invoke_agent(agent.groupdict(), json.loads(body))
        else:
            self._refuse(404, "UnknownOperationException", f"no operation at {url.path}")

    def _describe_stacks(self, name: str) -> None:
        outputs = self.aws.stacks.get(name)
        if outputs is None:
            message = f"Stack with id {escape(name)} does not exist"
            error = f"<Error><Type>Sender</Type><Code>ValidationError</Code><Message>{message}</Message></Error>"
            xml = f'<ErrorResponse xmlns="{_CLOUDFORMATION_XMLNS}">{error}</ErrorResponse>'
            self._send(400, "text/xml", xml.encode())
            return
        members = "".join(
            f"<member><OutputKey>{escape(key)}</OutputKey><OutputValue>{escape(value)}</OutputValue></member>"
            for key, value in outputs.items()
        )
        stack = (
            f"<StackName>{escape(name)}</StackName><StackStatus>CREATE_COMPLETE</StackStatus>"
            f"<CreationTime>2026-01-01T00:00:00Z</CreationTime><Outputs>{members}</Outputs>"
        )
        xml = (
            f'<DescribeStacksResponse xmlns="{_CLOUDFORMATION_XMLNS}"><DescribeStacksResult><Stacks><member>{stack}'
            "</member></Stacks></DescribeStacksResult></DescribeStacksResponse>"
        )
        self._send(200, "text/xml", xml.encode())

    def _invoke_harness(self, arn: str, body: dict[str, Any]) -> None:
        if not self.aws.known("HarnessArn", arn):
            self._refuse(404, "ResourceNotFoundException", f"harness {arn} not found")
            return
        session_id = self.headers[_SESSION_HEADER]
        self.aws.invocations.append(Invocation(session_id, body))
        self._stream(self.aws.model.harness_stream(), {})

    def _invoke_agent(self, ids: dict[str, str], body: dict[str, Any]) -> None:
        if not (self.aws.known("AgentId", ids["agentId"]) and self.aws.known("AgentAliasId", ids["agentAliasId"])):
            self._refuse(
                404, "ResourceNotFoundException", f"agent {ids['agentId']} alias {ids['agentAliasId']} not found"
            )
            return
        self.aws.invocations.append(Invocation(ids["sessionId"], body))
        headers = {
            "x-amzn-bedrock-agent-content-type": "application/json",
            "x-amz-bedrock-agent-session-id": ids["sessionId"],
        }
        self._stream(self.aws.model.classic_stream(ids, traced=body.get("enableTrace") is True), headers)

    def _stream(self, messages: Iterator[bytes], headers: dict[str, str]) -> None:
        """An event stream in HTTP/1.1 chunks, one message each, written as the model yields them."""
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.amazon.eventstream")
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        for message in messages:
            self.wfile.write(b"%X\r\n%s\r\n" % (len(message), message))
        self.wfile.write(b"0\r\n\r\n")

    def _refuse(self, status: int, error_type: str, message: str) -> None:
        """A REST-JSON error: its type in a header, its message in the body."""
        self._send(
            status, "application/json", json.dumps({"message": message}).encode(), {"x-amzn-ErrorType": error_type}
        )

    def _send(self, status: int, content_type: str, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the tests read the client's output
        pass
