"""One exception tree for Strata.

Every error carries a stable machine-readable ``code``. ``RetryableError`` is the branch Celery retries.
All exceptions pass every argument to ``Exception.__init__`` so they pickle across worker boundaries.
"""

from __future__ import annotations

from typing import Any


class StrataError(Exception):
    """Root of every error Strata raises on purpose."""

    code = "strata_error"

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message, details)
        self.message = message
        self.details = details or {}

    def __str__(self) -> str:
        return self.message


class ConfigError(StrataError):
    code = "config_error"


class InputError(StrataError):
    """Bad input from a user or a file: the caller must change something."""

    code = "invalid_input"


class RequestInvalid(InputError):
    """A request that breaks its use case's model (schema/requests.py): a bound, a type, a missing field. REST
    answers 422, MCP and the CLI this error, with the same list of problems."""

    code = "validation_error"


class UnsupportedFormatError(InputError):
    code = "unsupported_format"


class SizeLimitError(InputError):
    code = "too_large"


class NotFoundError(StrataError):
    code = "not_found"


class ServiceError(StrataError):
    """A local service (Neo4j, Redis) could not be managed."""

    code = "service_error"


class SchemaMismatchError(StrataError):
    """The graph's indexes disagree with the configuration (e.g. embedding dimension)."""

    code = "schema_mismatch"


class ExtractionError(StrataError):
    """The extractor produced nothing usable for an episode (after its own repair attempt)."""

    code = "extraction_failed"


class RetryableError(StrataError):
    """A temporary failure: the same call may succeed later."""

    code = "retryable"


class RateLimitedError(RetryableError):
    code = "rate_limited"

    def __init__(self, message: str, retry_after: float | None = None, details: dict[str, Any] | None = None):
        super().__init__(message, details)
        self.args = (message, retry_after, details)
        self.retry_after = retry_after


class UpstreamUnavailableError(RetryableError):
    """Neo4j, Redis or an LLM endpoint is unreachable or answered 5xx."""

    code = "upstream_unavailable"
