"""Entity summaries kept up to date: after a commit, for the entities it touched; on demand, for a whole group.

Every write that changes an entity's facts or notes (a commit, a retraction, a merge, a correction) marks the
entity ``summary_stale`` in its own transaction (graph/commit.py ``recompute_slots``). After an episode
commits, the stale entities it touched are summarised again, each at most once per
``STRATA_SUMMARY_MIN_INTERVAL_S`` (60 s): a hub that every episode of a book mentions is rewritten about once a
minute while the book is read, not once per window (a time bound holds whatever the ingestion rate; a bound
per K new facts would still rewrite a hub that gains K facts an episode on every episode). What the bound
leaves stale is written when the job ends and by the beat sweep. A summary whose input did not change (its
fingerprint, resolve/summaries.py) is not written again and costs no LLM call.

Offline the summary is extractive (resolve/summaries.py); with an LLM configured it is one structured-output
call over the same ranked lines, cached by its exact prompt like the extraction cache, and extractive when
the call fails.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from strata.graph import summaries as store
from strata.graph.driver import Graph
from strata.ingest.cached_call import cached_call
from strata.ingest.logging import log_event
from strata.ingest.prompts.summaries import (
    COMMUNITY_INSTRUCTIONS,
    ENTITY_INSTRUCTIONS,
    SUMMARY_PROMPT_VERSION,
    SummaryResponse,
    community_prompt,
    entity_prompt,
    response_schema,
)
from strata.ingest.protocols import LLM, Cache, ChatMessage, JsonSchema
from strata.resolve.summaries import digest_lines, extractive_summary, fingerprint, fit, sentences
from strata.schema.models import TokenUsage, utcnow
from strata.schema.settings import Settings
from strata.schema.summaries import EntityDigest, SummaryRefresh, SummaryWrite

log = logging.getLogger("strata.summaries")
Progress = Callable[[int, int], None]


class Summarizer:
    """Writes summaries: extractive, or one LLM call each (cached) that falls back to extractive on failure."""

    def __init__(self, max_chars: int = 300, min_interval_s: float = 60.0, batch: int = 100,
                 llm: LLM | None = None, cache: Cache | None = None, flush_budget_s: float = 300.0) -> None:
        self.max_chars = max_chars
        self.min_interval_s = min_interval_s
        self.batch = batch
        self.flush_budget_s = flush_budget_s  # a job's end writes its group's stale summaries for at most this long
        self.llm = llm
        self.cache = cache

    @property
    def method(self) -> str:
        return f"llm:{self.llm.model}" if self.llm is not None else "extractive"

    def summarize(self, digest: EntityDigest, force: bool = False) -> tuple[SummaryWrite | None, TokenUsage, bool]:
        """The entity's new summary, or None when its input did not change; the LLM usage and whether the LLM
        answer failed and the extractive summary stands in."""
        mark = fingerprint(digest, self.method, self.max_chars)
        if mark == digest.summary_hash and not force:
            return None, TokenUsage(), False
        if not (digest.facts or digest.notes or digest.partners or digest.description.strip()):
            # the graph says nothing about it now (or only what has ended)
            return SummaryWrite(uuid=digest.uuid, summary="", summary_hash=mark, method="empty"), TokenUsage(), False
        if self.llm is None:
            return self._extractive(digest, mark), TokenUsage(), False
        lines = digest_lines(digest)
        text, usage = self._ask(ENTITY_INSTRUCTIONS, entity_prompt(digest.name, digest.type, digest.aliases, lines),
                                f"entity {digest.uuid}")
        if text is None:
            # the extractive fingerprint: the next refresh asks the LLM again
            extractive = fingerprint(digest, "extractive", self.max_chars)
            return self._extractive(digest, extractive), usage, True
        return SummaryWrite(uuid=digest.uuid, summary=text, summary_hash=mark, method=self.method), usage, False

    def summarize_community(self, title: str, members: Sequence[tuple[str, str]],
                            max_chars: int) -> tuple[str, TokenUsage]:
        """A community's summary from its members' (name, summary), most connected first."""
        text, usage = None, TokenUsage()
        if self.llm is not None:
            text, usage = self._ask(COMMUNITY_INSTRUCTIONS, community_prompt(title, members), f"community {title}",
                                    max_chars)
        return text if text is not None else community_extractive(members, max_chars), usage

    def _extractive(self, digest: EntityDigest, mark: str) -> SummaryWrite:
        return SummaryWrite(uuid=digest.uuid, summary=extractive_summary(digest, self.max_chars), summary_hash=mark,
                            method="extractive")

    def _ask(self, instructions: str, prompt: str, what: str,
             max_chars: int | None = None) -> tuple[str | None, TokenUsage]:
        """One structured-output call (or its cached answer); None when it failed."""
        assert self.llm is not None
        limit = max_chars or self.max_chars
        messages: list[ChatMessage] = [{"role": "system", "content": instructions.format(max_chars=limit)},
                                       {"role": "user", "content": prompt}]
        schema = JsonSchema(name="summary", schema=response_schema(limit))
        answer, usage = cached_call(self.llm, self.cache, SUMMARY_PROMPT_VERSION, messages, schema, SummaryResponse,
                                    f"summary of {what}")
        if answer is None:
            return None, usage
        text = fit(answer.summary, limit)
        if not text:
            return None, usage
        return text, usage


def community_extractive(members: Sequence[tuple[str, str]], max_chars: int) -> str:
    """The first sentence of each member's summary, most connected member first, within ``max_chars``."""
    out: list[str] = []
    used = 0
    for _, summary in members:
        first = next(iter(sentences(summary)), "")
        cost = len(first) + (1 if out else 0)
        if first and first not in out and used + cost <= max_chars:
            out.append(first)
            used += cost
    return " ".join(out)


def make_summarizer(settings: Settings, llm: LLM | None = None, cache: Cache | None = None) -> Summarizer | None:
    """The configured summarizer (None: summaries off). ``auto`` uses the LLM when extraction does."""
    mode = settings.summaries
    if mode == "off":
        return None
    if mode == "auto":
        mode = "llm" if settings.extractor == "llm" else "extractive"
    if mode == "llm" and llm is None:
        from strata.ingest.extractors.cache import make_cache
        from strata.ingest.llm_client import OpenAIChatLLM

        llm = OpenAIChatLLM.from_settings(settings)
        cache = cache if cache is not None else make_cache(settings)
    return Summarizer(max_chars=settings.summary_max_chars, min_interval_s=settings.summary_min_interval_s,
                      batch=settings.summary_batch, llm=llm if mode == "llm" else None,
                      cache=cache if mode == "llm" else None, flush_budget_s=settings.summary_sweep_interval_s)


def summarize_entities(graph: Graph, group_id: str, uuids: Sequence[str], summarizer: Summarizer,
                       now: datetime | None = None, force: bool = False) -> SummaryRefresh:
    """Write the summaries of these entities (one read, one write)."""
    now = now or utcnow()
    writes: list[SummaryWrite] = []
    calls = hits = fallbacks = prompt = completion = 0
    found = store.digests(graph, group_id, uuids, now)
    for digest in found:
        write, usage, fell_back = summarizer.summarize(digest, force)
        calls += usage.calls
        prompt += usage.prompt_tokens
        completion += usage.completion_tokens
        hits += int(usage.cached)
        fallbacks += int(fell_back)
        if write is not None:
            writes.append(write)
    changed = store.write_summaries(graph, group_id, writes, now)
    return SummaryRefresh(group_id=group_id, examined=len(found), changed=changed, llm_calls=calls,
                          prompt_tokens=prompt, completion_tokens=completion, llm_cache_hits=hits,
                          fallbacks=fallbacks)


def refresh_touched(graph: Graph, group_id: str, uuids: Sequence[str], summarizer: Summarizer) -> SummaryRefresh:
    """After a commit: the stale entities among ``uuids`` whose summary is due (at most one batch; the rest
    stay stale for the job's end or the sweep)."""
    started = time.perf_counter()
    now = utcnow()
    claimed = store.claim(graph, group_id, now, summarizer.min_interval_s, summarizer.batch, uuids=uuids)
    if not claimed:
        return SummaryRefresh(group_id=group_id)
    result = _claimed(graph, group_id, claimed, summarizer, now)
    return result.model_copy(update={"seconds": round(time.perf_counter() - started, 3)})


def flush_stale(graph: Graph, group_id: str, summarizer: Summarizer, force: bool = True,
                budget_s: float | None = None) -> SummaryRefresh:
    """Every stale entity of the group (``force``: due or not), a batch at a time, within ``budget_s``."""
    started = time.perf_counter()
    total = SummaryRefresh(group_id=group_id)
    while True:
        now = utcnow()
        claimed = store.claim(graph, group_id, now, summarizer.min_interval_s, summarizer.batch, force=force)
        if not claimed:
            break
        total = _add(total, _claimed(graph, group_id, claimed, summarizer, now))
        if budget_s is not None and time.perf_counter() - started > budget_s:
            total = total.model_copy(update={"complete": False})
            break
    return total.model_copy(update={"seconds": round(time.perf_counter() - started, 3)})


def refresh_group(graph: Graph, group_id: str, summarizer: Summarizer, *, force: bool = False,
                  after: str = "", budget_s: float | None = None, progress: Progress | None = None,
                  batch: int | None = None) -> SummaryRefresh:
    """Summarise every live entity of the group again, in uuid order, ``batch`` at a time (default the
    summarizer's; a summary whose input did not change is left as it is unless ``force``). Past ``budget_s`` it
    stops after the batch in hand and says where to go on (``next_cursor``, to pass as ``after``)."""
    started = time.perf_counter()
    uuids = store.group_entities(graph, group_id, after)
    total = SummaryRefresh(group_id=group_id)
    step = batch or summarizer.batch
    for k in range(0, len(uuids), step):
        part = uuids[k:k + step]
        now = utcnow()
        store.claim(graph, group_id, now, 0.0, len(part), uuids=part, force=True)  # clear their marks
        total = _add(total, _claimed(graph, group_id, part, summarizer, now, force))
        if progress is not None:
            progress(k + len(part), len(uuids))
        if budget_s is not None and time.perf_counter() - started > budget_s and k + len(part) < len(uuids):
            total = total.model_copy(update={"complete": False, "next_cursor": part[-1]})
            break
    return total.model_copy(update={"seconds": round(time.perf_counter() - started, 3)})


def _claimed(graph: Graph, group_id: str, uuids: Sequence[str], summarizer: Summarizer, now: datetime,
             force: bool = False) -> SummaryRefresh:
    """Summaries of claimed entities; on failure their marks go back, so the sweep writes them later."""
    try:
        return summarize_entities(graph, group_id, uuids, summarizer, now, force)
    except Exception:
        store.unclaim(graph, group_id, uuids)
        raise


_SUMMED = ("examined", "changed", "llm_calls", "prompt_tokens", "completion_tokens", "llm_cache_hits", "fallbacks")


def _add(a: SummaryRefresh, b: SummaryRefresh) -> SummaryRefresh:
    return a.model_copy(update={k: getattr(a, k) + getattr(b, k) for k in _SUMMED})


def sweep(graph: Graph, summarizer: Summarizer, budget_s: float) -> list[SummaryRefresh]:
    """The beat task: the due stale summaries of every group, within ``budget_s`` in all."""
    started = time.perf_counter()
    done = []
    for row in store.stale_groups(graph):
        left = budget_s - (time.perf_counter() - started)
        if left <= 0:
            log_event(log, "summaries.sweep_budget", logging.WARNING, group_id=row.group_id, budget_s=budget_s)
            break
        result = flush_stale(graph, row.group_id, summarizer, force=False, budget_s=left)
        if result.examined:
            log_event(log, "summaries.swept", group_id=row.group_id, examined=result.examined,
                      changed=result.changed, llm_calls=result.llm_calls, seconds=result.seconds)
        done.append(result)
    return done
