"""What the use cases answer beyond the graph's own models: each adapter renders these as they are."""

from __future__ import annotations

from pydantic import BaseModel

from strata.graph.purge import PurgeRecord
from strata.graph.retention import ContentSize
from strata.graph.retract import RetractResult
from strata.graph.traverse import Path, TypeCount
from strata.ingest.submit import JobInfo
from strata.schema.models import Entity, Fact, Note
from strata.schema.plan import Predicate
from strata.schema.retention import StoredPolicy
from strata.schema.summaries import Community


class EpisodeAccepted(BaseModel):
    episode_uuid: str
    job_id: str
    status: str


class BatchAccepted(BaseModel):
    job_id: str
    episode_uuids: list[str]
    job: JobInfo


class Removal(RetractResult):
    """A retraction's counts; with ``purge=true`` also the purge's audit record."""

    purged: PurgeRecord | None = None


class Timeline(BaseModel):
    entity: Entity
    facts: list[Fact]


class Notes(BaseModel):
    entity: Entity
    notes: list[Note]


class PathsResult(BaseModel):
    paths: list[Path]


class GroupCounts(BaseModel):
    entities: int
    facts: int
    open_facts: int
    episodes: int


class GroupSchema(BaseModel):
    entity_types: list[TypeCount]
    predicates: list[Predicate]


class CommunityList(BaseModel):
    group_id: str
    query: str = ""
    communities: list[Community]


class RetentionStatus(StoredPolicy):
    """The stored policy; with ``size=true`` also the bytes the group holds in what retention can hide."""

    size: ContentSize | None = None
