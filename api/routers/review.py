"""Review of suggested duplicates: list, accept (a merge, undoable) or reject for good."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Path, Query

from strata.api.auth import actor, owned_pair, principal, read_group
from strata.api.deps import memory
from strata.memory import ApiKey, Memory, MergeResult, Rejection, Suggestion, SuggestionsRequest
from strata.schema.requests_write import AcceptRequest, RejectRequest

router = APIRouter(tags=["review"])
EntityId = Path(..., max_length=64, description="Entity uuid")
CandidateId = Path(..., max_length=64, description="The other entity of the suggestion")


@router.get("/groups/{group}/suggestions", response_model=list[Suggestion])
def suggestions(ask: Annotated[SuggestionsRequest, Query()], group: str = Depends(read_group),
                mem: Memory = Depends(memory)) -> list[Suggestion]:
    """Pairs of entities resolution or the consolidation pass found possibly the same but did not merge,
    strongest first, with how often each is mentioned."""
    return mem.suggestions(group, ask)


@router.post("/entities/{uuid}/suggestions/{candidate}:accept", response_model=MergeResult)
def accept(body: AcceptRequest = Body(default_factory=AcceptRequest), uuid: str = EntityId,
           candidate: str = CandidateId, key: ApiKey = Depends(principal),
           mem: Memory = Depends(memory)) -> MergeResult:
    """Merge the pair (into the candidate unless ``into`` names the other); undo it from the survivor's merge
    records like any merge."""
    return mem.accept_suggestion(owned_pair(mem, key, uuid, candidate), uuid, candidate, body.into, actor=actor(key))


@router.post("/entities/{uuid}/suggestions/{candidate}:reject", response_model=Rejection)
def reject(body: RejectRequest = Body(default_factory=RejectRequest), uuid: str = EntityId,
           candidate: str = CandidateId, key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> Rejection:
    """Not the same: the pair is never suggested again."""
    return mem.reject_suggestion(owned_pair(mem, key, uuid, candidate), uuid, candidate, actor=actor(key),
                                 reason=body.reason)
