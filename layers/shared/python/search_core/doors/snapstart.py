"""Lambda SnapStart's runtime hooks: a function warmed before its snapshot, and as good as a fresh one after a restore.

Before the snapshot, one call of the service loads what a cold start loads (imports, the S3 client, the data and the
worker process), so that all of it is in the snapshot. After a restore, what the snapshot froze is renewed: the S3
client, so credentials are resolved again; the data's ETag, checked again on the next call whatever the refresh
interval; the worker process, restarted if it did not survive; and this process's randomness, reseeded from the
system. The hooks are registered only when Lambda initialises the function for a snapshot
(AWS_LAMBDA_INITIALIZATION_TYPE=snap-start); `snapshot_restore_py` is part of Lambda's Python runtimes.
"""

from __future__ import annotations

import random
from typing import Protocol

from search_core.observability import logger
from search_core.settings import Settings
from search_core.storage import s3


class Restorable(Protocol):
    def warm(self) -> None:
        """Load everything one call needs, by making one call."""

    def restored(self) -> None:
        """Renew what a snapshot froze."""


def register_hooks(function: Restorable, settings: Settings) -> bool:
    """Register `function`'s hooks with Lambda's runtime when it is initialised for a snapshot; whether it was."""
    if not settings.snap_start:
        return False
    from snapshot_restore_py import register_after_restore, register_before_snapshot

    register_before_snapshot(_warmed, function)
    register_after_restore(_restored, function)
    return True


def _warmed(function: Restorable) -> None:
    function.warm()
    logger.info("warmed for the snapshot")


def _restored(function: Restorable) -> None:
    s3.forget_client()
    random.seed()
    function.restored()
    logger.info("restored from the snapshot")
