"""The book's narrator through Neo4j: the consolidation pass gives the narrator's quotes that their own window
could not name ("said I" where nobody calls the narrator by name) to the name the other windows gave."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.ingest.consolidate import consolidate_group
from strata.ingest.pipeline import Pipeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractedEntity, ExtractedQuote, Extraction, ExtractorInfo

pytestmark = pytest.mark.integration

INFO = ExtractorInfo(name="written")


def quote(text: str, speaker: str | None, narrator: bool = False) -> ExtractedQuote:
    return ExtractedQuote(text=text, start=0, end=len(text), speaker=speaker, narrator=narrator,
                          method="turn" if speaker else None)


def _ingest(graph: Graph, group_id: str, windows: list[list[ExtractedQuote]]) -> None:
    pipeline = Pipeline(graph, None, None)  # type: ignore[arg-type]
    for seq, quotes in enumerate(windows):
        names = {q.speaker for q in quotes if q.speaker}
        text = " ".join(q.text for q in quotes)
        ep = Episode(uuid=ids.stable_uuid("narrator-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                     content=text, reference_time=datetime(1890, 1, 1, tzinfo=UTC), content_hash=ids.content_hash(text),
                     story_position=seq * 1000)
        entities = [ExtractedEntity(name=n, type="Person") for n in sorted(names)]
        pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=entities, quotes=quotes, extractor=INFO))


def _said(graph: Graph, group_id: str) -> dict[str, str | None]:
    rows = graph.query("MATCH (:Episode {group_id: $g})-[:HAS_QUOTE]->(x:Quote) OPTIONAL MATCH (e:Entity)-[:SAID]->(x)"
                       " RETURN x.text AS text, e.name AS speaker", g=group_id)
    return {r["text"]: r["speaker"] for r in rows}


def test_the_narrator_s_unnamed_quotes_go_to_the_name_the_windows_agree_on(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id, [
        [quote("You are late, Watson.", "Holmes"), quote("The train was slow.", "Watson", narrator=True)],
        [quote("Sit down, Watson.", "Holmes"), quote("Thank you.", "Watson", narrator=True)],
        [quote("What do you make of it?", "Holmes"), quote("Nothing at all.", None, narrator=True),
         quote("Nor does anyone.", None)],  # not the narrator's: stays unnamed
    ])
    [result] = consolidate_group(graph, group_id)
    assert result.narrator_quotes == 1
    said = _said(graph, group_id)
    assert said["Nothing at all."] == "Watson" and said["Nor does anyone."] is None
    assert said["What do you make of it?"] == "Holmes"
    [again] = consolidate_group(graph, group_id)  # idempotent
    assert again.narrator_quotes == 0


def test_windows_that_disagree_name_nobody(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id, [
        [quote("Hello.", "Watson", narrator=True)],
        [quote("Hello again.", "Hastings", narrator=True)],
        [quote("Goodbye.", None, narrator=True)],
    ])
    [result] = consolidate_group(graph, group_id)
    assert result.narrator_quotes == 0 and _said(graph, group_id)["Goodbye."] is None
