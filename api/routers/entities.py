"""Reads by uuid: an entity, its neighbourhood and timeline, a fact with its provenance; and merging duplicates."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field

from strata.api.auth import owned_group, principal
from strata.api.deps import Runtime, runtime
from strata.api.story import story_ask
from strata.graph.edit import MergeResult, merge_entities
from strata.graph.keys import ApiKey
from strata.graph.read import (
    MergeRecord,
    entity_notes,
    entity_timeline,
    follow_merges,
    get_entity,
    merge_records,
)
from strata.graph.search import SearchHit, fact_with_provenance
from strata.graph.story import StoryAsk, story_cut
from strata.graph.traverse import Neighborhood, neighborhood
from strata.graph.undo import UndoResult, undo_record
from strata.ingest.rules import split_rules
from strata.resolve.timeline import recompute_timeline
from strata.schema.errors import NotFoundError
from strata.schema.models import Entity, Fact, Note, utcnow

router = APIRouter(tags=["entities"])
EntityId = Path(..., max_length=64, description="Entity uuid", examples=["6b0c5e4e-0000-5000-8000-000000000000"])


MOVED = {308: {"description": "The entity was merged into another: `Location` names the survivor's same read."}}


@router.get("/entities/{uuid}", response_model=Entity, responses=MOVED)
def get_one(request: Request, uuid: str = EntityId, key: ApiKey = Depends(principal),
            rt: Runtime = Depends(runtime)) -> Entity | RedirectResponse:
    """One entity; a merged-away uuid redirects (308) to the entity it was merged into."""
    group = owned_group(rt, key, "entity", uuid, "r")
    return _moved(rt, group, uuid, request) or _entity(rt, key, uuid)[1]


def _moved(rt: Runtime, group: str, uuid: str, request: Request) -> RedirectResponse | None:
    """Merges are sticky: a read of a merged-away entity is sent on to the same read of its survivor."""
    survivor = follow_merges(rt.graph, group, [uuid]).get(uuid)
    if survivor is None or survivor == uuid:
        return None
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(request.url.path.replace(uuid, survivor, 1) + query, status_code=308)


def _entity(rt: Runtime, key: ApiKey, uuid: str) -> tuple[str, Entity]:
    """The entity's group (checked against the key's rights) and the entity, or 404."""
    group = owned_group(rt, key, "entity", uuid, "r")
    entity = get_entity(rt.graph, uuid, group)
    if entity is None:
        raise NotFoundError(f"entity {uuid} not found")
    return group, entity


@router.get("/entities/{uuid}/neighborhood", response_model=Neighborhood, responses=MOVED)
def get_neighborhood(request: Request, uuid: str = EntityId, depth: int = Query(1, ge=1, le=3),
                     as_of: datetime | None = Query(None, description="Valid time (ISO 8601)."),
                     known_at: datetime | None = Query(None, description="Transaction time (ISO 8601)."),
                     include_history: bool = False, limit: int = Query(200, ge=1, le=1000),
                     story: StoryAsk = Depends(story_ask),
                     key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)
                     ) -> Neighborhood | RedirectResponse:
    """Entities and facts within ``depth`` hops, over the facts true at ``as_of`` (default: now) or at a point
    of a book's story (``as_of_chapter``/``as_of_position``, docs/story-time.md)."""
    group = owned_group(rt, key, "entity", uuid, "r")
    if moved := _moved(rt, group, uuid, request):
        return moved
    return neighborhood(rt.graph, group, uuid, depth, as_of=as_of, known_at=known_at,
                        include_history=include_history, story=story_cut(rt.graph, group, story, as_of),
                        limit=limit)


class Timeline(BaseModel):
    entity: Entity
    facts: list[Fact]


@router.get("/entities/{uuid}/timeline", response_model=Timeline, responses=MOVED)
def get_timeline(request: Request, uuid: str = EntityId,
                 include_expired: bool = Query(False, description="Also retracted facts."),
                 story: StoryAsk = Depends(story_ask),
                 key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> Timeline | RedirectResponse:
    """Every fact about the entity in valid-time order (then story order: a book's facts as the story states
    them), with when and by what each was invalidated; with a story cut, what the story stated before it."""
    group, entity = _entity(rt, key, uuid)
    if moved := _moved(rt, group, uuid, request):
        return moved
    return Timeline(entity=entity, facts=entity_timeline(rt.graph, group, uuid, include_expired,
                                                         story=story_cut(rt.graph, group, story)))


@router.get("/facts/{uuid}", response_model=SearchHit)
def get_fact(uuid: str = Path(..., max_length=64, description="Fact uuid"), key: ApiKey = Depends(principal),
             rt: Runtime = Depends(runtime)) -> SearchHit:
    """One fact (current, ended or retracted) with its provenance: each supporting span with its text, the
    messages it covers, who said it and when, and its source; ``said_at`` is the earliest of them."""
    group = owned_group(rt, key, "fact", uuid, "r")
    hit = fact_with_provenance(rt.graph, group, uuid)
    if hit is None:
        raise NotFoundError(f"fact {uuid} not found")
    return hit


class Notes(BaseModel):
    entity: Entity
    notes: list[Note]


@router.get("/entities/{uuid}/notes", response_model=Notes, responses=MOVED)
def get_notes(request: Request, uuid: str = EntityId, limit: int = Query(100, ge=1, le=1000),
              key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> Notes | RedirectResponse:
    """The memory notes about the entity (its statements rewritten to stand alone), latest said first."""
    group, entity = _entity(rt, key, uuid)
    if moved := _moved(rt, group, uuid, request):
        return moved
    return Notes(entity=entity, notes=entity_notes(rt.graph, group, uuid, limit))


class MergeRequest(BaseModel):
    into: str = Field(..., max_length=64, description="The entity that survives.")
    reason: str | None = Field(None, max_length=500)

    model_config = {"json_schema_extra": {"examples": [{"into": "6b0c5e4e-0000-5000-8000-000000000001",
                                                         "reason": "same person"}]}}


@router.post("/entities/{uuid}:merge", response_model=MergeResult)
def merge(body: MergeRequest, uuid: str = EntityId, key: ApiKey = Depends(principal),
          rt: Runtime = Depends(runtime)) -> MergeResult:
    """Merge entity ``uuid`` into ``into``: facts, mentions and aliases move; ``uuid`` expires."""
    group = owned_group(rt, key, "entity", uuid, "w")
    if owned_group(rt, key, "entity", body.into, "w") != group:
        raise NotFoundError(f"entity {body.into} not found")
    return merge_entities(rt.graph, group, uuid, body.into, recompute_timeline, utcnow(), reason=body.reason,
                          actor=key.name or key.id)


@router.get("/entities/{uuid}/merges", response_model=list[MergeRecord])
def get_merges(uuid: str = EntityId, limit: int = Query(200, ge=1, le=1000), key: ApiKey = Depends(principal),
               rt: Runtime = Depends(runtime)) -> list[MergeRecord]:
    """Why each name joined this entity: the rule, its score and the forms it compared, per episode."""
    group, _ = _entity(rt, key, uuid)
    return merge_records(rt.graph, group, uuid, limit)


@router.post("/entities/{uuid}/merges/{record}/undo", response_model=UndoResult)
def undo(uuid: str = EntityId, record: str = Path(..., max_length=64, description="Merge record uuid"),
         key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> UndoResult:
    """Take back a merge into this entity: a consolidation or manual merge revives the merged entity with its
    mentions, facts and quotes; names joined inside an episode are split off to their own entity
    (docs/resolution.md, "Undo")."""
    group = owned_group(rt, key, "entity", uuid, "w")
    return undo_record(rt.graph, group, uuid, record, split_rules(), utcnow())
