"""make chat: a terminal chat with the agent a stack deployed, found from the stack's outputs, on either platform.

Each tool call is printed as it happens (the tool, its arguments, then whether it failed and its rows, total or
error), then the answer and the tokens it took; every value from outside is escaped and cut (tooling/chat_agents.py).
With a question it answers that one, prints the session's tokens and exits 1 when a tool call failed, got no result
or was of a tool not the stack's, the service failed the answer (an exception event, a stream it could not read) or
no tool of ours answered: the smoke test after `sam deploy`.
Without one it reads questions until EOF or Ctrl-C, in one session, whose tokens it prints at the end.

    .venv/bin/python scripts/chat.py [--stack NAME] [--question TEXT]

Credentials and Region come from the AWS configuration, as for any boto3 program (AWS_PROFILE, AWS_DEFAULT_REGION, ...).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

import boto3
from botocore.exceptions import BotoCoreError, ClientError
from tooling.chat_agents import (
    Agent,
    ClassicAgent,
    Harness,
    Step,
    TokenUsage,
    ToolResult,
    classic_tool_name,
    failure_of,
    shown,
)
from tooling.template import generated, target_name

from search_core.catalogue import ACTION_GROUPS, ActionGroup
from search_core.doors.tools import Tool

DEFAULT_STACK = "bedrock-agent-search"
# Our own lines that hold a value from outside (the stack's outputs, an error's message, the question) show this much.
_LINE_CHARS = 1_000


class StackError(Exception):
    """The stack cannot be talked to: not found, no credentials, or no agent deployed."""


def agent_of_stack(session: boto3.Session, stack: str) -> Agent:
    """The agent `stack` deployed, from its outputs: AgentPlatform says which (a stack made before the parameter
    existed has only AgentId, the classic agent)."""
    outputs = stack_outputs(session, stack)
    platform = outputs.get("AgentPlatform", "classic" if "AgentId" in outputs else "none")
    if platform == "harness":
        return Harness(session.client("bedrock-agentcore"), outputs["HarnessArn"], gateway_tool_names())
    if platform == "classic":
        client = session.client("bedrock-agent-runtime")
        return ClassicAgent(client, outputs["AgentId"], outputs["AgentAliasId"], action_group_tool_names())
    raise StackError(
        f"stack {stack} deploys no agent (AgentPlatform={platform}): deploy it with AgentPlatform=harness or classic, "
        f"or connect an MCP client to its GatewayUrl ({outputs.get('GatewayUrl', 'none')})"
    )


def stack_outputs(session: boto3.Session, stack: str) -> dict[str, str]:
    try:
        stacks = session.client("cloudformation").describe_stacks(StackName=stack)["Stacks"]
    except ClientError as error:
        message = error.response.get("Error", {}).get("Message", str(error))
        raise StackError(f"{message} (Region {session.region_name}): name the stack with STACK=<name>") from error
    except BotoCoreError as error:  # no credentials, no Region, no connection
        raise StackError(
            f"{error} (configure AWS credentials and a Region: AWS_PROFILE, AWS_DEFAULT_REGION)"
        ) from error
    return {output["OutputKey"]: output["OutputValue"] for output in stacks[0].get("Outputs", [])}


def gateway_tool_names() -> frozenset[str]:
    """Our tools as the harness's stream names them: each Gateway target's, `<target>___<tool>`."""
    return frozenset(f"{target_name(group)}___{tool.name}" for group, tool in _our_tools())


def action_group_tool_names() -> frozenset[str]:
    """Our tools as the classic agent's trace names them: each action group's operations."""
    return frozenset(classic_tool_name(group.name, tool.method, tool.path) for group, tool in _our_tools())


@functools.cache
def _our_tools() -> tuple[tuple[ActionGroup, Tool], ...]:
    """Each action group's tools, as its function declares them and `make schema` gives them to the stack."""
    return tuple((group, tool) for group in ACTION_GROUPS.values() for tool in generated(group).tools.values())


@dataclass
class Answered:
    """What one question's answer came to: whether a step failed, how many calls of our tools got their result, the
    tokens it took."""

    failed: bool = False
    tool_calls: int = 0
    tokens: TokenUsage | None = None

    def show(self, step: Step) -> None:
        """Print `step` as it arrives, and count it in."""
        print(step.render(), flush=True)
        self.failed = self.failed or step.failed
        self.tool_calls += isinstance(step, ToolResult) and step.answers_ours
        if isinstance(step, TokenUsage):
            self.tokens = step


@dataclass
class Conversation:
    """The questions of one session and the tokens their answers took."""

    questions: int = 0
    tokens: TokenUsage = field(default_factory=TokenUsage)
    unreported: int = 0

    def add(self, answered: Answered) -> None:
        self.questions += 1
        if answered.tokens is None:
            self.unreported += 1
        else:
            self.tokens += answered.tokens

    def render(self) -> str:
        """'session: 2 questions, tokens 2,468 in, 112 out, 2,580 total', and how many answers had no count."""
        counted = self.questions - self.unreported
        tokens = f"tokens {self.tokens.counts()}" if counted else "tokens not reported"
        unreported = f" ({self.unreported} not reported)" if counted and self.unreported else ""
        return f"session: {self.questions} question{'' if self.questions == 1 else 's'}, {tokens}{unreported}"


def ask(agent: Agent, question: str) -> Answered:
    """Print each step of the agent's answer to `question` as it arrives; what the answer came to."""
    answered = Answered()
    try:
        for step in agent.ask(question):
            answered.show(step)
    except (BotoCoreError, ClientError) as error:  # the call refused, no credentials, no connection
        answered.show(failure_of(error))
    return answered


def answer_one(agent: Agent, question: str, conversation: Conversation) -> int:
    """Ask `question`, the smoke test: 1 when the answer failed or no call of our tools got its result, which means the
    model answered from what it knows, not from the data the deployment serves."""
    print(f"> {shown(question, _LINE_CHARS)}")
    answered = ask(agent, question)
    conversation.add(answered)
    if not answered.failed and not answered.tool_calls:
        print("  ✗ no tool was called: the model answered from what it knows, not from the data", flush=True)
    return 1 if answered.failed or not answered.tool_calls else 0


def answer_typed(agent: Agent, conversation: Conversation) -> None:
    for question in typed_questions():
        conversation.add(ask(agent, question))


def typed_questions() -> Iterator[str]:
    """Questions typed at the prompt, until EOF or Ctrl-C."""
    while True:
        try:
            question = input("> ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return
        if question:
            yield question


def main(argv: list[str] | None = None) -> int:
    """0; 1 when --question's answer failed or called no tool; 2 when there is no agent to talk to; 130 on Ctrl-C
    mid-answer."""
    parser = argparse.ArgumentParser(prog="make chat", description="Chat with the agent a stack deployed.")
    parser.add_argument("--stack", default=DEFAULT_STACK, help=f"the CloudFormation stack (default {DEFAULT_STACK})")
    parser.add_argument("--question", help="ask this one question and exit 1 when its answer failed or called no tool")
    args = parser.parse_args(argv)
    session = boto3.Session()
    try:
        agent = agent_of_stack(session, args.stack)
    except StackError as error:
        print(f"make chat: {shown(str(error), _LINE_CHARS)}", file=sys.stderr)
        return 2
    print(shown(f"{agent.description} (stack {args.stack}, {session.region_name})", _LINE_CHARS))
    conversation = Conversation()
    status = 0
    try:
        if args.question is None:
            answer_typed(agent, conversation)
        else:
            status = answer_one(agent, args.question, conversation)
    except KeyboardInterrupt:
        print()
        status = 130
    print(conversation.render())
    return status
