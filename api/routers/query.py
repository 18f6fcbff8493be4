"""Group-scoped reads: hybrid search, name resolution, complete fact listings, paths, the emergent schema."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from strata.api.auth import read_group
from strata.api.deps import memory
from strata.memory import (
    AgentActivity,
    ClockRequest,
    ContextBlock,
    ContextRequest,
    FactPage,
    FactsRequest,
    GroupClock,
    GroupSchema,
    Memory,
    NetworkRequest,
    PathsRequest,
    PathsResult,
    QuotesRequest,
    Resolution,
    ResolveRequest,
    SearchRequest,
    SearchResult,
)
from strata.schema.bloom import Perspective
from strata.schema.models import QuotePage
from strata.schema.network import Network

router = APIRouter(tags=["query"])


@router.get("/groups/{group}/search", response_model=SearchResult)
def search_group(ask: Annotated[SearchRequest, Query()], group: str = Depends(read_group),
                 mem: Memory = Depends(memory)) -> SearchResult:
    """Hybrid search over facts, entities and episode passages, ranked by relevance to the query; every hit
    carries its provenance (the messages or span that support it for this query) and when it was said."""
    return mem.search(group, ask)


@router.get("/groups/{group}/context", response_model=ContextBlock)
def context(ask: Annotated[ContextRequest, Query()], group: str = Depends(read_group),
            mem: Memory = Depends(memory)) -> ContextBlock:
    """One ready-to-paste memory block for an agent's prompt, never over ``budget_tokens``: facts with when they
    were true, quotes with speaker and date, entity summaries; the hits behind it and the quoted messages."""
    return mem.context(group, ask)


@router.get("/groups/{group}/entities", response_model=Resolution)
def resolve_name(ask: Annotated[ResolveRequest, Query()], group: str = Depends(read_group),
                 mem: Memory = Depends(memory)) -> Resolution:
    """Resolve a name to entities: exact key, full-text and name-vector matches with their scores."""
    return mem.resolve(group, ask)


@router.get("/groups/{group}/facts", response_model=FactPage)
def facts(ask: Annotated[FactsRequest, Query()], group: str = Depends(read_group),
          mem: Memory = Depends(memory)) -> FactPage:
    """A complete, paginated, countable listing of the facts that match (not top-k)."""
    return mem.facts(group, ask)


@router.get("/groups/{group}/agents", response_model=list[AgentActivity])
def group_agents(group: str = Depends(read_group), mem: Memory = Depends(memory)) -> list[AgentActivity]:
    """Who wrote to the group (the ``agent`` of each write, by default the key's name): their episodes and the
    current facts each asserted; ``facts?agent=`` lists them."""
    return mem.agents(group)


@router.get("/groups/{group}/quotes", response_model=QuotePage)
def quotes(ask: Annotated[QuotesRequest, Query()], group: str = Depends(read_group),
           mem: Memory = Depends(memory)) -> QuotePage:
    """What characters said, to whom, in reading order: a complete, paginated listing ("what did Darcy say to
    Elizabeth" is ``speaker=Darcy&addressee=Elizabeth``)."""
    return mem.quotes(group, ask)


@router.get("/groups/{group}/paths", response_model=PathsResult)
def paths(ask: Annotated[PathsRequest, Query()], group: str = Depends(read_group),
          mem: Memory = Depends(memory)) -> PathsResult:
    """Shortest paths between two entities over the facts true at ``as_of`` (default: now)."""
    return mem.paths(group, ask)


@router.get("/groups/{group}/schema", response_model=GroupSchema)
def schema(group: str = Depends(read_group), mem: Memory = Depends(memory)) -> GroupSchema:
    """Entity types and predicates of the group with their counts and functional flags."""
    return mem.schema(group)


@router.get("/groups/{group}/clock", response_model=GroupClock)
def clock(ask: Annotated[ClockRequest, Query()], group: str = Depends(read_group),
          mem: Memory = Depends(memory)) -> GroupClock:
    """The group's clocks, for a time slider: the days on which a current fact starts or ends (valid time,
    earliest first, up to ``limit``) and each book's chapters and length (story time)."""
    return mem.clock(group, ask)


@router.get("/groups/{group}/network", response_model=Network)
def get_network(ask: Annotated[NetworkRequest, Query()], group: str = Depends(read_group),
                mem: Memory = Depends(memory)) -> Network:
    """Who appears with whom (episodes mentioning both) and who speaks to whom (attributed quotes), strongest
    first: weight = scenes + 2 x quotes either way, with the first and last place each pair was seen. With
    ``as_of_chapter``/``as_of_position``, one book's network as read up to there."""
    return mem.network(group, ask)


@router.get("/groups/{group}/bloom-perspective", response_model=Perspective, response_model_by_alias=True)
def bloom_perspective(group: str = Depends(read_group), mem: Memory = Depends(memory)) -> Perspective:
    """A Neo4j Bloom 2.x perspective for the group, to import in Bloom or Aura Explore (docs/browse.md): a
    category per entity type, facts captioned by predicate with ended and retracted ones greyed out, and
    search phrases and scene actions that read this group only."""
    return mem.perspective(group)
