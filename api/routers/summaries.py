"""Entity summaries and communities: refresh them on demand, list and search communities."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from strata.api.auth import read_group, write_group
from strata.api.deps import memory
from strata.memory import CommunitiesRequest, CommunityList, Memory
from strata.schema.requests_write import RefreshCommunitiesRequest, RefreshSummariesRequest
from strata.schema.summaries import CommunityRun, SummaryRefresh

router = APIRouter(tags=["summaries"])


@router.post("/groups/{group}/summaries:refresh", response_model=SummaryRefresh)
def refresh_summaries(ask: Annotated[RefreshSummariesRequest, Query()], group: str = Depends(write_group),
                      mem: Memory = Depends(memory)) -> SummaryRefresh:
    """Summarise every entity of the group again from what the graph says now, a batch at a time; an unfinished
    run (``complete: false``) goes on from ``next_cursor`` when called again with ``after``."""
    return mem.refresh_summaries(group, ask)


@router.post("/groups/{group}/communities:refresh", response_model=CommunityRun)
def refresh_group_communities(ask: Annotated[RefreshCommunitiesRequest, Query()], group: str = Depends(write_group),
                              mem: Memory = Depends(memory)) -> CommunityRun:
    """Recompute the group's communities (Leiden over current facts and interactions) and their summaries;
    a run past its time budget stops without writing (``stopped`` says why) and the previous ones stay."""
    return mem.refresh_communities(group, ask)


@router.get("/groups/{group}/communities", response_model=CommunityList)
def communities(ask: Annotated[CommunitiesRequest, Query()], group: str = Depends(read_group),
                mem: Memory = Depends(memory)) -> CommunityList:
    """The group's communities, largest first; with ``q``, those whose title or summary match (best first)."""
    return mem.communities(group, ask)
