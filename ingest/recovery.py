"""Re-driving the episodes of dead workers: every worker does it, no beat process and no tuning needed.

A worker processing an episode renews its lease (ingest/lease.py). Every running worker looks for expired
leases every ``episode_lease_check_s`` (jittered) and once at start, and sends those episodes again, each
to the queue it was meant for; the Cypher claim lets exactly one worker re-drive a given episode. Every
``sweep_interval_s`` (and at start) the same thread also re-drives episodes stuck without a lease (claimed
before leases existed, or stored but never handed to the broker). A dead worker's episodes so run again
within about ``episode_lease_s + episode_lease_check_s``; the broker's visibility timeout stays a last
resort (the redelivered old task finds its episode done and is skipped).

A lease starts at the claim, so it cannot cover a task the broker handed to a worker that died before the
task claimed its episode (with one task prefetched per process, the next task arrives as the last one ends:
a kill then often finds one in hand). The same round finds those in Kombu's record of unacknowledged
deliveries and puts them back at the head of their queue (``recover_lost_tasks``), and re-drives a queued
episode whose task is nowhere (neither in its queue nor delivered).

``strata worker --beat`` still schedules the ``strata.ingest.sweep`` task, which runs the same recovery
over every queue.
"""

from __future__ import annotations

import base64
import logging
import random
import threading
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import Celery, bootsteps
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import loads

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest.logging import log_event
from strata.ingest.tasks import TASK_EPISODE, WorkerRuntime, enqueue
from strata.schema.models import utcnow
from strata.schema.settings import Settings

TASK_SWEEP = "strata.ingest.sweep"

log = logging.getLogger("strata.ingest")


def _send(graph: Graph, celery: Celery, rows: list[store.Redriven]) -> None:
    batches: dict[tuple[str | None, str | None], list[str]] = defaultdict(list)
    for row in rows:
        batches[(row.queue, row.job_uuid)].append(row.uuid)
    for (queue, job_uuid), uuids in batches.items():
        enqueue(celery, uuids, job_uuid, queue)
        store.mark_enqueued(graph, uuids, utcnow(), queue)


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
    _send(graph, celery, rows)
    if rows:
        log_event(log, "episodes.redriven", logging.WARNING, expired_leases=expired, stuck=len(rows) - expired,
                  episodes=[r.uuid for r in rows[:20]])
    return rows


class Deliveries:
    """Kombu's record of deliveries not yet acknowledged (Redis `unacked_index`, `unacked`), read as episode
    tasks: (tag, episode uuid, queue, delivered at). What each delivery holds is parsed once and cached: the
    long-running tasks of live workers stay in the record for many rounds."""

    def __init__(self) -> None:
        self._parsed: dict[str, tuple[str, str] | None] = {}

    def scan(self, channel: Any) -> list[tuple[str, str, str, datetime]]:
        client = channel.client
        scored = [(bytes_to_str(tag), score) for tag, score in
                  client.zrange(channel.unacked_index_key, 0, -1, withscores=True)]
        new = [tag for tag, _ in scored if tag not in self._parsed]
        if new:
            for tag, raw in zip(new, client.hmget(channel.unacked_key, new), strict=True):
                self._parsed[tag] = _episode_of(raw)
        current = {tag for tag, _ in scored}
        for tag in set(self._parsed) - current:  # acknowledged or restored since
            del self._parsed[tag]
        out = []
        for tag, score in scored:
            parsed = self._parsed.get(tag)
            if parsed is not None:
                out.append((tag, parsed[0], parsed[1], datetime.fromtimestamp(score, UTC)))
        return out


def recover_lost_tasks(graph: Graph, celery: Celery, *, queues: list[str] | None, older_than_s: float,
                       deliveries: Deliveries | None = None) -> list[str]:
    """Tasks lost with a worker before they claimed their episode (no lease covers them). Two kinds:

    - delivered more than ``older_than_s`` ago, never acknowledged, episode still queued, held by nobody and not
      re-driven since: the worker died holding it. The delivery goes back to the head of its queue (as Kombu
      restores: one watched Redis transaction, so of several workers only one restores it).
    - nowhere at all: the episode is queued, was sent to a queue more than ``older_than_s`` ago, that queue in
      the broker is empty and no delivery holds it (Kombu takes a task from the list before it records the delivery: a
      kill between the two loses it). The episode is re-driven (one Cypher claim, one worker).

    Returns the episodes' uuids. Only queues named in ``queues`` (None: restores on every queue, no orphan
    check). A broker other than Redis keeps no such record: nothing to do."""
    deliveries = deliveries or Deliveries()
    cutoff = utcnow() - timedelta(seconds=older_than_s)
    with celery.connection_for_write() as conn:
        channel = conn.default_channel
        if not hasattr(channel, "unacked_index_key") or not hasattr(channel, "_do_restore_message"):
            return []
        # the queues first: a task taken from its list meanwhile is in the record when it is read
        empty = [q for q in queues or [] if not channel._size(q)]
        held = [d for d in deliveries.scan(channel) if queues is None or d[2] in queues]
        old = [store.Delivery(tag=tag, uuid=uuid, at=at) for tag, uuid, _, at in held if at < cutoff]
        uuid_of = {d.tag: d.uuid for d in old}
        restored = [uuid_of[tag] for tag in store.unclaimed_deliveries(graph, old)
                    if _restore(channel, channel.client, tag)]
    orphans = store.redrive_orphans(graph, utcnow(), cutoff, queues=empty,
                                    pending=sorted({uuid for _, uuid, _, _ in held})) if empty else []
    _send(graph, celery, orphans)
    if restored or orphans:
        log_event(log, "episodes.redelivered", logging.WARNING, restored=restored[:20],
                  orphans=[r.uuid for r in orphans[:20]], count=len(restored) + len(orphans))
    return restored + [r.uuid for r in orphans]


def _restore(channel: Any, client: Any, tag: str) -> bool:
    """Kombu's QoS.restore_by_tag, telling whether this call restored the delivery: the record is watched,
    so of concurrent callers only the one that still finds it there pushes it back (to the head)."""
    restored = False

    def work(pipe: Any) -> None:
        nonlocal restored
        raw = pipe.hget(channel.unacked_key, tag)
        pipe.multi()
        pipe.zrem(channel.unacked_index_key, tag).hdel(channel.unacked_key, tag)
        restored = raw is not None
        if raw is not None:
            message, exchange, routing_key = loads(raw)
            channel._do_restore_message(message, exchange, routing_key, pipe)

    client.transaction(work, channel.unacked_key)
    return restored


def _episode_of(raw: bytes | None) -> tuple[str, str] | None:
    """(episode uuid, queue) of an unacknowledged delivery (Kombu's [message, exchange, routing key]), if it is
    an episode task."""
    try:
        message, _, routing_key = loads(raw) if raw else (None, None, None)
        if message is None or message["headers"].get("task") != TASK_EPISODE:
            return None
        body = message["body"]
        if message["properties"].get("body_encoding") == "base64":
            body = base64.b64decode(body)
        return str(loads(body)[0][0]), str(routing_key)
    except (ValueError, KeyError, IndexError, TypeError):
        return None


class LeaseWatch:
    """The thread a worker runs beside its pool: re-drives at start, then every lease check interval."""

    def __init__(self, celery: Celery, settings: Settings, queues: list[str]) -> None:
        self.celery = celery
        self.settings = settings
        self.queues = queues
        self.rounds = 0
        self._deliveries = Deliveries()
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
                    recover_lost_tasks(graph, self.celery, queues=self.queues, older_than_s=cfg.episode_lease_s,
                                       deliveries=self._deliveries)
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

    @celery.task(name=TASK_SWEEP, shared=False, acks_late=True)
    def sweep() -> dict[str, int]:
        """Re-drive expired leases, lost deliveries and episodes stuck without a lease, on every queue."""
        rows = redrive(runtime.graph, celery, queues=None, default_queue=settings.celery_queue,
                       stuck_after_s=settings.stuck_after_s)
        lost = recover_lost_tasks(runtime.graph, celery, queues=None, older_than_s=settings.episode_lease_s)
        return {"requeued": len(rows), "redelivered": len(lost)}

    celery.conf.beat_schedule = {
        **(celery.conf.beat_schedule or {}),
        "strata-sweep-stuck": {"task": TASK_SWEEP, "schedule": settings.sweep_interval_s},
    }
