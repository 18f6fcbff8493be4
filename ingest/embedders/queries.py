"""Embedding what is asked: the embedder's query mode where it has one, and a bounded per-process cache.

Some models embed a query differently from a passage (bge-small prefixes an instruction); the others embed
both alike. A search repeats questions often (an agent asking again, a context block after a search), so the
last ``size`` query vectors are kept, least recently used dropped, with hits and misses in the metrics.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from prometheus_client import Counter

from strata.graph.embedder_meta import EmbedderRecord
from strata.ingest.protocols import Embedder

QUERY_CACHE = Counter("strata_query_embedding_cache", "Query embeddings served from the cache or computed",
                      ["outcome"])

EmbedFn = Callable[[Sequence[str]], list[list[float]]]


def embedder_record(embedder: Embedder) -> EmbedderRecord:
    """What a group records of the embedder that made its vectors."""
    return EmbedderRecord(name=getattr(embedder, "name", type(embedder).__name__), dimension=embedder.dimension)


def query_mode(embedder: Embedder) -> EmbedFn:
    """``embedder.embed_queries`` when the model has a query mode, else ``embed``."""
    return getattr(embedder, "embed_queries", embedder.embed)


class QueryCache:
    """Thread-safe LRU of query text -> vector in front of an embedding function (``size`` 0: no cache)."""

    def __init__(self, embed: EmbedFn, size: int) -> None:
        self._embed = embed
        self.size = size
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __call__(self, texts: Sequence[str]) -> list[list[float]]:
        found: dict[int, list[float]] = {}
        with self._lock:
            for i, text in enumerate(texts):
                vector = self._vectors.get(text)
                if vector is not None:
                    self._vectors.move_to_end(text)
                    found[i] = vector
        missing = [i for i in range(len(texts)) if i not in found]
        self.hits += len(found)
        self.misses += len(missing)
        QUERY_CACHE.labels("hit").inc(len(found))
        QUERY_CACHE.labels("miss").inc(len(missing))
        if missing:
            fresh = self._embed([texts[i] for i in missing])
            with self._lock:
                for i, vector in zip(missing, fresh, strict=True):
                    found[i] = vector
                    if self.size:
                        self._vectors[texts[i]] = vector
                        self._vectors.move_to_end(texts[i])
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
        return [found[i] for i in range(len(texts))]
