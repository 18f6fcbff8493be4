"""Group-scoped reads: hybrid search, name resolution, complete fact listings, paths, the emergent schema."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import StringConstraints

from strata.api.auth import read_group
from strata.api.deps import memory
from strata.api.memory import (
    MAX_BUDGET,
    MIN_BUDGET,
    AgentActivity,
    ContextBlock,
    FactPage,
    FactQuery,
    GroupClock,
    GroupSchema,
    Memory,
    PathsResult,
    Resolution,
    SearchQuery,
    SearchResult,
    StoryAsk,
)
from strata.api.story import story_ask
from strata.schema.bloom import Perspective
from strata.schema.models import IsoDatetime, QuotePage
from strata.schema.network import Network

router = APIRouter(tags=["query"])
AS_OF = Query(None, description="Valid time: what was true then (ISO 8601).", examples=["2024-01-01T00:00:00Z"])
KNOWN_AT = Query(None, description="Transaction time: what the graph believed then (ISO 8601).")
# One value of `kinds`: a kind, or several comma-separated (empty parts are skipped), declared so the document
# says which values the server takes.
KindList = Annotated[str, StringConstraints(pattern=r"^\s*(fact|entity|episode)?\s*(,\s*(fact|entity|episode)?\s*)*$")]


def split(values: list[str] | None) -> list[str] | None:
    """Accept repeated parameters and comma-separated lists alike."""
    if not values:
        return None
    out = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return out or None


@router.get("/groups/{group}/search", response_model=SearchResult)
def search_group(
    group: str = Depends(read_group), mem: Memory = Depends(memory),
    q: str = Query("", max_length=2000, description="Free text.", examples=["who is the mayor of Avalon"]),
    limit: int = Query(10, ge=1, le=100), as_of: IsoDatetime | None = AS_OF, known_at: IsoDatetime | None = KNOWN_AT,
    include_history: bool = False,
    types: list[str] | None = Query(None, description="Entity types (repeat or comma-separate)."),
    predicates: list[str] | None = Query(None, description="Fact predicates (repeat or comma-separate), as "
                                                           "written in statements: normalized as on ingest."),
    kinds: list[KindList] | None = Query(None, description="Hit kinds: fact, entity, episode (repeat or "
                                                           "comma-separate)."),
    center: list[str] | None = Query(None, description="Entity uuids to expand from."),
    mmr: bool = Query(False, description="Diversify the results with maximal marginal relevance."),
    said_after: IsoDatetime | None = Query(None, description="Only passages said (facts true from) at or after."),
    said_before: IsoDatetime | None = Query(None, description="Only passages said (facts true from) before."),
    time_words: bool = Query(True, description="Rank higher what falls in the time the question names "
                                               "('in May 2023', 'last year'; relative to as_of or now)."),
    story: StoryAsk = Depends(story_ask),
    agent: str | None = Query(None, max_length=200, description="Only what this agent asserted (its facts and its "
                                                               "episodes' passages; no entity hits)."),
) -> SearchResult:
    """Hybrid search over facts, entities and episode passages, ranked by relevance to the query; every hit
    carries its provenance (the messages or span that support it for this query) and when it was said."""
    query = SearchQuery(q=q, limit=limit, as_of=as_of, known_at=known_at, include_history=include_history,
                        types=split(types), predicates=split(predicates), kinds=split(kinds),
                        center=split(center) or [], mmr=mmr, said_after=said_after, said_before=said_before,
                        agent=agent)
    return mem.search(group, query, story, time_words)


@router.get("/groups/{group}/context", response_model=ContextBlock)
def context(group: str = Depends(read_group), mem: Memory = Depends(memory),
            q: str = Query(..., min_length=1, max_length=2000, examples=["where does Maya live"]),
            budget_tokens: int = Query(1000, ge=MIN_BUDGET, le=MAX_BUDGET,
                                       description="The block's size limit in tokens (WordPiece count)."),
            as_of: IsoDatetime | None = AS_OF,
            time_words: bool = Query(True, description="As in search."),
            agent: str | None = Query(None, max_length=200, description="Only what this agent asserted.")
            ) -> ContextBlock:
    """One ready-to-paste memory block for an agent's prompt, never over ``budget_tokens``: facts with when they
    were true, quotes with speaker and date, entity summaries; the hits behind it and the quoted messages."""
    return mem.context(group, q, budget_tokens, as_of=as_of, time_words=time_words, agent=agent)


@router.get("/groups/{group}/entities", response_model=Resolution)
def resolve_name(group: str = Depends(read_group), mem: Memory = Depends(memory),
                 name: str = Query(..., min_length=1, max_length=300, examples=["Ann Archer"]),
                 limit: int = Query(10, ge=1, le=50)) -> Resolution:
    """Resolve a name to entities: exact key, full-text and name-vector matches with their scores."""
    return mem.resolve(group, name, limit)


@router.get("/groups/{group}/facts", response_model=FactPage)
def facts(group: str = Depends(read_group), mem: Memory = Depends(memory),
          subject: str | None = Query(None, max_length=300, description="Entity uuid or exact name."),
          predicate: str | None = Query(None, max_length=64, examples=["holds_office"],
                                        description="As written in statements (plays_for): normalized as on ingest."),
          object: str | None = Query(None, max_length=300, description=(
              "Entity uuid or exact name; an office as written ('CEO of Walmart') is its organization's slot.")),
          role: str | None = Query(None, max_length=100, examples=["CEO"],
                                   description="An office's role (holds_office): CEO, prime minister, chair..."),
          subject_type: str | None = Query(None, max_length=40), object_type: str | None = Query(None, max_length=40),
          as_of: IsoDatetime | None = AS_OF, known_at: IsoDatetime | None = KNOWN_AT, include_history: bool = False,
          cursor: str | None = Query(None, max_length=512,
                                     description="next_cursor of the previous page (the listing's snapshot)."),
          limit: int = Query(100, ge=1, le=1000), story: StoryAsk = Depends(story_ask),
          agent: str | None = Query(None, max_length=200, description="Only what this agent asserted.")) -> FactPage:
    """A complete, paginated, countable listing of the facts that match (not top-k)."""
    query = FactQuery(subject=subject, predicate=predicate, object=object, role=role, subject_type=subject_type,
                      object_type=object_type, as_of=as_of, known_at=known_at, include_history=include_history,
                      agent=agent, cursor=cursor, limit=limit)
    return mem.facts(group, query, story)


@router.get("/groups/{group}/agents", response_model=list[AgentActivity])
def group_agents(group: str = Depends(read_group), mem: Memory = Depends(memory)) -> list[AgentActivity]:
    """Who wrote to the group (the ``agent`` of each write, by default the key's name): their episodes and the
    current facts each asserted; ``facts?agent=`` lists them."""
    return mem.agents(group)


@router.get("/groups/{group}/quotes", response_model=QuotePage)
def quotes(group: str = Depends(read_group), mem: Memory = Depends(memory),
           speaker: str | None = Query(None, max_length=300, description="Entity uuid or name (or alias)."),
           addressee: str | None = Query(None, max_length=300, description="Entity uuid or name (or alias)."),
           offset: int = Query(0, ge=0, le=1_000_000), limit: int = Query(100, ge=1, le=1000)) -> QuotePage:
    """What characters said, to whom, in reading order: a complete, paginated listing ("what did Darcy say to
    Elizabeth" is ``speaker=Darcy&addressee=Elizabeth``)."""
    return mem.quotes(group, speaker=speaker, addressee=addressee, offset=offset, limit=limit)


@router.get("/groups/{group}/paths", response_model=PathsResult)
def paths(group: str = Depends(read_group), mem: Memory = Depends(memory),
          from_: str = Query(..., alias="from", max_length=300, description="Entity uuid or exact name."),
          to: str = Query(..., max_length=300, description="Entity uuid or exact name."),
          max_depth: int = Query(4, ge=1, le=6), as_of: IsoDatetime | None = AS_OF,
          limit: int = Query(10, ge=1, le=50)) -> PathsResult:
    """Shortest paths between two entities over the facts true at ``as_of`` (default: now)."""
    return mem.paths(group, from_, to, max_depth, as_of=as_of, limit=limit)


@router.get("/groups/{group}/schema", response_model=GroupSchema)
def schema(group: str = Depends(read_group), mem: Memory = Depends(memory)) -> GroupSchema:
    """Entity types and predicates of the group with their counts and functional flags."""
    return mem.schema(group)


@router.get("/groups/{group}/clock", response_model=GroupClock)
def clock(group: str = Depends(read_group), mem: Memory = Depends(memory),
          limit: int = Query(2000, ge=1, le=10000)) -> GroupClock:
    """The group's clocks, for a time slider: the days on which a current fact starts or ends (valid time,
    earliest first, up to ``limit``) and each book's chapters and length (story time)."""
    return mem.clock(group, limit)


@router.get("/groups/{group}/network", response_model=Network)
def get_network(group: str = Depends(read_group), mem: Memory = Depends(memory),
                story: StoryAsk = Depends(story_ask),
                entity: str | None = Query(None, max_length=64, description="Entity uuid: only its interactions."),
                limit: int = Query(20, ge=1, le=500)) -> Network:
    """Who appears with whom (episodes mentioning both) and who speaks to whom (attributed quotes), strongest
    first: weight = scenes + 2 x quotes either way, with the first and last place each pair was seen. With
    ``as_of_chapter``/``as_of_position``, one book's network as read up to there."""
    return mem.network(group, story, entity=entity, limit=limit)


@router.get("/groups/{group}/bloom-perspective", response_model=Perspective, response_model_by_alias=True)
def bloom_perspective(group: str = Depends(read_group), mem: Memory = Depends(memory)) -> Perspective:
    """A Neo4j Bloom 2.x perspective for the group, to import in Bloom or Aura Explore (docs/browse.md): a
    category per entity type, facts captioned by predicate with ended and retracted ones greyed out, and
    search phrases and scene actions that read this group only."""
    return mem.perspective(group)
