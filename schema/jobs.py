"""A job's progress as every front-end answers it (ingest/submit.py computes it)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from strata.schema.usage import LLMUsage


class JobInfo(BaseModel):
    uuid: str
    group_id: str
    source_uuid: str | None
    total: int
    queued: int
    processing: int
    done: int
    failed: int
    facts: int
    status: Literal["running", "done", "failed"]
    created_at: datetime
    duplicate_of: str | None = None
    # LLM calls and tokens of the job's episodes (extraction and adjudication, every attempt), cache hits
    llm: LLMUsage = LLMUsage()
