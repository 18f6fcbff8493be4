"""The MCP endpoint (official ``mcp`` SDK, streamable HTTP at ``/mcp``), authenticated with the same API keys.

Tools: add_episode, search, get_context, get_entity, entity_timeline, list_facts, network, list_quotes,
retract_episode, merge_entities, undo_merge, list_suggestions, review_suggestion. Each tool
checks the key against the group exactly as the REST routers do, and runs the synchronous driver in a worker
thread.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar

import anyio
from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings

from strata.api.auth import authenticate, check_group, owned_group
from strata.api.deps import Runtime
from strata.api.predicates import stored_predicate_filter
from strata.api.quotes import quotes_said
from strata.api.recall import MAX_BUDGET, MIN_BUDGET, context_block, recall_search
from strata.api.routers.bodies import EpisodeIn, to_episode
from strata.graph.edit import merge_entities as do_merge
from strata.graph.keys import ApiKey
from strata.graph.network import interaction_network
from strata.graph.read import entity_timeline as read_timeline
from strata.graph.read import follow_merges
from strata.graph.read import get_entity as read_entity
from strata.graph.read import list_facts as read_facts
from strata.graph.retract import retract_episode as do_retract
from strata.graph.search import SearchQuery
from strata.graph.story import StoryAsk, StoryCut, story_cut
from strata.graph.suggestions import accept_suggestion, pending_suggestions, reject_suggestion
from strata.graph.undo import undo_record
from strata.ingest.rules import split_rules
from strata.resolve.timeline import recompute_timeline
from strata.schema.errors import InputError, NotFoundError, StrataError
from strata.schema.models import utcnow
from strata.schema.settings import Settings

T = TypeVar("T")


def build_mcp(app: FastAPI) -> MCPServer:
    mcp = MCPServer("strata", instructions="Temporal knowledge-graph memory. Every call is scoped to a group "
                                           "your API key may use.")

    def rt() -> Runtime:
        return app.state.runtime

    def key_of(ctx: Context) -> ApiKey:
        headers = {k.lower(): v for k, v in (ctx.headers or {}).items()}
        auth = headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else headers.get("x-api-key")
        return authenticate(rt(), token)

    def cut_of(group: str, position: int | None, chapter: int | None, source: str | None,
               as_of: datetime | None = None) -> StoryCut | None:
        """The story cut the tool's arguments name (docs/story-time.md), or a 4xx-style error."""
        return story_cut(rt().graph, group, StoryAsk(as_of_position=position, as_of_chapter=chapter, source=source),
                         as_of)

    async def call(fn: Callable[[], T]) -> T:
        try:
            return await anyio.to_thread.run_sync(fn)
        except StrataError as exc:  # the client gets the code and message, never a stack trace
            raise ToolError(f"{exc.code}: {exc.message}") from None

    @mcp.tool()
    async def add_episode(group: str, content: str, ctx: Context, reference_time: str | None = None,
                          source: str | None = None, speaker: str | None = None,
                          agent: str | None = None) -> dict[str, Any]:
        """Add one text episode to a group; returns its uuid and job. ``agent``: who asserts it (default: the
        key's name); two agents saying the same thing are both recorded."""
        from strata.ingest.submit import submit_episodes

        def run() -> dict[str, Any]:
            key = key_of(ctx)
            check_group(key, group, "w")
            body = EpisodeIn(content=content, reference_time=reference_time, source=source, speaker=speaker,
                             agent=agent)
            episode = to_episode(group, body, rt().settings.max_episode_chars, agent=key.agent)
            job = submit_episodes(rt().graph, rt().celery, group, [episode], agent=key.agent,
                                  inline_pipeline=rt().inline_pipeline)
            return {"episode_uuid": episode.uuid, "job_id": job.uuid, "status": job.status}

        return await call(run)

    @mcp.tool()
    async def search(group: str, query: str, ctx: Context, limit: int = 10, as_of: str | None = None,
                     include_history: bool = False, as_of_position: int | None = None,
                     as_of_chapter: int | None = None, source: str | None = None,
                     agent: str | None = None) -> dict[str, Any]:
        """Hybrid search over facts, entities and episode passages, with provenance. ``as_of_chapter`` or
        ``as_of_position`` read a book's story up to that point instead of ``as_of`` (``source``: which book)."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            when = datetime.fromisoformat(as_of) if as_of else None
            cut = cut_of(group, as_of_position, as_of_chapter, source, when)
            q = SearchQuery(q=query, limit=max(1, min(limit, 100)), as_of=when, include_history=include_history,
                            story=cut, agent=agent)
            return recall_search(rt().graph, group, q, rt().embed if rt().embedder else None).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def get_context(group: str, query: str, ctx: Context, budget_tokens: int = 1000,
                          as_of: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """One ready-to-paste memory block about the query within budget_tokens (facts with when they were true,
        quotes with speaker and date), and the hits behind it."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            when = datetime.fromisoformat(as_of) if as_of else None
            budget = max(MIN_BUDGET, min(budget_tokens, MAX_BUDGET))
            return context_block(rt().graph, group, query, budget, rt().embed if rt().embedder else None,
                                 as_of=when, agent=agent).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def get_entity(uuid: str, ctx: Context) -> dict[str, Any]:
        """One entity by uuid; a merged-away uuid answers with the entity it was merged into."""

        def run() -> dict[str, Any]:
            group = owned_group(rt(), key_of(ctx), "entity", uuid, "r")
            survivor = follow_merges(rt().graph, group, [uuid]).get(uuid, uuid)
            entity = read_entity(rt().graph, survivor, group)
            if entity is None:
                raise NotFoundError(f"entity {uuid} not found")
            return entity.model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def entity_timeline(uuid: str, ctx: Context, as_of_position: int | None = None,
                              as_of_chapter: int | None = None, source: str | None = None) -> dict[str, Any]:
        """Every fact about an entity in valid-time order (a book's facts in story order), with invalidations;
        with ``as_of_chapter``/``as_of_position``, what the book's story stated before that point."""

        def run() -> dict[str, Any]:
            group = owned_group(rt(), key_of(ctx), "entity", uuid, "r")
            cut = cut_of(group, as_of_position, as_of_chapter, source)
            return {"facts": [f.model_dump(mode="json") for f in read_timeline(rt().graph, group, uuid, story=cut)]}

        return await call(run)

    @mcp.tool()
    async def list_facts(group: str, ctx: Context, predicate: str | None = None, subject: str | None = None,
                         as_of: str | None = None, cursor: str | None = None, limit: int = 100,
                         as_of_position: int | None = None, as_of_chapter: int | None = None,
                         source: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """A complete, paginated listing of facts (``count``, ``items``, ``next_cursor``); ``agent``: only what that
        agent asserted; ``predicate`` as a
        statement writes it ("plays_for", "works at"), normalized as on ingest. ``as_of_chapter`` or
        ``as_of_position`` read a book's story up to that point instead of ``as_of`` (``source``: which book)."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            when = datetime.fromisoformat(as_of) if as_of else None
            stored = stored_predicate_filter(rt().graph, group, predicate,  # as the write path names it
                                             rt().embed if rt().embedder else None)
            cut = cut_of(group, as_of_position, as_of_chapter, source, when)
            return read_facts(rt().graph, group, predicate=stored, subject=subject, as_of=when, story=cut,
                              agent=agent, cursor=cursor, limit=max(1, min(limit, 1000))).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def network(group: str, ctx: Context, as_of_position: int | None = None, as_of_chapter: int | None = None,
                      source: str | None = None, entity: str | None = None, limit: int = 20) -> dict[str, Any]:
        """Who appears with whom and who speaks to whom (scenes, quotes either way, first and last place seen),
        strongest first; ``as_of_chapter``/``as_of_position`` read one book's network up to there."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            cut = cut_of(group, as_of_position, as_of_chapter, source)
            return interaction_network(rt().graph, group, story=cut, entity_uuid=entity,
                                       limit=max(1, min(limit, 500))).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def communities(group: str, ctx: Context, query: str = "", entity: str | None = None,
                          limit: int = 10) -> dict[str, Any]:
        """Groups of closely related entities, each with a title (its top members), a summary and its members;
        ``query`` searches titles and summaries, ``entity`` (a uuid) gives the community it belongs to."""
        from strata.graph.communities import list_communities

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            found = list_communities(rt().graph, group, query=query, entity_uuid=entity, limit=limit)
            return {"communities": [c.model_dump(mode="json") for c in found]}

        return await call(run)

    @mcp.tool()
    async def list_quotes(group: str, ctx: Context, speaker: str | None = None, addressee: str | None = None,
                          offset: int = 0, limit: int = 100) -> dict[str, Any]:
        """What characters said to whom (``count``, ``items``, ``next_offset``); speaker and addressee by uuid or
        name ("what did Darcy say to Elizabeth": speaker="Darcy", addressee="Elizabeth")."""

        def run() -> dict[str, Any]:
            check_group(key_of(ctx), group, "r")
            return quotes_said(rt().graph, group, speaker=speaker, addressee=addressee, offset=offset,
                               limit=limit).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def retract_episode(uuid: str, ctx: Context) -> dict[str, Any]:
        """Retract an episode; facts it alone supported expire and facts it had closed reopen."""

        def run() -> dict[str, Any]:
            group = owned_group(rt(), key_of(ctx), "episode", uuid, "w")
            return do_retract(rt().graph, group, uuid, recompute_timeline, utcnow()).model_dump()

        return await call(run)

    def pair(key: ApiKey, uuid: str, other: str) -> str:
        group = owned_group(rt(), key, "entity", uuid, "w")
        if owned_group(rt(), key, "entity", other, "w") != group:
            raise NotFoundError(f"entity {other} not found")
        return group

    @mcp.tool()
    async def merge_entities(uuid: str, into: str, ctx: Context, reason: str | None = None) -> dict[str, Any]:
        """Merge entity ``uuid`` into ``into`` (the same person or thing under two names): facts, mentions and
        aliases move, ``uuid`` redirects to ``into`` from then on; undo it with undo_merge."""

        def run() -> dict[str, Any]:
            key = key_of(ctx)
            group = pair(key, uuid, into)
            return do_merge(rt().graph, group, uuid, into, recompute_timeline, utcnow(), reason=reason,
                            actor=key.name or key.id).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def undo_merge(uuid: str, record: str, ctx: Context) -> dict[str, Any]:
        """Take back a merge into entity ``uuid``, named by its merge record (merge_entities returns it)."""

        def run() -> dict[str, Any]:
            group = owned_group(rt(), key_of(ctx), "entity", uuid, "w")
            return undo_record(rt().graph, group, uuid, record, split_rules(), utcnow()).model_dump(mode="json")

        return await call(run)

    @mcp.tool()
    async def list_suggestions(group: str, ctx: Context, entity: str | None = None, offset: int = 0,
                               limit: int = 100) -> list[dict[str, Any]]:
        """Pairs of entities that may be the same (not merged automatically), strongest first; review each with
        review_suggestion."""

        def run() -> list[dict[str, Any]]:
            check_group(key_of(ctx), group, "r")
            return [s.model_dump(mode="json") for s in pending_suggestions(rt().graph, group, entity, max(0, offset),
                                                                          max(1, min(limit, 1000)))]

        return await call(run)

    @mcp.tool()
    async def review_suggestion(entity: str, candidate: str, decision: str, ctx: Context, into: str | None = None,
                                reason: str | None = None) -> dict[str, Any]:
        """``decision`` "accept" merges the pair (into ``into``, default the candidate; undoable) or "reject"
        marks them different for good (never suggested again)."""

        def run() -> dict[str, Any]:
            key = key_of(ctx)
            group = pair(key, entity, candidate)
            actor = key.name or key.id
            if decision == "accept":
                return accept_suggestion(rt().graph, group, entity, candidate, into, recompute_timeline, utcnow(),
                                         actor=actor).model_dump(mode="json")
            if decision == "reject":
                return reject_suggestion(rt().graph, group, entity, candidate, utcnow(), actor=actor,
                                         reason=reason).model_dump(mode="json")
            raise InputError("decision must be accept or reject", {"decision": decision})

        return await call(run)

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
