"""What the routers share: the runtime built by the lifespan, and typed access to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Path, Request

from strata.graph.driver import Graph
from strata.graph.keys import GROUP
from strata.ingest.protocols import Embedder
from strata.schema.settings import Settings

# A group id as the server checks it, declared so the OpenAPI document says what is accepted.
GroupId = Annotated[str, Path(description="Group id", examples=["demo"], max_length=128, pattern=GROUP.pattern)]


@dataclass
class Runtime:
    settings: Settings
    graph: Graph
    embedder: Embedder | None
    celery: Any | None = None
    inline_pipeline: Any | None = None  # a Pipeline: episodes commit during the request (tests, `serve --inline`)
    summarizer: Any | None = None  # built on the first summaries refresh (api/routers/summaries.py)
    key_cache: dict[str, tuple[float, Any]] = field(default_factory=dict)

    def embed(self, texts: list[str]) -> list[list[float]]:
        if self.embedder is None:
            return []
        return self.embedder.embed(texts)


def runtime(request: Request) -> Runtime:
    return request.app.state.runtime
