"""A small written story through the real pipeline and Neo4j: one entity per person, records of every merge."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.read import entity_candidates, merge_records
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.resolve.lookup import rank_by_name
from strata.resolve.types import CandidateEntity
from strata.schema import ids
from strata.schema.models import Episode

pytestmark = pytest.mark.integration

STORY = [
    "Mr. Ashdown came to Fernley on Monday. Mrs. Ashdown stayed in town. Eleanor Marsh met Mr. Ashdown at the ball.",
    "“Well, Nell,” said her father, “you danced with Mr. Ashdown.” Eleanor laughed. Mrs. Ashdown wrote to Nell.",
    "“Ashdown is proud,” said Eleanor. Ashdown bowed to her and left Fernley.",
]


def test_a_story_resolves_its_cast_and_records_why(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, SpacyExtractor(), None)
    for seq, text in enumerate(STORY):
        ep = Episode(uuid=ids.stable_uuid("cast-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                     content=text, reference_time=datetime(1810, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text))
        pipeline.process(ep)
    rows = graph.query("MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL RETURN e.uuid AS uuid, "
                       "e.name AS name, e.aliases AS aliases", g=group_id)
    by_form = {a: r["uuid"] for r in rows for a in [r["name"], *r["aliases"]]}
    assert by_form["Mr. Ashdown"] != by_form["Mrs. Ashdown"]

    def top(name: str) -> str | None:
        hits = entity_candidates(graph, group_id, lucene=[("q", name)], limit=20)
        cands = [CandidateEntity(uuid=h.uuid, name=h.name, type=h.type or "Entity", aliases=h.aliases,
                                 mentions=h.mentions) for h in hits]
        order = rank_by_name(name, cands, [h.score for h in hits])
        return cands[order[0][0]].uuid if order else None

    assert top("Mrs. Ashdown") == by_form["Mrs. Ashdown"]
    assert top("Mr. Ashdown") == by_form["Mr. Ashdown"]
    assert top("Eleanor Marsh") == top("Eleanor")
    heroine = top("Eleanor Marsh")
    records = merge_records(graph, group_id, heroine)
    joined = {f for r in records for f in r.forms}
    assert joined & {"Eleanor", "Nell"}, records
    assert all(r.rule and r.episode_uuid for r in records)
    assert max(h.mentions for h in entity_candidates(graph, group_id, lucene=[("q", "Eleanor")], limit=5)) >= 2
