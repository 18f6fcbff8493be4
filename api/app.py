"""The FastAPI application factory and its lifespan: the runtime (memory/runtime.py) and the ``Memory`` over it.

Endpoints that call the synchronous Neo4j driver are plain ``def`` so Starlette runs them in its thread pool.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from strata.api import errors
from strata.api.query_params import SingleValuedQuery
from strata.memory import Memory, Runtime, build_runtime
from strata.schema.settings import Settings

REQUESTS = Counter("strata_http_requests_total", "HTTP requests", ["method", "route", "status"])
LATENCY = Histogram("strata_http_request_seconds", "HTTP request latency", ["method", "route"])

DESCRIPTION = """Strata: a temporal knowledge graph over what your users and documents said.

Authenticate with `Authorization: Bearer <key>` (or `X-API-Key`); keys are scoped to groups with `r`/`w` rights.
Every error is `{"error": {"code", "message", "details"}}`. Times are ISO 8601; naive times are UTC.
"""


class BodyLimit:
    """413 for bodies over ``max_bytes``: checks Content-Length, then counts chunked bodies as they stream."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            return await self._reject(send)
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._reject(send)

    async def _reject(self, send: Send) -> None:
        response = errors.error_json(413, "too_large", f"request body exceeds {self.max_bytes} bytes",
                                     {"max_bytes": self.max_bytes})
        await send({"type": "http.response.start", "status": 413, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})


class _TooLarge(Exception):
    pass


def _collect_ingest_state(rt: Runtime, settings: Settings, stack: AsyncExitStack) -> None:
    """/metrics also reports episodes by status and queue depth (read when scraped), once per process."""
    from prometheus_client import REGISTRY

    from strata.ingest.metrics import register_state_collector

    try:
        collector = register_state_collector(rt.graph, settings.redis_url, [settings.celery_queue])
    except ValueError:  # another app in this process already reports them
        return
    stack.callback(REGISTRY.unregister, collector)


def create_app(settings: Settings, *, inline: bool = False, runtime: Runtime | None = None) -> FastAPI:
    """``inline``: commit episodes during the request instead of queueing them (tests, single-process dev)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            rt = runtime or build_runtime(settings, pipeline=inline, celery=not inline, migrate=True)
            if runtime is None:
                stack.callback(rt.close)
            app.state.runtime = rt
            app.state.memory = Memory(rt)
            if runtime is None:
                _collect_ingest_state(rt, settings, stack)
            yield

    app = FastAPI(title="Strata", version="1", description=DESCRIPTION, lifespan=lifespan,
                  responses=errors.ERROR_RESPONSES)
    errors.install(app)
    _install_routes(app, settings)
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    app.add_middleware(SingleValuedQuery, api=app)

    @app.middleware("http")
    async def metrics(request: Any, call_next: Any) -> Any:
        started = time.perf_counter()
        response = await call_next(request)
        route = getattr(request.scope.get("route"), "path", "unmatched")
        REQUESTS.labels(request.method, route, str(response.status_code)).inc()
        LATENCY.labels(request.method, route).observe(time.perf_counter() - started)
        return response

    return app


def app_from_environment() -> FastAPI:
    """The app as each process of a multi-process `strata serve` builds it (settings from the environment)."""
    return create_app(Settings())


def _install_routes(app: FastAPI, settings: Settings) -> None:
    from strata.api.explorer import mount_explorer
    from strata.api.routers import browser, entities, health, query, retention, review, summaries, writes

    app.include_router(health.router)
    app.include_router(browser.router)
    mount_explorer(app)
    for module in (query, entities, review, writes, summaries, retention):
        app.include_router(module.router, prefix="/v1")
    try:
        from strata.api.mcp_server import mount_mcp
    except ImportError:  # the MCP endpoint is optional when the `mcp` package is absent
        return
    mount_mcp(app, settings)
