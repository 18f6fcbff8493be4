"""The MCP endpoint (official ``mcp`` SDK, streamable HTTP at ``/mcp``), authenticated with the same API keys.

Each tool adapts one ``Memory`` use case (docs/api.md lists them beside the REST routes and CLI commands): it
checks the key against the group exactly as the REST routers do, calls Memory in a worker thread (the driver
is synchronous) and answers the same model REST answers, as JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import anyio
from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel

from strata.api.auth import actor, authenticate, check_group, owned_group, owned_pair
from strata.api.memory import (
    MAX_BUDGET,
    MIN_BUDGET,
    ApiKey,
    Correction,
    EpisodeIn,
    FactQuery,
    Memory,
    SearchQuery,
    StoryAsk,
)
from strata.schema.errors import InputError, StrataError
from strata.schema.settings import Settings

Answer = dict[str, Any]


def _when(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError as exc:
        raise InputError(f"not an ISO 8601 time: {value!r}") from exc


def _story(position: int | None, chapter: int | None, source: str | None) -> StoryAsk:
    return StoryAsk(as_of_position=position, as_of_chapter=chapter, source=source)


def _json(value: BaseModel | list[BaseModel]) -> Any:
    if isinstance(value, list):
        return {"result": [v.model_dump(mode="json") for v in value]}
    return value.model_dump(mode="json")


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
            return _json(mem().add_episode(group, body, key.agent))

        return await call(run)

    @mcp.tool()
    async def add_episodes(group: str, episodes: list[dict[str, Any]], ctx: Context) -> Answer:
        """Add several episodes as one job, each as the REST body of POST /groups/{group}/episodes takes it
        (``content``, or chat ``messages``, or structured ``facts``)."""

        def run() -> Answer:
            key = key_of(ctx)
            check_group(key, group, "w")
            bodies = [EpisodeIn.model_validate(e) for e in episodes]
            return _json(mem().add_episodes(group, bodies, key.agent))

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
            return _json(mem().add_source(group, text.encode(), format, name, agent or key.agent))

        return await call(run)

    @mcp.tool()
    async def get_job(uuid: str, ctx: Context) -> Answer:
        """A job's progress: episode counts by status, facts committed, LLM usage."""

        def run() -> Answer:
            owned_group(mem(), key_of(ctx), "job", uuid, "any")
            return _json(mem().job(uuid))

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
            return _json(mem().retract(group, "episode", uuid, purge=purge, key_id=key.id))

        return await call(run)

    @mcp.tool()
    async def retract_source(uuid: str, ctx: Context, purge: bool = False) -> Answer:
        """Retract every episode of a source (a book, a chat log) with the same restore rules; ``purge``: also
        delete the source, its episodes and job, and everything derived only from them."""

        def run() -> Answer:
            key = key_of(ctx)
            group = owned_group(mem(), key, "source", uuid, "w")
            return _json(mem().retract(group, "source", uuid, purge=purge, key_id=key.id))

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
            return _json(mem().correct(group, uuid, fix))

        return await call(run)

    @mcp.tool()
    async def merge_entities(uuid: str, into: str, ctx: Context, reason: str | None = None) -> Answer:
        """Merge entity ``uuid`` into ``into`` (the same person or thing under two names): facts, mentions and
        aliases move, ``uuid`` redirects to ``into`` from then on; undo it with undo_merge."""

        def run() -> Answer:
            key = key_of(ctx)
            return _json(mem().merge(owned_pair(mem(), key, uuid, into), uuid, into, actor=actor(key), reason=reason))

        return await call(run)

    @mcp.tool()
    async def list_merges(uuid: str, ctx: Context, limit: int = 200) -> Answer:
        """Why each name joined this entity (rule, score, forms, who and when); each record can be undone."""

        def run() -> Answer:
            group = owned_group(mem(), key_of(ctx), "entity", uuid, "r")
            return _json(mem().merges(group, uuid, max(1, min(limit, 1000))))

        return await call(run)

    @mcp.tool()
    async def undo_merge(uuid: str, record: str, ctx: Context) -> Answer:
        """Take back a merge into entity ``uuid``, named by its merge record (merge_entities returns it)."""

        def run() -> Answer:
            return _json(mem().unmerge(owned_group(mem(), key_of(ctx), "entity", uuid, "w"), uuid, record))

        return await call(run)

    @mcp.tool()
    async def list_suggestions(group: str, ctx: Context, entity: str | None = None, offset: int = 0,
                               limit: int = 100) -> Answer:
        """Pairs of entities that may be the same (not merged automatically), strongest first; review each with
        review_suggestion."""
        return await call(lambda: _json(reader(ctx, group).suggestions(group, entity, max(0, offset),
                                                                       max(1, min(limit, 1000)))))

    @mcp.tool()
    async def review_suggestion(entity: str, candidate: str, decision: str, ctx: Context, into: str | None = None,
                                reason: str | None = None) -> Answer:
        """``decision`` "accept" merges the pair (into ``into``, default the candidate; undoable) or "reject"
        marks them different for good (never suggested again)."""

        def run() -> Answer:
            key = key_of(ctx)
            group = owned_pair(mem(), key, entity, candidate)
            if decision == "accept":
                return _json(mem().accept_suggestion(group, entity, candidate, into, actor=actor(key)))
            if decision == "reject":
                return _json(mem().reject_suggestion(group, entity, candidate, actor=actor(key), reason=reason))
            raise InputError("decision must be accept or reject", {"decision": decision})

        return await call(run)

    # -- reads -------------------------------------------------------------------------------------------------

    @mcp.tool()
    async def search(group: str, query: str, ctx: Context, limit: int = 10, as_of: str | None = None,
                     known_at: str | None = None, include_history: bool = False, as_of_position: int | None = None,
                     as_of_chapter: int | None = None, source: str | None = None,
                     agent: str | None = None) -> Answer:
        """Hybrid search over facts, entities and episode passages, with provenance. ``as_of`` (valid time) and
        ``known_at`` (what the graph believed then); ``as_of_chapter`` or ``as_of_position`` read a book's story
        up to that point instead of ``as_of`` (``source``: which book)."""

        def run() -> Answer:
            q = SearchQuery(q=query, limit=max(1, min(limit, 100)), as_of=_when(as_of), known_at=_when(known_at),
                            include_history=include_history, agent=agent)
            return _json(reader(ctx, group).search(group, q, _story(as_of_position, as_of_chapter, source)))

        return await call(run)

    @mcp.tool()
    async def get_context(group: str, query: str, ctx: Context, budget_tokens: int = 1000,
                          as_of: str | None = None, agent: str | None = None) -> Answer:
        """One ready-to-paste memory block about the query within budget_tokens (facts with when they were true,
        quotes with speaker and date), and the hits behind it."""

        def run() -> Answer:
            budget = max(MIN_BUDGET, min(budget_tokens, MAX_BUDGET))
            return _json(reader(ctx, group).context(group, query, budget, as_of=_when(as_of), agent=agent))

        return await call(run)

    @mcp.tool()
    async def resolve_entity(group: str, name: str, ctx: Context, limit: int = 10) -> Answer:
        """Which entities a name may mean: exact key, full-text and name-vector matches, best first."""
        return await call(lambda: _json(reader(ctx, group).resolve(group, name, max(1, min(limit, 50)))))

    @mcp.tool()
    async def get_entity(uuid: str, ctx: Context) -> Answer:
        """One entity by uuid; a merged-away uuid answers with the entity it was merged into."""

        def run() -> Answer:
            return _json(mem().entity(owned_group(mem(), key_of(ctx), "entity", uuid, "r"), uuid, follow=True))

        return await call(run)

    @mcp.tool()
    async def entity_timeline(uuid: str, ctx: Context, include_expired: bool = False,
                              as_of_position: int | None = None, as_of_chapter: int | None = None,
                              source: str | None = None) -> Answer:
        """The entity and every fact about it in valid-time order (a book's facts in story order), with
        invalidations; with ``as_of_chapter``/``as_of_position``, what the story stated before that point. A
        merged-away uuid answers for the entity it was merged into."""

        def run() -> Answer:
            group = owned_group(mem(), key_of(ctx), "entity", uuid, "r")
            survivor = mem().survivor(group, uuid) or uuid
            story = _story(as_of_position, as_of_chapter, source)
            return _json(mem().timeline(group, survivor, include_expired, story))

        return await call(run)

    @mcp.tool()
    async def neighborhood(uuid: str, ctx: Context, depth: int = 1, as_of: str | None = None,
                           known_at: str | None = None, include_history: bool = False, limit: int = 200) -> Answer:
        """Entities and facts within ``depth`` (1-3) hops of an entity, over the facts true at ``as_of``."""

        def run() -> Answer:
            group = owned_group(mem(), key_of(ctx), "entity", uuid, "r")
            survivor = mem().survivor(group, uuid) or uuid
            return _json(mem().neighbourhood(group, survivor, max(1, min(depth, 3)), as_of=_when(as_of),
                                             known_at=_when(known_at), include_history=include_history,
                                             limit=max(1, min(limit, 1000))))

        return await call(run)

    @mcp.tool()
    async def paths(group: str, source_entity: str, target_entity: str, ctx: Context, max_depth: int = 4,
                    as_of: str | None = None, limit: int = 10) -> Answer:
        """Shortest paths between two entities (uuid or exact name) over the facts true at ``as_of``."""
        return await call(lambda: _json(reader(ctx, group).paths(group, source_entity, target_entity,
                                                                 max(1, min(max_depth, 6)), as_of=_when(as_of),
                                                                 limit=max(1, min(limit, 50)))))

    @mcp.tool()
    async def entity_notes(uuid: str, ctx: Context, limit: int = 100) -> Answer:
        """The memory notes about an entity (its statements rewritten to stand alone), latest said first."""

        def run() -> Answer:
            group = owned_group(mem(), key_of(ctx), "entity", uuid, "r")
            return _json(mem().notes(group, mem().survivor(group, uuid) or uuid, max(1, min(limit, 1000))))

        return await call(run)

    @mcp.tool()
    async def list_agents(group: str, ctx: Context) -> Answer:
        """Who wrote to the group: each agent's episodes and current facts (``list_facts`` takes ``agent``)."""
        return await call(lambda: _json(reader(ctx, group).agents(group)))

    @mcp.tool()
    async def get_fact(uuid: str, ctx: Context) -> Answer:
        """One fact (current, ended or retracted) with its provenance: supporting spans, messages, speakers."""
        return await call(lambda: _json(mem().fact(owned_group(mem(), key_of(ctx), "fact", uuid, "r"), uuid)))

    @mcp.tool()
    async def list_facts(group: str, ctx: Context, predicate: str | None = None, subject: str | None = None,
                         object: str | None = None, as_of: str | None = None, known_at: str | None = None,
                         include_history: bool = False, cursor: str | None = None, limit: int = 100,
                         as_of_position: int | None = None, as_of_chapter: int | None = None,
                         source: str | None = None, agent: str | None = None, role: str | None = None) -> Answer:
        """A complete, paginated listing of facts (``count``, ``items``, ``next_cursor``). ``subject`` and
        ``object``: an entity uuid or exact name (an office as written, "CEO of Walmart", is its organization's
        slot; ``role`` names an office's role: "CEO", "prime minister"); ``predicate`` as a statement writes
        it ("plays_for", "works at"), normalized as on ingest; ``as_of`` valid time, ``known_at`` transaction
        time; ``agent``: only what that agent asserted. ``as_of_chapter`` or ``as_of_position`` read a book's
        story up to that point instead of ``as_of`` (``source``: which book)."""

        def run() -> Answer:
            query = FactQuery(subject=subject, predicate=predicate, object=object, role=role, as_of=_when(as_of),
                              known_at=_when(known_at), include_history=include_history, agent=agent, cursor=cursor,
                              limit=max(1, min(limit, 1000)))
            return _json(reader(ctx, group).facts(group, query, _story(as_of_position, as_of_chapter, source)))

        return await call(run)

    @mcp.tool()
    async def group_schema(group: str, ctx: Context) -> Answer:
        """The group's entity types and predicates with their counts and functional flags."""
        return await call(lambda: _json(reader(ctx, group).schema(group)))

    @mcp.tool()
    async def network(group: str, ctx: Context, as_of_position: int | None = None, as_of_chapter: int | None = None,
                      source: str | None = None, entity: str | None = None, limit: int = 20) -> Answer:
        """Who appears with whom and who speaks to whom (scenes, quotes either way, first and last place seen),
        strongest first; ``as_of_chapter``/``as_of_position`` read one book's network up to there."""
        return await call(lambda: _json(reader(ctx, group).network(group, _story(as_of_position, as_of_chapter,
                                                                                  source), entity,
                                                                   max(1, min(limit, 500)))))

    @mcp.tool()
    async def communities(group: str, ctx: Context, query: str = "", entity: str | None = None,
                          limit: int = 10) -> Answer:
        """Groups of closely related entities, each with a title (its top members), a summary and its members;
        ``query`` searches titles and summaries, ``entity`` (a uuid) gives the community it belongs to."""
        return await call(lambda: _json(reader(ctx, group).communities(group, query, entity, limit=limit)))

    @mcp.tool()
    async def list_quotes(group: str, ctx: Context, speaker: str | None = None, addressee: str | None = None,
                          offset: int = 0, limit: int = 100) -> Answer:
        """What characters said to whom (``count``, ``items``, ``next_offset``); speaker and addressee by uuid or
        name ("what did Darcy say to Elizabeth": speaker="Darcy", addressee="Elizabeth")."""
        return await call(lambda: _json(reader(ctx, group).quotes(group, speaker, addressee, offset, limit)))

    from strata.api.mcp_retention import register_retention_tools

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
