"""The per-book consolidation pass and undo through Neo4j: entities the episodes could not link are merged
afterwards with a record, and a merge can be taken back from its record."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.read import merge_records
from strata.graph.undo import undo_merge, undo_pass, undo_record
from strata.ingest.consolidate import consolidate_group
from strata.ingest.pipeline import Pipeline
from strata.ingest.rules import split_rules
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.errors import InputError
from strata.schema.models import Episode, ExtractedEntity, ExtractedFact, Extraction, ExtractorInfo, utcnow

pytestmark = pytest.mark.integration

INFO = ExtractorInfo(name="written")


def person(name: str) -> ExtractedEntity:
    return ExtractedEntity(name=name, type="Person")


# Written extractions (no model): what the episodes could not link, the book's cast can.
EPISODES: list[tuple[list[ExtractedEntity], list[ExtractedFact]]] = [
    ([person("Mr. Gardiner"), person("Mrs. Gardiner"), person("Mr. Collins")], []),
    ([person("Gardiner"), ExtractedEntity(name="London", type="Place"), person("Charlotte Lucas"),
      person("Mr. Collins")],
     [ExtractedFact(subject="Gardiner", predicate="lives_in", object="London", subject_type="Person",
                    object_type="Place"),
      ExtractedFact(subject="Charlotte Lucas", predicate="spouse_of", object="Mr. Collins")]),
    ([person("Mrs. Collins"), person("Mrs. Gardiner")], []),
]


def _ingest(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    for seq, (entities, facts) in enumerate(EPISODES):
        text = " ".join(e.name for e in entities)
        ep = Episode(uuid=ids.stable_uuid("consolidate-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                     content=text, reference_time=datetime(1812, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text),
                     story_position=seq * 1000)
        pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=entities, facts=facts, extractor=INFO))


def _current(graph: Graph, group_id: str) -> dict[str, str]:
    rows = graph.query("MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL RETURN e.uuid AS uuid, "
                       "e.name AS name, e.aliases AS aliases", g=group_id)
    return {f: r["uuid"] for r in rows for f in [r["name"], *r["aliases"]]}


def test_the_pass_merges_what_episodes_left_apart_and_undo_takes_it_back(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id)
    before = _current(graph, group_id)
    assert before["Gardiner"] not in (before["Mr. Gardiner"], before["Mrs. Gardiner"])  # ambiguous in its episode
    assert before["Mrs. Collins"] != before["Charlotte Lucas"]

    results = consolidate_group(graph, group_id)
    rules = {m.rule for r in results for m in r.merges}
    assert "bare_surname:only_man" in rules and "married_name" in rules
    after = _current(graph, group_id)
    assert after["Gardiner"] == after["Mr. Gardiner"] != after["Mrs. Gardiner"]
    assert after["Mrs. Collins"] == after["Charlotte Lucas"] != after["Mr. Collins"]
    lives = graph.query("MATCH (s:Entity)-[r:RELATES_TO {predicate: 'lives_in'}]->() WHERE r.group_id = $g "
                        "AND r.expired_at IS NULL RETURN s.uuid AS s", g=group_id)
    assert [r["s"] for r in lives] == [after["Mr. Gardiner"]]

    # idempotent: nothing left to merge
    assert all(not r.merges for r in consolidate_group(graph, group_id))

    record = next(r for r in merge_records(graph, group_id, after["Mr. Gardiner"]) if r.rule.startswith("bare_surname"))
    done = undo_merge(graph, group_id, after["Mr. Gardiner"], record.uuid, recompute_timeline, utcnow())
    assert done.restored == before["Gardiner"] and done.facts_restored == 1 and done.mentions_restored == 1
    restored = _current(graph, group_id)
    assert restored["Gardiner"] == before["Gardiner"] and restored["Mr. Gardiner"] == before["Mr. Gardiner"]
    lives = graph.query("MATCH (s:Entity)-[r:RELATES_TO {predicate: 'lives_in'}]->() WHERE r.group_id = $g "
                        "AND r.expired_at IS NULL RETURN s.uuid AS s", g=group_id)
    assert [r["s"] for r in lives] == [before["Gardiner"]]
    mentions = graph.query("MATCH (ep:Episode)-[m:MENTIONS]->(e:Entity {uuid: $u}) RETURN ep.seq AS seq, "
                           "m.surface_forms AS forms", u=before["Gardiner"])
    assert [(m["seq"], m["forms"]) for m in mentions] == [(1, ["Gardiner"])]
    assert not graph.query("MATCH (ep:Episode {seq: 1})-[:MENTIONS]->(e:Entity {uuid: $u}) WHERE ep.group_id = $g "
                           "RETURN ep", u=before["Mr. Gardiner"], g=group_id)
    with pytest.raises(InputError):
        undo_merge(graph, group_id, after["Mr. Gardiner"], record.uuid, recompute_timeline, utcnow())


def test_undoing_a_merge_made_inside_an_episode_splits_its_names_off(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    written = [([person("Eleanor Marsh")], []),
               ([person("Eleanor"), ExtractedEntity(name="Bath", type="Place")],
                [ExtractedFact(subject="Eleanor", predicate="lives_in", object="Bath", subject_type="Person",
                               object_type="Place")])]
    for seq, (entities, facts) in enumerate(written):
        text = " ".join(e.name for e in entities)
        ep = Episode(uuid=ids.stable_uuid("split-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                     content=text, reference_time=datetime(1812, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text))
        pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=entities, facts=facts, extractor=INFO))
    joined = _current(graph, group_id)
    assert joined["Eleanor"] == joined["Eleanor Marsh"]
    record = next(r for r in merge_records(graph, group_id, joined["Eleanor Marsh"]) if "Eleanor" in r.forms)
    done = undo_record(graph, group_id, joined["Eleanor Marsh"], record.uuid, split_rules(), utcnow())
    apart = _current(graph, group_id)
    assert apart["Eleanor"] == done.restored != apart["Eleanor Marsh"]
    assert done.mentions_restored == 1 and done.facts_restored == 1
    lives = graph.query("MATCH (s:Entity)-[r:RELATES_TO {predicate: 'lives_in'}]->() WHERE r.group_id = $g "
                        "RETURN s.uuid AS s", g=group_id)
    assert [r["s"] for r in lives] == [done.restored]


def test_undoing_the_whole_pass_gives_back_the_cast_it_found(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id)
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    text = "Mr. Hill Mrs. Hill"  # one episode's merge put two genders on one entity: the pass splits it
    ep = Episode(uuid=ids.stable_uuid("undo-pass", group_id), group_id=group_id, seq=9, kind="text", content=text,
                 reference_time=datetime(1812, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text))
    pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=[ExtractedEntity(
        name="Hill", type="Person", aliases=["Mr. Hill", "Mrs. Hill"])], extractor=INFO))
    before = _current(graph, group_id)
    assert before["Mr. Hill"] == before["Mrs. Hill"]
    [result] = consolidate_group(graph, group_id)
    assert result.splits and result.merges
    after = _current(graph, group_id)
    assert after["Mr. Hill"] != after["Mrs. Hill"]
    undone = undo_pass(graph, group_id, None, split_rules(), utcnow())
    assert len(undone) == len(result.splits) + len(result.merges)
    assert _current(graph, group_id) == before


BOOK = """CHAPTER I

Mr. Gardiner came to Fernley on Monday with Mrs. Gardiner. Mr. Gardiner was a sensible man, and Mrs. Gardiner
was a pleasant woman. They stayed at the inn for a week and walked every morning.

CHAPTER II

Gardiner laughed at the old joke. Gardiner walked to the church alone, and the bells rang while the rain fell on
the quiet square of the town.
"""


def test_the_pass_runs_when_a_book_job_completes(graph: Graph, group_id: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from strata.ingest.extractors import SpacyExtractor
    from strata.ingest.sources import load_source
    from strata.ingest.submit import submit_document

    path = tmp_path / "story.txt"
    path.write_text(BOOK, encoding="utf-8")
    doc = load_source(path, "book", group_id=group_id, book_window_tokens=40, max_episode_chars=4000)
    info = submit_document(graph, None, doc, inline_pipeline=Pipeline(graph, SpacyExtractor(), None))
    assert info.status == "done" and info.total >= 2
    forms = _current(graph, group_id)
    assert forms["Gardiner"] == forms["Mr. Gardiner"] != forms["Mrs. Gardiner"]
    rules = {r.rule for r in merge_records(graph, group_id, forms["Mr. Gardiner"])}
    assert any(rule.startswith("bare_surname") for rule in rules), rules
