"""A small group gets its own nearest items from the vector channels and name resolution, exactly as it does
alone, however many nearer items a neighbour holds in the shared vector indexes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import pytest

from strata.graph import Graph
from strata.graph import search as search_module
from strata.graph.bulk import drop_group
from strata.graph.commit import commit_episode
from strata.graph.read import MAX_INDEX_DEPTH, entity_candidates
from strata.graph.search import SearchQuery, search
from strata.ingest.testing.synthetic import generate, load
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractorInfo
from strata.schema.plan import CommitPlan, EntityWrite, FactWrite, PassageWrite, Predicate
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration
NOW = datetime(2026, 1, 1, tzinfo=UTC)
ITEMS = 6


class NearAxisEmbedder:
    """Every text lands near the first axis (cosine to it about 0.96): a neighbour nearer to the query than
    anything of the small group."""

    def __init__(self, dimension: int, seed: int = 5) -> None:
        self.dimension = dimension
        self._rng = np.random.default_rng(seed)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._rng.normal(0.0, 0.015, (len(texts), self.dimension))
        vectors[:, 0] += 1.0
        return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).tolist()


def _toward(dim: int, t: float, axis: int) -> list[float]:
    """A unit vector at cosine 1 / sqrt(1 + t^2) to the first axis, leaning toward ``axis``."""
    vec = [0.0] * dim
    vec[0], vec[axis] = 1.0, t
    norm = math.sqrt(1 + t * t)
    return [x / norm for x in vec]


def _small_group_plan(group: str, dim: int) -> CommitPlan:
    """ITEMS facts, entities and passages, each at its own cosine to the query (0.89 down to 0.50): all farther
    from it than the neighbour's."""
    content = " ".join(f"line {k} of the keeper's log." for k in range(ITEMS))
    ep = Episode(uuid=ids.episode_uuid(group, "log", 0), group_id=group, seq=0, kind="text", content=content,
                 reference_time=NOW, content_hash=ids.content_hash(content))
    ts = [0.5 + 1.2 * k / (ITEMS - 1) for k in range(ITEMS)]
    entities = [EntityWrite(uuid=ids.entity_uuid(group, f"e{k}"), key=f"e{k}", name=f"Keeper {k}", type="Person",
                            embedding=_toward(dim, t, 1)) for k, t in enumerate(ts)]
    facts = [FactWrite(uuid=ids.fact_uuid(group, entities[k].uuid, "logs", entities[(k + 1) % ITEMS].uuid, NOW),
                       subject_uuid=entities[k].uuid, predicate="logs", object_uuid=entities[(k + 1) % ITEMS].uuid,
                       fact=f"keeper {k} logs the lamp", valid_at=NOW, embedding=_toward(dim, t, 2))
             for k, t in enumerate(ts)]
    width = len(content) // ITEMS
    passages = [PassageWrite(uuid=ids.stable_uuid("passage", ep.uuid, k), start=k * width, end=(k + 1) * width,
                             text=content[k * width:(k + 1) * width], embedding=_toward(dim, t, 3),
                             context_embedding=_toward(dim, t, 3)) for k, t in enumerate(ts)]
    return CommitPlan(group_id=group, episode=ep, entities=entities, facts=facts, passages=passages,
                      predicates=[Predicate(name="logs")], extractor=ExtractorInfo(name="test"))


def _vector_view(graph: Graph, group: str, query: list[float]) -> tuple[list, list]:
    """What the vector channels contribute to a search (each hit and its vector channels, in answer order) and the
    name-vector candidates of entity resolution."""
    hits = search(graph, group, SearchQuery(q="lamp keeper", limit=20), embed=lambda texts: [query for _ in texts]).hits
    uuid = {"fact": lambda h: h.fact.uuid, "entity": lambda h: h.entity.uuid, "episode": lambda h: h.episode.uuid}
    answer = [(h.kind, uuid[h.kind](h), sorted(c for c in h.channels if c.endswith("_vector"))) for h in hits]
    names = [(c.uuid, round(c.score, 6)) for c in entity_candidates(graph, group, vectors=[("q", query)], limit=8)]
    return answer, names


def test_a_small_group_beside_a_nearer_large_neighbour_gets_the_vector_hits_it_gets_alone(
        graph: Graph, settings: Settings, group_id: str) -> None:
    dim = settings.embedding_dim
    neighbour = f"bench-{group_id}-neighbour"
    # 10,000 facts, 1,468 entities and 2,000 passages, every one nearer to the query than the small group's: more
    # than the deepest ask of the shared indexes (MAX_INDEX_DEPTH) in each.
    planned = generate(neighbour, 10_000)
    assert min(planned.n_entities, 10_000 // 5) > MAX_INDEX_DEPTH
    query = _toward(dim, 0.0, 1)
    try:
        commit_episode(graph, _small_group_plan(group_id, dim), recompute_timeline, NOW)
        graph.query("CALL db.awaitIndexes(60)")
        alone, names_alone = _vector_view(graph, group_id, query)
        # Alone, every item of the group is found by its vector channel, in cosine order.
        assert sum(1 for kind, _, channels in alone if channels) == 3 * ITEMS
        assert len(names_alone) == ITEMS

        load(graph, planned, NearAxisEmbedder(dim), facts_per_episode=5)
        graph.query("CALL db.awaitIndexes(300)")
        beside, names_beside = _vector_view(graph, group_id, query)
        assert beside == alone
        assert names_beside == names_alone
    finally:
        drop_group(graph, neighbour)


def test_a_vector_channel_scans_up_to_the_threshold_and_asks_the_shared_index_above_it(
        graph: Graph, settings: Settings, group_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    commit_episode(graph, _small_group_plan(group_id, settings.embedding_dim), recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    sent: list[tuple[str, list[dict]]] = []
    real_rows = search_module._rows

    def recording(graph: Graph, cypher: str, args: dict) -> list[dict]:
        found = real_rows(graph, cypher, args)
        sent.append((cypher, found))
        return found

    monkeypatch.setattr(search_module, "_rows", recording)
    query = _toward(settings.embedding_dim, 0.0, 1)

    def run() -> tuple[list, dict[str, bool], bool]:
        sent.clear()
        hits = search(graph, group_id, SearchQuery(q="lamp keeper", limit=20),
                      embed=lambda texts: [query for _ in texts]).hits
        exact = {r["channel"]: r["exact"] for _, rows in sent for r in rows
                 if r.get("channel", "").endswith("_vector")}
        looked = any("$scan_cap" in cypher for cypher, _ in sent)
        # What the vector channels found (the full-text scores differ: a small group's are its own, graph/bm25.py,
        # a large one's Lucene's; so may the order and the expansion's seeds)
        uuid = {"fact": lambda h: h.fact.uuid, "entity": lambda h: h.entity.uuid, "episode": lambda h: h.episode.uuid}
        found = sorted((h.kind, uuid[h.kind](h), [c for c in h.channels if c.endswith("_vector")]) for h in hits)
        return found, exact, looked

    vector_channels = ("fact_vector", "entity_vector", "passage_vector")
    shipped = graph.vector_scan_max
    try:
        graph.vector_scan_max = ITEMS  # the group holds ITEMS facts, entities and passages: scanned
        scanned, exact, looked = run()
        assert exact == dict.fromkeys(vector_channels, True) and looked
        graph.vector_scan_max = ITEMS - 1  # one fewer: the shared index, after a look at the group's items
        indexed, exact, looked = run()
        assert exact == dict.fromkeys(vector_channels, False) and looked
        # Found large, the group asks the index alone next time: no look at its items.
        again, exact, looked = run()
        assert exact == dict.fromkeys(vector_channels, False) and not looked
    finally:
        graph.vector_scan_max = shipped
    # Alone, the index and the scan find the same items.
    assert scanned == indexed == again
