"""The application layer under REST, MCP and the CLI: ``Memory`` owns every use case once; the adapters
import it, its parameter objects and the models it answers with from here, never from graph/ or resolve/."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from strata.graph.edit import Correction, CorrectionResult, MergeResult
from strata.graph.keys import GROUP, ApiKey
from strata.graph.purge import PurgeRecord
from strata.graph.read import AgentActivity, FactPage, MergeRecord
from strata.graph.retention import ContentSize
from strata.graph.story import GroupClock
from strata.graph.suggestions import Rejection, Suggestion
from strata.graph.traverse import Neighborhood
from strata.graph.undo import UndoResult
from strata.ingest.consolidate import ConsolidationResult
from strata.ingest.sources import FORMATS
from strata.memory.answers import role_label
from strata.memory.episodes import BatchIn, EpisodeIn
from strata.memory.names import UUID, Resolution
from strata.memory.recall import ContextBlock
from strata.memory.results import (
    BatchAccepted,
    CommunityList,
    EpisodeAccepted,
    GroupCounts,
    GroupSchema,
    Notes,
    PathsResult,
    Removal,
    RetentionStatus,
    Timeline,
)
from strata.memory.runtime import Runtime, build_runtime
from strata.memory.service import Memory
from strata.schema.jobs import JobInfo
from strata.schema.models import QuotePage
from strata.schema.network import Network
from strata.schema.queries import FactQuery
from strata.schema.requests import (
    ClockRequest,
    CommunitiesRequest,
    ContextRequest,
    FactsRequest,
    MergesRequest,
    NeighborhoodRequest,
    NetworkRequest,
    NotesRequest,
    PathsRequest,
    QuotesRequest,
    ResolveRequest,
    RetentionRequest,
    SearchRequest,
    SuggestionsRequest,
    TimelineRequest,
)
from strata.schema.search import SearchHit, SearchQuery, SearchResult
from strata.schema.settings import Settings
from strata.schema.story import StoryAsk

__all__ = [
    "AgentActivity", "ApiKey", "BatchAccepted", "BatchIn", "build_runtime", "ClockRequest", "CommunitiesRequest",
    "CommunityList", "ConsolidationResult", "ContentSize", "ContextBlock", "ContextRequest", "Correction",
    "CorrectionResult", "EpisodeAccepted", "EpisodeIn", "FactPage", "FactQuery", "FactsRequest", "FORMATS", "GROUP",
    "GroupClock", "GroupCounts", "GroupSchema", "JobInfo", "Memory", "MergeRecord", "MergeResult", "MergesRequest",
    "Neighborhood", "NeighborhoodRequest", "NetworkRequest", "Notes", "NotesRequest", "open_memory", "PathsRequest",
    "PathsResult", "QuotePage", "Network", "PurgeRecord", "QuotesRequest", "Rejection", "Removal", "Resolution",
    "ResolveRequest", "RetentionRequest", "RetentionStatus",
    "role_label", "Runtime", "SearchHit", "SearchQuery", "SearchRequest", "SearchResult", "StoryAsk", "Suggestion",
    "SuggestionsRequest", "Timeline", "TimelineRequest", "UndoResult", "UUID"
]


@contextmanager
def open_memory(settings: Settings | None = None, **runtime: bool) -> Iterator[Memory]:
    """A Memory over a runtime built for this block (the CLI's commands): ``runtime`` as ``build_runtime``."""
    with build_runtime(settings or Settings(), **runtime) as rt:
        yield Memory(rt)
