"""The only module that talks to S3. Failures become DataUnavailable naming the dataset, never a credential."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from search_core.errors import DataUnavailable

_CHUNK_BYTES = 1 << 20


@cache
def _client() -> Any:
    import boto3  # deferred: local-file runs never pay for it
    from botocore.config import Config

    return boto3.client("s3", config=Config(retries={"max_attempts": 3, "mode": "standard"}, connect_timeout=5))


def head_etag(bucket: str, key: str, file_name: str) -> str:
    """The object's current ETag (one cheap request, no body)."""
    try:
        return str(_client().head_object(Bucket=bucket, Key=key)["ETag"])
    except Exception as error:
        raise DataUnavailable(_describe(error, file_name)) from None


def download(bucket: str, key: str, destination: Path, file_name: str) -> str:
    """Stream the object to `destination` (complete or not at all) and return the ETag of what was written."""
    partial = destination.with_suffix(destination.suffix + ".part")
    try:
        response = _client().get_object(Bucket=bucket, Key=key)
        with partial.open("wb") as out:
            for chunk in response["Body"].iter_chunks(_CHUNK_BYTES):
                out.write(chunk)
        expected = response.get("ContentLength")
        if expected is not None and partial.stat().st_size != expected:
            raise DataUnavailable(f"データセット「{file_name}」のダウンロードが途中で切れました。")
        os.replace(partial, destination)
        return str(response["ETag"])
    except DataUnavailable:
        partial.unlink(missing_ok=True)
        raise
    except Exception as error:
        partial.unlink(missing_ok=True)
        raise DataUnavailable(_describe(error, file_name)) from None


def _describe(error: Exception, file_name: str) -> str:
    code = _error_code(error)
    reason = {
        "NoSuchKey": "S3 にオブジェクトがありません",
        "404": "S3 にオブジェクトがありません",
        "NotFound": "S3 にオブジェクトがありません",
        "NoSuchBucket": "S3 バケットがありません",
        "AccessDenied": "S3 へのアクセスが拒否されました",
        "403": "S3 へのアクセスが拒否されました",
    }.get(code, f"S3 から取得できません（{code}）")
    return f"データセット「{file_name}」を読み込めません: {reason}。時間をおいて再試行してください。"


def _error_code(error: Exception) -> str:
    response = getattr(error, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", "不明なエラー"))
    return type(error).__name__
