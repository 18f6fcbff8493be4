"""Errors at the HTTP boundary: every failure is JSON ``{error: {code, message, details}}``; no stack traces."""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from strata.schema.errors import (
    ConfigError,
    InputError,
    NotFoundError,
    RateLimitedError,
    RequestInvalid,
    RetryableError,
    SchemaMismatchError,
    SizeLimitError,
    StrataError,
    UnsupportedFormatError,
)

log = logging.getLogger("strata.api")


class UnauthorizedError(StrataError):
    code = "unauthorized"


class ForbiddenError(StrataError):
    code = "forbidden"


class ErrorBody(BaseModel):
    code: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorResponse(BaseModel):
    error: ErrorBody


# Most specific first.
_STATUS: list[tuple[type[StrataError], int]] = [
    (UnauthorizedError, 401), (ForbiddenError, 403), (NotFoundError, 404), (SizeLimitError, 413),
    (UnsupportedFormatError, 415), (RequestInvalid, 422), (InputError, 400), (RateLimitedError, 429),
    (RetryableError, 503), (SchemaMismatchError, 500), (ConfigError, 500),
]
_HIDDEN = (ConfigError, SchemaMismatchError)  # server-side problems: never echo their text to clients

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": text}
    for status, text in [(400, "Invalid input"), (401, "Missing or invalid API key"),
                         (403, "The key lacks the right or the group"), (404, "Not found (or not visible to the key)"),
                         (413, "Request too large"), (415, "Unsupported media type or file format"),
                         (422, "Request validation failed"),
                         (503, "A backing service is unavailable")]
}


def status_for(exc: StrataError) -> int:
    return next((status for cls, status in _STATUS if isinstance(exc, cls)), 500)


def error_json(status: int, code: str, message: str, details: dict[str, Any] | None = None,
               headers: dict[str, str] | None = None) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return JSONResponse(body, status_code=status, headers=headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(StrataError)
    def strata_error(_: Request, exc: StrataError) -> JSONResponse:
        status = status_for(exc)
        if isinstance(exc, _HIDDEN) or status >= 500:
            log.error("server error %s: %s", exc.code, exc.message)
            if isinstance(exc, _HIDDEN):
                return error_json(500, exc.code, "the server is misconfigured; see its logs")
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        if isinstance(exc, RateLimitedError) and exc.retry_after:
            headers = {"Retry-After": str(int(exc.retry_after) + 1)}
        return error_json(status, exc.code, exc.message, _jsonable(exc.details), headers)

    @app.exception_handler(RequestValidationError)
    def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
                     "type": str(e.get("type", ""))} for e in exc.errors()]
        return error_json(422, "validation_error", "the request does not match the API schema",
                          {"errors": problems})

    @app.exception_handler(StarletteHTTPException)
    def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(exc.status_code, "http_error")
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405 and (allowed := allowed_methods(app, request.scope["path"])) is not None:
            headers = {**(headers or {}), "Allow": ", ".join(allowed)}
        return error_json(exc.status_code, code, str(exc.detail), headers=headers)

    @app.exception_handler(Exception)
    def unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return error_json(500, "internal_error", "internal server error")


def allowed_methods(app: FastAPI, path: str) -> list[str] | None:
    """The methods the OpenAPI document declares for the resource a 405 answers for (None: not a documented
    path). Starlette names those of the first route whose template matches, but ``/v1/entities/{uuid}`` also
    matches ``/v1/entities/x:merge``: the resource is the most specific matching template (most literal
    characters)."""
    paths: dict[str, dict[str, Any]] = app.openapi()["paths"]
    matching = [t for t in paths if _template(t).fullmatch(path)]
    if not matching:
        return None
    best = max(matching, key=lambda t: len(re.sub(r"\{[^}]*\}", "", t)))
    return sorted(m.upper() for m in paths[best])


@functools.lru_cache(maxsize=256)
def _template(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]*\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts))


def _jsonable(details: dict[str, Any]) -> dict[str, Any]:
    return {str(k): (v if isinstance(v, str | int | float | bool | type(None) | list | dict) else str(v))
            for k, v in details.items()}
