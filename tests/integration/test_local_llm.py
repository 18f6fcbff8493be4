"""The LLM extractor end to end against a real OpenAI-compatible server (opt-in: ``pytest -m llm``).

The server is STRATA_TEST_LLM_URL when set, else the one `strata services llm build` made (started here when
not already running), else the tests skip and say so. With the small local model (a 270M base model) only
structure is asserted, never content: the job ends, each episode is done or failed with the known extraction
error, every span lies inside its episode, and what the calls cost is counted.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from strata.graph import Graph
from strata.ingest.extractors import MemoryCache, make_extractor
from strata.ingest.llm_client import OpenAIChatLLM
from strata.ingest.protocols import ExtractionContext
from strata.ingest.sources import parse_source_text
from strata.ingest.submit import episode_info, submit_document
from strata.ingest.tasks import build_pipeline
from strata.schema.errors import ExtractionError
from strata.schema.settings import Settings

# not marked `integration`: `-m integration` must not pull these minutes-long runs in
pytestmark = [pytest.mark.llm, pytest.mark.timeout(3600)]
SAMPLE = Path(__file__).resolve().parents[2] / "docs" / "samples" / "chat_sessions.json"
# Limits a 270M model finishes within max_tokens under (it fills every array to its bound and many strings to
# theirs): at most ~2,700 tokens; measured 1,176 on the probe ('stop') where the defaults ran to 4,096 and were
# cut. One split at most, so a cut reply costs minutes, not an hour, on 2 cores.
SMALL_MODEL = {"llm_max_entities": 5, "llm_max_facts": 4, "llm_max_notes": 4, "llm_max_string_chars": 80,
               "llm_max_split_depth": 1}
PROBE = """Maya: I moved to Berlin in June. She works at Northwind now.
Tom: My sister Sofia got married to Luis last year. I went to the climbing gym yesterday.
Tom: Acme was founded by Carol in 2001."""


@pytest.fixture(scope="module")
def llm_url(settings: Settings) -> Iterator[str]:
    if url := os.environ.get("STRATA_TEST_LLM_URL"):
        yield url
        return
    from strata.services.llm import LocalLLMService

    svc = LocalLLMService(settings)
    if svc.ready():
        yield svc.base_url
        return
    if not svc.built():
        pytest.skip("no LLM server: set STRATA_TEST_LLM_URL, or build the local one with `strata services llm build`")
    svc.start()
    try:
        yield svc.base_url
    finally:
        svc.stop()


def _llm_settings(settings: Settings, url: str, cache_dir: Path) -> Settings:
    return settings.model_copy(update={
        "extractor": "llm", "embedder": "hash", "llm_base_url": url, "llm_model": "local", "llm_api_key": None,
        "llm_timeout_s": 900.0, "llm_max_retries": 1, "llm_cache": "directory", "llm_cache_dir": cache_dir,
        **SMALL_MODEL})


def test_one_episode_through_the_extractor(llm_url: str, settings: Settings, tmp_path: Path) -> None:
    cfg = _llm_settings(settings, llm_url, tmp_path)
    doc = parse_source_text(PROBE, "transcript", name="probe.txt", group_id="g")
    (episode,) = doc.episodes
    extractor = make_extractor(cfg, llm=OpenAIChatLLM.from_settings(cfg), cache=MemoryCache())
    try:
        result = extractor.extract(episode, ExtractionContext())
    except ExtractionError as exc:  # the known failure of a weak model: visible, with what it cost
        assert exc.details["calls"] >= 1 and exc.details["prompt_tokens"] > 0
        assert re.search(r"finish_reason=length|unusable", str(exc))
        return
    assert result.usage.calls >= 1 and result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
    n = len(episode.content)
    spans = [s for e in result.entities for s in e.spans] + [s for f in result.facts for s in f.spans] + [
        s for note in result.notes for s in note.spans]
    assert all(0 <= s.start <= s.end <= n for s in spans)
    speakers = {m.speaker for m in episode.messages}
    assert all(f.asserted_by in speakers | {None} for f in result.facts)
    assert all(note.asserted_by in speakers | {None} for note in result.notes)


def test_ingest_end_to_end_then_again_from_the_cache(llm_url: str, settings: Settings, graph: Graph,
                                                     group_id: str, tmp_path: Path) -> None:
    cfg = _llm_settings(settings, llm_url, tmp_path)
    text = SAMPLE.read_text()
    doc = parse_source_text(text, "sessions-json", name="chat_sessions.json", group_id=group_id)
    info = submit_document(graph, None, doc, inline_pipeline=build_pipeline(cfg, graph))

    assert info.status in ("done", "failed") and info.done + info.failed == info.total == len(doc.episodes)
    assert info.llm.extraction_calls >= info.total and info.llm.prompt_tokens > 0
    assert info.llm.calls == info.llm.extraction_calls + info.llm.adjudication_calls
    for episode in doc.episodes:
        details = episode_info(graph, episode.uuid)
        assert details["llm"]["extraction_calls"] >= 1
        if details["status"] == "failed":
            assert details["error"].startswith("extraction_failed")
    rows = graph.query("MATCH (e:Episode {group_id: $g})-[m:MENTIONS]->() RETURN size(e.content) AS n, "
                       "m.spans AS spans", g=group_id)
    assert all(0 <= x <= r["n"] for r in rows for x in r["spans"])
    evidence = graph.query("MATCH (:Entity {group_id: $g})-[f:RELATES_TO]->() UNWIND f.evidence AS ev "
                           "MATCH (e:Episode {uuid: split(ev, ':')[0]}) RETURN size(e.content) AS n, ev",
                           g=group_id)
    for row in evidence:
        start, end = (int(x) for x in row["ev"].rsplit(":", 2)[1:])
        assert 0 <= start <= end <= row["n"]

    if info.done:  # what was extracted once is not paid for again
        other = f"test-{uuid.uuid4().hex[:10]}"
        again_doc = parse_source_text(text, "sessions-json", name="again.json", group_id=other)
        try:
            again = submit_document(graph, None, again_doc, inline_pipeline=build_pipeline(cfg, graph))
            assert again.llm.cache_hits >= info.done
            for first, second in zip(doc.episodes, again_doc.episodes, strict=True):
                if episode_info(graph, first.uuid)["status"] == "done":
                    assert episode_info(graph, second.uuid)["llm"]["extraction_calls"] == 0
        finally:
            graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=other)
