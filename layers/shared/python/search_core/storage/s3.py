"""The only module that talks to S3. Failures become DataUnavailable naming the dataset, never a credential."""

from __future__ import annotations

import gc
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

from search_core.errors import DataUnavailable

_CHUNK_BYTES = 1 << 20
# One GET stream is commonly measured at 80-100 MB/s, so a multi-gigabyte case-law database alone would take most of
# a function's timeout on its first call. S3's performance guidelines advise byte-range fetches of 8-16 MB over
# concurrent connections instead: parts of 16 MB, eight at once (botocore pools ten connections).
_PART_BYTES = 16 << 20
_PARALLEL_PARTS = 8


@cache
def _client() -> Any:
    """The process's S3 client: botocore's own, which finds credentials, Region and endpoint as boto3's would (boto3
    would add its import and s3transfer's to every cold start, for `upload` alone). Imported here: runs on local
    files never load botocore."""
    from botocore.config import Config
    from botocore.session import get_session

    _settle_what_is_loaded()
    config = Config(retries={"max_attempts": 3, "mode": "standard"}, connect_timeout=5)
    return get_session().create_client("s3", config=config)


def _settle_what_is_loaded() -> None:
    """Keep what the process holds before its first client out of every later garbage collection.

    Making the client adds some 35,000 objects (botocore's S3 model and endpoint rules), enough to set off a full
    collection, which would walk the 50,000 loaded before them too (modules, classes, schemas, all held for the
    process's life): measured, 12-14 ms of a cold start on one CPU. gc.freeze puts those out of the collector's way.
    Once per process: a later freeze would also catch a forgotten client that no collection has freed yet, and keep
    it for good.
    """
    if gc.get_freeze_count() == 0:
        gc.freeze()


def forget_client() -> None:
    """Drop the cached client: the next S3 call makes a new one in a new session, its credentials resolved afresh
    (after a SnapStart restore, those of the snapshot may have expired)."""
    _client.cache_clear()


_ABSENT = frozenset({"NoSuchKey", "404", "NotFound", "AccessDenied", "403"})


@dataclass(frozen=True)
class ObjectHead:
    etag: str
    metadata: dict[str, str]


def head_etag(bucket: str, key: str, file_name: str) -> str:
    """The object's current ETag (one cheap request, no body)."""
    return head(bucket, key, file_name).etag


def head(bucket: str, key: str, file_name: str) -> ObjectHead:
    """The object's current ETag and user metadata (keys in lower case, as S3 keeps them)."""
    found = _head(bucket, key, file_name, absent_is_none=False)
    assert found is not None
    return found


def head_if_present(bucket: str, key: str, file_name: str) -> ObjectHead | None:
    """Like `head`, but None for an object that is not there. Without s3:ListBucket, S3 answers a missing key
    with 403, so a denied one counts as absent too; any other failure raises."""
    return _head(bucket, key, file_name, absent_is_none=True)


def _head(bucket: str, key: str, file_name: str, absent_is_none: bool) -> ObjectHead | None:
    try:
        response = _client().head_object(Bucket=bucket, Key=key)
    except Exception as error:
        if absent_is_none and _error_code(error) in _ABSENT:
            return None
        raise DataUnavailable(_describe(error, file_name)) from None
    return ObjectHead(str(response["ETag"]), {k.lower(): str(v) for k, v in response.get("Metadata", {}).items()})


def download(
    bucket: str, key: str, destination: Path, file_name: str, if_match: str | None = None, part_bytes: int = _PART_BYTES
) -> str:
    """Fetch the object to `destination` (complete or not at all) and return the ETag of what was written.

    With `if_match`, only that version is accepted: one replaced since it was chosen fails instead. An object
    larger than one part is fetched as ranged GETs, several at once, each pinned to the first part's version.
    """
    partial = destination.with_suffix(destination.suffix + ".part")
    try:
        with partial.open("wb") as out:
            etag, size = _first_part(bucket, key, out, if_match, part_bytes)
            rest = [(start, min(start + part_bytes, size)) for start in range(part_bytes, size, part_bytes)]
            with ThreadPoolExecutor(_PARALLEL_PARTS) as pool:
                for _ in pool.map(lambda part: _part(bucket, key, out, etag, *part), rest):
                    pass
        if partial.stat().st_size != size:
            raise _Truncated()
        os.replace(partial, destination)
        return etag
    except _Truncated:
        partial.unlink(missing_ok=True)
        raise DataUnavailable(f"データセット「{file_name}」のダウンロードが途中で切れました。") from None
    except Exception as error:
        partial.unlink(missing_ok=True)
        raise DataUnavailable(_describe(error, file_name)) from None


def _first_part(bucket: str, key: str, out: BinaryIO, if_match: str | None, part_bytes: int) -> tuple[str, int]:
    """Write the object's first part; return its version and whole size (an empty object has no range to ask)."""
    conditions = {"IfMatch": if_match} if if_match else {}
    try:
        response = _client().get_object(Bucket=bucket, Key=key, Range=f"bytes=0-{part_bytes - 1}", **conditions)
    except Exception as error:
        if _error_code(error) not in ("InvalidRange", "416"):
            raise
        response = _client().get_object(Bucket=bucket, Key=key, **conditions)
    written = _write(response, out, 0)
    content_range = str(response.get("ContentRange") or "")
    size = int(content_range.rpartition("/")[2]) if content_range else written
    return str(response["ETag"]), size


def _part(bucket: str, key: str, out: BinaryIO, etag: str, start: int, end: int) -> None:
    response = _client().get_object(Bucket=bucket, Key=key, Range=f"bytes={start}-{end - 1}", IfMatch=etag)
    if _write(response, out, start) != end - start:
        raise _Truncated()


def _write(response: dict[str, Any], out: BinaryIO, offset: int) -> int:
    """Write a response body at `offset` of `out`; the number of bytes written, checked against its length."""
    written = 0
    for chunk in response["Body"].iter_chunks(_CHUNK_BYTES):
        os.pwrite(out.fileno(), chunk, offset + written)
        written += len(chunk)
    expected = response.get("ContentLength")
    if expected is not None and written != expected:
        raise _Truncated()
    return written


class _Truncated(Exception):
    """A body shorter than announced (reported as an incomplete download)."""


def upload(bucket: str, key: str, source: Path, metadata: dict[str, str] | None = None) -> str:
    """Upload `source` (in parts when large) with user `metadata`; return the new object's ETag. For publishing
    tools: raises botocore's errors as they are, with their full detail for the operator."""
    from boto3.s3.transfer import S3Transfer  # what boto3's client.upload_file runs; publishing only

    with S3Transfer(_client()) as transfer:
        transfer.upload_file(str(source), bucket, key, extra_args={"Metadata": metadata} if metadata else None)
    return str(_client().head_object(Bucket=bucket, Key=key)["ETag"])


def _describe(error: Exception, file_name: str) -> str:
    code = _error_code(error)
    reason = {
        "NoSuchKey": "S3 にオブジェクトがありません",
        "404": "S3 にオブジェクトがありません",
        "NotFound": "S3 にオブジェクトがありません",
        "NoSuchBucket": "S3 バケットがありません",
        "AccessDenied": "S3 へのアクセスが拒否されました",
        "403": "S3 へのアクセスが拒否されました",
        "PreconditionFailed": "取得中に S3 のオブジェクトが更新されました",
        "412": "取得中に S3 のオブジェクトが更新されました",
    }.get(code, f"S3 から取得できません（{code}）")
    return f"データセット「{file_name}」を読み込めません: {reason}。時間をおいて再試行してください。"


def _error_code(error: Exception) -> str:
    response = getattr(error, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", "不明なエラー"))
    return type(error).__name__
