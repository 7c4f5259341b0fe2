"""Domain errors: each carries the HTTP status and the Japanese message the agent reads.

They are mapped to Bedrock responses in exactly one place, `search_core.doors.bedrock`.
"""

from __future__ import annotations


class SearchError(Exception):
    """Base class: a failure the agent can act on, with its message already in Japanese."""

    status_code = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class QueryRejected(SearchError):
    """The guard refused the SQL before it ran (not read-only, forbidden table or function, ...)."""


class QueryFailed(SearchError):
    """DuckDB refused or failed the query: wrong column, type mismatch, syntax error, ..."""


class QueryAborted(SearchError):
    """The query ran out of time or memory and was stopped."""


class UnreadableReference(SearchError):
    """A reference the request makes (an article of a law) that cannot be read as one: the message shows the
    writings accepted."""


class NotFound(SearchError):
    status_code = 404


class InvalidRequest(SearchError):
    status_code = 422


class DataUnavailable(SearchError):
    """A dataset could not be fetched or loaded; the message names the dataset, never a credential."""

    status_code = 503


class ConfigurationError(DataUnavailable):
    """The deployment is missing a setting, e.g. a dataset URI in Lambda."""
