"""Second names of one person through Neo4j: the consolidation pass joins a pet form written with its name, an
alias the text states (a ``known_as`` fact), and nothing without that evidence: not a speaker naming themself in
a quote ("I am Griffin": of such quotes in the fitted novels most were no identification)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.ingest.consolidate import consolidate_group
from strata.ingest.pipeline import Pipeline
from strata.schema import ids
from strata.schema.models import (
    Episode,
    ExtractedEntity,
    ExtractedFact,
    ExtractedQuote,
    Extraction,
    ExtractorInfo,
)

pytestmark = pytest.mark.integration

INFO = ExtractorInfo(name="written")


def person(name: str) -> ExtractedEntity:
    return ExtractedEntity(name=name, type="Person")


def quote(text: str, speaker: str, method: str = "tag") -> ExtractedQuote:
    return ExtractedQuote(text=text, start=0, end=len(text), speaker=speaker, method=method)


ALIAS = ExtractedFact(subject="Noah Claypole", predicate="known_as", object="Mr. Morris Bolter",
                      subject_type="Person", object_type="Person")
WINDOWS: list[tuple[list[ExtractedEntity], list[ExtractedFact], list[ExtractedQuote]]] = [
    ([person("Nancy"), person("Noah Claypole"), person("the Stranger")], [], []),
    ([person("Nance"), person("Nancy")], [], []),
    ([person("Mr. Morris Bolter"), person("Noah Claypole")], [ALIAS], []),
    ([person("Griffin"), person("Mr. Hall")], [], []),
    ([person("the Stranger"), person("Mr. Hall")], [], [quote("I am Griffin, sir.", "the Stranger")]),  # a tag
    ([person("Mr. Thomas Marvel")], [], []),  # never written with anyone: no evidence for anything
    # a turn-taking guess of the speaker joins nobody: the guess may be wrong
    ([person("Marvel"), person("Mr. Hall")], [], []),
    ([person("the Tramp"), person("Mr. Hall")], [], [quote("I am Marvel, sir.", "the Tramp", "turn")]),
]


def _ingest(graph: Graph, group_id: str) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    for seq, (entities, facts, quotes) in enumerate(WINDOWS):
        text = " ".join(e.name for e in entities) + " " + " ".join(q.text for q in quotes)
        ep = Episode(uuid=ids.stable_uuid("alias-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                     content=text, reference_time=datetime(1838, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text),
                     story_position=seq * 1000)
        pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=entities, facts=facts, quotes=quotes,
                                       extractor=INFO))


def _current(graph: Graph, group_id: str) -> dict[str, str]:
    rows = graph.query("MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL RETURN e.uuid AS uuid, "
                       "e.name AS name, e.aliases AS aliases", g=group_id)
    return {f: r["uuid"] for r in rows for f in [r["name"], *r["aliases"]]}


def test_pet_forms_aliases_and_self_naming_join_on_evidence(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id)
    before = _current(graph, group_id)
    assert len({before[n] for n in ("Nance", "Nancy", "Mr. Morris Bolter", "Noah Claypole", "Griffin",
                                    "the Stranger")}) == 6
    [result] = consolidate_group(graph, group_id)
    rules = {m.rule for m in result.merges}
    assert {"pet_form", "alias_tie"} <= rules
    after = _current(graph, group_id)
    assert after["Nance"] == after["Nancy"]
    assert after["Mr. Morris Bolter"] == after["Noah Claypole"] != after["Nancy"]
    assert after["Griffin"] != after["the Stranger"] != after["Mr. Hall"]
    assert after["Mr. Thomas Marvel"] not in {after["Griffin"], after["Nancy"], after["Noah Claypole"]}
    assert after["the Tramp"] != after["Marvel"]
    [again] = consolidate_group(graph, group_id)  # idempotent
    assert not again.merges
