"""Offices told in sentences land in one (organization, role) slot whatever the extractor, and search answers
"who is / was" with the holder of the time asked. Real Neo4j; the LLM is the wire-format server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from strata.graph import Graph
from strata.graph.read import list_facts
from strata.graph.search import SearchQuery
from strata.ingest.sources import parse_source_text
from strata.ingest.submit import submit_document
from strata.ingest.tasks import build_pipeline
from strata.ingest.testing import openai_server as wire
from strata.memory.recall import context_block, recall_search
from strata.schema.requests import ContextRequest
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration


def _chat(date: str, report: str, reply: str) -> dict[str, Any]:
    return {"date": date, "session_id": date, "messages": [{"speaker": "Ana", "text": report},
                                                          {"speaker": "Ben", "text": reply}]}


OFFLINE = {"sessions": [
    _chat("2000-01-31", "Big news today: Walmart named Lee Scott as its CEO.", "Wow, really? Good for him."),
    _chat("2009-02-01", "Mike Duke has taken over as CEO of Walmart.", "I had no idea."),
    _chat("2015-06-01", "Rob Walton stepped down as chairman of Walmart.", "Interesting."),
]}
LLM = {"sessions": [_chat("2014-02-01", "Walmart's board picked Doug McMillon to run the company.", "Nice!")]}


def llm_reply(body: dict[str, Any]) -> Any:
    """The model reads the 2014 news as the prompt asks: holds_office to the organization, with the role."""
    schema = body["response_format"]["json_schema"]["name"]
    if schema == "summary":
        return wire.Reply.json({"summary": "Walmart's CEO."})
    if schema != "strata_extraction":
        return wire.Reply.json({"decisions": []})
    return wire.Reply.json({
        "entities": [{"name": "Doug McMillon", "type": "Person", "aliases": [], "description": ""},
                     {"name": "Walmart", "type": "Organization", "aliases": [], "description": ""}],
        "facts": [{"subject": "Doug McMillon", "predicate": "ceo_of", "object": "Walmart",
                   "fact": "Doug McMillon became the CEO of Walmart", "valid_at": "2014-02-01", "invalid_at": None,
                   "negated": False, "functional": None, "evidence": "picked Doug McMillon", "asserted_by": "Ana",
                   "role": None}],
        "notes": [], "summary": ""})


@pytest.fixture
def server() -> Iterator[Any]:
    with wire.OpenAIServer(chat_default=llm_reply) as s:
        yield s


@pytest.fixture
def ingested(graph: Graph, settings: Settings, server: Any, tmp_path: Path, group_id: str) -> str:
    offline = settings.model_copy(update={"extractor": "spacy", "embedder": "hash"})
    llm = settings.model_copy(update={
        "extractor": "llm", "embedder": "hash", "llm_base_url": server.base_url, "llm_api_key": None,
        "llm_model": "wire-test", "llm_max_retries": 1, "llm_cache": "directory", "llm_cache_dir": tmp_path / "llm"})
    # the LLM's 2014 news arrives first: the earlier offline terms must still end where it starts
    for source, chosen in ((LLM, llm), (OFFLINE, offline)):
        doc = parse_source_text(json.dumps(source), "sessions-json", name=f"{chosen.extractor}.json",
                                group_id=group_id)
        info = submit_document(graph, None, doc, inline_pipeline=build_pipeline(chosen, graph))
        assert info.status == "done", info
    return group_id


def test_both_extractors_land_in_one_slot_and_the_newer_holder_supersedes(graph: Graph, ingested: str) -> None:
    page = list_facts(graph, ingested, predicate="holds_office", include_history=True)
    ceo = {f.subject_name: f for f in page.items if f.role == "ceo"}
    assert set(ceo) == {"Lee Scott", "Mike Duke", "Doug McMillon"}
    assert len({f.object_uuid for f in ceo.values()}) == 1  # one Walmart
    assert ceo["Lee Scott"].invalid_at == datetime(2009, 2, 1, tzinfo=UTC)
    assert ceo["Mike Duke"].invalid_at == datetime(2014, 2, 1, tzinfo=UTC)
    assert ceo["Mike Duke"].invalidated_by == ceo["Doug McMillon"].uuid
    assert ceo["Doug McMillon"].invalid_at is None and ceo["Doug McMillon"].extractor.startswith("llm")
    # the chair's end is its own slot's: a negated fact, no CEO closed by it
    chair = [f for f in page.items if f.role == "chair"]
    assert [(f.subject_name, f.negated) for f in chair] == [("Rob Walton", True)]
    # the listener who reacts states nothing
    assert not any("Ben" in (f.subject_name, f.object_name) for f in page.items)


@pytest.mark.parametrize(("question", "as_of", "holder"), [
    ("Who is the CEO of Walmart?", None, "Doug McMillon"),
    ("Who is Walmart's chief executive right now?", None, "Doug McMillon"),
    ("Who was the CEO of Walmart in 2010?", None, "Mike Duke"),
    ("Who was the CEO of Walmart in 2003?", None, "Lee Scott"),
    ("Who is the CEO of Walmart?", datetime(2005, 7, 1, tzinfo=UTC), "Lee Scott"),
])
def test_the_holder_of_the_time_asked_comes_first(graph: Graph, ingested: str, question: str,
                                                  as_of: datetime | None, holder: str) -> None:
    result = recall_search(graph, ingested, SearchQuery(q=question, as_of=as_of), None)
    first = result.hits[0]
    assert first.answer and first.fact is not None and first.fact.subject_name == holder
    block = context_block(graph, ingested, ContextRequest(q=question, budget_tokens=500, as_of=as_of), None,
                          count=lambda t: len(t.split()))
    assert block.text.split("\n")[1:3] == ["Answer:", f"- {first.fact.fact} " + block.text.split("\n")[2].split(
        f"- {first.fact.fact} ", 1)[1]]
    assert holder in block.text.split("\n")[2]


def test_superseded_facts_say_what_took_their_place(graph: Graph, ingested: str) -> None:
    result = recall_search(graph, ingested, SearchQuery(q="Who was the CEO of Walmart in 2010?",
                                                        include_history=True, limit=20), None)
    notes = {h.fact.subject_name: h.superseded for h in result.hits if h.fact and not h.answer}
    assert notes.get("Lee Scott") == "superseded 2009-02-01: Mike Duke"
    assert notes.get("Doug McMillon") is None  # still holds
