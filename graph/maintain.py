"""Vector indexes rebuilt in one piece after bulk loads.

Each Neo4j vector index is a Lucene index, and a query searches every segment's HNSW graph one after the other:
a store grown by many small writes keeps dozens of segments (Neo4j merges a vector index's segments only 50 at a
time), and a vector ask costs what its segments cost more than what its size costs. Neo4j 5.26 Community has no
call that merges them (no ``db.checkpoint()``, no force-merge); an index created over data that is already
there is populated in one pass, which leaves few large segments. So the rebuild drops each vector index and
creates it again with the same settings. While it populates, that index answers no query (the search's vector
channel for that kind is left out): run it after a bulk load, before serving, or in a quiet window.
"""

from __future__ import annotations

import re
import time

from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.queries import maintain as q

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class VectorIndex(BaseModel):
    id: int
    name: str
    entity_type: str  # NODE or RELATIONSHIP
    token: str
    property: str
    config: dict[str, object]


class Rebuilt(BaseModel):
    name: str
    seconds: float


def vector_indexes(graph: Graph) -> list[VectorIndex]:
    return [VectorIndex(id=r["id"], name=r["name"], entity_type=r["entityType"], token=r["token"],
                        property=r["property"], config=r["config"]) for r in graph.query(q.VECTOR_INDEXES)]


def rebuild_vector_index(graph: Graph, index: VectorIndex, timeout_s: int = 7200) -> Rebuilt:
    """Drop the index and create it again with the same settings; returns when it is populated."""
    if not all(_IDENTIFIER.match(x) for x in (index.name, index.token, index.property)):
        raise ValueError(f"unexpected vector index definition: {index}")  # DDL takes no parameters for names
    pattern = f"(n:{index.token})" if index.entity_type == "NODE" else f"()-[n:{index.token}]-()"
    config = {k: v for k, v in index.config.items() if k.startswith("vector.")}
    started = time.perf_counter()
    graph.query(f"DROP INDEX {index.name} IF EXISTS")
    graph.query(f"CREATE VECTOR INDEX {index.name} IF NOT EXISTS FOR {pattern} ON (n.{index.property}) "
                "OPTIONS {indexConfig: $config}", config=config)
    graph.query(q.AWAIT_INDEX, name=index.name, timeout_s=timeout_s)
    return Rebuilt(name=index.name, seconds=round(time.perf_counter() - started, 1))
