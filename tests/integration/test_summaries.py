"""Entity summaries on a real Neo4j: written after commits from current facts, rewritten when a fact is
superseded, bounded per entity, searchable, at the head of a context block; the LLM path through the
wire-format server."""

from __future__ import annotations

import json

import pytest

from strata.graph import Graph
from strata.graph.search import SearchQuery, search
from strata.ingest.extractors.cache import MemoryCache
from strata.ingest.llm_client import OpenAIChatLLM, RetryPolicy
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources import parse_source_text
from strata.ingest.submit import submit_document
from strata.ingest.summaries import Summarizer, flush_stale, refresh_group, refresh_touched
from strata.ingest.tasks import build_pipeline
from strata.ingest.testing import openai_server as wire
from strata.memory.recall import context_block
from strata.schema.requests import ContextRequest
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration

MOVED_IN = [
    {"subject": "Maya Lindqvist", "subject_type": "Person", "predicate": "lives_in", "object": "Lisbon",
     "object_type": "Place", "valid_at": "2023-01-01"},
    {"subject": "Maya Lindqvist", "subject_type": "Person", "predicate": "works_for", "object": "Quillhaven Lab",
     "object_type": "Organization", "valid_at": "2023-01-01"},
]
MOVED_ON = [
    {"subject": "Maya Lindqvist", "subject_type": "Person", "predicate": "lives_in", "object": "Berlin",
     "object_type": "Place", "valid_at": "2024-03-01"},
]


def _jsonl(rows: list[dict]) -> str:
    return "\n".join(json.dumps(r) for r in rows)


def _ingest(graph: Graph, pipeline: Pipeline, group_id: str, rows: list[dict], name: str) -> None:
    doc = parse_source_text(_jsonl(rows), "facts-jsonl", name=name, group_id=group_id)
    info = submit_document(graph, None, doc, inline_pipeline=pipeline)
    assert info.status == "done", info


def _summary(graph: Graph, group_id: str, name: str) -> str:
    rows = graph.query("MATCH (e:Entity {group_id: $g, name: $n}) RETURN coalesce(e.summary, '') AS s",
                       g=group_id, n=name)
    assert len(rows) == 1, rows
    return rows[0]["s"]


def _stale(graph: Graph, group_id: str, name: str) -> bool:
    rows = graph.query("MATCH (e:Entity {group_id: $g, name: $n}) RETURN e.summary_stale AS s", g=group_id, n=name)
    return bool(rows[0]["s"])


@pytest.fixture
def pipeline(graph: Graph, settings: Settings) -> Pipeline:
    return build_pipeline(settings.model_copy(update={"embedder": "hash", "summary_min_interval_s": 0.0}), graph)


def test_a_superseded_fact_leaves_the_summary(graph: Graph, pipeline: Pipeline, group_id: str) -> None:
    _ingest(graph, pipeline, group_id, MOVED_IN, "first.jsonl")
    maya = _summary(graph, group_id, "Maya Lindqvist")
    assert "Lisbon" in maya and "Quillhaven Lab" in maya
    assert "Maya Lindqvist" in _summary(graph, group_id, "Lisbon")  # the other end says it too

    _ingest(graph, pipeline, group_id, MOVED_ON, "second.jsonl")
    maya = _summary(graph, group_id, "Maya Lindqvist")
    assert "Berlin" in maya and "Quillhaven Lab" in maya
    assert "Lisbon" not in maya  # the ended fact left
    assert _summary(graph, group_id, "Lisbon") == ""  # an entity the graph says nothing about now
    assert "Maya Lindqvist" in _summary(graph, group_id, "Berlin")
    assert not _stale(graph, group_id, "Maya Lindqvist")


def test_a_hub_is_rewritten_at_most_once_per_interval_and_the_rest_waits_stale(
        graph: Graph, settings: Settings, group_id: str) -> None:
    pipeline = build_pipeline(settings.model_copy(update={"embedder": "hash", "summaries": "off"}), graph)
    hourly = Summarizer(min_interval_s=3600.0)
    for k, rows in enumerate((MOVED_IN, MOVED_ON)):
        doc = parse_source_text(_jsonl(rows), "facts-jsonl", name=f"part{k}.jsonl", group_id=group_id)
        outcome = pipeline.process(doc.episodes[0], doc.source)
        result = refresh_touched(graph, group_id, outcome.commit.touched, hourly)
        # Maya, Lisbon, Quillhaven Lab; then only Berlin, never summarised: Maya and Lisbon were, a moment ago
        assert result.examined == (3 if k == 0 else 1)
    assert "Lisbon" in _summary(graph, group_id, "Maya Lindqvist")  # not rewritten within the hour ...
    assert _stale(graph, group_id, "Maya Lindqvist") and _stale(graph, group_id, "Lisbon")  # ... but marked
    flushed = flush_stale(graph, group_id, hourly)  # the job's end: every stale one, due or not
    assert flushed.examined == 2  # Maya and Lisbon (its fact ended)
    assert "Berlin" in _summary(graph, group_id, "Maya Lindqvist")
    assert not _stale(graph, group_id, "Maya Lindqvist")


def test_search_finds_an_entity_by_a_word_only_its_summary_holds(graph: Graph, pipeline: Pipeline,
                                                                   group_id: str) -> None:
    _ingest(graph, pipeline, group_id, MOVED_IN, "first.jsonl")
    graph.query("CALL db.awaitIndexes(60)")
    result = search(graph, group_id, SearchQuery(q="who works at Quillhaven?", kinds=["entity"]))
    names = [h.entity.name for h in result.hits if h.entity]
    assert "Maya Lindqvist" in names  # her name does not hold the word: her summary does
    maya = next(h for h in result.hits if h.entity and h.entity.name == "Maya Lindqvist")
    assert "entity_fulltext" in maya.channels and "Quillhaven" in maya.entity.summary
    # stop words alone match no summary (they are left out of the summary field's query)
    assert not [h for h in search(graph, group_id, SearchQuery(q="who is the", kinds=["entity"])).hits
                if h.entity and h.entity.name == "Maya Lindqvist"]


def test_the_context_block_opens_with_the_summaries_of_what_it_is_about(graph: Graph, pipeline: Pipeline,
                                                                          group_id: str) -> None:
    _ingest(graph, pipeline, group_id, MOVED_IN + MOVED_ON, "all.jsonl")
    graph.query("CALL db.awaitIndexes(60)")
    block = context_block(graph, group_id, ContextRequest(q="What do we know about Maya Lindqvist and her home?",
                                                         budget_tokens=1000), embed=None)
    lines = block.text.splitlines()
    assert lines[1] == "Entities:"
    maya = next(line for line in lines if line.startswith("- Maya Lindqvist (Person): "))
    assert "Berlin" in maya and lines.index(maya) < lines.index("Facts:")
    assert block.tokens <= 1000
    # a question about a slot opens with its answer; the summaries (what holds now) follow the evidence
    slot = context_block(graph, group_id, ContextRequest(q="Where does Maya Lindqvist live?", budget_tokens=1000),
                         embed=None).text.splitlines()
    assert slot[1] == "Answer:" and slot[2].startswith("- Maya Lindqvist lives in Berlin")
    assert slot.index("Entities:") > slot.index("Answer:")
    # a small budget keeps the evidence; a summary goes in only where what is left holds it
    small = context_block(graph, group_id, ContextRequest(q="Where does Maya Lindqvist live?", budget_tokens=60),
                          embed=None)
    assert "- Maya Lindqvist lives in Berlin (true 2024-03-01" in small.text and small.tokens <= 60
    assert "- Maya Lindqvist (Person)" not in small.text


def test_a_full_refresh_is_idempotent_and_reports_progress(graph: Graph, pipeline: Pipeline, group_id: str) -> None:
    _ingest(graph, pipeline, group_id, MOVED_IN + MOVED_ON, "all.jsonl")
    before = graph.query("MATCH (e:Entity {group_id: $g}) RETURN e.name AS n, e.summary AS s ORDER BY n", g=group_id)
    seen: list[tuple[int, int]] = []
    summarizer = Summarizer(batch=2)
    first = refresh_group(graph, group_id, summarizer, progress=lambda done, total: seen.append((done, total)))
    assert first.examined == len(before) == 4 and first.changed == 0 and first.complete  # already current
    assert seen == [(2, 4), (4, 4)]  # two batches of two
    forced = refresh_group(graph, group_id, summarizer, force=True)
    assert forced.examined == 4 and forced.changed == 0  # the same text again: nothing rewritten
    after = graph.query("MATCH (e:Entity {group_id: $g}) RETURN e.name AS n, e.summary AS s ORDER BY n", g=group_id)
    assert after == before
    cut = refresh_group(graph, group_id, summarizer, force=True, budget_s=1e-9)  # stops after the first batch
    assert not cut.complete and cut.examined == 2 and cut.next_cursor is not None
    rest = refresh_group(graph, group_id, summarizer, force=True, after=cut.next_cursor)
    assert rest.examined == 2 and rest.complete


def test_llm_summaries_through_the_wire_format_with_cache_and_fallback(graph: Graph, pipeline: Pipeline,
                                                                        group_id: str) -> None:
    _ingest(graph, pipeline, group_id, MOVED_IN + MOVED_ON, "all.jsonl")

    def reply(body: dict) -> object:
        statements = body["messages"][1]["content"]
        name = statements.split("\n", 1)[0].removeprefix("Entity: ").split(" (")[0]
        return wire.Reply.json({"summary": f"{name}, as the model tells it."})

    with wire.OpenAIServer(chat_default=reply) as server:
        llm = OpenAIChatLLM(model="summary-model", base_url=server.base_url, api_key="x",
                            retry=RetryPolicy(max_retries=0))
        summarizer = Summarizer(llm=llm, cache=MemoryCache())
        done = refresh_group(graph, group_id, summarizer)
        # Lisbon has nothing current to say (its one fact ended): no call, it stays empty
        assert (done.examined, done.changed, done.llm_calls, done.fallbacks) == (4, 3, 3, 0)
        assert _summary(graph, group_id, "Lisbon") == ""
        assert _summary(graph, group_id, "Maya Lindqvist") == "Maya Lindqvist, as the model tells it."
        calls = server.requests_to("/chat/completions")
        maya = next(c.body for c in calls if "Entity: Maya Lindqvist" in c.body["messages"][1]["content"])
        assert maya["response_format"]["json_schema"]["name"] == "summary"
        prompt = maya["messages"][1]["content"]
        assert "Berlin" in prompt and "Quillhaven Lab" in prompt and "Lisbon" not in prompt  # current facts only

        unchanged = refresh_group(graph, group_id, summarizer)  # same input: no call, nothing written
        assert (unchanged.llm_calls, unchanged.changed) == (0, 0)
        cached = refresh_group(graph, group_id, summarizer, force=True)  # asked again: the cache answers
        assert (cached.llm_calls, cached.llm_cache_hits) == (0, 3)
        assert len(server.requests_to("/chat/completions")) == 3

        server.chat(*[wire.Reply.error(400, "bad request")] * 3)  # a fresh cache: every answer fails
        failing = Summarizer(llm=llm, cache=MemoryCache())
        fell = refresh_group(graph, group_id, failing, force=True)
        assert fell.fallbacks == 3
        maya_text = _summary(graph, group_id, "Maya Lindqvist")
        assert "Berlin" in maya_text and "model" not in maya_text  # the extractive summary stands in
        method = graph.query("MATCH (e:Entity {group_id: $g, name: 'Maya Lindqvist'}) RETURN e.summary_method AS m",
                             g=group_id)[0]["m"]
        assert method == "extractive"
