"""A community run for one group: read the weighted entity graph (one bounded query), partition it (Leiden),
title and summarise each community from its members, and replace the group's communities in one transaction.

Neo4j GDS would run Leiden inside the database, but no GDS build for Neo4j 5.26 is served from Maven Central
(the plugin ships outside it), so the partition runs here with igraph + leidenalg (PyPI) over what one query
reads: the group's current facts and INTERACTS_WITH weights.

The run has a time budget (``STRATA_COMMUNITY_TIME_BUDGET_S``): the edge read is cut at it, and a run past it
after the read or the partition stops without writing (the previous communities stay) and says so in its
result and log. LLM summaries that would run past it are written extractively instead.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from strata.graph import communities as store
from strata.graph.driver import Graph
from strata.ingest.logging import log_event
from strata.ingest.summaries import Summarizer, community_extractive
from strata.resolve.communities import members_line, partition, title
from strata.schema.models import utcnow
from strata.schema.settings import Settings
from strata.schema.summaries import CommunityRun

log = logging.getLogger("strata.communities")
SUMMARY_MEMBERS = 12  # the members whose summaries a community's summary is made from


def refresh_communities(graph: Graph, group_id: str, settings: Settings,
                        summarizer: Summarizer | None = None, budget_s: float | None = None) -> CommunityRun:
    budget = budget_s if budget_s is not None else settings.community_time_budget_s
    started = time.perf_counter()
    phases: dict[str, float] = {}

    def elapsed() -> float:
        return time.perf_counter() - started

    def stop(why: str, **counts: int) -> CommunityRun:
        log_event(log, "communities.stopped", logging.WARNING, group_id=group_id, reason=why,
                  budget_s=budget, seconds=round(elapsed(), 3))
        return CommunityRun(group_id=group_id, stopped=why, seconds=round(elapsed(), 3), phases=phases, **counts)

    now = utcnow()
    edges = store.read_edges(graph, group_id, now, settings.community_max_edges, timeout_s=budget)
    phases["read"] = round(elapsed(), 3)
    if edges is None:
        return stop("time budget exceeded while reading the edges")
    if elapsed() > budget:
        return stop("time budget exceeded after reading the edges", edges=len(edges))
    clusters = partition([(e.a, e.b, e.weight) for e in edges], group_id, settings.community_resolution,
                         settings.community_min_size)
    phases["partition"] = round(elapsed() - phases["read"], 3)
    entities = len({v for e in edges for v in (e.a, e.b)})
    if elapsed() > budget:
        return stop("time budget exceeded after the partition", edges=len(edges), entities=entities)
    info = store.entity_info(graph, group_id, [v for c in clusters for v, _ in c.members])
    max_chars = 2 * settings.summary_max_chars
    rows, calls = [], 0
    for c in clusters:
        names = [info[v].name for v, _ in c.members if v in info]
        head = title(names)
        members = [(info[v].name, info[v].summary) for v, _ in c.members[:SUMMARY_MEMBERS] if v in info]
        line = members_line(names, len(c.members))
        room = max_chars - len(line) - 1
        if summarizer is not None and summarizer.llm is not None and elapsed() < budget:
            text, usage = summarizer.summarize_community(head, members, room)
            calls += usage.calls
        else:  # offline, or out of time for LLM calls: extractive
            text = community_extractive(members, room)
        rows.append(store.CommunityWrite(uuid=c.uuid, title=head, summary=f"{line} {text}".strip(),
                                         size=len(c.members),
                                         members=[{"uuid": v, "strength": s} for v, s in c.members]))
    phases["summaries"] = round(elapsed() - phases["read"] - phases["partition"], 3)
    store.write_communities(graph, group_id, rows, now)
    phases["write"] = round(elapsed() - sum(phases.values()), 3)
    run = CommunityRun(group_id=group_id, entities=entities, edges=len(edges), communities=len(rows),
                       largest=max((r.size for r in rows), default=0), written=True, llm_calls=calls,
                       seconds=round(elapsed(), 3), phases=phases)
    log_event(log, "communities.refreshed", group_id=group_id, communities=run.communities, entities=entities,
              edges=run.edges, seconds=run.seconds)
    return run


def scheduled_refresh(graph: Graph, settings: Settings, summarizer: Summarizer | None) -> list[CommunityRun]:
    """The beat task: every group whose summaries changed since the previous run (one interval ago), each
    within its budget; no new group is started past half the interval."""
    started = time.perf_counter()
    since = utcnow() - timedelta(seconds=settings.community_interval_s)
    runs = []
    for group_id in store.changed_groups(graph, since):
        if time.perf_counter() - started > settings.community_interval_s / 2:
            log_event(log, "communities.schedule_budget", logging.WARNING, group_id=group_id)
            break
        runs.append(refresh_communities(graph, group_id, settings, summarizer))
    return runs
