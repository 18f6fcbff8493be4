"""Entity summaries and communities: refresh them on demand, list and search communities."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel

from strata.api.auth import read_group, write_group
from strata.api.deps import Runtime, runtime
from strata.graph.communities import MAX_LISTED, list_communities
from strata.ingest.communities import refresh_communities
from strata.ingest.summaries import Summarizer, make_summarizer, refresh_group
from strata.schema.errors import InputError
from strata.schema.summaries import Community, CommunityRun, SummaryRefresh

router = APIRouter(tags=["summaries"])
# A refresh over REST stops after the batch in hand past this long and answers where to go on.
MAX_BUDGET_S = 600.0


def summarizer_of(rt: Runtime) -> Summarizer | None:
    """The configured summarizer (None when summaries are off), built once per process."""
    if rt.summarizer is None:
        rt.summarizer = make_summarizer(rt.settings)
    return rt.summarizer


@router.post("/groups/{group}/summaries:refresh", response_model=SummaryRefresh)
def refresh_summaries(group: str = Depends(write_group), rt: Runtime = Depends(runtime),
                      force: bool = Query(False, description="Write every summary again, even one whose input "
                                                             "did not change."),
                      budget_s: float = Query(60.0, gt=0, le=MAX_BUDGET_S,
                                              description="Stop after the batch in hand past this many seconds."),
                      after: str = Query("", max_length=64, description="`next_cursor` of an unfinished refresh.")
                      ) -> SummaryRefresh:
    """Summarise every entity of the group again from what the graph says now, a batch at a time; an unfinished
    run (``complete: false``) goes on from ``next_cursor`` when called again with ``after``."""
    summarizer = summarizer_of(rt)
    if summarizer is None:
        raise InputError("entity summaries are off (STRATA_SUMMARIES=off)")
    return refresh_group(rt.graph, group, summarizer, force=force, after=after, budget_s=budget_s)


@router.post("/groups/{group}/communities:refresh", response_model=CommunityRun)
def refresh_group_communities(group: str = Depends(write_group), rt: Runtime = Depends(runtime),
                              budget_s: float | None = Query(None, gt=0, le=MAX_BUDGET_S,
                                                             description="The run's time budget (default "
                                                                         "STRATA_COMMUNITY_TIME_BUDGET_S).")
                              ) -> CommunityRun:
    """Recompute the group's communities (Leiden over current facts and interactions) and their summaries;
    a run past its time budget stops without writing (``stopped`` says why) and the previous ones stay."""
    return refresh_communities(rt.graph, group, rt.settings, summarizer_of(rt), budget_s)


class CommunityList(BaseModel):
    group_id: str
    query: str = ""
    communities: list[Community]


@router.get("/groups/{group}/communities", response_model=CommunityList)
def communities(group: str = Depends(read_group), rt: Runtime = Depends(runtime),
                q: str = Query("", max_length=2000, description="Full text over titles and summaries."),
                entity: str | None = Query(None, max_length=64, description="Only the community of this entity."),
                limit: int = Query(20, ge=1, le=MAX_LISTED),
                members: int = Query(10, ge=0, le=200, description="Members listed per community, most connected "
                                                                   "first.")) -> CommunityList:
    """The group's communities, largest first; with ``q``, those whose title or summary match (best first)."""
    found = list_communities(rt.graph, group, query=q, entity_uuid=entity, limit=limit, members=members)
    return CommunityList(group_id=group, query=q, communities=found)
