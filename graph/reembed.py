"""Move a group to another embedder: every vector it holds computed again, a page at a time.

Each item re-embedded is marked with the embedder's name (``embedded_by``), so a move stopped half-way carries
on where it was; the group's record (graph/embedder_meta.py) changes last, when nothing is left. Archived
vectors (retention) are left as they are: they are not searched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.embedder_meta import EmbedderRecord, record
from strata.graph.queries import embedder_meta as q

EmbedFn = Callable[[Sequence[str]], list[list[float]]]
PAGE = 256
_KINDS = {"passage": (q.STALE_PASSAGES, q.SET_PASSAGE_VECTORS), "fact": (q.STALE_FACTS, q.SET_FACT_VECTORS),
          "entity": (q.STALE_ENTITIES, q.SET_ENTITY_VECTORS)}


class ReembedReport(BaseModel):
    group_id: str
    embedder: str
    counts: dict[str, int]


def reembed_group(graph: Graph, group_id: str, embedder: EmbedderRecord, embed: EmbedFn, page: int = PAGE,
                  progress: Callable[[str, int], None] | None = None) -> ReembedReport:
    counts: dict[str, int] = {}
    for kind, (stale, store) in _KINDS.items():
        counts[kind] = 0
        while True:
            rows = graph.query(stale, group_id=group_id, name=embedder.name, limit=page)
            if not rows:
                break
            flat = [t or " " for r in rows for t in r["texts"]]  # an empty text still gets a vector
            vectors = iter(embed(flat))
            batch = [{"uuid": r["uuid"], "vectors": [next(vectors) for _ in r["texts"]]} for r in rows]
            graph.query(store, group_id=group_id, name=embedder.name, rows=batch)
            counts[kind] += len(rows)
            if progress is not None:
                progress(kind, counts[kind])
    record(graph, group_id, embedder)
    return ReembedReport(group_id=group_id, embedder=embedder.name, counts=counts)
