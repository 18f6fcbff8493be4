"""The embedder a group's vectors were made with: recorded on ingest, another one refused, `reembed` moves the
group (and carries on after a stop); the rescoring stage caches its vectors on the passages it scores."""

from __future__ import annotations

import numpy as np
import pytest

from strata.graph import Graph
from strata.graph.embedder_meta import EmbedderRecord, check_group, recorded
from strata.graph.ranking import RankWeights
from strata.graph.reembed import reembed_group
from strata.graph.rescore import Rescorer, fill_group
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders import HashEmbedder, embedder_record
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources.base import parse_source_text
from strata.schema.errors import SchemaMismatchError

pytestmark = pytest.mark.integration

CHAT = """Anna: I moved to Lisbon last spring and started working at a bakery.
Ben: That sounds lovely. Do you still go climbing on weekends?
Anna: Yes, every Saturday at the gym near the river.
Ben: My sister Carla just adopted a puppy named Biscuit.
"""


class OtherHash(HashEmbedder):
    """Another model as far as the record goes (unigrams only): its vectors differ from HashEmbedder's."""

    name = "hash-unigrams"

    def __init__(self) -> None:
        super().__init__(dimension=384, ngrams=1)


def _ingest(graph: Graph, group_id: str, embedder: HashEmbedder, text: str = CHAT,
            rescorer: Rescorer | None = None) -> None:
    doc = parse_source_text(text, "transcript", name="chat.txt", group_id=group_id)
    pipeline = Pipeline(graph, SpacyExtractor(), embedder, rescorer=rescorer)
    for episode in doc.episodes:
        pipeline.process(episode, source=doc.source)


def _passage_vectors(graph: Graph, group_id: str) -> dict[str, list[float]]:
    rows = graph.query("MATCH (p:Passage) WHERE p.group_id = $g RETURN p.text AS text, p.embedding AS v",
                       g=group_id)
    return {r["text"]: r["v"] for r in rows}


def test_a_group_keeps_its_embedder_until_moved(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id, HashEmbedder(dimension=384))
    assert recorded(graph, group_id) == EmbedderRecord(name="hash", dimension=384)

    other = OtherHash()
    with pytest.raises(SchemaMismatchError, match=f"strata reembed --group {group_id}"):
        _ingest(graph, group_id, other, "Anna: One more line.\n")

    report = reembed_group(graph, group_id, embedder_record(other), other.embed)
    assert report.counts["passage"] >= 4 and report.counts["entity"] >= 1
    assert recorded(graph, group_id) == EmbedderRecord(name="hash-unigrams", dimension=384)
    for text, vector in _passage_vectors(graph, group_id).items():
        assert np.allclose(vector, other.embed([text])[0], atol=1e-6)
    check_group(graph, group_id, embedder_record(other))  # no error now
    _ingest(graph, group_id, other, "Anna: One more line.\n")


def test_a_stopped_move_carries_on_where_it_was(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id, HashEmbedder(dimension=384))
    other = OtherHash()

    def stop_after_first_page(kind: str, n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        reembed_group(graph, group_id, embedder_record(other), other.embed, page=2, progress=stop_after_first_page)
    assert recorded(graph, group_id).name == "hash"  # the record changes last
    report = reembed_group(graph, group_id, embedder_record(other), other.embed, page=2)
    total = graph.query("MATCH (p:Passage) WHERE p.group_id = $g AND p.embedding IS NOT NULL RETURN count(p) AS n",
                        g=group_id)[0]["n"]
    assert report.counts["passage"] == total - 2  # the first page was not done again


def test_rescoring_caches_its_vectors_on_the_passages_it_scores(graph: Graph, group_id: str) -> None:
    stored = HashEmbedder(dimension=384)
    _ingest(graph, group_id, stored)
    model = OtherHash()
    rescorer = Rescorer("hash-unigrams", model.embed, model.embed, depth=2)
    key = rescorer.keys[0]
    ask = SearchQuery(q="Where does Anna go climbing?", limit=5, kinds=["episode"])
    result = search(graph, group_id, ask, embed=stored.embed, weights=RankWeights(rescore=2.0), rescorer=rescorer)
    assert result.hits
    cached = graph.query(f"MATCH (p:Passage) WHERE p.group_id = $g AND p.{key} IS NOT NULL "
                         "RETURN p.text AS text, p." + key + " AS v", g=group_id)
    assert len(cached) == 2  # the two best candidates, each its text's vector and its context's
    for row in cached:
        assert np.allclose(row["v"], model.embed([row["text"]])[0], atol=1e-6)
    filled = fill_group(graph, group_id, rescorer)
    left = graph.query(f"MATCH (p:Passage) WHERE p.group_id = $g AND p.{key} IS NULL RETURN count(p) AS n",
                       g=group_id)[0]["n"]
    assert filled >= 1 and left == 0


def test_an_ingest_with_the_stage_on_stores_each_passages_rescoring_vectors(graph: Graph, group_id: str) -> None:
    model = OtherHash()
    rescorer = Rescorer("hash-unigrams", model.embed, model.embed)
    _ingest(graph, group_id, HashEmbedder(dimension=384), rescorer=rescorer)
    text_key, context_key = rescorer.keys
    rows = graph.query(f"MATCH (p:Passage) WHERE p.group_id = $g RETURN p.text AS text, "
                       f"coalesce(p.context, p.text) AS context, p.{text_key} AS v, p.{context_key} AS cv", g=group_id)
    assert len(rows) >= 4
    for row in rows:
        assert np.allclose(row["v"], model.embed([row["text"]])[0], atol=1e-6)
        assert np.allclose(row["cv"], model.embed([row["context"]])[0], atol=1e-6)


def test_rescoring_by_the_stored_model_reads_the_semantic_scores_and_stores_nothing(graph: Graph,
                                                                                  group_id: str) -> None:
    stored = HashEmbedder(dimension=384)
    _ingest(graph, group_id, stored)
    rescorer = Rescorer("hash", stored.embed, stored.embed, depth=3, stored=True)
    ask = SearchQuery(q="Where does Anna go climbing?", limit=5, kinds=["episode"])
    plain = search(graph, group_id, ask, embed=stored.embed)
    rescored = search(graph, group_id, ask, embed=stored.embed, weights=RankWeights(rescore=50.0), rescorer=rescorer)
    assert {h.episode.uuid for h in rescored.hits[:3]} == {h.episode.uuid for h in plain.hits[:3]}  # the head only
    assert graph.query("MATCH (p:Passage) WHERE p.group_id = $g AND p.rescore_hash IS NOT NULL RETURN count(p) AS n",
                       g=group_id)[0]["n"] == 0
    assert fill_group(graph, group_id, rescorer) == 0
