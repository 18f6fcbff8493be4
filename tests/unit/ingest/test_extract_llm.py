"""LLM extractor against a real HTTP server speaking the OpenAI wire format (no client patching)."""

from __future__ import annotations

import json
import pickle
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from strata.ingest.extractors import DirectoryCache, LLMExtractor, MemoryCache
from strata.ingest.llm_client import ChatOptions, OpenAIChatLLM, RetryPolicy
from strata.ingest.prompts import INSTRUCTIONS, PROMPT_VERSION
from strata.ingest.protocols import ExtractionContext, RosterEntry
from strata.schema.errors import ExtractionError, RateLimitedError, UpstreamUnavailableError
from strata.schema.models import Episode, FactStatement, Message

REF = datetime(2024, 6, 15, 12, tzinfo=UTC)
CHAT = "Alice: I live in Paris now.\nBob: Nice, I moved to Berlin last May."
GOOD = {
    "entities": [
        {"name": "Alice", "type": "Person", "aliases": [], "description": "a user"},
        {"name": "Paris", "type": "Place", "aliases": [], "description": "city"},
        {"name": "Bob", "type": "Person", "aliases": [], "description": "a user"},
        {"name": "Berlin", "type": "Place", "aliases": [], "description": "city"},
    ],
    "facts": [
        {"subject": "Alice", "predicate": "live_in", "object": "Paris", "fact": "Alice lives in Paris.",
         "valid_at": None, "invalid_at": None, "negated": False, "functional": "subject",
         "evidence": "I live in Paris now", "asserted_by": "Bob"},
        {"subject": "Bob", "predicate": "move to", "object": "Berlin", "fact": "Bob moved to Berlin in May 2024.",
         "valid_at": "2024-05-01", "invalid_at": None, "negated": False, "functional": None,
         "evidence": "I moved to  Berlin last May", "asserted_by": None},
    ],
    "summary": "Alice lives in Paris; Bob moved to Berlin.",
}


def chat_episode(content: str = CHAT) -> Episode:
    first = content.index("I live")
    second = content.index("Nice")
    messages = [
        Message(speaker="Alice", text=content[first:content.index("\n")], start=first, end=content.index("\n")),
        Message(speaker="Bob", text=content[second:], start=second, end=len(content)),
    ]
    return Episode(uuid="ep-1", group_id="g", kind="chat", content=content, reference_time=REF,
                   content_hash="h", messages=messages, speakers=["Alice", "Bob"])


def make_llm(server: Any, max_retries: int = 3, json_schema: bool = True, **kw: Any) -> OpenAIChatLLM:
    options: dict[str, Any] = dict(model="test-model", base_url=server.base_url, api_key="k", timeout_s=2.0,
                                   retry=RetryPolicy(max_retries, backoff_base_s=0.01, backoff_max_s=0.05),
                                   options=ChatOptions(json_schema=json_schema))
    return OpenAIChatLLM(**{**options, **kw})


def test_happy_path_one_call_spans_and_speakers(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.json(GOOD))
    ctx = ExtractionContext(roster=(RosterEntry(name="Alice", type="Person", aliases=("Al",)),),
                            summary="Two friends talk.")
    episode = chat_episode()
    result = LLMExtractor(make_llm(openai_server)).extract(episode, ctx)

    assert len(openai_server.requests) == 1
    body = openai_server.requests[0].body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert body["messages"][0]["content"] == INSTRUCTIONS
    user = body["messages"][1]["content"]
    assert "Alice | Person | Al" in user and "Two friends talk." in user and REF.isoformat() in user
    assert "Bob: Nice, I moved to Berlin last May." in user

    live, move = result.facts
    assert (live.subject, live.predicate, live.object) == ("Alice", "live_in", "Paris")
    assert episode.content[live.spans[0].start:live.spans[0].end] == "I live in Paris now"
    assert live.asserted_by == "Alice"  # the message holding the evidence wins over the model's claim
    assert live.functional == "subject"
    assert move.predicate == "move_to" and move.valid_at == datetime(2024, 5, 1, tzinfo=UTC)
    assert episode.content[move.spans[0].start:move.spans[0].end] == "I moved to Berlin last May"
    assert move.asserted_by == "Bob"
    paris = next(e for e in result.entities if e.name == "Paris")
    assert [episode.content[s.start:s.end] for s in paris.spans] == ["Paris"]
    assert result.usage.calls == 1 and result.usage.prompt_tokens == openai_server.requests[0].prompt_tokens
    assert result.summary == GOOD["summary"]
    assert result.extractor.prompt_version == PROMPT_VERSION and result.extractor.model == "test-model"


def test_json_object_mode_when_schema_disabled(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.json(GOOD))
    LLMExtractor(make_llm(openai_server, json_schema=False)).extract(chat_episode(), ExtractionContext())
    assert openai_server.requests[0].body["response_format"] == {"type": "json_object"}


def test_429_then_success_honours_retry_after(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.rate_limited(retry_after=0.4), wire.Reply.json(GOOD))
    started = time.monotonic()
    result = LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert time.monotonic() - started >= 0.35
    assert len(openai_server.requests) == 2 and len(result.facts) == 2


def test_retry_after_ms_header_wins(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.rate_limited(retry_after=30, retry_after_ms=200), wire.Reply.json(GOOD))
    started = time.monotonic()
    LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert 0.18 <= time.monotonic() - started < 5


def test_500_then_success(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.error(500, "boom"), wire.Reply.error(503, "busy"), wire.Reply.json(GOOD))
    result = LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 3 and result.usage.calls == 1


def test_timeout_then_success(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.slow(1.5, wire.Reply.json(GOOD)), wire.Reply.json(GOOD))
    result = LLMExtractor(make_llm(openai_server, timeout_s=0.3)).extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 2 and len(result.facts) == 2


def test_retries_exhausted_map_to_strata_errors(openai_server: Any, wire: Any) -> None:
    openai_server.chat(*[wire.Reply.error(502)] * 3)
    with pytest.raises(UpstreamUnavailableError):
        LLMExtractor(make_llm(openai_server, max_retries=2)).extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 3
    openai_server.chat(*[wire.Reply.rate_limited(retry_after=0.01)] * 2)
    with pytest.raises(RateLimitedError) as info:
        LLMExtractor(make_llm(openai_server, max_retries=1)).extract(chat_episode(), ExtractionContext())
    assert info.value.retry_after == pytest.approx(0.01)
    restored = pickle.loads(pickle.dumps(info.value))  # Celery ships it across processes
    assert isinstance(restored, RateLimitedError) and restored.retry_after == pytest.approx(0.01)


def test_client_error_is_not_retried(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.error(400, "bad schema"))
    with pytest.raises(ExtractionError, match="400"):
        LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 1


def test_malformed_json_gets_one_repair(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.text('{"entities": [,]'), wire.Reply.json(GOOD))
    result = LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 2 and result.usage.calls == 2
    repair = openai_server.requests[1].body["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"entities": [,]'}
    assert "not valid" in repair[-1]["content"]


def test_schema_violation_gets_one_repair(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.json({"entities": "none"}), wire.Reply.json(GOOD))
    result = LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert len(result.facts) == 2
    assert "entities" in openai_server.requests[1].body["messages"][-1]["content"]


def test_truncated_reply_of_an_unsplittable_episode_gets_one_repair_without_echo(openai_server: Any,
                                                                                 wire: Any) -> None:
    episode = chat_episode()
    one_line = episode.model_copy(update={"content": CHAT.split("\n")[0], "messages": episode.messages[:1]})
    openai_server.chat(wire.Reply.truncated(json.dumps(GOOD)[:80]), wire.Reply.json(GOOD))
    result = LLMExtractor(make_llm(openai_server)).extract(one_line, ExtractionContext())
    assert len(openai_server.requests) == 2 and result.usage.calls == 2
    messages = openai_server.requests[1].body["messages"]
    assert len(messages) == 3 and "cut off" in messages[-1]["content"]


def test_repeated_garbage_raises_extraction_error(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.text("sorry, no"), wire.Reply.text("still no"), wire.Reply.json(GOOD))
    with pytest.raises(ExtractionError) as info:
        LLMExtractor(make_llm(openai_server)).extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 2
    assert info.value.details["calls"] == 2


@pytest.mark.parametrize("kind", ["memory", "directory"])
def test_cache_hit_makes_zero_calls(openai_server: Any, wire: Any, tmp_path: Any, kind: str) -> None:
    cache = MemoryCache() if kind == "memory" else DirectoryCache(tmp_path)
    openai_server.chat(wire.Reply.json(GOOD))
    first = LLMExtractor(make_llm(openai_server), cache=cache).extract(chat_episode(), ExtractionContext())
    again = LLMExtractor(make_llm(openai_server), cache=cache)
    second = again.extract(chat_episode().model_copy(update={"uuid": "ep-2"}), ExtractionContext())
    assert len(openai_server.requests) == 1
    assert second.usage.cached and second.usage.calls == 0 and second.episode_uuid == "ep-2"
    assert second.facts == first.facts
    # the context (roster, summary) is not in the key: a re-ingest into another group still hits
    again.extract(chat_episode(), ExtractionContext(summary="other"))
    assert len(openai_server.requests) == 1
    # the reference time is (relative dates resolve against it), and so are the model and the prompt version
    again.extract(chat_episode().model_copy(update={"reference_time": REF.replace(year=2025)}), ExtractionContext())
    assert len(openai_server.requests) == 2
    LLMExtractor(make_llm(openai_server, model="other"), cache=cache).extract(chat_episode(), ExtractionContext())
    LLMExtractor(make_llm(openai_server), cache=cache, prompt_version="x").extract(chat_episode(), ExtractionContext())
    assert len(openai_server.requests) == 4


def test_facts_episode_needs_no_call(openai_server: Any) -> None:
    episode = Episode(
        uuid="ep-f", group_id="g", kind="facts", content="", reference_time=REF, content_hash="h", agent="loader",
        facts=[FactStatement(subject="France", subject_type="Place", predicate="Head Of State",
                             object="Emmanuel Macron", object_type="Person", valid_at=datetime(2017, 5, 14),
                             functional="subject")],
    )
    result = LLMExtractor(make_llm(openai_server)).extract(episode, ExtractionContext())
    assert openai_server.requests == []
    (fact,) = result.facts
    # the predicate as the client wrote it: the planner normalizes it (head_of_state), the fact keeps the words
    assert (fact.subject, fact.predicate, fact.object, fact.functional) == (
        "France", "Head Of State", "Emmanuel Macron", "subject")
    assert fact.valid_at == datetime(2017, 5, 14, tzinfo=UTC) and fact.asserted_by == "loader"
    assert {e.name: e.type for e in result.entities} == {"France": "Place", "Emmanuel Macron": "Person"}
