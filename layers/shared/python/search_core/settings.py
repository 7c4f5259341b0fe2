"""Environment variables, parsed once into a typed model."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, Field

from search_core.catalogue import ACTION_GROUPS


class Settings(BaseModel):
    # Keyed by the catalogue's dataset names, from each one's variable (EVENTS_URI for events).
    dataset_uris: dict[str, str] = Field(default_factory=dict)
    in_lambda: bool = False
    # Lambda initialises the function for a SnapStart snapshot (its runtime hooks then run: doors/snapstart.py).
    snap_start: bool = False
    memory_mb: int = Field(default=2048, ge=128)
    query_timeout_seconds: float = Field(default=5.0, gt=0)
    refresh_interval_seconds: float = Field(default=60.0, ge=0)
    cache_dir: Path = Path("/tmp/search-core")
    # Outside Lambda, where a dataset with no URI is read from: the repository's data/ folder, which the local
    # tooling names. The layer itself never looks for anything outside its own folder.
    sample_data_dir: Path | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        uris = {
            group.data: env[group.data_variable] for group in ACTION_GROUPS.values() if env.get(group.data_variable)
        }
        values: dict[str, object] = {
            "dataset_uris": uris,
            "in_lambda": bool(env.get("AWS_LAMBDA_FUNCTION_NAME")),
            "snap_start": env.get("AWS_LAMBDA_INITIALIZATION_TYPE") == "snap-start",
        }
        for field, variable in (
            ("memory_mb", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE"),
            ("query_timeout_seconds", "QUERY_TIMEOUT_SECONDS"),
            ("refresh_interval_seconds", "DATA_REFRESH_SECONDS"),
            ("cache_dir", "DATA_CACHE_DIR"),
            ("sample_data_dir", "SAMPLE_DATA_DIR"),
        ):
            if env.get(variable):
                values[field] = env[variable]
        return cls.model_validate(values)
