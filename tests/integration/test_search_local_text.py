"""A small group's full-text scores come from its own documents (graph/bm25.py): beside a large neighbour full of
the same words its full-text channels and its answer are the same as alone, while Lucene's own scores move."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph, lucene
from strata.graph.bulk import drop_group
from strata.graph.commit import commit_episode
from strata.graph.edit import correct_fact
from strata.graph.search import SearchQuery, gather, search
from strata.ingest.testing.synthetic import generate, load
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractorInfo
from strata.schema.plan import CommitPlan, EntityWrite, FactWrite, PassageWrite, Predicate
from strata.schema.requests_write import Correction

pytestmark = pytest.mark.integration
NOW = datetime(2026, 1, 1, tzinfo=UTC)
# The neighbour's generated sentences say who works for, lives in, moved to and was born in where; so do these.
SAID = [("Ada Moss", "works_for", "Harbour Lamp Works", "Ada Moss works for Harbour Lamp Works as a keeper"),
        ("Ben Hale", "lives_in", "Port Ellen", "Ben Hale lives in Port Ellen and works the harbour lamp"),
        ("Cora Lind", "born_in", "Port Ellen", "Cora Lind was born in Port Ellen near the harbour"),
        ("Dan Reyes", "works_for", "Port Ellen", "Dan Reyes moved to Port Ellen and works for the harbour board"),
        ("Ada Moss", "lives_in", "Port Ellen", "Ada Moss lives in Port Ellen")]
QUESTIONS = ["who works for the harbour and where was Cora born", "where does Ben Hale live and work",
             "Port Ellen harbour lamp keeper", "who moved to Port Ellen"]


def _plan(group: str) -> CommitPlan:
    content = " ".join(sentence + "." for *_, sentence in SAID)
    ep = Episode(uuid=ids.episode_uuid(group, "log", 0), group_id=group, seq=0, kind="text", content=content,
                 reference_time=NOW, content_hash=ids.content_hash(content))
    names = sorted({n for s, _, o, _ in SAID for n in (s, o)})
    entities = {n: EntityWrite(uuid=ids.entity_uuid(group, n), key=n.lower(), name=n, type="Thing",
                               summary=next(t for s, _, o, t in SAID if n in (s, o))) for n in names}
    facts = [FactWrite(uuid=ids.fact_uuid(group, entities[s].uuid, p, entities[o].uuid, NOW),
                       subject_uuid=entities[s].uuid, predicate=p, object_uuid=entities[o].uuid, fact=text,
                       valid_at=NOW) for s, p, o, text in SAID]
    passages, start = [], 0
    for k, (*_, sentence) in enumerate(SAID):
        end = start + len(sentence) + 1
        previous = SAID[k - 1][3] + ". " if k else ""
        passages.append(PassageWrite(uuid=ids.stable_uuid("passage", ep.uuid, k), start=start, end=end,
                                     text=content[start:end], context=previous + content[start:end]))
        start = end + 1
    return CommitPlan(group_id=group, episode=ep, entities=list(entities.values()), facts=facts, passages=passages,
                      predicates=[Predicate(name=p) for p in sorted({p for _, p, _, _ in SAID})],
                      extractor=ExtractorInfo(name="test"))


def _text_view(graph: Graph, group: str) -> tuple[list, list]:
    """Per question, the full-text scores of every candidate, and the answer in order."""
    scores, answers = [], []
    for question in QUESTIONS:
        found = gather(graph, group, SearchQuery(q=question, limit=20))
        scores.append(sorted((c.kind, c.uuid, sorted(c.text.items())) for c in found.candidates))
        answers.append([(h.kind, h.score) for h in search(graph, group, SearchQuery(q=question, limit=20)).hits])
    return scores, answers


def _lucene_scores(graph: Graph, group: str) -> list[list[float]]:
    """Lucene's own scores of the group's fact matches (in-group query), each over the best: what the ranker
    would read of them."""
    out = []
    for question in QUESTIONS:
        terms = lucene.any_terms(question, drop_stop_words=True)
        rows = graph.query("CALL db.index.fulltext.queryRelationships('fact_text', $q) YIELD relationship, score "
                           "RETURN relationship.uuid AS uuid, score ORDER BY uuid",
                           q=lucene.in_group(group, terms, lucene.TEXT_FIELDS["fact"]))
        best = max(r["score"] for r in rows)
        out.append([round(r["score"] / best, 9) for r in rows])
    return out


def test_a_small_group_beside_a_large_neighbour_full_of_its_words_scores_its_text_as_alone(
        graph: Graph, group_id: str) -> None:
    neighbour = f"bench-{group_id}-neighbour"
    try:
        commit_episode(graph, _plan(group_id), recompute_timeline, NOW)
        graph.query("CALL db.awaitIndexes(60)")
        scores_alone, answers_alone = _text_view(graph, group_id)
        lucene_alone = _lucene_scores(graph, group_id)
        assert all(any(text for *_, text in found) for found in scores_alone)  # every question matches

        load(graph, generate(neighbour, 3_000), facts_per_episode=5)
        graph.query("CALL db.awaitIndexes(300)")
        # The neighbour's documents move Lucene's index-wide statistics, hence the group's relative scores...
        assert _lucene_scores(graph, group_id) != lucene_alone
        # ...and none of the scores the group's search reads, nor its answer.
        scores_beside, answers_beside = _text_view(graph, group_id)
        assert scores_beside == scores_alone
        assert answers_beside == answers_alone
    finally:
        drop_group(graph, neighbour)


def _fact_text_hits(graph: Graph, group: str, question: str) -> set[str]:
    """The facts the full-text channel found for ``question``."""
    found = gather(graph, group, SearchQuery(q=question, limit=20))
    return {c.uuid for c in found.candidates if c.kind == "fact" and any(c.text.values())}


def test_a_fact_text_replaced_by_one_of_the_same_length_is_found_by_its_new_words_only(
        graph: Graph, group_id: str) -> None:
    """The kept table follows the group's text version, not only its statistics: a correction to a text of the
    same length changes no document count nor total length, and the old words must stop finding the fact."""
    plan = _plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    keeper = plan.facts[0]
    assert "keeper" in keeper.fact
    assert keeper.uuid in _fact_text_hits(graph, group_id, "keeper")  # the table is built and kept

    fixed = keeper.fact.replace("keeper", "warden")
    assert len(fixed) == len(keeper.fact)
    done = correct_fact(graph, group_id, keeper.uuid, Correction(fact=fixed), recompute_timeline, NOW)
    assert done.uuid == keeper.uuid and done.replaced is None  # corrected in place: the same document

    assert keeper.uuid not in _fact_text_hits(graph, group_id, "keeper")
    assert keeper.uuid in _fact_text_hits(graph, group_id, "warden")
