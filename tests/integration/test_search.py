"""Hybrid search on a real Neo4j: expansion, quoted provenance, round trips, and the shared indexes that must
not hide a small group's facts."""

from __future__ import annotations

import math
import random
import socket
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from strata.graph import Graph, lucene
from strata.graph import search as search_module
from strata.graph.commit import commit_episode
from strata.graph.read import entity_candidates
from strata.graph.search import (
    SearchQuery,
    brute_force_fact_scan,
    brute_force_scan,
    exact_channel,
    fact_vector_channel,
    search,
    vector_channel,
)
from strata.ingest.embedders import OpenAIEmbedder
from strata.ingest.llm_client import OpenAIEmbeddingsAPI
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.models import Episode, ExtractorInfo, Span
from strata.schema.plan import (
    CommitPlan,
    EntityWrite,
    Evidence,
    FactWrite,
    MentionWrite,
    PassageWrite,
    Predicate,
)
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
                      predicates=[Predicate(name="relates")], extractor=ExtractorInfo(name="test"))


@pytest.fixture(params=["scan", "index"])
def vector_path(request: pytest.FixtureRequest, graph: Graph) -> Iterator[str]:
    """Both ways to a small group's nearest items: the exact scan of its own (shipped), and the shared index with its
    deeper second ask (``vector_scan_max`` 0: what a group above the scan threshold gets)."""
    shipped = graph.vector_scan_max
    graph.vector_scan_max = shipped if request.param == "scan" else 0
    yield request.param
    graph.vector_scan_max = shipped


def test_a_small_groups_vector_match_is_not_crowded_out_by_a_large_group(graph: Graph, settings: Settings,
                                                                           group_id: str, vector_path: str) -> None:
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


def _at_cosine(dim: int, rng: random.Random, cosine: float) -> list[float]:
    """A unit vector at ``cosine`` to the first axis, in a random direction otherwise."""
    other = _unit([0.0] + [rng.gauss(0, 1) for _ in range(dim - 1)])
    return [cosine if i == 0 else math.sqrt(1 - cosine * cosine) * x for i, x in enumerate(other)]


def test_a_crowded_vector_channel_asks_again_as_deep_as_its_yield_says(
        graph: Graph, settings: Settings, group_id: str, sent_queries: list[tuple[str, dict]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    crowd = f"{group_id}-crowd"
    monkeypatch.setattr(graph, "vector_scan_max", 0)  # our group asks the shared index, as a large one does
    try:
        # 400 facts nearest the query, one in ten ours: the first ask (50 deep) keeps 5 of the 10 hits asked for,
        # a yield that says they need 100 entries, 200 with the margin.
        dim, rng = settings.embedding_dim, random.Random(11)
        vectors = [_at_cosine(dim, rng, 0.99 - i * 0.001) for i in range(400)]
        commit_episode(graph, _facts_plan(crowd, 0, [f"crowd fact {i}" for i in range(400) if i % 10],
                                          [v for i, v in enumerate(vectors) if i % 10]), recompute_timeline, NOW)
        commit_episode(graph, _facts_plan(group_id, 0, [f"our fact {i}" for i in range(0, 400, 10)],
                                          vectors[::10]), recompute_timeline, NOW)
        graph.query("CALL db.awaitIndexes(60)")
        query = _unit([1.0] + [0.0] * (dim - 1))

        def ask() -> tuple[list[str], list[int]]:
            sent_queries.clear()
            hits = search(graph, group_id, SearchQuery(q="unrelated words", kinds=["fact"]),
                          embed=lambda texts: [query for _ in texts]).hits
            return ([h.fact.fact for h in hits if h.fact],
                    [a["k_fact"] for c, a in sent_queries if "'fact_vector' AS channel" in c])

        sized, depths = ask()
        # Asked again once, sized (not as deep as allowed), and enough.
        assert len(depths) == 2 and 2 * depths[0] <= depths[1] < search_module.MAX_INDEX_DEPTH
        monkeypatch.setattr(search_module, "DEEPEN_MARGIN", None)  # the second ask as deep as allowed
        deepest, depths = ask()
        assert depths[1] == search_module.MAX_INDEX_DEPTH
        # The same answer: our ten nearest facts, nearest first.
        assert sized == deepest == [f"our fact {i}" for i in range(0, 100, 10)]
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=crowd)


@pytest.fixture
def sent_queries(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    """Every (cypher, parameters) the search sends, in order, while still sending it."""
    sent: list[tuple[str, dict]] = []
    real_rows = search_module._rows

    def recording(graph: Graph, cypher: str, args: dict) -> list[dict]:
        sent.append((cypher, args))
        return real_rows(graph, cypher, args)

    monkeypatch.setattr(search_module, "_rows", recording)
    return sent


STORY = "Ada Quillfeather wrote notes on the Difference Loom. Ada Quillfeather lived in Marrowgate. Bo met Cy."


def _story_plan(group: str) -> tuple[CommitPlan, dict[str, str], dict[str, str]]:
    """Ada's two facts (each with its evidence span) and one unrelated fact, written without the planner."""
    ep = Episode(uuid=ids.episode_uuid(group, "story", 0), group_id=group, seq=0, kind="text", content=STORY,
                 reference_time=NOW, content_hash=ids.content_hash(STORY))
    names = {"ada": ("Ada Quillfeather", "Person"), "loom": ("Difference Loom", "Thing"),
             "town": ("Marrowgate", "Place"), "bo": ("Bo", "Person"), "cy": ("Cy", "Person")}
    uuid = {k: ids.entity_uuid(group, k) for k in names}
    entities = [EntityWrite(uuid=uuid[k], key=k, name=n, type=t) for k, (n, t) in names.items()]
    sentences = [sentence + "." for sentence in STORY.rstrip(".").split(". ")]
    triples = [("ada", "works_on", "loom"), ("ada", "lives_in", "town"), ("bo", "met", "cy")]
    facts, fact_uuid = [], {}
    for (s, p, o), text in zip(triples, sentences, strict=True):
        start = STORY.index(text)
        fact_uuid[p] = ids.fact_uuid(group, uuid[s], p, uuid[o], NOW)
        facts.append(FactWrite(uuid=fact_uuid[p], subject_uuid=uuid[s], predicate=p, object_uuid=uuid[o], fact=text,
                               valid_at=NOW, evidence=[Evidence(episode_uuid=ep.uuid, start=start,
                                                                end=start + len(text))]))
    mentions = [MentionWrite(entity_uuid=uuid["ada"], spans=[Span(start=0, end=16)],
                             surface_forms=["Ada Quillfeather"])]
    passages = [PassageWrite(uuid=ids.stable_uuid("passage", ep.uuid, k), start=STORY.index(text),
                             end=STORY.index(text) + len(text), text=text) for k, text in enumerate(sentences)]
    plan = CommitPlan(group_id=group, episode=ep, entities=entities, facts=facts, mentions=mentions, passages=passages,
                      predicates=[Predicate(name=p) for _, p, _ in triples], extractor=ExtractorInfo(name="test"))
    return plan, uuid, fact_uuid


def test_expansion_brings_the_facts_around_the_best_matched_entity(graph: Graph, group_id: str) -> None:
    plan, _, fact_uuid = _story_plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    hits = search(graph, group_id, SearchQuery(q="Quillfeather", kinds=["fact"])).hits
    expanded = {h.fact.uuid for h in hits if h.fact and "fact_expansion" in h.channels}
    # "Quillfeather" names Ada (entity channel); both her facts come by expansion, Bo's never.
    assert expanded == {fact_uuid["works_on"], fact_uuid["lives_in"]}
    assert fact_uuid["met"] not in {h.fact.uuid for h in hits if h.fact}


def test_an_unreachable_embedder_leaves_full_text_and_graph_answering_and_says_so(graph: Graph,
                                                                                   group_id: str) -> None:
    plan, _, fact_uuid = _story_plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")

    # The real client against a port nobody listens on: connection refused, no retry.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    down = OpenAIEmbedder(OpenAIEmbeddingsAPI(model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key="k",
                                              max_retries=0), dimension=384)
    result = search(graph, group_id, SearchQuery(q="Marrowgate Quillfeather"), embed=down.embed)
    assert result.degraded == ["vector"]
    found = {h.fact.uuid for h in result.hits if h.fact}
    assert fact_uuid["lives_in"] in found
    assert not any(c.endswith("_vector") for h in result.hits for c in h.channels)
    assert search(graph, group_id, SearchQuery(q="Marrowgate Quillfeather")).degraded == []


def test_center_alone_expands_from_the_given_entity(graph: Graph, group_id: str) -> None:
    plan, uuid, fact_uuid = _story_plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    hits = search(graph, group_id, SearchQuery(q="", center=[uuid["town"], uuid["town"]])).hits
    assert [(h.fact.uuid, h.channels) for h in hits if h.fact] == [(fact_uuid["lives_in"], ["fact_expansion"])]


def test_a_fact_hit_quotes_its_evidence_span_and_an_entity_hit_its_mention_in_an_answered_passage(
        graph: Graph, group_id: str) -> None:
    plan, _, fact_uuid = _story_plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    hits = search(graph, group_id, SearchQuery(q="Quillfeather Difference Loom notes", limit=20)).hits
    fact = next(h for h in hits if h.fact and h.fact.uuid == fact_uuid["works_on"])
    assert [p.text for p in fact.provenance] == ["Ada Quillfeather wrote notes on the Difference Loom."]
    ada = next(h for h in hits if h.entity and h.entity.name == "Ada Quillfeather")
    first = "Ada Quillfeather wrote notes on the Difference Loom."
    # Her mention lies in the first sentence, a passage among the hits: she cites that passage.
    assert [(p.start, p.end, p.text) for p in ada.provenance] == [(0, len(first), first)]
    assert any(h.episode and h.episode.text == first for h in hits)
    # Asked for entities alone, no passage is answered, so she cites nothing rather than any mention.
    alone = search(graph, group_id, SearchQuery(q="Quillfeather", kinds=["entity"])).hits
    assert [h.provenance for h in alone if h.entity and h.entity.name == "Ada Quillfeather"] == [[]]


def test_the_channels_take_one_round_trip_per_kind_when_no_index_is_cut_short(
        graph: Graph, group_id: str, sent_queries: list[tuple[str, dict]]) -> None:
    plan, _, _ = _story_plan(group_id)
    commit_episode(graph, plan, recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    hits = search(graph, group_id, SearchQuery(q="Quillfeather")).hits
    channel_queries = [c for c, _ in sent_queries if "db.index" in c]
    # Full-text indexes return only what matches, so nothing was cut short and nothing is asked twice: the
    # entity, the passage and the fact channels in a query each, side by side (this small group's full-text hits
    # and the expansion come in one more, graph/local_text.py, which sends it itself).
    assert len(channel_queries) == 3
    kinds = [{k for k in ("fact", "entity", "passage") if f"'{k}_fulltext' AS channel" in c} for c in channel_queries]
    assert sorted(map(sorted, kinds)) == [["entity"], ["fact"], ["passage"]]
    # The winners of every kind are read whole in one more query.
    assert {h.kind for h in hits} >= {"fact", "entity"}
    assert len(sent_queries) == 4


def _crowd_plan(group: str, copies: int) -> CommitPlan:
    """Another group stating our story's fact word for word, between entities of the same names."""
    content = "Ada Quillfeather lived in Marrowgate."
    ep = Episode(uuid=ids.episode_uuid(group, "crowd", 0), group_id=group, seq=0, kind="text", content=content,
                 reference_time=NOW, content_hash=ids.content_hash(content))
    entities, facts = [], []
    for k in range(copies):
        a = EntityWrite(uuid=ids.entity_uuid(group, f"ada-{k}"), key=f"ada-{k}", name="Ada Quillfeather",
                        type="Person")
        b = EntityWrite(uuid=ids.entity_uuid(group, f"town-{k}"), key=f"town-{k}", name="Marrowgate", type="Place")
        entities += [a, b]
        facts.append(FactWrite(uuid=ids.fact_uuid(group, a.uuid, "lives_in", b.uuid, NOW), subject_uuid=a.uuid,
                               predicate="lives_in", object_uuid=b.uuid, fact=content, valid_at=NOW))
    return CommitPlan(group_id=group, episode=ep, entities=entities, facts=facts,
                      predicates=[Predicate(name="lives_in")], extractor=ExtractorInfo(name="test"))


@pytest.mark.parametrize("large", [False, True], ids=["small group", "large group"])
def test_full_text_keeps_to_the_group_inside_the_index(graph: Graph, group_id: str, large: bool,
                                                       sent_queries: list[tuple[str, dict]],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    crowd = f"{group_id}-crowd"
    if large:  # our group's facts above the threshold: a large group, as far as the search can tell
        monkeypatch.setattr(graph, "vector_scan_max", 1)
    try:
        # 300 copies of our fact and entities in another group tie with ours on every full-text score.
        commit_episode(graph, _crowd_plan(crowd, 300), recompute_timeline, NOW)
        plan, uuid, fact_uuid = _story_plan(group_id)
        commit_episode(graph, plan, recompute_timeline, NOW)
        graph.query("CALL db.awaitIndexes(60)")
        hits = search(graph, group_id, SearchQuery(q="Ada Quillfeather lived in Marrowgate", kinds=["fact"])).hits
        assert fact_uuid["lives_in"] in {h.fact.uuid for h in hits if h.fact and "fact_fulltext" in h.channels}
        asked = [(a["fact_lucene"], "$scan_cap" in c) for c, a in sent_queries if "'fact_text'" in c]
        if large:
            # The first ask looked at the group's size and asked the index as it is: the crowd filled its top k;
            # the second asked Lucene for this group only, not deeper.
            assert [(text.startswith("+group_tag:"), own) for text, own in asked] == [(False, True), (True, False)]
        else:
            # A small group asks no index: its own documents are scored in process (graph/local_text.py), whatever
            # the crowd; its channel query is never sent again.
            assert len(asked) == 1
        assert all(a[depth] < search_module.MAX_INDEX_DEPTH for c, a in sent_queries if "db.index" in c
                   for depth in ("k_fact", "k_entity", "k_passage"))
        # Entity resolution asks the same index, 8 deep: the crowd's 300 namesakes do not hide Ada.
        found = entity_candidates(graph, group_id, lucene=[("0", lucene.any_terms("Ada Quillfeathers", fuzzy=True))],
                                  limit=2)
        assert uuid["ada"] in {c.uuid for c in found if c.channel == "fulltext"}
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=crowd)


def test_the_benchmarks_exact_scans_rank_by_cosine_like_the_vector_channel(graph: Graph, settings: Settings,
                                                                          group_id: str) -> None:
    dim = settings.embedding_dim
    # Cosines to the query: 1.0, 0.89 and 0.45.
    vectors = [_unit([1.0] + [0.0] * (dim - 1)), _unit([1.0, 0.5] + [0.0] * (dim - 2)),
               _unit([1.0, 2.0] + [0.0] * (dim - 2))]
    commit_episode(graph, _facts_plan(group_id, 0, ["closest", "near", "far"], vectors), recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    query = vectors[0]
    everything = brute_force_scan(graph, group_id, query, limit=10)
    facts = [r for r in everything if r["kind"] == "fact"]
    assert [r["score"] for r in everything] == sorted((r["score"] for r in everything), reverse=True)
    exact = brute_force_fact_scan(graph, group_id, query, limit=3)
    assert [r["uuid"] for r in facts] == [r["uuid"] for r in exact]
    assert [round(r["score"], 3) for r in exact] == [1.0, round((1 + 2 / math.sqrt(5)) / 2, 3),
                                                     round((1 + 1 / math.sqrt(5)) / 2, 3)]
    assert [h["uuid"] for h in fact_vector_channel(graph, group_id, query, limit=3)] == [r["uuid"] for r in exact]


def test_a_vector_index_channel_reranks_its_candidates_by_exact_cosine(graph: Graph, settings: Settings,
                                                                      group_id: str) -> None:
    dim, rng = settings.embedding_dim, random.Random(5)
    # Forty facts whose cosines to the query lie close together, where an int8 copy of the vectors blurs the order.
    vectors = [_near(dim, rng, 0.02) for _ in range(40)]
    commit_episode(graph, _facts_plan(group_id, 0, [f"f{k}" for k in range(40)], vectors), recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    query = _unit([1.0] + [0.0] * (dim - 1))
    exact = exact_channel(graph, group_id, "fact", query, limit=10)
    reranked = vector_channel(graph, group_id, "fact", query, limit=10, depth=200, rerank=True)
    assert [h["uuid"] for h in reranked] == [r["uuid"] for r in exact]  # every fact was a candidate
    assert all(math.isclose(h["score"], h["sim"], abs_tol=1e-6) for h in reranked)
    as_indexed = vector_channel(graph, group_id, "fact", query, limit=40, depth=200, rerank=False)
    assert {h["uuid"] for h in as_indexed} == {r["uuid"] for r in exact_channel(graph, group_id, "fact", query, 40)}
    assert [h["score"] for h in as_indexed] == sorted((h["score"] for h in as_indexed), reverse=True)


def _names_plan(group: str, names: list[str], embeddings: list[list[float]]) -> CommitPlan:
    ep = Episode(uuid=ids.episode_uuid(group, "names", 0), group_id=group, seq=0, kind="facts", content="names",
                 reference_time=NOW, content_hash=ids.content_hash("names"))
    entities = [EntityWrite(uuid=ids.entity_uuid(group, f"n{k}"), key=f"n{k}", name=name, type="Person",
                            embedding=embedding)
                for k, (name, embedding) in enumerate(zip(names, embeddings, strict=True))]
    return CommitPlan(group_id=group, episode=ep, entities=entities, extractor=ExtractorInfo(name="test"))


def test_resolution_finds_a_small_groups_name_by_vector_beside_a_crowd(graph: Graph, settings: Settings,
                                                                       group_id: str, vector_path: str) -> None:
    crowd = f"{group_id}-crowd"
    try:
        # 300 names of another group lie closer to the mention's vector (cosine ~0.96) than ours (~0.89).
        dim, rng = settings.embedding_dim, random.Random(3)
        commit_episode(graph, _names_plan(crowd, [f"Crowd Person {k}" for k in range(300)],
                                          [_near(dim, rng, 0.015) for _ in range(300)]), recompute_timeline, NOW)
        commit_episode(graph, _names_plan(group_id, ["Lighthouse Keeper"], [_unit([1.0, 0.5] + [0.0] * (dim - 2))]),
                       recompute_timeline, NOW)
        graph.query("CALL db.awaitIndexes(60)")
        found = entity_candidates(graph, group_id, vectors=[("0", _unit([1.0] + [0.0] * (dim - 1)))], limit=8)
        assert [(c.name, c.channel) for c in found] == [("Lighthouse Keeper", "vector")]
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=crowd)


def test_fact_and_passage_text_match_other_forms_of_a_word_and_ignore_stop_words(
        graph: Graph, group_id: str, sent_queries: list[tuple[str, dict]]) -> None:
    plan, _, fact_uuid = _story_plan(group_id)
    passage = PassageWrite(uuid=f"{group_id}-p0", start=0, end=len(STORY), text=STORY)
    commit_episode(graph, plan.model_copy(update={"passages": [passage]}), recompute_timeline, NOW)
    graph.query("CALL db.awaitIndexes(60)")
    # "living" finds "lived" (the english analyzer stems facts and passages to "live"; no other word matches).
    hits = search(graph, group_id, SearchQuery(q="living", kinds=["fact", "episode"])).hits
    assert fact_uuid["lives_in"] in {h.fact.uuid for h in hits if h.fact and "fact_fulltext" in h.channels}
    assert any(h.episode and "passage_fulltext" in h.channels for h in hits)
    # Stop words alone ask no fact or passage index (in a group-scoped ask they would match the whole group).
    sent_queries.clear()
    assert search(graph, group_id, SearchQuery(q="the of", kinds=["fact", "episode"])).hits == []
    asked = " ".join(c for c, _ in sent_queries)
    assert "'fact_text'" not in asked and "'passage_context_text'" not in asked
