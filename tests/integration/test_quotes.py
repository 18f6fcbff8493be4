"""Quotes through the real Neo4j: written with their episode as (speaker)-[:SAID]->(:Quote)-[:TO]->(addressee),
listed by speaker and addressee (uuid, name or alias), paginated, and removed by a purge."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph.commit import commit_episode
from strata.graph.purge import purge_episode
from strata.ingest.rules import purge_rules
from strata.memory.quotes import quotes_said
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractorInfo, utcnow
from strata.schema.plan import CommitPlan, EntityWrite, MentionWrite, QuoteWrite

pytestmark = pytest.mark.integration
NOW = datetime(2026, 1, 1, tzinfo=UTC)
TEXT = '"Will you walk?" said Tom to Anna.\n\n"Not today, Tom."\n\n"Then tomorrow," said Tom.\n\n"Maybe," said Kay.'


def _entity(group: str, name: str, aliases: list[str]) -> EntityWrite:
    return EntityWrite(uuid=ids.entity_uuid(group, name.lower()), key=name.lower(), name=name, type="Person",
                       aliases=[name, *aliases])


def _plan(group: str) -> CommitPlan:
    ep = Episode(uuid=ids.episode_uuid(group, "novel", 0), group_id=group, kind="text", content=TEXT,
                 reference_time=NOW, content_hash=ids.content_hash(TEXT), span_start=1000, span_end=1000 + len(TEXT),
                 status="done")
    tom, anna = _entity(group, "Tom Grey", ["Tom"]), _entity(group, "Anna", [])

    def quote(k: int, words: str, speaker: str, to: list[EntityWrite], uuid: str | None) -> QuoteWrite:
        start = TEXT.index(words)
        return QuoteWrite(uuid=ids.stable_uuid("quote", ep.uuid, k), text=words, start=start, end=start + len(words),
                          position=k, speaker=speaker, speaker_uuid=uuid, addressees=[e.name for e in to],
                          addressee_uuids=[e.uuid for e in to], method="tag", confidence=0.9)

    quotes = [quote(0, "Will you walk?", "Tom", [anna], tom.uuid),
              quote(1, "Not today, Tom.", "Anna", [tom], anna.uuid),
              quote(2, "Then tomorrow,", "Tom", [anna], tom.uuid),
              quote(3, "Maybe,", "Kay", [], None)]  # a speaker no entity matched keeps the name as written
    return CommitPlan(group_id=group, episode=ep, entities=[tom, anna],
                      mentions=[MentionWrite(entity_uuid=e.uuid, surface_forms=[e.name]) for e in (tom, anna)],
                      quotes=quotes, extractor=ExtractorInfo(name="test"))


def test_quotes_are_written_listed_and_purged(graph, group_id) -> None:
    plan = _plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    commit_episode(graph, plan, recompute_timeline, NOW)  # idempotent
    assert graph.query("MATCH (q:Quote {group_id: $g}) RETURN count(q) AS n", g=group_id)[0]["n"] == 4
    said = graph.query("MATCH (e:Entity)-[:SAID]->(q:Quote {group_id: $g})-[:TO]->(t:Entity) "
                       "RETURN e.name AS s, t.name AS t, q.text AS text ORDER BY q.position", g=group_id)
    assert [(r["s"], r["t"]) for r in said] == [("Tom Grey", "Anna"), ("Anna", "Tom Grey"), ("Tom Grey", "Anna")]

    tom_to_anna = quotes_said(graph, group_id, speaker="tom", addressee="Anna")  # an alias, any case
    assert tom_to_anna.count == 2
    assert [q.text for q in tom_to_anna.items] == ["Will you walk?", "Then tomorrow,"]
    first = tom_to_anna.items[0]
    assert first.source_start == 1000 + TEXT.index("Will") and first.addressee_uuids == [plan.entities[1].uuid]
    by_uuid = quotes_said(graph, group_id, speaker=plan.entities[1].uuid)
    assert [q.text for q in by_uuid.items] == ["Not today, Tom."]
    assert [q.speaker for q in quotes_said(graph, group_id, speaker="Kay").items] == ["Kay"]

    page = quotes_said(graph, group_id, limit=3)
    assert page.count == 4 and len(page.items) == 3 and page.next_offset == 3
    rest = quotes_said(graph, group_id, offset=page.next_offset, limit=3)
    assert [q.text for q in rest.items] == ["Maybe,"] and rest.next_offset is None

    purge_episode(graph, group_id, plan.episode.uuid, purge_rules(), utcnow())
    assert graph.query("MATCH (q:Quote {group_id: $g}) RETURN count(q) AS n", g=group_id)[0]["n"] == 0
    assert quotes_said(graph, group_id).count == 0
