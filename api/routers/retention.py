"""Retention policies of a group: read and set them, run them (or see what a run would do), purge what they hid.
What each policy keeps and how to undo it: docs/api.md, "Retention"."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Query

from strata.api.auth import principal, read_group, write_group
from strata.api.deps import memory
from strata.memory import ApiKey, Memory, RetentionRequest, RetentionStatus
from strata.schema.requests_write import ApplyRetentionRequest, PurgeRetentionRequest
from strata.schema.retention import RetentionPolicy, RetentionPurge, RetentionRun, StoredPolicy

router = APIRouter(tags=["retention"])


@router.get("/groups/{group}/retention", response_model=RetentionStatus)
def get_retention(ask: Annotated[RetentionRequest, Query()], group: str = Depends(read_group),
                  mem: Memory = Depends(memory)) -> RetentionStatus:
    """The group's retention policy (every field null: keep everything, the default) and when it last ran."""
    return mem.retention_status(group, ask)


@router.put("/groups/{group}/retention", response_model=StoredPolicy)
def put_retention(policy: RetentionPolicy = Body(...), group: str = Depends(write_group),
                  key: ApiKey = Depends(principal), mem: Memory = Depends(memory)) -> StoredPolicy:
    """Set the group's policy (a field left out or null keeps that kind of memory forever). It takes effect at
    the next run: the beat task, or ``retention:apply``; a looser policy restores what a stricter one hid."""
    return mem.set_retention(group, policy, actor=key.name or key.id)


@router.post("/groups/{group}/retention:apply", response_model=RetentionRun)
def apply_retention(ask: Annotated[ApplyRetentionRequest, Query()], group: str = Depends(write_group),
                    mem: Memory = Depends(memory)) -> RetentionRun:
    """Run the group's policy now: restore what it no longer makes due, hide what it does."""
    return mem.apply_retention(group, dry_run=ask.dry_run)


@router.post("/groups/{group}/retention:purge", response_model=RetentionPurge)
def purge_retention(body: PurgeRetentionRequest = Body(...), group: str = Depends(write_group),
                    mem: Memory = Depends(memory)) -> RetentionPurge:
    """Remove for good what retention hid in the group (``{"confirm": true}`` required): no longer restorable."""
    return mem.purge_retention(group)
