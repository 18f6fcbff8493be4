"""The rescoring stage's ordering (graph/ranking.py ``rescored``): only the top is reordered, by its weight."""

from __future__ import annotations

from strata.graph.ranking import Candidate, RankWeights, rank, rescored

TEXT = {"episode": ["passage_fulltext"]}


def _passages(n: int) -> list[Candidate]:
    # full-text scores falling with the index: ranked in index order before rescoring
    return [Candidate(kind="episode", uuid=f"p{i}", text={"passage_fulltext": float(n - i)}, episode=f"e{i}")
            for i in range(n)]


def test_a_strong_rescoring_cosine_lifts_a_candidate_inside_the_top_only() -> None:
    weights = RankWeights(rescore=8.0)
    ranked = rank(_passages(5), weights, TEXT)
    for c, cosine in zip(ranked, (0.45, 0.6, 0.85, 0.6, 0.95), strict=True):
        c.rescore = cosine
    out = rescored(ranked, 3, weights)
    # p2 (0.85) rises to first inside the top 3; p4 (0.95) is outside it and keeps its place
    assert [c.uuid for c in out] == ["p2", "p1", "p0", "p3", "p4"]
    assert out[0].features["rescore"] == 0.85 / 0.1


def test_without_weight_the_order_stays() -> None:
    weights = RankWeights(rescore=0.0)
    ranked = rank(_passages(4), weights, TEXT)
    for c in ranked:
        c.rescore = 0.9 if c.uuid == "p3" else 0.1
    assert [c.uuid for c in rescored(ranked, 4, weights)] == ["p0", "p1", "p2", "p3"]
