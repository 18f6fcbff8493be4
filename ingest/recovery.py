"""Re-driving the episodes of dead workers: every worker does it, no beat process and no tuning needed.

A worker processing an episode renews its lease (ingest/lease.py). Every running worker looks for expired
leases every ``episode_lease_check_s`` (jittered) and once at start, and sends those episodes again, each
to the queue it was meant for; the Cypher claim lets exactly one worker re-drive a given episode. Every
``sweep_interval_s`` (and at start) the same thread also re-drives episodes stuck without a lease (claimed
before leases existed, or stored but never handed to the broker). A dead worker's episodes so run again
within about ``episode_lease_s + episode_lease_check_s``; the broker's visibility timeout stays a last
resort (the redelivered old task finds its episode done and is skipped).

``strata worker --beat`` still schedules the ``strata.ingest.sweep`` task, which runs the same re-drive
over every queue.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import defaultdict
from datetime import timedelta
from typing import Any

from celery import Celery, bootsteps

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest.logging import log_event
from strata.ingest.tasks import WorkerRuntime, enqueue
from strata.schema.models import utcnow
from strata.schema.settings import Settings

TASK_SWEEP = "strata.ingest.sweep"

log = logging.getLogger("strata.ingest")


def redrive(graph: Graph, celery: Celery, *, queues: list[str] | None, default_queue: str | None,
            stuck_after_s: float | None = None) -> list[store.Redriven]:
    """Send again the episodes of expired leases (and, with ``stuck_after_s``, those stuck without a lease).

    ``queues``: only episodes meant for these (None: every queue); an episode without a recorded queue is
    ``default_queue``'s. An episode set back to `queued` whose send fails waits for the stuck sweep.
    """
    now = utcnow()
    rows = store.redrive_expired(graph, now, queues=queues, default_queue=default_queue)
    expired = len(rows)
    if stuck_after_s is not None:
        rows += store.sweep_stuck(graph, now - timedelta(seconds=stuck_after_s), now, queues=queues,
                                  default_queue=default_queue)
    batches: dict[tuple[str | None, str | None], list[str]] = defaultdict(list)
    for row in rows:
        batches[(row.queue, row.job_uuid)].append(row.uuid)
    for (queue, job_uuid), uuids in batches.items():
        enqueue(celery, uuids, job_uuid, queue)
        store.mark_enqueued(graph, uuids, utcnow(), queue)
    if rows:
        log_event(log, "episodes.redriven", logging.WARNING, expired_leases=expired, stuck=len(rows) - expired,
                  episodes=[r.uuid for r in rows[:20]])
    return rows


class LeaseWatch:
    """The thread a worker runs beside its pool: re-drives at start, then every lease check interval."""

    def __init__(self, celery: Celery, settings: Settings, queues: list[str]) -> None:
        self.celery = celery
        self.settings = settings
        self.queues = queues
        self.rounds = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="strata-lease-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        cfg = self.settings
        graph = Graph.from_settings(cfg)
        next_sweep = 0.0  # the first round, at start, also sweeps what is stuck without a lease
        try:
            while not self._stop.is_set():
                sweep = time.monotonic() >= next_sweep
                try:
                    redrive(graph, self.celery, queues=self.queues, default_queue=cfg.celery_queue,
                            stuck_after_s=cfg.stuck_after_s if sweep else None)
                    if sweep:
                        next_sweep = time.monotonic() + cfg.sweep_interval_s
                except Exception as exc:  # noqa: BLE001 - Neo4j or Redis away: the next round tries again
                    log_event(log, "episodes.redrive_failed", logging.WARNING, error=f"{type(exc).__name__}: {exc}")
                self.rounds += 1
                # jittered, so the workers started together do not all ask at the same moment
                self._stop.wait(cfg.episode_lease_check_s * random.uniform(0.8, 1.2))
        finally:
            graph.close()


class LeaseWatchStep(bootsteps.StartStopStep):
    """Starts a LeaseWatch in the worker's main process, after the pool forked its children."""

    requires = {"celery.worker.components:Pool"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.watch: LeaseWatch | None = None

    def start(self, parent: Any) -> None:
        app = parent.app
        queues = sorted(app.amqp.queues.consume_from)
        self.watch = LeaseWatch(app, app.conf.strata_settings, queues)
        self.watch.start()

    def stop(self, parent: Any) -> None:
        if self.watch is not None:
            self.watch.stop()


def register_recovery(celery: Celery, settings: Settings, runtime: WorkerRuntime) -> None:
    """The worker step, and the sweep task ``strata worker --beat`` schedules every ``sweep_interval_s``."""
    celery.steps["worker"].add(LeaseWatchStep)

    @celery.task(name=TASK_SWEEP, acks_late=True)
    def sweep() -> dict[str, int]:
        """Re-drive expired leases and episodes stuck without a lease, on every queue."""
        rows = redrive(runtime.graph, celery, queues=None, default_queue=settings.celery_queue,
                       stuck_after_s=settings.stuck_after_s)
        return {"requeued": len(rows)}

    celery.conf.beat_schedule = {
        "strata-sweep-stuck": {"task": TASK_SWEEP, "schedule": settings.sweep_interval_s},
    }
