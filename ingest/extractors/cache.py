"""Content-hash cache for LLM extractions, so re-ingesting the same episode costs nothing.

Key = (episode content + kind + reference time + message layout, model, prompt version, a hash of the
instructions and the response schema with its limits). The reference time is in the key because relative dates resolve
against it. The extraction context (roster, running summary) is deliberately not: it steers naming, which
resolution redoes against the graph anyway, and a key that held it would miss on every re-ingest into a
group whose roster differs, which is when the cache is wanted. Production uses DirectoryCache (files under
``STRATA_LLM_CACHE_DIR``) or RedisCache (``STRATA_LLM_CACHE=redis``), built by ``make_cache``.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections import OrderedDict
from pathlib import Path
from threading import Lock
from typing import Any

from strata.ingest.prompts.extraction import DEFAULT_LIMITS, SchemaLimits, prompt_fingerprint
from strata.schema.ids import content_hash
from strata.schema.models import Episode
from strata.schema.settings import Settings

log = logging.getLogger(__name__)


def cache_key(episode: Episode, model: str, prompt_version: str, limits: SchemaLimits = DEFAULT_LIMITS) -> str:
    episode_part = content_hash(
        "\x1f".join([episode.kind, episode.reference_time.isoformat(), episode.content,
                     json.dumps([[m.speaker, m.start, m.end] for m in episode.messages])])
    )
    # the fingerprint catches a prompt edit made without a PROMPT_VERSION bump (the ontology's predicates)
    return content_hash("\x1f".join([episode_part, model, prompt_version, prompt_fingerprint(limits)]))


class MemoryCache:
    """Bounded LRU in one process; thread-safe."""

    def __init__(self, max_items: int = 10_000) -> None:
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._max = max_items
        self._lock = Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def set(self, key: str, value: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._max:
                self._items.popitem(last=False)


class DirectoryCache:
    """One JSON file per key under ``root/ab/abcdef....json``; atomic writes, so workers may share it."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            with self._path(key).open(encoding="utf-8") as f:
                value = json.load(f)
        except (OSError, json.JSONDecodeError):
            return None  # a missing, unreadable, torn or foreign file is a miss, never an error
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        except OSError as exc:  # a full or read-only disk costs the next run a call, never this episode
            log.warning("extraction cache not written (%s): %s", path, exc)
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(value, f, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            log.warning("extraction cache not written (%s): %s", path, exc)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


class RedisCache:
    """Entries on the Redis Celery already uses, with a TTL: one cache for workers on several hosts.

    Redis away is a miss (get) or a skipped write (set), never an episode failure.
    """

    def __init__(self, client: Any, ttl_s: int, prefix: str = "strata:llm-cache:") -> None:
        self.client = client
        self.ttl_s = ttl_s
        self.prefix = prefix

    @classmethod
    def from_url(cls, url: str, ttl_s: int) -> RedisCache:
        import redis

        return cls(redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5), ttl_s)

    def get(self, key: str) -> dict[str, Any] | None:
        import redis

        try:
            raw = self.client.get(self.prefix + key)
        except redis.RedisError as exc:
            log.warning("extraction cache unreadable: %s", exc)
            return None
        try:
            value = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            return None
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        import redis

        try:
            self.client.set(self.prefix + key, json.dumps(value, ensure_ascii=False), ex=self.ttl_s or None)
        except redis.RedisError as exc:
            log.warning("extraction cache not written: %s", exc)


def make_cache(settings: Settings) -> DirectoryCache | RedisCache | None:
    """The configured LLM cache: files by default (bulky JSON stays out of the broker's memory), Redis for
    workers on several hosts without a shared folder, or none."""
    if settings.llm_cache == "off":
        return None
    if settings.llm_cache == "redis":
        return RedisCache.from_url(settings.redis_url, settings.llm_cache_ttl_s)
    return DirectoryCache(settings.llm_cache_dir or settings.cache_dir / "llm-extractions")
