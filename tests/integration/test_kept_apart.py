"""A rejected suggestion, or an undone merge, keeps the pair apart in every automatic path: resolution at
ingestion and the consolidation pass never join them again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.read import merge_records
from strata.graph.suggestions import pending_suggestions, reject_suggestion
from strata.graph.undo import undo_merge, undo_pass
from strata.ingest.consolidate import consolidate_group
from strata.ingest.pipeline import Pipeline
from strata.ingest.rules import split_rules
from strata.resolve.planner import AmbiguousCase
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractedEntity, Extraction, ExtractorInfo, utcnow

pytestmark = pytest.mark.integration

INFO = ExtractorInfo(name="written")


def person(name: str) -> ExtractedEntity:
    return ExtractedEntity(name=name, type="Person")


def _commit(pipeline: Pipeline, group_id: str, seq: int, *names: str) -> None:
    text = " ".join(names)
    ep = Episode(uuid=ids.stable_uuid("apart-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                 content=text, reference_time=datetime(1812, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text),
                 story_position=seq * 1000)
    pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=[person(n) for n in names], extractor=INFO))


def _current(graph: Graph, group_id: str) -> dict[str, str]:
    rows = graph.query("MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL RETURN e.uuid AS uuid, "
                       "e.name AS name, e.aliases AS aliases", g=group_id)
    return {f: r["uuid"] for r in rows for f in [r["name"], *r["aliases"]]}


def _gardiners(graph: Graph, group_id: str, pipeline: Pipeline) -> dict[str, str]:
    """A lone "Gardiner" beside Mr. and Mrs. Gardiner: ambiguous, so suggested for review."""
    _commit(pipeline, group_id, 0, "Mr. Gardiner", "Mrs. Gardiner")
    _commit(pipeline, group_id, 1, "Gardiner")
    return _current(graph, group_id)


def _reject(graph: Graph, group_id: str, a: str, b: str) -> None:
    pending = pending_suggestions(graph, group_id, a)
    s = next(s for s in pending if {s.entity_uuid, s.candidate_uuid} == {a, b})
    reject_suggestion(graph, group_id, s.entity_uuid, s.candidate_uuid, utcnow(), actor="test")


def test_consolidation_does_not_merge_a_rejected_pair(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    cast = _gardiners(graph, group_id, pipeline)
    _reject(graph, group_id, cast["Gardiner"], cast["Mr. Gardiner"])
    results = consolidate_group(graph, group_id)
    assert not [m for r in results for m in r.merges if cast["Gardiner"] in (m.merged, m.into)]
    after = _current(graph, group_id)
    # neither the rejected man nor (by elimination) the woman takes the lone surname
    assert len({after["Gardiner"], after["Mr. Gardiner"], after["Mrs. Gardiner"]}) == 3


def test_consolidation_does_not_redo_an_undone_merge(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    cast = _gardiners(graph, group_id, pipeline)
    [first] = consolidate_group(graph, group_id)
    [merge] = [m for m in first.merges if m.merged == cast["Gardiner"]]
    assert merge.into == cast["Mr. Gardiner"]
    record = next(r for r in merge_records(graph, group_id, merge.into) if r.uuid == merge.record_uuid)
    undo_merge(graph, group_id, merge.into, record.uuid, recompute_timeline, utcnow())
    [again] = consolidate_group(graph, group_id)
    assert not [m for m in again.merges if cast["Gardiner"] in (m.merged, m.into)]
    assert _current(graph, group_id)["Gardiner"] == cast["Gardiner"]


def test_ingestion_does_not_join_a_rejected_pair(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    cast = _gardiners(graph, group_id, pipeline)
    _reject(graph, group_id, cast["Gardiner"], cast["Mr. Gardiner"])
    # one episode names both: within the episode they collapse into one mention of Mr. Gardiner
    _commit(pipeline, group_id, 2, "Mr. Gardiner", "Gardiner")
    after = _current(graph, group_id)
    assert after["Gardiner"] == cast["Gardiner"] != after["Mr. Gardiner"]
    aliases = graph.query("MATCH (e:Entity {uuid: $u}) RETURN e.aliases AS a", u=cast["Mr. Gardiner"])[0]["a"]
    assert "Gardiner" not in aliases


class _PickRejected:
    """An adjudicator that always picks the rejected candidate when it is offered."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.offered: list[list[str]] = []

    def __call__(self, episode: Episode, cases: Sequence[AmbiguousCase]) -> dict[int, str | None]:
        self.offered += [[c.uuid for c in case.candidates] for case in cases]
        return {k: self.target for k, case in enumerate(cases) if any(c.uuid == self.target for c in case.candidates)}


def test_adjudication_is_never_offered_a_rejected_candidate(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    cast = _gardiners(graph, group_id, pipeline)
    _reject(graph, group_id, cast["Gardiner"], cast["Mr. Gardiner"])
    # the collapse above would have given Mr. Gardiner the name "Gardiner" too; a later bare "Gardiner" is then
    # exact on both and goes to adjudication
    _commit(pipeline, group_id, 2, "Mr. Gardiner", "Gardiner")
    judge = _PickRejected(cast["Mr. Gardiner"])
    adjudicated = Pipeline(graph, None, None, adjudicator=judge)  # type: ignore[arg-type]
    _commit(adjudicated, group_id, 3, "Gardiner")
    forms = graph.query("MATCH (ep:Episode {uuid: $ep})-[m:MENTIONS]->(e:Entity) RETURN e.uuid AS uuid",
                        ep=ids.stable_uuid("apart-test", group_id, 3))
    assert [r["uuid"] for r in forms] == [cast["Gardiner"]]
    assert all(cast["Mr. Gardiner"] not in offered or cast["Gardiner"] not in offered for offered in judge.offered)


def test_taking_a_whole_pass_back_keeps_nothing_apart(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    cast = _gardiners(graph, group_id, pipeline)
    [first] = consolidate_group(graph, group_id)
    assert undo_pass(graph, group_id, None, split_rules(), utcnow())
    [again] = consolidate_group(graph, group_id)
    assert [(m.merged, m.into) for m in again.merges] == [(m.merged, m.into) for m in first.merges]
    assert _current(graph, group_id)["Gardiner"] == cast["Mr. Gardiner"]
