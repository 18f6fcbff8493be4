"""Per-group commit locks: parallel workers extract freely, but resolve + commit of one group is serialized.

The Redis lock expires after ``ttl_s`` so a worker killed while holding it blocks the group only that long;
while its holder runs, a thread renews it every third of ``ttl_s`` (for ten minutes at most), so a long
commit keeps it. If a commit ever outlived the lock (its holder paused, or cut off from Redis, for a whole
TTL), deterministic ids and the (group_id, key) uniqueness constraint still keep two writers from creating
the same entity or fact twice; the lock removes the contention, not the safety.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

import redis
from redis.exceptions import LockError, RedisError
from redis.lock import Lock

from strata.schema.errors import RetryableError, UpstreamUnavailableError

LOCK_PREFIX = "strata:lock:group:"
# A commit takes seconds: a holder still renewing after this long is hung, and lets its group go.
MAX_RENEWED_S = 600.0


class LockTimeoutError(RetryableError):
    code = "lock_timeout"


class GroupLocks(Protocol):
    def hold(self, group_id: str) -> AbstractContextManager[float]: ...


class RedisGroupLocks:
    """A redis-py Lock per group (SET NX PX + a token, released by a Lua check-and-delete)."""

    def __init__(self, client: redis.Redis, ttl_s: float, wait_s: float) -> None:
        self.client = client
        self.ttl_s = ttl_s
        self.wait_s = wait_s

    @classmethod
    def from_url(cls, url: str, ttl_s: float, wait_s: float) -> RedisGroupLocks:
        return cls(redis.Redis.from_url(url), ttl_s, wait_s)

    @contextmanager
    def hold(self, group_id: str) -> Iterator[float]:
        """Yields the seconds spent waiting for the lock."""
        lock = self.client.lock(LOCK_PREFIX + group_id, timeout=self.ttl_s, blocking_timeout=self.wait_s,
                                thread_local=False)
        started = time.monotonic()
        try:
            acquired = lock.acquire()
        except RedisError as exc:
            raise UpstreamUnavailableError(f"redis unavailable for the group lock: {exc}") from exc
        if not acquired:
            raise LockTimeoutError(f"group {group_id!r} stayed locked for {self.wait_s:.0f}s",
                                   {"group_id": group_id})
        renewal = _Renewal(lock, self.ttl_s / 3, MAX_RENEWED_S)
        try:
            yield time.monotonic() - started
        finally:
            renewal.stop()
            try:
                lock.release()
            except (LockError, RedisError):
                pass  # expired (and maybe taken by another worker) or Redis gone: the TTL cleans up


class _Renewal:
    """Resets a held lock's TTL every ``every_s`` until stopped, the lock is found lost, or ``max_s`` passed."""

    def __init__(self, lock: Lock, every_s: float, max_s: float) -> None:
        self._lock = lock
        self._every_s = every_s
        self._deadline = time.monotonic() + max_s
        self._stop = threading.Event()
        threading.Thread(target=self._run, name="group-lock-renewal", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self._every_s) and time.monotonic() < self._deadline:
            try:
                self._lock.reacquire()
            except LockError:
                return  # expired and maybe taken by another worker: nothing left to renew
            except RedisError:
                continue  # Redis away: try again, the TTL may run out meanwhile


class LocalGroupLocks:
    """In-process locks for ``--inline`` runs without a broker."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def hold(self, group_id: str) -> Iterator[float]:
        with self._guard:
            lock = self._locks.setdefault(group_id, threading.Lock())
        started = time.monotonic()
        with lock:
            yield time.monotonic() - started
