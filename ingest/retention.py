"""Applying retention policies: one service for the beat task (`strata.retention.apply`, every
``STRATA_RETENTION_INTERVAL_S``), the CLI (`strata retention apply`) and REST (`POST /v1/groups/{g}/retention:apply`).

A run restores what the group's policy no longer makes due, then hides what it does (schema/retention.py,
strata.schema.retention); a group whose policy keeps everything only restores. Nothing is deleted before a
retention purge (`strata retention purge`, `POST /v1/groups/{g}/retention:purge`).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from strata.graph import Graph
from strata.graph import retention as store
from strata.ingest.logging import log_event
from strata.schema.models import utcnow
from strata.schema.retention import RetentionPolicy, RetentionRun, cutoffs

log = logging.getLogger("strata.ingest")


def apply_policy(graph: Graph, group_id: str, policy: RetentionPolicy, now: datetime | None = None,
                 dry_run: bool = False) -> RetentionRun:
    """One run of ``policy`` over the group (``dry_run``: what it would do, nothing written)."""
    now = now or utcnow()
    started = time.perf_counter()
    counts = store.apply_cutoffs(graph, group_id, cutoffs(policy, now), now, dry_run=dry_run)
    run = RetentionRun(group_id=group_id, dry_run=dry_run, ran_at=now, policy=policy, counts=counts,
                       seconds=round(time.perf_counter() - started, 3))
    log_event(log, "retention.applied", group_id=group_id, dry_run=dry_run, seconds=run.seconds,
              **counts.model_dump())
    return run


def apply_group(graph: Graph, group_id: str, now: datetime | None = None, dry_run: bool = False) -> RetentionRun:
    """One run of the group's stored policy."""
    return apply_policy(graph, group_id, store.get_policy(graph, group_id).policy, now, dry_run)


def scheduled(graph: Graph, now: datetime | None = None) -> list[RetentionRun]:
    """Every group that stored a policy; a group failing is logged and the others still run."""
    runs = []
    for group_id in store.policy_groups(graph):
        try:
            runs.append(apply_group(graph, group_id, now))
        except Exception as exc:  # one group's failure must not stop the others; the next beat tries again
            log_event(log, "retention.failed", group_id=group_id, error=f"{type(exc).__name__}: {exc}")
    return runs
