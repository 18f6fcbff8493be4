"""Deterministic feature-hashing embedder (word uni- and bigrams): instant, no model, for tests."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

_WORD = re.compile(r"\w+")


class HashEmbedder:
    """Signed feature hashing of word n-grams, L2-normalized; texts sharing words get positive cosine."""

    name = "hash"  # recorded per group (graph/embedder_meta.py)

    def __init__(self, dimension: int = 384, ngrams: int = 2) -> None:
        self.dimension = dimension
        self.ngrams = ngrams

    def _vector(self, text: str) -> list[float]:
        words = _WORD.findall(text.lower()) or ["<empty>"]  # never a zero vector: cosine indexes reject it
        vec = [0.0] * self.dimension
        for n in range(1, self.ngrams + 1):
            weight = 1.0 / n
            for i in range(len(words) - n + 1):
                digest = hashlib.blake2b(" ".join(words[i:i + n]).encode(), digest_size=8).digest()
                h = int.from_bytes(digest, "little")
                vec[h % self.dimension] += weight if (h >> 63) & 1 else -weight
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]
