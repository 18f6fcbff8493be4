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

from strata.api.auth import actor, authenticate, check_group, owned_group, owned_pair
from strata.api.mcp_reads import answer_json, register_reads
from strata.memory import ApiKey, Correction, EpisodeIn, Memory
from strata.schema.errors import InputError, StrataError
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

    # -- writes ------------------------------------------------------------------------------------------------

    @mcp.tool()
    async def add_episode(group: str, content: str, ctx: Context, reference_time: str | None = None,
                          source: str | None = None, speaker: str | None = None,
                          agent: str | None = None) -> Answer:
        """Add one text episode to a group; returns its uuid and job. ``agent``: who asserts it (default: the
        key's name); two agents saying the same thing are both recorded. Posting a retracted episode again
        processes it again (un-retract)."""

        def run() -> Answer:
            key = key_of(ctx)
            check_group(key, group, "w")
            body = EpisodeIn(content=content, reference_time=reference_time, source=source, speaker=speaker,
                             agent=agent)
            return answer_json(mem().add_episode(group, body, key.agent))

        return await call(run)

    @mcp.tool()
    async def add_episodes(group: str, episodes: list[dict[str, Any]], ctx: Context) -> Answer:
        """Add several episodes as one job, each as the REST body of POST /groups/{group}/episodes takes it
        (``content``, or chat ``messages``, or structured ``facts``)."""

        def run() -> Answer:
            key = key_of(ctx)
            check_group(key, group, "w")
            bodies = [EpisodeIn.model_validate(e) for e in episodes]
            return answer_json(mem().add_episodes(group, bodies, key.agent))

        return await call(run)

    @mcp.tool()
    async def add_source(group: str, text: str, format: str, name: str, ctx: Context, agent: str | None = None
                         ) -> Answer:
        """Ingest a whole file's text (a book, a chat log, a transcript, facts) as one job, segmented into
        episodes as an upload to POST /groups/{group}/sources is; ``format``: book, chat-jsonl, transcript,
        sessions-json or facts-jsonl. The same text again answers the first job (``duplicate_of``)."""

        def run() -> Answer:
            key = key_of(ctx)
            check_group(key, group, "w")
            return answer_json(mem().add_source(group, text.encode(), format, name, agent or key.agent))

        return await call(run)

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

    @mcp.tool()
    async def retract_episode(uuid: str, ctx: Context, purge: bool = False) -> Answer:
        """Retract an episode; facts it alone supported expire and facts it had closed reopen. ``purge``: also
        delete it and everything derived only from it (data removal)."""

        def run() -> Answer:
            key = key_of(ctx)
            group = owned_group(mem(), key, "episode", uuid, "w")
            return answer_json(mem().retract(group, "episode", uuid, purge=purge, key_id=key.id))

        return await call(run)

    @mcp.tool()
    async def retract_source(uuid: str, ctx: Context, purge: bool = False) -> Answer:
        """Retract every episode of a source (a book, a chat log) with the same restore rules; ``purge``: also
        delete the source, its episodes and job, and everything derived only from them."""

        def run() -> Answer:
            key = key_of(ctx)
            group = owned_group(mem(), key, "source", uuid, "w")
            return answer_json(mem().retract(group, "source", uuid, purge=purge, key_id=key.id))

        return await call(run)

    @mcp.tool()
    async def correct_fact(uuid: str, ctx: Context, fact: str | None = None, predicate: str | None = None,
                           object_uuid: str | None = None, valid_at: str | None = None,
                           invalid_at: str | None = None, reason: str | None = None) -> Answer:
        """Correct a fact: text or end (``invalid_at``) in place; a new predicate, object or start makes a new
        version and keeps the old one as history."""

        def run() -> Answer:
            group = owned_group(mem(), key_of(ctx), "fact", uuid, "w")
            asked = {"fact": fact, "predicate": predicate, "object_uuid": object_uuid, "valid_at": valid_at,
                     "invalid_at": invalid_at, "reason": reason}
            fix = Correction.model_validate({k: v for k, v in asked.items() if v is not None})
            return answer_json(mem().correct(group, uuid, fix))

        return await call(run)

    @mcp.tool()
    async def merge_entities(uuid: str, into: str, ctx: Context, reason: str | None = None) -> Answer:
        """Merge entity ``uuid`` into ``into`` (the same person or thing under two names): facts, mentions and
        aliases move, ``uuid`` redirects to ``into`` from then on; undo it with undo_merge."""

        def run() -> Answer:
            key = key_of(ctx)
            group = owned_pair(mem(), key, uuid, into)
            return answer_json(mem().merge(group, uuid, into, actor=actor(key), reason=reason))

        return await call(run)

    @mcp.tool()
    async def undo_merge(uuid: str, record: str, ctx: Context) -> Answer:
        """Take back a merge into entity ``uuid``, named by its merge record (merge_entities returns it)."""

        def run() -> Answer:
            return answer_json(mem().unmerge(owned_group(mem(), key_of(ctx), "entity", uuid, "w"), uuid, record))

        return await call(run)

    @mcp.tool()
    async def review_suggestion(entity: str, candidate: str, decision: str, ctx: Context, into: str | None = None,
                                reason: str | None = None) -> Answer:
        """``decision`` "accept" merges the pair (into ``into``, default the candidate; undoable) or "reject"
        marks them different for good (never suggested again)."""

        def run() -> Answer:
            key = key_of(ctx)
            group = owned_pair(mem(), key, entity, candidate)
            if decision == "accept":
                return answer_json(mem().accept_suggestion(group, entity, candidate, into, actor=actor(key)))
            if decision == "reject":
                return answer_json(mem().reject_suggestion(group, entity, candidate, actor=actor(key), reason=reason))
            raise InputError("decision must be accept or reject", {"decision": decision})

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

    from strata.api.mcp_retention import register_retention_tools

    register_reads(mcp, mem, key_of, call)
    register_retention_tools(mcp, mem, key_of, call)

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
