"""Retention policies on a real Neo4j: each policy hides exactly what it says, keeps what it promises (facts,
provenance pointers, as-of and known-at reads), is undone by a looser policy, and a retention purge removes what
it hid for good."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from strata.graph import Graph
from strata.graph import retention as store
from strata.graph.read import list_facts
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders.hash_embedder import HashEmbedder
from strata.ingest.pipeline import Pipeline
from strata.ingest.retention import apply_group, apply_policy
from strata.schema import ids
from strata.schema.models import Episode, ExtractedEntity, ExtractedFact, Extraction, ExtractorInfo, Span
from strata.schema.retention import RetentionPolicy

pytestmark = pytest.mark.integration

INFO = ExtractorInfo(name="written")
NOW = datetime.now(UTC).replace(microsecond=0)
OLD = NOW - timedelta(days=40)  # ingested 40 days ago
EMBED = HashEmbedder()


def _episode(group_id: str, seq: int, text: str) -> Episode:
    return Episode(uuid=ids.stable_uuid("retention-test", group_id, seq), group_id=group_id, seq=seq, kind="text",
                   content=text, reference_time=datetime(2024, 1, 1 + seq, tzinfo=UTC),
                   content_hash=ids.content_hash(text))


def _commit(pipeline: Pipeline, ep: Episode, facts: list[tuple[str, str, str, str]], now: datetime) -> None:
    """Commit written facts (subject, predicate, object, sentence) of an episode as if ingested at ``now``."""
    people = {name for s, _, o, _ in facts for name in (s, o)}
    extracted = [ExtractedFact(subject=s, predicate=p, object=o, fact=text, subject_type="Person",
                               object_type="Place", functional="subject" if p == "lives_in" else None,
                               valid_at=ep.reference_time, spans=[Span(start=0, end=len(ep.content))])
                 for s, p, o, text in facts]
    pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, entities=[ExtractedEntity(name=n, type="Person")
                                                                    for n in sorted(people)],
                                   facts=extracted, extractor=INFO), now=now)


@pytest.fixture
def pipeline(graph: Graph) -> Pipeline:
    return Pipeline(graph, None, EMBED, prose_vectors=True)  # type: ignore[arg-type]


@pytest.fixture
def town(graph: Graph, group_id: str, pipeline: Pipeline) -> dict[str, Episode]:
    """Two episodes: one ingested 40 days ago (Maya in Quillport, a canary word in its text), one today (Maya
    moves to Brindlemoor, which ends the old fact today)."""
    old = _episode(group_id, 0, "Maya Orlov lives in Quillport near the zarquonite mill.")
    new = _episode(group_id, 1, "Maya Orlov moved to Brindlemoor this spring.")
    _commit(pipeline, old, [("Maya Orlov", "lives_in", "Quillport", "Maya Orlov lives in Quillport.")], OLD)
    _commit(pipeline, new, [("Maya Orlov", "lives_in", "Brindlemoor", "Maya Orlov lives in Brindlemoor.")], NOW)
    return {"old": old, "new": new}


def _props(graph: Graph, group_id: str) -> list[dict[str, Any]]:
    nodes = graph.query("MATCH (n {group_id: $g}) RETURN properties(n) AS p", g=group_id)
    rels = graph.query("MATCH ()-[r {group_id: $g}]->() RETURN properties(r) AS p", g=group_id)
    return [r["p"] for r in nodes + rels]


def _holds(graph: Graph, group_id: str, word: str) -> bool:
    return any(word in str(v) for p in _props(graph, group_id) for v in p.values())


def _episode_row(graph: Graph, uuid: str) -> dict[str, Any]:
    return graph.query("MATCH (ep:Episode {uuid: $u}) RETURN properties(ep) AS p", u=uuid)[0]["p"]


def _passages(graph: Graph, uuid: str) -> list[dict[str, Any]]:
    return [r["p"] for r in graph.query("MATCH (:Episode {uuid: $u})-[:HAS_PASSAGE]->(p:Passage) "
                                        "RETURN properties(p) AS p", u=uuid)]


def _found(graph: Graph, group_id: str, q: str, kinds: list[str]) -> list[str]:
    hits = search(graph, group_id, SearchQuery(q=q, kinds=kinds, limit=10), embed=EMBED.embed).hits
    return [(h.episode.text if h.episode else h.fact.fact if h.fact else "") for h in hits]


def _reads(graph: Graph, group_id: str) -> dict[str, Any]:
    """Every temporal read a policy promises to keep: now, as of the old fact's time, as known before the move,
    and the whole history."""
    def facts(**kw: Any) -> list[tuple[str, str, Any, Any]]:
        page = list_facts(graph, group_id, limit=100, **kw)
        return sorted((f.uuid, f.fact, f.valid_at, f.invalid_at) for f in page.items)

    return {"now": facts(), "as_of": facts(as_of=datetime(2024, 1, 1, 12, tzinfo=UTC)),
            "known_at": facts(known_at=NOW - timedelta(days=1), as_of=datetime(2024, 6, 1, tzinfo=UTC)),
            "history": facts(include_history=True)}


def test_defaults_keep_everything(graph: Graph, group_id: str, town: dict[str, Episode]) -> None:
    assert store.get_policy(graph, group_id).policy.keeps_everything
    before = _props(graph, group_id)
    run = apply_group(graph, group_id, NOW + timedelta(days=10_000))
    assert all(v == 0 for v in run.counts.model_dump().values())
    assert sorted(map(str, _props(graph, group_id))) == sorted(map(str, before))


def test_raw_text_policy_compacts_old_episodes_keeps_facts_and_is_undone(graph: Graph, group_id: str,
                                                                         town: dict[str, Episode]) -> None:
    old, new = town["old"], town["new"]
    reads = _reads(graph, group_id)
    assert reads["as_of"] and reads["known_at"] and len(reads["history"]) == 2
    assert any("zarquonite" in t for t in _found(graph, group_id, "zarquonite mill", ["episode"]))
    mentions = graph.query("MATCH (:Episode {uuid: $u})-[m:MENTIONS]->(e) RETURN e.uuid AS e", u=old.uuid)

    policy = RetentionPolicy(raw_text_days=30)
    dry = apply_policy(graph, group_id, policy, NOW, dry_run=True)
    assert dry.counts.episodes_compacted == 1 and dry.counts.passages_hidden == len(_passages(graph, old.uuid))
    assert _episode_row(graph, old.uuid)["content"] == old.content  # a dry run changes nothing

    store.put_policy(graph, group_id, policy, NOW, actor="test")
    run = apply_group(graph, group_id, NOW)
    assert run.counts.episodes_compacted == 1 and run.counts.passages_hidden >= 1
    row = _episode_row(graph, old.uuid)
    assert row["content"] == "" and row["compacted_at"] is not None
    assert all(p["text"] == "" and "embedding" not in p for p in _passages(graph, old.uuid))
    assert _episode_row(graph, new.uuid)["content"] == new.content  # today's episode is not due
    assert not any("zarquonite" in t for t in _found(graph, group_id, "zarquonite mill", ["episode"]))
    # facts, their provenance pointers and mentions stay; every temporal read is unchanged
    assert _reads(graph, group_id) == reads
    assert graph.query("MATCH (:Episode {uuid: $u})-[m:MENTIONS]->(e) RETURN e.uuid AS e", u=old.uuid) == mentions
    # a fact still points into the compacted episode (uuid and offsets); the quoted words are gone with the text
    cited = [p for h in search(graph, group_id, SearchQuery(q="Quillport", kinds=["fact"], include_history=True),
                               embed=EMBED.embed).hits for p in h.provenance if p.episode_uuid == old.uuid]
    assert cited and all(p.start is not None and not p.text for p in cited)
    assert apply_group(graph, group_id, NOW).counts.episodes_compacted == 0  # idempotent

    # undo: a looser policy restores exactly
    store.put_policy(graph, group_id, RetentionPolicy(), NOW)
    back = apply_group(graph, group_id, NOW)
    assert back.counts.episodes_restored == 1 and back.counts.passages_restored == run.counts.passages_hidden
    row = _episode_row(graph, old.uuid)
    assert row["content"] == old.content and "compacted_at" not in row and "archived_content" not in row
    assert all(p["text"] and p.get("embedding") for p in _passages(graph, old.uuid))
    assert any("zarquonite" in t for t in _found(graph, group_id, "zarquonite mill", ["episode"]))


def test_purge_after_a_policy_removes_what_it_hid_for_good(graph: Graph, group_id: str,
                                                           town: dict[str, Episode]) -> None:
    reads = _reads(graph, group_id)
    store.put_policy(graph, group_id, RetentionPolicy(raw_text_days=30), NOW)
    apply_group(graph, group_id, NOW)
    assert _holds(graph, group_id, "zarquonite")  # hidden, still restorable
    done = store.purge_hidden(graph, group_id, NOW)
    assert done.episodes == 1 and done.passages >= 1
    assert not _holds(graph, group_id, "zarquonite")
    assert _reads(graph, group_id) == reads
    store.put_policy(graph, group_id, RetentionPolicy(), NOW)
    assert apply_group(graph, group_id, NOW).counts.episodes_restored == 0  # nothing left to restore
    assert _episode_row(graph, town["old"].uuid)["text_purged_at"] is not None


def test_passages_policy_forgets_passages_and_keeps_text_and_facts(graph: Graph, group_id: str,
                                                                   town: dict[str, Episode]) -> None:
    reads = _reads(graph, group_id)
    store.put_policy(graph, group_id, RetentionPolicy(passages_days=0), NOW)
    run = apply_group(graph, group_id, NOW + timedelta(seconds=1))
    total = len(_passages(graph, town["old"].uuid)) + len(_passages(graph, town["new"].uuid))
    assert run.counts.passages_hidden == total and run.counts.episodes_compacted == 0
    assert _episode_row(graph, town["old"].uuid)["content"] == town["old"].content
    assert _found(graph, group_id, "zarquonite mill Brindlemoor spring", ["episode"]) == []
    assert _reads(graph, group_id) == reads
    store.put_policy(graph, group_id, RetentionPolicy(), NOW)
    assert apply_group(graph, group_id, NOW).counts.passages_restored == total
    assert _found(graph, group_id, "zarquonite mill", ["episode"])


def test_history_compaction_keeps_as_of_reads_and_drops_the_old_vector(graph: Graph, group_id: str,
                                                                       pipeline: Pipeline) -> None:
    # both statements ingested 40 days ago: the Quillport fact ended (transaction time) 40 days ago
    for seq, place in enumerate(("Quillport", "Brindlemoor")):
        ep = _episode(group_id, seq, f"Maya Orlov lives in {place}.")
        _commit(pipeline, ep, [("Maya Orlov", "lives_in", place, f"Maya Orlov lives in {place}.")], OLD)
    # a contract stated to end next year, learned 40 days ago: not an end yet
    ep = _episode(group_id, 2, "Maya Orlov works for Quarry Co until next year.")
    pipeline.commit(ep, Extraction(episode_uuid=ep.uuid, extractor=INFO, entities=[
        ExtractedEntity(name="Maya Orlov", type="Person"), ExtractedEntity(name="Quarry Co", type="Organization")],
        facts=[ExtractedFact(subject="Maya Orlov", predicate="works_for", object="Quarry Co", fact=ep.content,
                             valid_at=ep.reference_time, invalid_at=NOW + timedelta(days=365))]), now=OLD)
    reads = _reads(graph, group_id)

    def channels() -> list[str]:
        hits = search(graph, group_id, SearchQuery(q="Maya Orlov lives in Quillport", kinds=["fact"],
                                                   include_history=True), embed=EMBED.embed).hits
        return next(h.channels for h in hits if h.fact and "Quillport" in h.fact.fact)

    assert any("vector" in c for c in channels())
    store.put_policy(graph, group_id, RetentionPolicy(compact_history_days=30), NOW)
    run = apply_group(graph, group_id, NOW)
    assert run.counts.facts_compacted == 1  # the ended one; the current fact keeps its vector
    rows = graph.query("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g RETURN r.fact AS fact, "
                       "r.fact_embedding IS NULL AS bare, r.archived_fact_embedding IS NOT NULL AS kept", g=group_id)
    assert sorted((r["fact"], r["bare"], r["kept"]) for r in rows) == [
        ("Maya Orlov lives in Brindlemoor.", False, False), ("Maya Orlov lives in Quillport.", True, True),
        ("Maya Orlov works for Quarry Co until next year.", False, False)]
    assert _reads(graph, group_id) == reads  # as-of, known-at and history reads see the same facts
    # still found by its words (full text), no longer by its vector
    left = channels()
    assert left and not any("vector" in c for c in left)
    store.put_policy(graph, group_id, RetentionPolicy(compact_history_days=60), NOW)
    assert apply_group(graph, group_id, NOW).counts.facts_restored == 1
    assert not graph.query("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g AND r.fact_embedding IS NULL "
                           "RETURN r", g=group_id)


def test_salience_ranks_unused_memories_lower_and_search_marks_use(graph: Graph, group_id: str,
                                                                  pipeline: Pipeline) -> None:
    ep = _episode(group_id, 0, "Ada and Bea like tea.")
    _commit(pipeline, ep, [("Ada Lind", "likes", "green tea", "Ada Lind likes green tea."),
                           ("Bea Lind", "likes", "green tea", "Bea Lind likes green tea.")], NOW)
    facts = {r["fact"]: r["uuid"] for r in graph.query(
        "MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g RETURN r.fact AS fact, r.uuid AS uuid", g=group_id)}
    store.put_policy(graph, group_id, RetentionPolicy(salience_half_life_days=1), NOW)
    for stale in facts:  # whichever is left unused for ten days ranks below the other
        graph.query("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g SET r.last_used_at = CASE r.fact "
                    "WHEN $stale THEN $old ELSE $now END", g=group_id, stale=stale, old=NOW - timedelta(days=10),
                    now=NOW)
        order = _found(graph, group_id, "Lind likes green tea", ["fact"])
        assert order[-1] == stale, order
    used = graph.query("MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g RETURN min(r.last_used_at) AS t",
                       g=group_id)[0]["t"].to_native()
    assert used > NOW - timedelta(days=1)  # the search that returned both marked them used


def test_policy_is_stored_per_group_and_every_policy_group_runs_on_schedule(graph: Graph, group_id: str,
                                                                            town: dict[str, Episode]) -> None:
    from strata.ingest.retention import scheduled

    other_group = group_id + "-other"
    store.put_policy(graph, group_id, RetentionPolicy(raw_text_days=30, salience_half_life_days=7.5), NOW, "t")
    stored = store.get_policy(graph, group_id)
    assert stored.policy == RetentionPolicy(raw_text_days=30, salience_half_life_days=7.5)
    assert stored.updated_by == "t" and store.get_policy(graph, other_group).policy.keeps_everything
    runs = {r.group_id: r for r in scheduled(graph, NOW)}
    assert runs[group_id].counts.episodes_compacted == 1 and other_group not in runs
    assert store.get_policy(graph, group_id).applied_at is not None
