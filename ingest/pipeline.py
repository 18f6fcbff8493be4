"""One episode through the stages: context -> extract -> resolve (plan) -> commit.

``Pipeline`` holds the long-lived parts (graph, extractor, embedder) built once per process; each stage
is a method with typed input and output, so a Celery task can run extraction outside the per-group lock
and the commit inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel

from strata.graph import Graph, lucene
from strata.graph.commit import CommitResult, commit_episode
from strata.graph.embedder_meta import check_group
from strata.graph.read import entity_candidates, predicates, previous_summary, roster
from strata.graph.rescore import Rescorer, store_passages
from strata.graph.suggestions import kept_apart
from strata.ingest.extractors.interactions import with_interactions
from strata.ingest.gcpause import gc_paused
from strata.ingest.protocols import EMPTY_CONTEXT, Embedder, ExtractionContext, Extractor, RosterEntry
from strata.ingest.summaries import Summarizer
from strata.resolve.passages import passages_for
from strata.resolve.planner import (
    Adjudicator,
    AmbiguousCase,
    MentionQuery,
    PlanAids,
    PlanReport,
    build_plan,
    passage_vectors_wanted,
    texts_to_embed,
)
from strata.resolve.timeline import recompute_timeline
from strata.resolve.types import CandidateEntity
from strata.schema.models import Episode, Extraction, Source, utcnow
from strata.schema.usage import LLMUsage

CANDIDATES_PER_MENTION = 8
VECTOR_CACHE_SIZE = 20_000


class EpisodeOutcome(BaseModel):
    episode_uuid: str
    commit: CommitResult
    merged: int
    created: int
    ambiguous: int
    adjudication_calls: int
    rejected_facts: list[str]
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    # what this commit's adjudication cost (extraction usage is on the Extraction, counted when extracted)
    adjudication: LLMUsage = LLMUsage()


def extraction_usage(extraction: Extraction) -> LLMUsage:
    u = extraction.usage
    return LLMUsage(calls=u.calls, prompt_tokens=u.prompt_tokens, completion_tokens=u.completion_tokens,
                    extraction_calls=u.calls, cache_hits=int(u.cached))


class _MeteredAdjudicator:
    """Wraps the shared adjudicator for one episode, so the episode's adjudication cost is known (thread-safe)."""

    def __init__(self, inner: Adjudicator) -> None:
        self.inner = inner
        self.usage = LLMUsage()

    def __call__(self, episode: Episode, cases: Sequence[AmbiguousCase]) -> dict[int, str | None]:
        adjudicate = getattr(self.inner, "adjudicate", None)
        if adjudicate is None:  # a plain callable (tests, offline rules): nothing to count
            return self.inner(episode, cases)
        verdicts, u = adjudicate(episode, cases)
        self.usage += LLMUsage(calls=u.calls, prompt_tokens=u.prompt_tokens, completion_tokens=u.completion_tokens,
                               adjudication_calls=u.calls, cache_hits=int(u.cached))
        return verdicts


class Pipeline:
    def __init__(self, graph: Graph, extractor: Extractor, embedder: Embedder | None,
                 adjudicator: Adjudicator | None = None, prose_vectors: bool = False,
                 summarizer: Summarizer | None = None, rescorer: Rescorer | None = None) -> None:
        self.graph = graph
        # The rescoring model (graph/rescore.py): its vectors of each passage, computed in extract() beside the
        # stored ones and written after the commit, so that searches find them cached.
        self.rescorer = rescorer
        self._rescore_vectors: dict[str, list[float]] = {}
        # Writes the summaries of the entities a commit touched (run_episode, after the group lock).
        self.summarizer = summarizer
        self.prose_vectors = prose_vectors  # settings.prose_passage_vectors
        self.extractor = extractor
        self.embedder = embedder
        self.adjudicator = adjudicator
        # Vectors computed during extract(), so commit() (inside the per-group lock) embeds nothing new.
        self._vectors: dict[str, list[float]] = {}
        self._embedder_checked: set[str] = set()  # groups whose vectors are this embedder's

    def context_for(self, episode: Episode) -> ExtractionContext:
        rows = roster(self.graph, episode.group_id, episode.source_uuid, episode.seq)
        entries = tuple(RosterEntry(name=r.name, type=r.type or "Entity", aliases=tuple(a for a in r.aliases
                                                                                       if a != r.name)[:5])
                        for r in rows)
        return ExtractionContext(roster=entries, summary=previous_summary(self.graph, episode.source_uuid,
                                                                          episode.seq))

    def extract(self, episode: Episode) -> Extraction:
        # Structured facts need no roster or summary: no extractor reads them.
        context = EMPTY_CONTEXT if episode.kind == "facts" else self.context_for(episode)
        with gc_paused():
            extraction = with_interactions(self.extractor.extract(episode, context))
        if self.embedder is not None:
            self.check_embedder(episode.group_id)
            self.embed(texts_to_embed(episode, extraction, prose_vectors=self.prose_vectors))
        if self.rescorer is not None and not self.rescorer.stored and passage_vectors_wanted(episode,
                                                                                           self.prose_vectors):
            self._rescore_embed([t for p in passages_for(episode, extraction.notes)
                                 for t in (p.text, p.context or p.text)])
        return extraction

    def _rescore_embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The rescoring model's vectors, through a bounded per-process cache keyed by text (as ``embed``)."""
        assert self.rescorer is not None
        missing = list(dict.fromkeys(t for t in texts if t not in self._rescore_vectors))
        if missing:
            if len(self._rescore_vectors) + len(missing) > VECTOR_CACHE_SIZE:
                self._rescore_vectors = {}
            self._rescore_vectors.update(zip(missing, self.rescorer.embed_passages(missing), strict=True))
        return [self._rescore_vectors[t] for t in texts]

    def check_embedder(self, group_id: str) -> None:
        """Refuse a group whose vectors another embedder made (graph/embedder_meta.py), once per group."""
        if self.embedder is not None and group_id not in self._embedder_checked:
            from strata.ingest.embedders import embedder_record

            check_group(self.graph, group_id, embedder_record(self.embedder))
            self._embedder_checked.add(group_id)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed through a bounded per-process cache keyed by text (safe to share between threads)."""
        assert self.embedder is not None
        found = {t: self._vectors.get(t) for t in texts}
        missing = [t for t, v in found.items() if v is None]
        if missing:
            fresh = dict(zip(missing, self.embedder.embed(missing), strict=True))
            found.update(fresh)
            if len(self._vectors) + len(fresh) > VECTOR_CACHE_SIZE:
                self._vectors = {}
            self._vectors.update(fresh)
        return [found[t] for t in texts]  # type: ignore[misc]

    def commit(self, episode: Episode, extraction: Extraction, source: Source | None = None,
               now: datetime | None = None) -> EpisodeOutcome:
        self.check_embedder(episode.group_id)
        registry = predicates(self.graph, episode.group_id, with_counts=False)
        embed = self.embed if self.embedder is not None else None
        metered = _MeteredAdjudicator(self.adjudicator) if self.adjudicator is not None else None
        with gc_paused():
            aids = PlanAids(embed=embed, adjudicator=metered, prose_vectors=self.prose_vectors)
            plan, report = build_plan(episode, extraction, lookup=self._lookup, predicates=registry, aids=aids,
                                      source=source)
            result = commit_episode(self.graph, plan, recompute_timeline, now or utcnow(), agent=episode.agent)
        embedded = [p for p in plan.passages if p.embedding is not None]
        if self.rescorer is not None and not self.rescorer.stored and embedded:
            vectors = self._rescore_embed([t for p in embedded for t in (p.text, p.context or p.text)])
            store_passages(self.graph, episode.group_id, [(p.uuid, vectors[2 * k], vectors[2 * k + 1])
                                                         for k, p in enumerate(embedded)], self.rescorer)
        return _outcome(episode, result, report, extraction, metered.usage if metered else LLMUsage())

    def process(self, episode: Episode, source: Source | None = None, now: datetime | None = None) -> EpisodeOutcome:
        return self.commit(episode, self.extract(episode), source, now)

    def _lookup(self, group_id: str, queries: Sequence[MentionQuery]) -> dict[int, list[CandidateEntity]]:
        """Candidates from exact keys, fuzzy full-text and name vectors, each one batched query."""
        by_key: dict[str, list[int]] = {}
        for q in queries:
            for key in q.keys:
                by_key.setdefault(key, []).append(q.index)
        fuzzy = [q for q in queries if not q.exact_only]
        text = [(str(q.index), lucene.any_terms(" ".join([q.name, *q.aliases]), fuzzy=True)) for q in fuzzy]
        vectors = [(str(q.index), q.embedding) for q in fuzzy if q.embedding is not None]
        hits = entity_candidates(self.graph, group_id, keys=sorted(by_key), lucene=text, vectors=vectors,
                                 limit=CANDIDATES_PER_MENTION)
        out: dict[int, dict[str, CandidateEntity]] = {}
        for hit in hits:
            targets = by_key.get(hit.query, []) if hit.channel == "key" else [int(hit.query)]
            for index in targets:
                prior = out.setdefault(index, {}).get(hit.uuid)
                out[index][hit.uuid] = CandidateEntity(
                    uuid=hit.uuid, name=hit.name, type=hit.type or "Entity", aliases=hit.aliases,
                    embedding=hit.embedding or (prior.embedding if prior else None),
                    cosine=hit.cosine if hit.cosine is not None else (prior.cosine if prior else None),
                    mentions=max(hit.mentions, prior.mentions if prior else 0))
        apart = kept_apart(self.graph, group_id, sorted({u for c in out.values() for u in c}))
        return {i: [x.model_copy(update={"apart": apart[x.uuid]}) if x.uuid in apart else x for x in c.values()]
                for i, c in out.items()}


def _outcome(episode: Episode, result: CommitResult, report: PlanReport, extraction: Extraction,
             adjudication: LLMUsage) -> EpisodeOutcome:
    total = extraction_usage(extraction) + adjudication
    return EpisodeOutcome(
        episode_uuid=episode.uuid, commit=result, merged=report.merged, created=report.created,
        ambiguous=report.ambiguous, adjudication_calls=report.adjudication_calls,
        rejected_facts=report.rejected_facts, llm_calls=total.calls, prompt_tokens=total.prompt_tokens,
        completion_tokens=total.completion_tokens, adjudication=adjudication)
