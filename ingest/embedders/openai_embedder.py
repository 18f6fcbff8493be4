"""Production embeddings from any OpenAI-compatible endpoint, batched; the SDK stays in llm_client."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from strata.schema.errors import SchemaMismatchError


class EmbeddingsAPI(Protocol):
    def create(self, texts: Sequence[str], dimensions: int | None = None) -> list[list[float]]: ...


class OpenAIEmbedder:
    name = "openai"  # recorded per group (graph/embedder_meta.py)

    def __init__(self, api: EmbeddingsAPI, dimension: int, batch_size: int = 256,
                 send_dimensions: bool = False) -> None:
        self.api = api
        self.dimension = dimension
        self.batch_size = batch_size
        # only text-embedding-3-* accept `dimensions`; other servers may reject the field
        self.send_dimensions = send_dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for b in range(0, len(texts), self.batch_size):
            # empty strings are rejected by the OpenAI API; a single space embeds as "nothing"
            batch = [t if t.strip() else " " for t in texts[b:b + self.batch_size]]
            vectors = self.api.create(batch, self.dimension if self.send_dimensions else None)
            if vectors and len(vectors[0]) != self.dimension:
                raise SchemaMismatchError(
                    f"embedding endpoint returned {len(vectors[0])} dimensions, configured {self.dimension}",
                    {"returned": len(vectors[0]), "configured": self.dimension},
                )
            out.extend(vectors)
        return out
