"""The application layer under REST, MCP and the CLI: ``Memory`` owns every use case once; the adapters
import it, its parameter objects and the models it answers with from here, never from graph/ or resolve/."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from strata.api.memory.answers import role_label
from strata.api.memory.episodes import BatchIn, EpisodeIn
from strata.api.memory.names import UUID, Resolution
from strata.api.memory.recall import MAX_BUDGET, MIN_BUDGET, ContextBlock
from strata.api.memory.results import (
    BatchAccepted,
    CommunityList,
    EpisodeAccepted,
    GroupCounts,
    GroupSchema,
    Notes,
    PathsResult,
    Removal,
    Timeline,
)
from strata.api.memory.service import Memory
from strata.graph.communities import MAX_LISTED
from strata.graph.edit import Correction, CorrectionResult, MergeResult
from strata.graph.keys import GROUP, ApiKey
from strata.graph.purge import PurgeRecord
from strata.graph.read import AgentActivity, FactPage, MergeRecord
from strata.graph.retention import ContentSize
from strata.graph.search import SearchHit, SearchQuery, SearchResult
from strata.graph.story import GroupClock, StoryAsk
from strata.graph.suggestions import Rejection, Suggestion
from strata.graph.traverse import Neighborhood
from strata.graph.undo import UndoResult
from strata.ingest.consolidate import ConsolidationResult
from strata.ingest.runtime import Runtime, build_runtime
from strata.ingest.sources import FORMATS
from strata.ingest.submit import JobInfo
from strata.schema.queries import FactQuery
from strata.schema.settings import Settings

__all__ = [
    "ContentSize",
    "FORMATS", "GROUP", "MAX_BUDGET", "MAX_LISTED", "MIN_BUDGET", "AgentActivity", "ApiKey", "BatchAccepted",
    "BatchIn", "build_runtime", "CommunityList", "ConsolidationResult", "ContextBlock", "Correction",
    "CorrectionResult", "EpisodeAccepted", "EpisodeIn", "FactPage", "FactQuery", "GroupClock", "GroupCounts",
    "GroupSchema", "JobInfo", "Memory", "MergeRecord", "MergeResult", "Neighborhood", "Notes", "open_memory",
    "PathsResult", "PurgeRecord", "Rejection", "Removal", "Resolution", "Runtime", "SearchHit", "SearchQuery",
    "SearchResult", "StoryAsk", "Suggestion", "Timeline", "UndoResult", "UUID", "role_label"
]


@contextmanager
def open_memory(settings: Settings | None = None, **runtime: bool) -> Iterator[Memory]:
    """A Memory over a runtime built for this block (the CLI's commands): ``runtime`` as ``build_runtime``."""
    with build_runtime(settings or Settings(), **runtime) as rt:
        yield Memory(rt)
