"""The consolidation pass joins a woman's maiden name and her married name through Neo4j when the text ties them
(a former name, or a marriage told before the married name is in use), and leaves a married name in use long
before the wedding (his mother's) alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.ingest.consolidate import consolidate_group
from strata.ingest.pipeline import Pipeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractedEntity, ExtractedFact, Extraction, ExtractorInfo

pytestmark = pytest.mark.integration

INFO = ExtractorInfo(name="written")


def person(name: str) -> ExtractedEntity:
    return ExtractedEntity(name=name, type="Person")


def fact(subject: str, predicate: str, obj: str) -> ExtractedFact:
    return ExtractedFact(subject=subject, predicate=predicate, object=obj, subject_type="Person", object_type="Person")


# Written extractions (no model). Eleanor Cradock marries Mr. Pardoe in episode 3; "Mrs. Hale" is Mr. Hale's
# mother from the first episode, and Ann Cradock marries Mr. Hale only in the last one; "Mrs. Ormerod (Miss
# Dunstan that was)" is a former name the text gives.
EPISODES: list[tuple[list[ExtractedEntity], list[ExtractedFact]]] = [
    ([person("Eleanor Cradock"), person("Mr. Pardoe"), person("Mrs. Hale"), person("Mr. Hale")], []),
    ([person("Miss Cradock"), person("Eleanor Cradock"), person("Mrs. Hale"), person("Ann Cradock")], []),
    ([person("Mrs. Hale"), person("Mr. Hale"), person("Miss Dunstan")], []),
    ([person("Eleanor Cradock"), person("Mr. Pardoe")], [fact("Eleanor Cradock", "spouse_of", "Mr. Pardoe")]),
    ([person("Mrs. Pardoe"), person("Mrs. Hale"), person("Mrs. Ormerod"), person("Miss Dunstan")],
     [fact("Mrs. Ormerod", "described_as", "Miss Dunstan")]),
    ([person("Mrs. Pardoe"), person("Mrs. Hale"), person("Mrs. Ormerod")], []),
    ([person("Ann Cradock"), person("Mr. Hale"), person("Mrs. Hale")], [fact("Ann Cradock", "spouse_of", "Mr. Hale")]),
]


def _ingest(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    for seq, (entities, facts) in enumerate(EPISODES):
        text = " ".join(e.name for e in entities)
        ep = Episode(uuid=ids.stable_uuid("married-names-test", group_id, seq), group_id=group_id, seq=seq,
                     kind="text", content=text, reference_time=datetime(1816, 1, 1, tzinfo=UTC),
                     content_hash=ids.content_hash(text), story_position=seq * 1000)
        pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=entities, facts=facts, extractor=INFO))


def _current(graph: Graph, group_id: str) -> dict[str, str]:
    rows = graph.query("MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL RETURN e.uuid AS uuid, "
                       "e.name AS name, e.aliases AS aliases", g=group_id)
    return {f: r["uuid"] for r in rows for f in [r["name"], *r["aliases"]]}


def test_married_names_join_the_bride_and_the_former_name_not_his_mother(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id)
    results = consolidate_group(graph, group_id)
    rules = {m.rule for r in results for m in r.merges}
    assert {"married_name", "maiden_name"} <= rules
    after = _current(graph, group_id)
    assert after["Mrs. Pardoe"] == after["Eleanor Cradock"] != after["Mr. Pardoe"]
    assert after["Mrs. Ormerod"] == after["Miss Dunstan"]
    assert after["Mrs. Hale"] != after["Ann Cradock"]  # his mother, written from the first episode
