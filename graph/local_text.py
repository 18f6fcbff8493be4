"""A small group's full-text channels, scored over the group's own documents (graph/bm25.py).

The channel query (graph/queries/search.py) returns every match of a small group, in Lucene's order, with what
BM25 needs (``detail``: the group's statistics per field, each match's texts) and the semantic scores of the
first ``limit`` only (the others come as uuid and score). Here the matches are scored again and cut to ``limit``;
a hit the group's own scores brought in from further down gets its features from another channel's hit of the
same item, or else from one more query (``HIT_FEATURES``) for all of them at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from strata.graph import bm25
from strata.graph.driver import Graph
from strata.graph.queries import search as q

_UUIDS = {"fact": "fact_uuids", "entity": "entity_uuids", "episode": "passage_uuids"}


def rescore(rows: Mapping[str, dict[str, Any]], question: str, limit: int) -> None:
    """Score the small group's full-text rows (``exact``, with ``detail``) over its own documents, in place."""
    for name, row in rows.items():
        if name.endswith("_fulltext") and row["exact"] and row.get("detail"):
            row["hits"] = bm25.rescored_hits(name.split("_")[0], question, row["hits"], row["detail"], limit)


def fill_features(graph: Graph, group_id: str, embedding: list[float] | None,
                  hits: list[tuple[str, dict[str, Any]]]) -> None:
    """Give every hit (kind, row) its features (``sim``...): those without take another hit's of the same item,
    or are read in one query."""
    known = {(kind, h["uuid"]): h for kind, h in hits if "sim" in h}
    missing: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for kind, h in hits:
        if "sim" in h:
            continue
        other = known.get((kind, h["uuid"]))
        if other is not None:
            h.update({k: v for k, v in other.items() if k not in h})
        else:
            missing.setdefault((kind, h["uuid"]), []).append(h)
    if not missing:
        return
    wanted: dict[str, list[str]] = {key: [] for key in _UUIDS.values()}
    for kind, uuid in missing:
        wanted[_UUIDS[kind]].append(uuid)
    kind_of = {uuid: kind for kind, uuid in missing}
    for row in graph.fetch(q.HIT_FEATURES, group_id=group_id, embedding=embedding, **wanted):
        for h in missing.get((kind_of[row["uuid"]], row["uuid"]), []):
            h.update({k: v for k, v in row["features"].items() if k not in h})
