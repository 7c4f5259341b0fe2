"""make chat: a terminal chat with the agent a stack deployed, found from the stack's outputs, on either platform.

Each tool call is printed as it happens (the tool, its arguments, then whether it failed and its rows, total or
error), then the answer. With a question it answers that one and exits 1 when a tool call failed: the smoke test
after `sam deploy`. Without one it reads questions until EOF or Ctrl-C, in one session.

    .venv/bin/python scripts/chat.py [--stack NAME] [--question TEXT]

Credentials and Region come from the AWS configuration, as for any boto3 program (AWS_PROFILE, AWS_DEFAULT_REGION, ...).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

import boto3
from botocore.exceptions import BotoCoreError, ClientError
from tooling.chat_agents import Agent, ClassicAgent, Harness

DEFAULT_STACK = "bedrock-agent-search"


class StackError(Exception):
    """The stack cannot be talked to: not found, no credentials, or no agent deployed."""


def agent_of_stack(session: boto3.Session, stack: str) -> Agent:
    """The agent `stack` deployed, from its outputs: AgentPlatform says which (a stack made before the parameter
    existed has only AgentId, the classic agent)."""
    outputs = stack_outputs(session, stack)
    platform = outputs.get("AgentPlatform", "classic" if "AgentId" in outputs else "none")
    if platform == "harness":
        return Harness(session.client("bedrock-agentcore"), outputs["HarnessArn"])
    if platform == "classic":
        return ClassicAgent(session.client("bedrock-agent-runtime"), outputs["AgentId"], outputs["AgentAliasId"])
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


def ask(agent: Agent, question: str) -> bool:
    """Print each step of the agent's answer to `question` as it arrives; False when a tool call failed."""
    ok = True
    try:
        for step in agent.ask(question):
            print(step.render(), flush=True)
            ok = ok and not step.failed
    except (BotoCoreError, ClientError) as error:  # the call refused, or an exception event in the stream
        print(f"  ✗ {error}", flush=True)
        ok = False
    return ok


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
    """0; 1 when a tool call of --question failed; 2 when there is no agent to talk to; 130 on Ctrl-C mid-answer."""
    parser = argparse.ArgumentParser(prog="make chat", description="Chat with the agent a stack deployed.")
    parser.add_argument("--stack", default=DEFAULT_STACK, help=f"the CloudFormation stack (default {DEFAULT_STACK})")
    parser.add_argument("--question", help="ask this one question and exit 1 when a tool call failed")
    args = parser.parse_args(argv)
    session = boto3.Session()
    try:
        agent = agent_of_stack(session, args.stack)
    except StackError as error:
        print(f"make chat: {error}", file=sys.stderr)
        return 2
    print(f"{agent.description} (stack {args.stack}, {session.region_name})")
    try:
        if args.question is not None:
            print(f"> {args.question}")
            return 0 if ask(agent, args.question) else 1
        for question in typed_questions():
            ask(agent, question)
    except KeyboardInterrupt:
        print()
        return 130
    return 0
