"""Group-scoped reads: hybrid search, name resolution, complete fact listings, paths, the emergent schema."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field

from strata.api.auth import read_group
from strata.api.deps import Runtime, runtime
from strata.api.predicates import Embed, stored_predicate_filter, stored_predicates
from strata.api.quotes import quotes_said
from strata.api.recall import MAX_BUDGET, MIN_BUDGET, ContextBlock, context_block, recall_search
from strata.api.story import story_ask
from strata.graph import lucene
from strata.graph.bloom import browse_schema
from strata.graph.network import interaction_network
from strata.graph.read import (
    AgentActivity,
    Candidate,
    FactPage,
    Predicate,
    agents,
    entity_candidates,
    list_facts,
    predicates,
)
from strata.graph.search import SearchQuery, SearchResult, embed_query
from strata.graph.story import GroupClock, StoryAsk, group_clock, story_cut
from strata.graph.traverse import Path, TypeCount, entity_types, shortest_paths
from strata.resolve.lookup import rank_by_name
from strata.resolve.normalize import entity_key
from strata.resolve.types import CandidateEntity
from strata.schema.bloom import Perspective, build_perspective
from strata.schema.errors import InputError
from strata.schema.models import QuotePage, utcnow
from strata.schema.network import Network

router = APIRouter(tags=["query"])
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
AS_OF = Query(None, description="Valid time: what was true then (ISO 8601).", examples=["2024-01-01T00:00:00Z"])
KNOWN_AT = Query(None, description="Transaction time: what the graph believed then (ISO 8601).")


def _embed(rt: Runtime) -> Embed | None:
    return rt.embed if rt.embedder else None


def split(values: list[str] | None) -> list[str] | None:
    """Accept repeated parameters and comma-separated lists alike."""
    if not values:
        return None
    out = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return out or None


@router.get("/groups/{group}/search", response_model=SearchResult)
def search_group(
    group: str = Depends(read_group), rt: Runtime = Depends(runtime),
    q: str = Query("", max_length=2000, description="Free text.", examples=["who is the mayor of Avalon"]),
    limit: int = Query(10, ge=1, le=100), as_of: datetime | None = AS_OF, known_at: datetime | None = KNOWN_AT,
    include_history: bool = False,
    types: list[str] | None = Query(None, description="Entity types (repeat or comma-separate)."),
    predicates: list[str] | None = Query(None, description="Fact predicates (repeat or comma-separate), as "
                                                           "written in statements: normalized as on ingest."),
    kinds: list[str] | None = Query(None, description="Hit kinds: fact, entity, episode."),
    center: list[str] | None = Query(None, description="Entity uuids to expand from."),
    mmr: bool = Query(False, description="Diversify the results with maximal marginal relevance."),
    said_after: datetime | None = Query(None, description="Only passages said (facts true from) at or after."),
    said_before: datetime | None = Query(None, description="Only passages said (facts true from) before."),
    time_words: bool = Query(True, description="Rank higher what falls in the time the question names "
                                               "('in May 2023', 'last year'; relative to as_of or now)."),
    story: StoryAsk = Depends(story_ask),
    agent: str | None = Query(None, max_length=200, description="Only what this agent asserted (its facts and its "
                                                               "episodes' passages; no entity hits)."),
) -> SearchResult:
    """Hybrid search over facts, entities and episode passages, ranked by relevance to the query; every hit
    carries its provenance (the messages or span that support it for this query) and when it was said."""
    wanted = split(kinds)
    if wanted and not set(wanted) <= {"fact", "entity", "episode"}:
        raise InputError("kinds must be fact, entity or episode", {"kinds": wanted})
    if said_after and said_before and said_after >= said_before:
        raise InputError("said_after must be before said_before",
                         {"said_after": said_after.isoformat(), "said_before": said_before.isoformat()})
    stored = stored_predicates(rt.graph, group, split(predicates), _embed(rt))  # as the write path names them
    query = SearchQuery(q=q, limit=limit, as_of=as_of, known_at=known_at, include_history=include_history,
                        types=split(types), predicates=stored, kinds=wanted, center=split(center) or [], mmr=mmr,
                        said_after=said_after, said_before=said_before, agent=agent,
                        story=story_cut(rt.graph, group, story, as_of))
    return recall_search(rt.graph, group, query, rt.embed if rt.embedder else None, time_words)


@router.get("/groups/{group}/context", response_model=ContextBlock)
def context(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
            q: str = Query(..., min_length=1, max_length=2000, examples=["where does Maya live"]),
            budget_tokens: int = Query(1000, ge=MIN_BUDGET, le=MAX_BUDGET,
                                       description="The block's size limit in tokens (WordPiece count)."),
            as_of: datetime | None = AS_OF,
            time_words: bool = Query(True, description="As in search."),
            agent: str | None = Query(None, max_length=200, description="Only what this agent asserted.")
            ) -> ContextBlock:
    """One ready-to-paste memory block for an agent's prompt, never over ``budget_tokens``: facts with when they
    were true, quotes with speaker and date, entity summaries; the hits behind it and the quoted messages."""
    return context_block(rt.graph, group, q, budget_tokens, rt.embed if rt.embedder else None, as_of=as_of,
                         time_words=time_words, agent=agent)


class Resolution(BaseModel):
    name: str
    candidates: list[Candidate]
    # "vector" when the name could not be embedded: exact and full-text matches only (as in search).
    degraded: list[Literal["vector"]] = Field(default_factory=list)


# Candidates each channel proposes before the name rules rank them (the best by name may be a channel's 5th).
LOOKUP_POOL = 20


@router.get("/groups/{group}/entities", response_model=Resolution)
def resolve_name(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
                 name: str = Query(..., min_length=1, max_length=300, examples=["Ann Archer"]),
                 limit: int = Query(10, ge=1, le=50)) -> Resolution:
    """Resolve a name to entities: exact key, full-text and name-vector matches with their scores."""
    keys = _keys(rt, group, name)
    embedding, degraded = embed_query(rt.embed if rt.embedder else None, name)
    vectors = [("q", embedding)] if embedding is not None else []
    text = lucene.any_terms(name, fuzzy=True)
    hits = entity_candidates(rt.graph, group, keys=keys, lucene=[("q", text)] if text else [], vectors=vectors,
                             limit=max(limit, LOOKUP_POOL))
    best: dict[str, Candidate] = {}
    for hit in hits:
        hit = hit.model_copy(update={"query": name, "embedding": None,
                                     "score": _scaled(hit.channel, hit.score)})
        if hit.uuid not in best or hit.score > best[hit.uuid].score:
            best[hit.uuid] = hit
    found = sorted(best.values(), key=lambda c: (-c.score, c.name))
    # Channels say how alike two strings are; the name rules say whether the name can mean the entity.
    order = rank_by_name(name, [CandidateEntity(uuid=c.uuid, name=c.name, type=c.type or "Entity",
                                                aliases=c.aliases, mentions=c.mentions) for c in found],
                         [c.score for c in found])
    ranked = [found[i] for i, _ in order][:limit]
    return Resolution(name=name, candidates=ranked, degraded=degraded)


def _scaled(channel: str, score: float) -> float:
    """One scale for the three channels: key 1.0, vector cosine as is, BM25 squashed below 0.9."""
    if channel == "key":
        return 1.0
    if channel == "fulltext":
        return round(0.9 * score / (score + 1.0), 6)
    return round(float(score), 6)


def _keys(rt: Runtime, group: str, name: str) -> list[str]:
    types = ["Entity", *[t.name for t in entity_types(rt.graph, group) if t.name]]
    keys = set()
    for t in types:
        try:
            keys.add(entity_key(name, t))
        except InputError:
            return []
    return sorted(keys)


def _entity_ref(rt: Runtime, group: str, value: str | None, type_: str | None, role: str) -> str | None:
    """A subject/object filter: a uuid as is, a name through its exact key (ambiguity is an error)."""
    if value is None or UUID.match(value):
        return value
    keys = [entity_key(value, type_)] if type_ else _keys(rt, group, value)
    found = {c.uuid: c for c in entity_candidates(rt.graph, group, keys=keys)} if keys else {}
    if len(found) > 1:
        raise InputError(f"{role} {value!r} names several entities; pass a uuid or {role}_type",
                         {"candidates": [{"uuid": c.uuid, "name": c.name, "type": c.type} for c in found.values()]})
    return next(iter(found), "00000000-0000-0000-0000-000000000000")


@router.get("/groups/{group}/facts", response_model=FactPage)
def facts(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
          subject: str | None = Query(None, max_length=300, description="Entity uuid or exact name."),
          predicate: str | None = Query(None, max_length=64, examples=["holds_office"],
                                        description="As written in statements (plays_for): normalized as on ingest."),
          object: str | None = Query(None, max_length=300, description="Entity uuid or exact name."),
          subject_type: str | None = Query(None, max_length=40), object_type: str | None = Query(None, max_length=40),
          as_of: datetime | None = AS_OF, known_at: datetime | None = KNOWN_AT, include_history: bool = False,
          cursor: str | None = Query(None, max_length=512,
                                     description="next_cursor of the previous page (the listing's snapshot)."),
          limit: int = Query(100, ge=1, le=1000), story: StoryAsk = Depends(story_ask),
          agent: str | None = Query(None, max_length=200, description="Only what this agent asserted.")) -> FactPage:
    """A complete, paginated, countable listing of the facts that match (not top-k)."""
    subject_uuid = _entity_ref(rt, group, subject, subject_type, "subject")
    object_uuid = _entity_ref(rt, group, object, object_type, "object")
    stored = stored_predicate_filter(rt.graph, group, predicate, _embed(rt))  # as the write path names it
    return list_facts(rt.graph, group, subject=subject_uuid, predicate=stored, object=object_uuid,
                      subject_type=subject_type, object_type=object_type, as_of=as_of, known_at=known_at,
                      include_history=include_history, story=story_cut(rt.graph, group, story, as_of), agent=agent,
                      cursor=cursor, limit=limit)


@router.get("/groups/{group}/agents", response_model=list[AgentActivity])
def group_agents(group: str = Depends(read_group), rt: Runtime = Depends(runtime)) -> list[AgentActivity]:
    """Who wrote to the group (the ``agent`` of each write, by default the key's name): their episodes and the
    current facts each asserted; ``facts?agent=`` lists them."""
    return agents(rt.graph, group)


@router.get("/groups/{group}/quotes", response_model=QuotePage)
def quotes(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
           speaker: str | None = Query(None, max_length=300, description="Entity uuid or name (or alias)."),
           addressee: str | None = Query(None, max_length=300, description="Entity uuid or name (or alias)."),
           offset: int = Query(0, ge=0, le=1_000_000), limit: int = Query(100, ge=1, le=1000)) -> QuotePage:
    """What characters said, to whom, in reading order: a complete, paginated listing ("what did Darcy say to
    Elizabeth" is ``speaker=Darcy&addressee=Elizabeth``)."""
    return quotes_said(rt.graph, group, speaker=speaker, addressee=addressee, offset=offset, limit=limit)


class PathsResult(BaseModel):
    paths: list[Path]


@router.get("/groups/{group}/paths", response_model=PathsResult)
def paths(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
          from_: str = Query(..., alias="from", max_length=300, description="Entity uuid or exact name."),
          to: str = Query(..., max_length=300, description="Entity uuid or exact name."),
          max_depth: int = Query(4, ge=1, le=6), as_of: datetime | None = AS_OF,
          limit: int = Query(10, ge=1, le=50)) -> PathsResult:
    """Shortest paths between two entities over the facts true at ``as_of`` (default: now)."""
    a, b = _entity_ref(rt, group, from_, None, "from"), _entity_ref(rt, group, to, None, "to")
    return PathsResult(paths=shortest_paths(rt.graph, group, a or "", b or "", max_depth, as_of=as_of, limit=limit))


class GroupSchema(BaseModel):
    entity_types: list[TypeCount]
    predicates: list[Predicate]


@router.get("/groups/{group}/schema", response_model=GroupSchema)
def schema(group: str = Depends(read_group), rt: Runtime = Depends(runtime)) -> GroupSchema:
    """Entity types and predicates of the group with their counts and functional flags."""
    return GroupSchema(entity_types=entity_types(rt.graph, group), predicates=predicates(rt.graph, group))


@router.get("/groups/{group}/clock", response_model=GroupClock)
def clock(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
          limit: int = Query(2000, ge=1, le=10000)) -> GroupClock:
    """The group's clocks, for a time slider: the days on which a current fact starts or ends (valid time,
    earliest first, up to ``limit``) and each book's chapters and length (story time)."""
    return group_clock(rt.graph, group, limit)


@router.get("/groups/{group}/network", response_model=Network)
def get_network(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
                story: StoryAsk = Depends(story_ask),
                entity: str | None = Query(None, max_length=64, description="Entity uuid: only its interactions."),
                limit: int = Query(20, ge=1, le=500)) -> Network:
    """Who appears with whom (episodes mentioning both) and who speaks to whom (attributed quotes), strongest
    first: weight = scenes + 2 x quotes either way, with the first and last place each pair was seen. With
    ``as_of_chapter``/``as_of_position``, one book's network as read up to there."""
    return interaction_network(rt.graph, group, story=story_cut(rt.graph, group, story), entity_uuid=entity,
                               limit=limit)


@router.get("/groups/{group}/bloom-perspective", response_model=Perspective, response_model_by_alias=True)
def bloom_perspective(group: str = Depends(read_group), rt: Runtime = Depends(runtime)) -> Perspective:
    """A Neo4j Bloom 2.x perspective for the group, to import in Bloom or Aura Explore (docs/browse.md): a
    category per entity type, facts captioned by predicate with ended and retracted ones greyed out, and
    search phrases and scene actions that read this group only."""
    return build_perspective(browse_schema(rt.graph, group), utcnow())
