"""Hybrid search on a real Neo4j: the shared indexes must not hide a small group's facts."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.commit import commit_episode
from strata.graph.search import SearchQuery, search
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractorInfo
from strata.schema.plan import CommitPlan, EntityWrite, FactWrite, PredicateWrite
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _unit(vec: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vec))
    return [x / norm for x in vec]


def _near(dim: int, rng: random.Random, spread: float) -> list[float]:
    """A vector about the first axis: cosine to it about 1 / sqrt(1 + dim * spread^2)."""
    return _unit([1.0 + rng.gauss(0, spread) if i == 0 else rng.gauss(0, spread) for i in range(dim)])


def _facts_plan(group: str, seq: int, texts: list[str], embeddings: list[list[float]]) -> CommitPlan:
    content = "\n".join(texts)
    ep = Episode(uuid=ids.episode_uuid(group, "src", seq), group_id=group, seq=seq, kind="facts", content=content,
                 reference_time=NOW, content_hash=ids.content_hash(content))
    entities, facts = [], []
    for k, (text, embedding) in enumerate(zip(texts, embeddings, strict=True)):
        a, b = (EntityWrite(uuid=ids.entity_uuid(group, f"{seq}-{k}-{side}"), key=f"{seq}-{k}-{side}",
                            name=f"{side} {seq} {k}", type="Person", aliases=[]) for side in ("left", "right"))
        entities += [a, b]
        facts.append(FactWrite(uuid=ids.fact_uuid(group, a.uuid, "relates", b.uuid, NOW), subject_uuid=a.uuid,
                               predicate="relates", object_uuid=b.uuid, fact=text, valid_at=NOW, embedding=embedding))
    return CommitPlan(group_id=group, episode=ep, entities=entities, facts=facts,
                      predicates=[PredicateWrite(name="relates")], extractor=ExtractorInfo(name="test"))


def test_a_small_groups_vector_match_is_not_crowded_out_by_a_large_group(graph: Graph, settings: Settings,
                                                                           group_id: str) -> None:
    crowd = f"{group_id}-crowd"
    try:
        # 400 facts of another group lie closer to the query (cosine ~0.96) than ours does (~0.89).
        dim, rng = settings.embedding_dim, random.Random(7)
        commit_episode(graph, _facts_plan(crowd, 0, [f"crowd fact {k}" for k in range(400)],
                                          [_near(dim, rng, 0.015) for _ in range(400)]), recompute_timeline, NOW)
        ours = _unit([1.0, 0.5] + [0.0] * (dim - 2))
        commit_episode(graph, _facts_plan(group_id, 0, ["the lighthouse keeper rows ashore"], [ours]),
                       recompute_timeline, NOW)
        graph.query("CALL db.awaitIndexes(60)")
        query = _unit([1.0] + [0.0] * (dim - 1))
        result = search(graph, group_id, SearchQuery(q="unrelated words", kinds=["fact"]),
                        embed=lambda texts: [query for _ in texts])
        assert [h.fact.fact for h in result.hits if h.fact] == ["the lighthouse keeper rows ashore"]
        assert result.hits[0].channels == ["fact_vector"]
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=crowd)
