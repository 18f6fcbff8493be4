"""Content-hash cache for LLM extractions, so re-ingesting the same episode costs nothing.

Key = (episode content + kind + reference time, context, model, prompt version): the reference time is in
the key because relative dates resolve against it. A Redis-backed Cache can implement the same protocol.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import OrderedDict
from pathlib import Path
from threading import Lock
from typing import Any

from strata.ingest.protocols import ExtractionContext
from strata.schema.ids import content_hash
from strata.schema.models import Episode


def cache_key(episode: Episode, context: ExtractionContext, model: str, prompt_version: str) -> str:
    episode_part = content_hash(
        "\x1f".join([episode.kind, episode.reference_time.isoformat(), episode.content,
                     json.dumps([[m.speaker, m.start, m.end] for m in episode.messages])])
    )
    context_part = content_hash(context.model_dump_json())
    return content_hash("\x1f".join([episode_part, context_part, model, prompt_version]))


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
        except (FileNotFoundError, json.JSONDecodeError):
            return None  # a torn or foreign file is a miss, never an error
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(value, f, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
