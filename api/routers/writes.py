"""Writes: add episodes (one, a batch, an uploaded source), jobs and episode status, retraction, corrections."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, File, Form, Path, Query, UploadFile
from pydantic import BaseModel

from strata.api.auth import owned_group, principal, write_group
from strata.api.deps import Runtime, runtime
from strata.api.predicates import stored_predicate_filter
from strata.api.routers.bodies import BatchIn, EpisodeIn, to_episode
from strata.graph.edit import Correction, CorrectionResult, correct_fact
from strata.graph.keys import ApiKey
from strata.graph.purge import PurgeRecord, purge_episode, purge_group, purge_source
from strata.graph.retract import RetractResult, retract_episode, retract_source
from strata.ingest.consolidate import ConsolidationResult, consolidate_group
from strata.ingest.rules import purge_rules
from strata.ingest.sources import FORMATS, parse_source_bytes
from strata.ingest.submit import JobInfo, episode_info, job_info, submit_document, submit_episodes
from strata.resolve.timeline import recompute_timeline
from strata.schema.errors import InputError, SizeLimitError
from strata.schema.models import utcnow

router = APIRouter(tags=["writes"])
Uuid = Path(..., max_length=64, examples=["0f6e2a52-8c1d-5b8e-9a55-3f0d7a1c2b11"])


class EpisodeAccepted(BaseModel):
    episode_uuid: str
    job_id: str
    status: str


class Removal(RetractResult):
    """A retraction's counts; with ``purge=true`` also the purge's audit record."""

    purged: PurgeRecord | None = None


class BatchAccepted(BaseModel):
    job_id: str
    episode_uuids: list[str]
    job: JobInfo


def _submit(rt: Runtime, key: ApiKey, group: str, bodies: list[EpisodeIn]) -> tuple[list[str], JobInfo]:
    episodes = [to_episode(group, b, rt.settings.max_episode_chars, agent=key.agent) for b in bodies]
    job = submit_episodes(rt.graph, rt.celery, group, episodes, agent=key.agent,
                          inline_pipeline=rt.inline_pipeline)
    return [e.uuid for e in episodes], job


@router.post("/groups/{group}/episodes", status_code=202, response_model=EpisodeAccepted)
def add_episode(body: EpisodeIn, group: str = Depends(write_group), key: ApiKey = Depends(principal),
                rt: Runtime = Depends(runtime)) -> EpisodeAccepted:
    """Queue one episode for extraction; poll ``GET /v1/episodes/{episode_uuid}`` or the job."""
    uuids, job = _submit(rt, key, group, [body])
    return EpisodeAccepted(episode_uuid=uuids[0], job_id=job.uuid, status=job.status)


@router.post("/groups/{group}/episodes:batch", status_code=202, response_model=BatchAccepted)
def add_episodes(body: BatchIn, group: str = Depends(write_group), key: ApiKey = Depends(principal),
                 rt: Runtime = Depends(runtime)) -> BatchAccepted:
    """Queue several episodes as one job. Workers extract them in parallel and commit one group's episodes one
    at a time, in no fixed order (the temporal rules order facts by valid time, not by arrival)."""
    uuids, job = _submit(rt, key, group, body.episodes)
    return BatchAccepted(job_id=job.uuid, episode_uuids=uuids, job=job)


@router.post("/groups/{group}/sources", status_code=202, response_model=JobInfo)
def upload_source(file: UploadFile = File(..., description="The file to ingest (not empty).",
                                          json_schema_extra={"minLength": 1}),
                  format: str = Form(..., description=f"One of: {', '.join(FORMATS)}", examples=["chat-jsonl"]),
                  name: str | None = Form(None, max_length=300),
                  agent: str | None = Form(None, min_length=1, max_length=200,
                                           description="Who asserts the file's content; default: the key's name."),
                  group: str = Depends(write_group), key: ApiKey = Depends(principal),
                  rt: Runtime = Depends(runtime)) -> JobInfo:
    """Upload a book, chat log, transcript or facts file; it is segmented into episodes and queued as one job.
    The same file uploaded again to the same group returns the first job (``duplicate_of``)."""
    data = file.file.read(rt.settings.max_request_bytes + 1)
    if len(data) > rt.settings.max_request_bytes:
        raise SizeLimitError(f"file exceeds {rt.settings.max_request_bytes} bytes")
    if not data:
        raise InputError("the uploaded file is empty")
    doc = parse_source_bytes(data, format, name=name or file.filename or "upload", group_id=group,
                             agent=agent or key.agent, book_window_tokens=rt.settings.book_window_tokens,
                             chat_window_messages=rt.settings.chat_window_messages,
                             max_episode_chars=rt.settings.max_episode_chars)
    if not doc.episodes:
        raise InputError("the file holds no episodes", {"warnings": doc.warnings[:20]})
    return submit_document(rt.graph, rt.celery, doc, agent=agent or key.agent, inline_pipeline=rt.inline_pipeline)


@router.get("/jobs/{uuid}", response_model=JobInfo)
def get_job(uuid: str = Uuid, key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> JobInfo:
    """Progress of a job: episode counts by status and facts committed (a writer may poll what it wrote)."""
    owned_group(rt, key, "job", uuid, "any")
    return job_info(rt.graph, uuid)


@router.get("/episodes/{uuid}")
def get_episode(uuid: str = Uuid, key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> dict[str, Any]:
    """An episode's status, error, and the entities and facts extracted from it."""
    owned_group(rt, key, "episode", uuid, "r")
    return episode_info(rt.graph, uuid)


PURGE = Query(False, description="Hard delete for data removal: also deletes everything derived only from it.")


@router.delete("/episodes/{uuid}", response_model=Removal)
def delete_episode(uuid: str = Uuid, purge: bool = PURGE, key: ApiKey = Depends(principal),
                   rt: Runtime = Depends(runtime)) -> Removal:
    """Retract an episode: facts only it supported expire (kept as history); facts it had closed reopen. With
    ``purge=true`` it is retracted (if it was not) and then deleted with everything derived only from it."""
    group = owned_group(rt, key, "episode", uuid, "w")
    if purge:
        out = purge_episode(rt.graph, group, uuid, purge_rules(rt.embed if rt.embedder else None), utcnow(),
                            key_id=key.id)
        return Removal(**out.retraction.model_dump(), purged=out.record)
    return Removal(**retract_episode(rt.graph, group, uuid, recompute_timeline, utcnow()).model_dump())


@router.delete("/sources/{uuid}", response_model=Removal)
def delete_source(uuid: str = Uuid, purge: bool = PURGE, key: ApiKey = Depends(principal),
                  rt: Runtime = Depends(runtime)) -> Removal:
    """Retract every episode of a source, with the same restore rules as for one episode; with ``purge=true``
    delete the source, its episodes and job, and everything derived only from them."""
    group = owned_group(rt, key, "source", uuid, "w")
    if purge:
        out = purge_source(rt.graph, group, uuid, purge_rules(rt.embed if rt.embedder else None), utcnow(),
                           key_id=key.id)
        return Removal(**out.retraction.model_dump(), purged=out.record)
    return Removal(**retract_source(rt.graph, group, uuid, recompute_timeline, utcnow()).model_dump())


@router.delete("/groups/{group}", response_model=PurgeRecord)
def delete_group(purge: bool = Query(..., description="Required, true: a group is only ever purged (hard delete).",
                                     json_schema_extra={"enum": [True]}),
                 group: str = Depends(write_group), key: ApiKey = Depends(principal),
                 rt: Runtime = Depends(runtime)) -> PurgeRecord:
    """Purge a whole group: every node and relationship of it goes; the audit record stays."""
    if not purge:
        raise InputError("a group can only be purged: pass purge=true", {"group": group})
    return purge_group(rt.graph, group, utcnow(), key_id=key.id)


@router.post("/facts/{uuid}:correct", response_model=CorrectionResult)
def correct(fix: Correction = Body(..., examples=[{"invalid_at": "2001-01-01T00:00:00Z", "reason": "term ended"}]),
            uuid: str = Uuid, key: ApiKey = Depends(principal), rt: Runtime = Depends(runtime)) -> CorrectionResult:
    """Correct a fact: text or end in place; a new predicate, object or start makes a new version and keeps
    the old one as history (``expired_at``, ``corrected_by``)."""
    group = owned_group(rt, key, "fact", uuid, "w")
    written = fix.predicate
    if written:  # stored under the name ingest would give it, as every read filter maps it
        stored = stored_predicate_filter(rt.graph, group, written, rt.embed if rt.embedder else None)
        fix = fix.model_copy(update={"predicate": stored})
    return correct_fact(rt.graph, group, uuid, fix, recompute_timeline, utcnow(),
                        embed=rt.embed if rt.embedder else None, predicate_text=written)


@router.post("/groups/{group}/consolidate", response_model=list[ConsolidationResult])
def consolidate(source: str | None = Query(None, max_length=64, description="Only this source (book)."),
                group: str = Depends(write_group), key: ApiKey = Depends(principal),
                rt: Runtime = Depends(runtime)) -> list[ConsolidationResult]:
    """Run the cast consolidation pass over the group's books (each runs by itself when its job completes):
    merges with a record each (undo: ``POST /entities/{uuid}/merges/{record}/undo``) and suggestions."""
    return consolidate_group(rt.graph, group, source)
