"""The MCP endpoint (official ``mcp`` SDK, streamable HTTP at ``/mcp``), authenticated with the same API keys.

Each tool adapts one ``Memory`` use case (docs/api.md lists them beside the REST routes and CLI commands): it
checks the key against the group exactly as the REST routers do, calls Memory in a worker thread (the driver
is synchronous) and answers the same model REST answers, as JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings

from strata.api.auth import authenticate, check_group, owned_group
from strata.api.mcp_reads import answer_json, register_reads
from strata.api.mcp_writes import register_writes
from strata.memory import ApiKey, Memory
from strata.schema.errors import StrataError
from strata.schema.settings import Settings

Answer = dict[str, Any]


def build_mcp(app: FastAPI) -> MCPServer:
    mcp = MCPServer("strata", instructions="Temporal knowledge-graph memory. Every call is scoped to a group "
                                           "your API key may use.")

    def mem() -> Memory:
        return app.state.memory

    def key_of(ctx: Context) -> ApiKey:
        headers = {k.lower(): v for k, v in (ctx.headers or {}).items()}
        auth = headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else headers.get("x-api-key")
        return authenticate(mem(), token)

    def reader(ctx: Context, group: str) -> Memory:
        check_group(key_of(ctx), group, "r")
        return mem()

    async def call(fn: Callable[[], Any]) -> Any:
        try:
            return await anyio.to_thread.run_sync(fn)
        except StrataError as exc:  # the client gets the code and message, never a stack trace
            raise ToolError(f"{exc.code}: {exc.message}") from None

    # -- jobs and episodes (the writes are registered from api/usecases_write.py) --------------------------------

    @mcp.tool()
    async def get_job(uuid: str, ctx: Context) -> Answer:
        """A job's progress: episode counts by status, facts committed, LLM usage."""

        def run() -> Answer:
            owned_group(mem(), key_of(ctx), "job", uuid, "any")
            return answer_json(mem().job(uuid))

        return await call(run)

    @mcp.tool()
    async def get_episode(uuid: str, ctx: Context) -> Answer:
        """An episode's status, error, and the entities and facts extracted from it."""

        def run() -> Answer:
            owned_group(mem(), key_of(ctx), "episode", uuid, "r")
            return mem().episode(uuid)

        return await call(run)

    # -- reads -------------------------------------------------------------------------------------------------

    @mcp.tool()
    async def get_entity(uuid: str, ctx: Context) -> Answer:
        """One entity by uuid; a merged-away uuid answers with the entity it was merged into."""

        def run() -> Answer:
            return answer_json(mem().entity(owned_group(mem(), key_of(ctx), "entity", uuid, "r"), uuid))

        return await call(run)

    @mcp.tool()
    async def list_agents(group: str, ctx: Context) -> Answer:
        """Who wrote to the group: each agent's episodes and current facts (``list_facts`` takes ``agent``)."""
        return await call(lambda: answer_json(reader(ctx, group).agents(group)))

    @mcp.tool()
    async def get_fact(uuid: str, ctx: Context) -> Answer:
        """One fact (current, ended or retracted) with its provenance: supporting spans, messages, speakers."""
        return await call(lambda: answer_json(mem().fact(owned_group(mem(), key_of(ctx), "fact", uuid, "r"), uuid)))

    @mcp.tool()
    async def group_schema(group: str, ctx: Context) -> Answer:
        """The group's entity types and predicates with their counts and functional flags."""
        return await call(lambda: answer_json(reader(ctx, group).schema(group)))

    register_reads(mcp, mem, key_of, call)
    register_writes(mcp, mem, key_of, call)

    return mcp


def mount_mcp(app: FastAPI, settings: Settings) -> None:
    mcp = build_mcp(app)
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    sub = mcp.streamable_http_app(streamable_http_path="/", stateless_http=True, json_response=True,
                                  transport_security=security, host=settings.api_host)
    app.mount("/mcp", sub)
    outer = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: FastAPI):  # the session manager must run for the app's lifetime
        async with outer(a) as state, mcp.session_manager.run():
            yield state

    app.router.lifespan_context = lifespan
