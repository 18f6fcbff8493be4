"""Reads by uuid: an entity, its neighbourhood and timeline, a fact with its provenance; and merging duplicates."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import RedirectResponse

from strata.api.auth import actor, owned_group, owned_pair, principal
from strata.api.deps import memory
from strata.memory import (
    ApiKey,
    Memory,
    MergeRecord,
    MergeResult,
    MergesRequest,
    Neighborhood,
    NeighborhoodRequest,
    Notes,
    NotesRequest,
    SearchHit,
    Timeline,
    TimelineRequest,
    UndoResult,
)
from strata.schema.models import Entity
from strata.schema.requests_write import MergeRequest

router = APIRouter(tags=["entities"])
EntityId = Path(..., max_length=64, description="Entity uuid", examples=["6b0c5e4e-0000-5000-8000-000000000000"])


MOVED: dict[int | str, dict[str, Any]] = {
    308: {"description": "The entity was merged into another: `Location` names the survivor's same read."}}


def _read(mem: Memory, key: ApiKey, uuid: str, request: Request) -> tuple[str, RedirectResponse | None]:
    """The entity's group (checked against the key's rights) and, when the entity was merged away, the redirect
    to the same read of its survivor (merges are sticky)."""
    group = owned_group(mem, key, "entity", uuid, "r")
    survivor = mem.survivor(group, uuid)
    if survivor is None:
        return group, None
    query = f"?{request.url.query}" if request.url.query else ""
    return group, RedirectResponse(request.url.path.replace(uuid, survivor, 1) + query, status_code=308)


@router.get("/entities/{uuid}", response_model=Entity, responses=MOVED)
def get_one(request: Request, uuid: str = EntityId, key: ApiKey = Depends(principal),
            mem: Memory = Depends(memory)) -> Entity | RedirectResponse:
    """One entity; a merged-away uuid redirects (308) to the entity it was merged into."""
    group, moved = _read(mem, key, uuid, request)
    return moved or mem.entity(group, uuid)


@router.get("/entities/{uuid}/neighborhood", response_model=Neighborhood, responses=MOVED)
def get_neighborhood(request: Request, ask: Annotated[NeighborhoodRequest, Query()], uuid: str = EntityId,
                     key: ApiKey = Depends(principal), mem: Memory = Depends(memory)
                     ) -> Neighborhood | RedirectResponse:
    """Entities and facts within ``depth`` hops, over the facts true at ``as_of`` (default: now) or at a point
    of a book's story (``as_of_chapter``/``as_of_position``, docs/story-time.md)."""
    group, moved = _read(mem, key, uuid, request)
    return moved or mem.neighborhood(group, uuid, ask)


@router.get("/entities/{uuid}/timeline", response_model=Timeline, responses=MOVED)
def get_timeline(request: Request, ask: Annotated[TimelineRequest, Query()], uuid: str = EntityId,
                 key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> Timeline | RedirectResponse:
    """Every fact about the entity in valid-time order (then story order: a book's facts as the story states
    them), with when and by what each was invalidated; with a story cut, what the story stated before it."""
    group, moved = _read(mem, key, uuid, request)
    return moved or mem.timeline(group, uuid, ask)


@router.get("/facts/{uuid}", response_model=SearchHit)
def get_fact(uuid: str = Path(..., max_length=64, description="Fact uuid"), key: ApiKey = Depends(principal),
             mem: Memory = Depends(memory)) -> SearchHit:
    """One fact (current, ended or retracted) with its provenance: each supporting span with its text, the
    messages it covers, who said it and when, and its source; ``said_at`` is the earliest of them."""
    return mem.fact(owned_group(mem, key, "fact", uuid, "r"), uuid)


@router.get("/entities/{uuid}/notes", response_model=Notes, responses=MOVED)
def get_notes(request: Request, ask: Annotated[NotesRequest, Query()], uuid: str = EntityId,
              key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> Notes | RedirectResponse:
    """The memory notes about the entity (its statements rewritten to stand alone), latest said first."""
    group, moved = _read(mem, key, uuid, request)
    return moved or mem.notes(group, uuid, ask)


@router.post("/entities/{uuid}:merge", response_model=MergeResult)
def merge(body: MergeRequest, uuid: str = EntityId, key: ApiKey = Depends(principal),
          mem: Memory = Depends(memory)) -> MergeResult:
    """Merge entity ``uuid`` into ``into``: facts, mentions and aliases move; ``uuid`` expires."""
    group = owned_pair(mem, key, uuid, body.into)
    return mem.merge(group, uuid, body.into, actor=actor(key), reason=body.reason)


@router.get("/entities/{uuid}/merges", response_model=list[MergeRecord])
def get_merges(ask: Annotated[MergesRequest, Query()], uuid: str = EntityId, key: ApiKey = Depends(principal),
               mem: Memory = Depends(memory)) -> list[MergeRecord]:
    """Why each name joined this entity: the rule, its score and the forms it compared, per episode."""
    return mem.merges(owned_group(mem, key, "entity", uuid, "r"), uuid, ask)


@router.post("/entities/{uuid}/merges/{record}/undo", response_model=UndoResult)
def undo(uuid: str = EntityId, record: str = Path(..., max_length=64, description="Merge record uuid"),
         key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> UndoResult:
    """Take back a merge into this entity: a consolidation or manual merge revives the merged entity with its
    mentions, facts and quotes; names joined inside an episode are split off to their own entity
    (docs/resolution.md, "Undo")."""
    return mem.unmerge(owned_group(mem, key, "entity", uuid, "w"), uuid, record)
