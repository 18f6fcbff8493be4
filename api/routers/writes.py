"""Writes: add episodes (one, a batch, an uploaded source), jobs and episode status, retraction, corrections."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, File, Form, Path, Query, UploadFile

from strata.api.auth import owned_group, principal, write_group
from strata.api.deps import memory
from strata.memory import (
    ApiKey,
    BatchAccepted,
    BatchIn,
    ConsolidationResult,
    Correction,
    CorrectionResult,
    EpisodeAccepted,
    EpisodeIn,
    JobInfo,
    Memory,
    PurgeRecord,
    Removal,
)
from strata.schema.errors import InputError
from strata.schema.requests_write import ConsolidateRequest, PurgeGroupRequest, RetractRequest, SourceRequest

router = APIRouter(tags=["writes"])
Uuid = Path(..., max_length=64, examples=["0f6e2a52-8c1d-5b8e-9a55-3f0d7a1c2b11"])


@router.post("/groups/{group}/episodes", status_code=202, response_model=EpisodeAccepted)
def add_episode(body: EpisodeIn, group: str = Depends(write_group), key: ApiKey = Depends(principal),
                mem: Memory = Depends(memory)) -> EpisodeAccepted:
    """Queue one episode for extraction; poll ``GET /v1/episodes/{episode_uuid}`` or the job."""
    return mem.add_episode(group, body, key.agent)


@router.post("/groups/{group}/episodes:batch", status_code=202, response_model=BatchAccepted)
def add_episodes(body: BatchIn, group: str = Depends(write_group), key: ApiKey = Depends(principal),
                 mem: Memory = Depends(memory)) -> BatchAccepted:
    """Queue several episodes as one job (processed in order per group)."""
    return mem.add_episodes(group, body.episodes, key.agent)


@router.post("/groups/{group}/sources", status_code=202, response_model=JobInfo)
def upload_source(ask: Annotated[SourceRequest, Form()],
                  file: UploadFile = File(..., description="The file to ingest (not empty).",
                                          json_schema_extra={"minLength": 1}),
                  group: str = Depends(write_group), key: ApiKey = Depends(principal),
                  mem: Memory = Depends(memory)) -> JobInfo:
    """Upload a book, chat log, transcript or facts file; it is segmented into episodes and queued as one job.
    The same file uploaded again to the same group returns the first job (``duplicate_of``)."""
    data = file.file.read(mem.settings.max_request_bytes + 1)  # one byte over says it is too large
    return mem.add_source(group, data, ask.format, ask.name or file.filename or "upload", ask.agent or key.agent)


@router.get("/jobs/{uuid}", response_model=JobInfo)
def get_job(uuid: str = Uuid, key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> JobInfo:
    """Progress of a job: episode counts by status and facts committed (a writer may poll what it wrote)."""
    owned_group(mem, key, "job", uuid, "any")
    return mem.job(uuid)


@router.get("/episodes/{uuid}")
def get_episode(uuid: str = Uuid, key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> dict[str, Any]:
    """An episode's status, error, and the entities and facts extracted from it."""
    owned_group(mem, key, "episode", uuid, "r")
    return mem.episode(uuid)


@router.delete("/episodes/{uuid}", response_model=Removal)
def delete_episode(ask: Annotated[RetractRequest, Query()], uuid: str = Uuid, key: ApiKey = Depends(principal),
                   mem: Memory = Depends(memory)) -> Removal:
    """Retract an episode: facts only it supported expire (kept as history); facts it had closed reopen. With
    ``purge=true`` it is retracted (if it was not) and then deleted with everything derived only from it."""
    return mem.retract(owned_group(mem, key, "episode", uuid, "w"), "episode", uuid, purge=ask.purge, key_id=key.id)


@router.delete("/sources/{uuid}", response_model=Removal)
def delete_source(ask: Annotated[RetractRequest, Query()], uuid: str = Uuid, key: ApiKey = Depends(principal),
                  mem: Memory = Depends(memory)) -> Removal:
    """Retract every episode of a source, with the same restore rules as for one episode; with ``purge=true``
    delete the source, its episodes and job, and everything derived only from them."""
    return mem.retract(owned_group(mem, key, "source", uuid, "w"), "source", uuid, purge=ask.purge, key_id=key.id)


@router.delete("/groups/{group}", response_model=PurgeRecord)
def delete_group(ask: Annotated[PurgeGroupRequest, Query()], group: str = Depends(write_group),
                 key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> PurgeRecord:
    """Purge a whole group: every node and relationship of it goes; the audit record stays."""
    if not ask.purge:
        raise InputError("a group can only be purged: pass purge=true", {"group": group})
    return mem.purge_group(group, key_id=key.id)


@router.post("/facts/{uuid}:correct", response_model=CorrectionResult)
def correct(fix: Correction = Body(..., examples=[{"invalid_at": "2001-01-01T00:00:00Z", "reason": "term ended"}]),
            uuid: str = Uuid, key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> CorrectionResult:
    """Correct a fact: text or end in place; a new predicate, object or start makes a new version and keeps
    the old one as history (``expired_at``, ``corrected_by``)."""
    return mem.correct(owned_group(mem, key, "fact", uuid, "w"), uuid, fix)


@router.post("/groups/{group}/consolidate", response_model=list[ConsolidationResult])
def consolidate(ask: Annotated[ConsolidateRequest, Query()], group: str = Depends(write_group),
                mem: Memory = Depends(memory)) -> list[ConsolidationResult]:
    """Run the cast consolidation pass over the group's books (each runs by itself when its job completes):
    merges with a record each (undo: ``POST /entities/{uuid}/merges/{record}/undo``) and suggestions."""
    return mem.consolidate(group, ask)
