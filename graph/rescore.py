"""The rescoring stage: the ranking stage's best candidates scored again under a second, stronger embedder.

Each of the top ``depth`` candidates gets the cosine of the query and its own text under the rescoring model
(a passage: the mean over its text and its context, as the semantic feature reads both), a feature of
``RankWeights`` (``rescore``) fitted like the others; the rest keep their order below. An item's vectors
under the model are cached on it (properties named after the model), computed and stored the first time a
search or ``strata reembed --rescore`` needs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from strata.graph.driver import Graph
from strata.graph.queries import rescore as q
from strata.graph.ranking import Candidate

EmbedFn = Callable[[Sequence[str]], list[list[float]]]
_STORE = {"episode": q.STORE_PASSAGE_VECTORS, "fact": q.STORE_FACT_VECTORS, "entity": q.STORE_ENTITY_VECTORS}


@dataclass(frozen=True)
class Rescorer:
    """The rescoring model: its name (the cached properties are named after it), how it embeds what is stored
    and what is asked, and how many of the ranking stage's best candidates it scores."""

    name: str
    embed_passages: EmbedFn
    embed_query: EmbedFn
    depth: int = 50
    # The model is the stored vectors' own: the channels already read each candidate's cosines under it (its
    # semantic scores), so nothing is embedded, read or stored for the stage.
    stored: bool = False

    @property
    def keys(self) -> tuple[str, str]:
        """The properties holding an item's vectors: its text's and (passages) its context's."""
        base = "rescore_" + re.sub(r"[^a-z0-9]+", "_", self.name.lower()).strip("_")
        return base, base + "_context"


def fill(graph: Graph, group_id: str, query_vector: list[float] | None, candidates: Sequence[Candidate],
         rescorer: Rescorer) -> None:
    """Set ``rescore`` (the mean cosine of the query and the candidate's texts) on each candidate lacking it;
    vectors missing on the items are computed and stored."""
    need = [c for c in candidates if c.rescore is None]
    if not need:
        return
    if rescorer.stored:  # the semantic scores are these cosines, on the index scale (1 + cos) / 2
        for c in need:
            cosines = [2.0 * s - 1.0 for s in c.semantic if s is not None]
            c.rescore = float(np.mean(cosines)) if cosines else 0.0
        return
    assert query_vector is not None
    text_key, context_key = rescorer.keys
    uuids: dict[str, list[str]] = {"episode": [], "fact": [], "entity": []}
    for c in need:
        uuids[c.kind].append(c.uuid)
    rows = graph.fetch(q.RESCORE_SCORES, group_id=group_id, text_key=text_key, context_key=context_key,
                       query=query_vector, passage_uuids=uuids["episode"], fact_uuids=uuids["fact"],
                       entity_uuids=uuids["entity"])
    missing = [(r, k) for r in rows for k, s in enumerate(r["sims"]) if s is None and r["texts"][k]]
    if missing:  # embedded now, stored for the next search, scored here
        fresh = rescorer.embed_passages([r["texts"][k] for r, k in missing])
        query = np.asarray(query_vector, dtype=np.float32)
        for r in rows:
            r["vectors"] = [None] * len(r["texts"])
        for (row, k), vector in zip(missing, fresh, strict=True):
            row["vectors"][k] = vector
            row["sims"][k] = (1.0 + float(np.asarray(vector, dtype=np.float32) @ query)) / 2.0
        _store(graph, group_id, [r for r in rows if any(v is not None for v in r["vectors"])], rescorer.keys)
    found = {(r["kind"], r["uuid"]): [2.0 * s - 1.0 for s in r["sims"] if s is not None] for r in rows}
    for c in need:
        scored = found.get((c.kind, c.uuid))
        c.rescore = float(np.mean(scored)) if scored else 0.0


def item_vectors(graph: Graph, group_id: str, items: Sequence[tuple[str, str]],
                 rescorer: Rescorer) -> dict[tuple[str, str], np.ndarray]:
    """Each item's vectors under the model (rows: its texts), read where cached, else computed and stored."""
    text_key, context_key = rescorer.keys
    uuids: dict[str, list[str]] = {"episode": [], "fact": [], "entity": []}
    for kind, uuid in items:
        uuids[kind].append(uuid)
    rows = graph.fetch(q.RESCORE_ITEMS, group_id=group_id, text_key=text_key, context_key=context_key,
                       passage_uuids=uuids["episode"], fact_uuids=uuids["fact"], entity_uuids=uuids["entity"])
    missing = [(r, k) for r in rows for k, v in enumerate(r["vectors"]) if v is None and r["texts"][k]]
    if missing:
        fresh = rescorer.embed_passages([r["texts"][k] for r, k in missing])
        for (row, k), vector in zip(missing, fresh, strict=True):
            row["vectors"][k] = vector
        _store(graph, group_id, [r for r in rows if any(r is m for m, _ in missing)], (text_key, context_key))
    return {(r["kind"], r["uuid"]): np.asarray([v for v in r["vectors"] if v is not None], dtype=np.float32)
            for r in rows}


def _store(graph: Graph, group_id: str, rows: list[dict], keys: tuple[str, str]) -> None:
    by_kind: dict[str, list[dict]] = {}
    for r in rows:
        props = {keys[k]: v for k, v in enumerate(r["vectors"]) if v is not None}
        by_kind.setdefault(r["kind"], []).append({"uuid": r["uuid"], "props": props})
    for kind, batch in by_kind.items():
        graph.query(_STORE[kind], group_id=group_id, rows=batch)


def fill_group(graph: Graph, group_id: str, rescorer: Rescorer, page: int = 256,
               progress: Callable[[int], None] | None = None) -> int:
    """Compute the model's vectors for every passage of a group that lacks them, a page at a time (stopped and
    started again, it carries on where it was). Returns how many passages it filled."""
    if rescorer.stored:
        return 0
    done = 0
    seen: set[str] = set()
    while True:
        rows = graph.query(q.PASSAGES_WITHOUT, group_id=group_id, text_key=rescorer.keys[0], limit=page)
        if not rows or {r["uuid"] for r in rows} <= seen:  # only passages without text are left
            return done
        seen.update(r["uuid"] for r in rows)
        item_vectors(graph, group_id, [("episode", r["uuid"]) for r in rows], rescorer)
        done += len(rows)
        if progress is not None:
            progress(done)


def store_passages(graph: Graph, group_id: str, rows: Sequence[tuple[str, list[float], list[float]]],
                   rescorer: Rescorer) -> None:
    """Write the model's vectors of passages just committed: (uuid, text vector, context vector) each."""
    keys = rescorer.keys
    batch = [{"uuid": uuid, "props": {keys[0]: text, keys[1]: context}} for uuid, text, context in rows]
    if batch:
        graph.query(_STORE["episode"], group_id=group_id, rows=batch)
