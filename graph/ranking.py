"""The ranking stage of search: candidates from every channel ordered by their relevance to the query.

Channels only generate candidates. Each candidate is then scored on what it says about the query, whichever
channel found it: its full-text scores (BM25, each divided by the best score of that channel for this query, 0
where the channel did not return it) and its semantic scores (the cosine of the query's vector and the hit's
own vectors, read for every hit, standardized by a fixed mean and scale so that a weak match stays weak even
when it is the best a channel has). A passage has two semantic scores (its text and its context, the passage
before it and itself) and one full-text score (its context); a fact or an entity one of each. Passages then
take part of their episode's weight: the mean of the best few passage scores of the same episode, since the
turns that answer a question tend to sit together.

The weights are plain numbers (``RankWeights``): first set by hand on the fusion of raw turns, then fit on the
LoCoMo dev conversations by ``python -m bench.fit_ranking`` (coordinate ascent on recall@10; a two-fold check
on conversations the fit did not see is in docs/benchmarks.md). No channel wins by being one of several that
agree, which is what reciprocal rank fusion rewarded. Pure logic: no I/O, no Cypher.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from strata.schema.models import TimeWindow
from strata.schema.retention import salience_feature


class RankWeights(BaseModel):
    text: float = Field(default=12.0, description="Weight of the mean normalized full-text score.")
    semantic: float = Field(default=2.0, description="Weight of the mean standardized semantic score.")
    cosine_mean: float = Field(default=0.3, description="Cosine taken as neither relevant nor irrelevant.")
    cosine_scale: float = Field(default=0.1, gt=0, description="Cosine difference worth one unit.")
    episode: float = Field(default=1.0, description="Weight of the episode's best passages on each of them.")
    episode_top: int = Field(default=1, ge=1, description="How many of an episode's best passages count.")
    time: float = Field(default=6.0, description="Added to a hit said or true inside the query's time window.")
    # A passage said a little after the window still speaks of it ("yesterday", "last week").
    time_slack_days: float = Field(default=14.0, ge=0)
    kind: dict[str, float] = Field(default_factory=lambda: {"fact": -1.0, "entity": 0.0, "episode": 0.0},
                                   description="A prior per hit kind, added to its score.")
    # Retention's salience decay (a group policy): log2 of a memory's salience, 0 when fresh or without decay.
    salience: float = Field(default=4.0, ge=0, description="Taken off per half-life a memory went unused.")
    # The rescoring stage (graph/rescore.py): the best candidates' cosine to the query under a second embedder,
    # in units of 0.1 like the semantic scores; 0 turns the stage off. Every rescored candidate gets it, so a
    # midpoint would shift them all alike and change no order: there is none to fit.
    rescore: float = Field(default=0.0, description="Weight of the rescoring cosine (per 0.1 of cosine).")


RESCORE_UNIT = 0.1  # the rescoring cosine difference worth one unit of its weight


@dataclass
class Candidate:
    """A hit before ranking, with what the ranker reads and (after ``rank``) its score and features."""

    kind: str  # fact, entity, episode
    uuid: str
    channels: list[str] = field(default_factory=list)
    text: dict[str, float] = field(default_factory=dict)  # full-text channel -> BM25 score
    # Semantic scores as the index scores them, (1 + cosine) / 2; None where a vector is missing.
    semantic: list[float | None] = field(default_factory=list)
    episode: str | None = None  # a passage's episode
    said_at: datetime | None = None  # a passage's episode reference time, a fact's valid time
    start: int | None = None
    end: int | None = None
    fusion: float = 0.0  # reciprocal-rank fusion, the tie-break (and the order when the query has no text)
    salience: float = 1.0  # retention's decay of unused memories (strata.schema.retention); 1.0 without it
    rescore: float | None = None  # the rescoring model's cosine to the query (graph/rescore.py), once computed
    base: float = 0.0
    score: float = 0.0
    features: dict[str, float] = field(default_factory=dict)


def rank(candidates: Sequence[Candidate], weights: RankWeights, text_channels: dict[str, list[str]],
         window: TimeWindow | None = None) -> list[Candidate]:
    """Score and order ``candidates`` (a new list, best first). Scores and features are written on the
    candidates, each time from their channel findings alone: ranking again with other weights starts afresh.

    ``text_channels``: the full-text channels asked for each kind (a candidate absent from one scores 0 there).
    ``window``: the time the query asks about; hits said or true in it gain ``weights.time``.
    """
    best = _best_text_scores(candidates)
    for c in candidates:
        asked = text_channels.get(c.kind, [])
        text = [c.text.get(ch, 0.0) / best[ch] if best.get(ch) else 0.0 for ch in asked]
        cosines = [2.0 * s - 1.0 for s in c.semantic if s is not None]
        semantic = [(cos - weights.cosine_mean) / weights.cosine_scale for cos in cosines]
        c.features = {"text": _mean(text), "semantic": _mean(semantic), "time": _in_window(c, window, weights),
                      "salience": salience_feature(c.salience)}
        c.base = (weights.text * c.features["text"] + weights.semantic * c.features["semantic"]
                  + weights.time * c.features["time"] + weights.kind.get(c.kind, 0.0)
                  + weights.salience * c.features["salience"])
    episode_weight = _episode_weights(candidates, weights.episode_top)
    for c in candidates:
        c.features["episode"] = episode_weight.get(c.episode, 0.0) if c.kind == "episode" and c.episode else 0.0
        c.score = c.base + weights.episode * c.features["episode"]
    return sorted(candidates, key=lambda c: (-c.score, -c.fusion, c.kind, c.uuid))


def rescored(ranked: Sequence[Candidate], top: int, weights: RankWeights) -> list[Candidate]:
    """The first ``top`` of ``ranked`` (each with its ``rescore`` set) ordered again with the rescoring feature
    added to their score; the others follow in their order (a rescoring cosine is not known for them)."""
    head = list(ranked[:top])
    for c in head:
        c.features["rescore"] = c.rescore / RESCORE_UNIT if c.rescore is not None else 0.0
        c.score += weights.rescore * c.features["rescore"]
    head.sort(key=lambda c: (-c.score, -c.fusion, c.kind, c.uuid))
    return head + list(ranked[top:])


def _in_window(c: Candidate, window: TimeWindow | None, weights: RankWeights) -> float:
    if window is None or c.said_at is None:
        return 0.0
    slack = timedelta(days=weights.time_slack_days) if c.kind == "episode" else timedelta(0)
    return 1.0 if window.start <= c.said_at < window.end + slack else 0.0


def _best_text_scores(candidates: Sequence[Candidate]) -> dict[str, float]:
    best: dict[str, float] = defaultdict(float)
    for c in candidates:
        for channel, score in c.text.items():
            best[channel] = max(best[channel], score)
    return best


def _episode_weights(candidates: Sequence[Candidate], top: int) -> dict[str, float]:
    """Per episode, the mean of its ``top`` best passage scores; an episode with fewer candidates counts the
    lowest passage score for the missing ones (they were not found, so they are no better than that)."""
    passages = [c for c in candidates if c.kind == "episode" and c.episode]
    if not passages:
        return {}
    floor = min(c.base for c in passages)
    by_episode: dict[str, list[float]] = defaultdict(list)
    for c in passages:
        by_episode[c.episode].append(c.base)  # type: ignore[index]
    out = {}
    for episode, scores in by_episode.items():
        scores = sorted(scores, reverse=True)[:top]
        out[episode] = _mean(scores + [floor] * (top - len(scores)))
    return out


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# The weights a search uses when the rescoring stage is configured (settings.rescore_embedder): fitted with it
# by bench/fit_ranking.py --rescore (docs/benchmarks.md); the defaults above leave the stage off.
RESCORING = RankWeights(rescore=8.0)


def rescoring_weights() -> RankWeights:
    return RESCORING
