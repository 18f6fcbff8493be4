"""Which embedder made each group's vectors: a ``GroupEmbedder`` node per group (name and dimension).

Vectors of two models are not comparable, so a group refuses an ingest or a search under another embedder than
its own until ``strata reembed --group G`` moves it (graph/reembed.py). A group is recorded by its first ingest;
one that holds vectors from before the record existed is taken to hold the embedder shipped then (MiniLM).
"""

from __future__ import annotations

from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.queries import embedder_meta as q
from strata.schema.errors import SchemaMismatchError

_LIST_LIMIT = 20


class EmbedderRecord(BaseModel):
    model_config = {"frozen": True}

    name: str
    dimension: int


# What every group's vectors were before this record existed (the default embedder since session 5).
LEGACY = EmbedderRecord(name="onnx-minilm", dimension=384)


def recorded(graph: Graph, group_id: str) -> EmbedderRecord | None:
    rows = graph.query(q.GROUP_EMBEDDER, group_id=group_id)
    return EmbedderRecord(**rows[0]) if rows else None


def record(graph: Graph, group_id: str, embedder: EmbedderRecord) -> None:
    graph.query(q.RECORD_EMBEDDER, group_id=group_id, name=embedder.name, dimension=embedder.dimension)


def check_group(graph: Graph, group_id: str, configured: EmbedderRecord, write: bool = True) -> None:
    """Raise SchemaMismatchError when the group's vectors are another embedder's; record a group not yet
    recorded (``write``: an ingest does, a search leaves the graph as it is)."""
    stored = recorded(graph, group_id)
    if stored is None:
        has_vectors = graph.query(q.HAS_VECTORS, group_id=group_id)[0]["found"]
        stored = LEGACY if has_vectors else configured
        if write:
            record(graph, group_id, stored)
    if stored != configured:
        raise SchemaMismatchError(
            f"group {group_id!r} holds vectors of the {stored.name} embedder ({stored.dimension} dimensions) but "
            f"STRATA_EMBEDDER is {configured.name}: run `strata reembed --group {group_id}` to move it, or set "
            f"STRATA_EMBEDDER={stored.name}",
            {"group": group_id, "stored": stored.name, "configured": configured.name})


def other_groups(graph: Graph, configured: EmbedderRecord) -> list[tuple[str, EmbedderRecord]]:
    """Groups recorded under another embedder (at most a few, for a message at startup)."""
    rows = graph.query(q.OTHER_EMBEDDERS, name=configured.name, dimension=configured.dimension, limit=_LIST_LIMIT)
    return [(r["group_id"], EmbedderRecord(name=r["name"], dimension=r["dimension"])) for r in rows]
