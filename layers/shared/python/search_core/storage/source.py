"""Where one dataset lives: an S3 object or a local file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from search_core.errors import ConfigurationError
from search_core.settings import Settings


@dataclass(frozen=True)
class DataSource:
    """A dataset's location, parsed from `s3://bucket/key` or a path.

    >>> DataSource.parse("events.csv", "s3://my-bucket/data/events.csv").key
    'data/events.csv'
    """

    file_name: str
    bucket: str | None = None
    key: str | None = None
    path: Path | None = None

    @classmethod
    def parse(cls, file_name: str, uri: str) -> DataSource:
        if uri.startswith("s3://"):
            bucket, _, key = uri.removeprefix("s3://").partition("/")
            if not bucket or not key:
                raise ConfigurationError(f"データセット「{file_name}」の URI が不正です（s3://バケット/キー の形式）。")
            return cls(file_name, bucket=bucket, key=key)
        return cls(file_name, path=Path(uri))


def resolve_source(name: str, file_name: str, settings: Settings) -> DataSource:
    """The configured location of dataset `name`; outside Lambda, when unset, the sample in SAMPLE_DATA_DIR."""
    uri = settings.dataset_uris.get(name)
    if uri:
        return DataSource.parse(file_name, uri)
    if settings.in_lambda or settings.sample_data_dir is None:
        raise ConfigurationError(
            f"設定エラー: 環境変数 {name.upper()}_URI が設定されていないため、データセット「{file_name}」を"
            "読み込めません。s3://バケット/キー を設定してください。"
        )
    return DataSource(file_name, path=settings.sample_data_dir / file_name)
