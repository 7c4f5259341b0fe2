"""How preparing a collection goes, told to whoever watches (tooling/progress.py shows it): the stages of a
kind's preparation, each counting what it has done."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    """A stage starts with the first call naming it, `done` grows, and it ends with the call where `done` equals
    `total` (None while not known: the rows of a CSV or JSONL file are not counted ahead)."""

    def __call__(self, stage: str, done: int, total: int | None) -> None: ...


def no_progress(stage: str, done: int, total: int | None) -> None:
    """The Progress when nobody watches (a function preparing a raw file at load time)."""
