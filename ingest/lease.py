"""Episode leases: the worker processing an episode holds a lease on it and renews it while the task runs.

The lease lives on the Episode node (``lease_owner``, ``lease_until``), not in a Redis key with a TTL: the
claim, the lease and the status are one write; finding the episodes to re-drive is one Cypher query that
claims each of them atomically (graph/queries/episodes.py); expiry is Neo4j's clock, so worker machines'
clocks never compare with each other; and a Redis flush cannot make every running episode look abandoned.
A renewal is one small write per running episode every ``renew_s``.

Each lease has its own heartbeat thread: a renewal that waits on the episode's node lock (its own commit
holds it) delays no other episode's renewal.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid as uuidlib

from pydantic import BaseModel

from strata.graph import Graph
from strata.graph import episodes as store
from strata.ingest.logging import log_event
from strata.schema.errors import StrataError
from strata.schema.settings import Settings

log = logging.getLogger("strata.ingest")
_DEFAULTS = Settings.model_fields


class LeaseTerms(BaseModel):
    """How long a lease lasts and how often its holder renews it (STRATA_EPISODE_LEASE_S, ..._RENEW_S), and for
    how long at most: a task hung past the longest episode (the broker's visibility timeout) would otherwise
    hold its episode for ever."""

    lease_s: float = _DEFAULTS["episode_lease_s"].default
    renew_s: float = _DEFAULTS["episode_lease_renew_s"].default
    max_s: float = _DEFAULTS["broker_visibility_timeout_s"].default

    @classmethod
    def from_settings(cls, settings: Settings) -> LeaseTerms:
        return cls(lease_s=settings.episode_lease_s, renew_s=settings.episode_lease_renew_s,
                   max_s=settings.broker_visibility_timeout_s)


def new_owner(worker: str) -> str:
    """A lease owner names its worker and is unique per claim: a later attempt in the same thread is another
    owner, so a late renewal of an old attempt cannot extend a new one's lease."""
    return f"{worker}:{uuidlib.uuid4().hex[:8]}"


class Heartbeat:
    """Renews one episode's lease every ``renew_s`` while the ``with`` block runs.

    A lease found lost (it expired, and another worker re-drove the episode) is logged and no longer renewed;
    the task runs on, and its commit is idempotent with the other worker's.
    """

    def __init__(self, graph: Graph, episode_uuid: str, owner: str, terms: LeaseTerms) -> None:
        self.graph = graph
        self.episode_uuid = episode_uuid
        self.owner = owner
        self.terms = terms
        self.renewals = 0
        self.lost = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-{episode_uuid[:8]}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()

    def _run(self) -> None:
        started = time.monotonic()
        while not self._stop.wait(self.terms.renew_s):
            if time.monotonic() - started > self.terms.max_s:
                log_event(log, "lease.abandoned", logging.WARNING, episode_uuid=self.episode_uuid, owner=self.owner)
                return
            try:
                held, status = store.renew_lease(self.graph, self.episode_uuid, self.owner, self.terms.lease_s)
            except StrataError as exc:  # Neo4j away: try again; the lease may lapse meanwhile
                log_event(log, "lease.renew_failed", logging.WARNING, episode_uuid=self.episode_uuid, error=str(exc))
                continue
            if held:
                self.renewals += 1
                continue
            if self._stop.is_set():  # the task ended meanwhile (its retry or failure released the lease)
                return
            if status in ("queued", "processing"):  # re-driven: another worker has (or will have) it
                self.lost = True
                log_event(log, "lease.lost", logging.WARNING, episode_uuid=self.episode_uuid, owner=self.owner,
                          status=status)
            return
