"""Entity summaries and communities: refresh them on demand, list and search communities."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from strata.api.auth import read_group, write_group
from strata.api.deps import memory
from strata.memory import CommunitiesRequest, CommunityList, Memory
from strata.schema.summaries import CommunityRun, SummaryRefresh

router = APIRouter(tags=["summaries"])
# A refresh over REST stops after the batch in hand past this long and answers where to go on.
MAX_BUDGET_S = 600.0


@router.post("/groups/{group}/summaries:refresh", response_model=SummaryRefresh)
def refresh_summaries(group: str = Depends(write_group), mem: Memory = Depends(memory),
                      force: bool = Query(False, description="Write every summary again, even one whose input "
                                                             "did not change."),
                      budget_s: float = Query(60.0, gt=0, le=MAX_BUDGET_S,
                                              description="Stop after the batch in hand past this many seconds."),
                      after: str = Query("", max_length=64, description="`next_cursor` of an unfinished refresh.")
                      ) -> SummaryRefresh:
    """Summarise every entity of the group again from what the graph says now, a batch at a time; an unfinished
    run (``complete: false``) goes on from ``next_cursor`` when called again with ``after``."""
    return mem.refresh_summaries(group, force=force, after=after, budget_s=budget_s)


@router.post("/groups/{group}/communities:refresh", response_model=CommunityRun)
def refresh_group_communities(group: str = Depends(write_group), mem: Memory = Depends(memory),
                              budget_s: float | None = Query(None, gt=0, le=MAX_BUDGET_S,
                                                             description="The run's time budget (default "
                                                                         "STRATA_COMMUNITY_TIME_BUDGET_S).")
                              ) -> CommunityRun:
    """Recompute the group's communities (Leiden over current facts and interactions) and their summaries;
    a run past its time budget stops without writing (``stopped`` says why) and the previous ones stay."""
    return mem.refresh_communities(group, budget_s)


@router.get("/groups/{group}/communities", response_model=CommunityList)
def communities(ask: Annotated[CommunitiesRequest, Query()], group: str = Depends(read_group),
                mem: Memory = Depends(memory)) -> CommunityList:
    """The group's communities, largest first; with ``q``, those whose title or summary match (best first)."""
    return mem.communities(group, ask)
