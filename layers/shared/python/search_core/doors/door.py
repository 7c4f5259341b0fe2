"""What a door is: how a function tells the calls that come by it, turns one into the action group event its
resolver answers, and hands that answer back in the shape the door's caller reads.

`search_core.doors.dispatch` lists the doors and is the one place that chooses among them. A new door (a Lambda
function URL, say) is one module with its `Door` and one entry in `dispatch.DOORS`.
"""

from __future__ import annotations

from typing import Any, Protocol

from aws_lambda_powertools.utilities.typing import LambdaContext

from search_core.doors.tools import Tool

INTERNAL_ERROR = "内部エラーが発生しました。時間をおいて再試行してください。"
UNENCODABLE = (
    "リクエストに UTF-8 で表せない文字（対になっていないサロゲートなど）が含まれています。文字列を確認してください。"
)


class Refused(Exception):
    """A call its door cannot turn into an action group event; the message tells the caller what to send instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Operations(Protocol):
    """What a door may read of the function it leads to."""

    @property
    def tools(self) -> dict[str, Tool]:
        """The function's operations as tools, by name (derived on first use, ~40 ms: read them only when needed)."""


class Door(Protocol):
    def recognises(self, event: Any, context: LambdaContext) -> bool:
        """Whether this invocation came by this door."""

    def request(self, event: Any, context: LambdaContext, function: Operations) -> Any:
        """The action group event that asks what the call asks; raises `Refused` when the call asks nothing a
        function's operation can answer."""

    def answer(self, response: dict[str, Any]) -> dict[str, Any]:
        """An action group response in the shape this door's caller reads."""
