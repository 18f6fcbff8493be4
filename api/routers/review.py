"""Review of suggested duplicates: list, accept (a merge, undoable) or reject for good."""

from __future__ import annotations

from fastapi import APIRouter, Body, Depends, Path, Query
from pydantic import BaseModel, Field

from strata.api.auth import owned_group, principal, read_group
from strata.api.deps import Runtime, runtime
from strata.graph.edit import MergeResult
from strata.graph.keys import ApiKey
from strata.graph.suggestions import Rejection, Suggestion, accept_suggestion, pending_suggestions, reject_suggestion
from strata.resolve.timeline import recompute_timeline
from strata.schema.errors import NotFoundError
from strata.schema.models import utcnow

router = APIRouter(tags=["review"])
EntityId = Path(..., max_length=64, description="Entity uuid")
CandidateId = Path(..., max_length=64, description="The other entity of the suggestion")


class Accept(BaseModel):
    into: str | None = Field(None, max_length=64, description="The survivor: either entity (default: the candidate).")


class Reject(BaseModel):
    reason: str | None = Field(None, max_length=500)


@router.get("/groups/{group}/suggestions", response_model=list[Suggestion])
def suggestions(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
                entity: str | None = Query(None, max_length=64, description="Only suggestions naming this entity."),
                offset: int = Query(0, ge=0), limit: int = Query(100, ge=1, le=1000)) -> list[Suggestion]:
    """Pairs of entities resolution or the consolidation pass found possibly the same but did not merge,
    strongest first, with how often each is mentioned."""
    return pending_suggestions(rt.graph, group, entity, offset, limit)


def _pair(rt: Runtime, key: ApiKey, uuid: str, candidate: str) -> str:
    group = owned_group(rt, key, "entity", uuid, "w")
    if owned_group(rt, key, "entity", candidate, "w") != group:
        raise NotFoundError(f"entity {candidate} not found")
    return group


@router.post("/entities/{uuid}/suggestions/{candidate}:accept", response_model=MergeResult)
def accept(body: Accept = Body(default_factory=Accept), uuid: str = EntityId, candidate: str = CandidateId,
           key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> MergeResult:
    """Merge the pair (into the candidate unless ``into`` names the other); undo it from the survivor's merge
    records like any merge."""
    group = _pair(rt, key, uuid, candidate)
    return accept_suggestion(rt.graph, group, uuid, candidate, body.into, recompute_timeline, utcnow(),
                             actor=key.name or key.id)


@router.post("/entities/{uuid}/suggestions/{candidate}:reject", response_model=Rejection)
def reject(body: Reject = Body(default_factory=Reject), uuid: str = EntityId, candidate: str = CandidateId,
           key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> Rejection:
    """Not the same: the pair is never suggested again."""
    group = _pair(rt, key, uuid, candidate)
    return reject_suggestion(rt.graph, group, uuid, candidate, utcnow(), actor=key.name or key.id,
                             reason=body.reason)
