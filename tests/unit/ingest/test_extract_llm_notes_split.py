"""LLM extractor: notes, bounded arrays, and a reply cut at max_tokens (split the episode, merge the halves),
against the wire-format server."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strata.ingest.extractors import LLMExtractor
from strata.ingest.extractors.split import merge_pieces, split_episode
from strata.ingest.llm_client import OpenAIChatLLM, RetryPolicy
from strata.ingest.prompts import LLMExtractionResponse, response_schema
from strata.ingest.prompts.extraction import HARD_MAX_ITEMS, HARD_MAX_SMALL, SchemaLimits
from strata.ingest.protocols import ExtractionContext
from strata.schema.errors import ExtractionError
from strata.schema.models import Episode, ExtractedEntity, Extraction, ExtractorInfo, Message, Span

REF = datetime(2023, 5, 8, 18, tzinfo=UTC)


def chat(lines: list[tuple[str, str]]) -> Episode:
    messages, rendered, offset = [], [], 0
    for speaker, text in lines:
        line = f"{speaker}: {text}"
        messages.append(Message(speaker=speaker, text=text, start=offset, end=offset + len(line)))
        rendered.append(line)
        offset += len(line) + 1
    return Episode(uuid="ep-chat", group_id="g", kind="chat", content="\n".join(rendered), reference_time=REF,
                   content_hash="h", messages=messages, speakers=list(dict.fromkeys(s for s, _ in lines)))


def text_episode(content: str) -> Episode:
    return Episode(uuid="ep-text", group_id="g", kind="text", content=content, reference_time=REF, content_hash="h")


def llm(server: Any, **kw: Any) -> OpenAIChatLLM:
    return OpenAIChatLLM(**{**dict(model="m", base_url=server.base_url, api_key="k", timeout_s=5.0,
                                   retry=RetryPolicy(max_retries=1, backoff_base_s=0.01, backoff_max_s=0.02)), **kw})


def entity(name: str, type_: str = "Person") -> dict[str, Any]:
    return {"name": name, "type": type_, "aliases": [], "description": ""}


def reply(entities: list[dict[str, Any]], notes: list[dict[str, Any]] = (), summary: str = "",
          facts: list[dict[str, Any]] = ()) -> dict[str, Any]:
    return {"entities": entities, "facts": list(facts), "notes": list(notes), "summary": summary}


def note(text: str, entities: list[str], evidence: str, valid_at: str | None = None) -> dict[str, Any]:
    return {"text": text, "entities": entities, "evidence": evidence, "valid_at": valid_at}


def user_message(server: Any, i: int) -> str:
    return server.requests[i].body["messages"][1]["content"]


TOM = chat([("Tom", "My sister Sofia got married to Luis last year."),
            ("Tom", "I went to the climbing gym yesterday."),
            ("Maya", "Nice! I moved to Berlin in June.")])


def test_notes_become_extracted_notes_with_spans_speakers_and_dates(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.json(reply(
        [entity("Tom"), entity("Sofia"), entity("Luis")],
        notes=[note("On 7 May 2023 Tom went to the climbing gym.", ["Tom", "climbing gym", "Nobody"],
                    "I went to the climbing gym yesterday", "2023-05-07"),
               note("Maya moved to Berlin in June 2023.", ["Maya", "Berlin"], "I moved to Berlin in June"),
               note("Maya moved to Berlin in June 2023.", ["Maya"], "I moved to Berlin in June"),  # repeated
               note("Sofia married Luis in 2022.", ["Sofia", "Luis"], "a quote that is not there at all", "2022")])))
    result = LLMExtractor(llm(openai_server)).extract(TOM, ExtractionContext())

    gym, berlin, wedding = result.notes
    assert gym.text == "On 7 May 2023 Tom went to the climbing gym."
    assert TOM.content[gym.spans[0].start:gym.spans[0].end] == "I went to the climbing gym yesterday"
    assert gym.asserted_by == "Tom" and gym.valid_at == datetime(2023, 5, 7, tzinfo=UTC)
    # names the text holds become entities; a name it does not hold is dropped from the note
    assert gym.entities == ["Tom", "climbing gym"]
    assert berlin.asserted_by == "Maya" and berlin.entities == ["Maya", "Berlin"]
    assert {"climbing gym", "Maya", "Berlin"} <= {e.name for e in result.entities}
    assert wedding.spans == [] and wedding.asserted_by is None
    assert any("note evidence not found" in w for w in result.warnings)
    schema = openai_server.requests[0].body["response_format"]["json_schema"]["schema"]
    assert "notes" in schema["required"]
    assert "notes" in openai_server.requests[0].body["messages"][0]["content"]


def _arrays(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "array":
            found.append((path, node))
        for k, v in node.items():
            found += _arrays(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += _arrays(v, f"{path}/{i}")
    return found


def _strings(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        own = [node] if node.get("type") == "string" and "enum" not in node else []
        return own + [s for v in node.values() for s in _strings(v)]
    return [s for v in node for s in _strings(v)] if isinstance(node, list) else []


def test_every_array_of_the_schema_is_bounded() -> None:
    arrays = _arrays(response_schema().schema_)
    names = {p.rsplit("/", 1)[-1] for p, _ in arrays}
    assert {"entities", "facts", "notes", "aliases"} <= names
    assert all(isinstance(a.get("maxItems"), int) and a["maxItems"] > 0 for _, a in arrays), arrays
    assert not any("maxLength" in s for s in _strings(response_schema().schema_))  # off unless asked


def test_tight_limits_for_a_small_model_reach_schema_prompt_and_cache_key(openai_server: Any, wire: Any) -> None:
    limits = SchemaLimits(entities=8, facts=6, notes=4, string_chars=160)
    schema = response_schema(limits).schema_
    assert (schema["properties"]["entities"]["maxItems"], schema["properties"]["notes"]["maxItems"]) == (8, 4)
    strings = _strings(schema)
    assert strings and all(s["maxLength"] >= 160 for s in strings)
    openai_server.chat(wire.Reply.json(reply([entity("Tom")])))
    extractor = LLMExtractor(llm(openai_server), limits=limits)
    extractor.extract(TOM, ExtractionContext())
    body = openai_server.requests[0].body
    assert body["response_format"]["json_schema"]["schema"] == schema
    assert "At most 8 entities, 6 facts and 4 notes" in body["messages"][0]["content"]
    assert extractor.cache_key(TOM) != LLMExtractor(llm(openai_server)).cache_key(TOM)


def test_a_reply_over_the_bounds_is_clipped_not_rejected() -> None:
    many = reply([{**entity(f"P{i}"), "aliases": [f"a{k}" for k in range(50)]} for i in range(HARD_MAX_ITEMS + 9)])
    parsed = LLMExtractionResponse.model_validate(many)
    assert len(parsed.entities) == HARD_MAX_ITEMS and len(parsed.entities[0].aliases) == HARD_MAX_SMALL
    assert LLMExtractionResponse.model_validate({"entities": [], "facts": [], "summary": ""}).notes == []


def test_cut_chat_reply_splits_into_halves_of_the_messages(openai_server: Any, wire: Any) -> None:
    episode = chat([("Tom", "My sister Sofia got married to Luis last year."),
                    ("Maya", "Congratulations to Sofia!"),
                    ("Tom", "Thanks. I went to the climbing gym yesterday."),
                    ("Maya", "I moved to Berlin in June, Sofia knows.")])
    openai_server.chat(
        wire.Reply.truncated(json.dumps(reply([entity("Tom")] * 30))[:500]),
        wire.Reply.json(reply([entity("Tom"), entity("Sofia"), entity("Luis")], summary="Sofia married Luis.",
                              facts=[{"subject": "Sofia", "predicate": "spouse_of", "object": "Luis",
                                      "fact": "Sofia married Luis.", "valid_at": "2022", "invalid_at": None,
                                      "negated": False, "functional": "symmetric",
                                      "evidence": "Sofia got married to Luis", "asserted_by": "Tom"}])),
        wire.Reply.json(reply([entity("Tom"), entity("Maya"), entity("Berlin", "Place"), entity("Sofia")],
                              notes=[note("Maya moved to Berlin in June 2023.", ["Maya", "Berlin"],
                                          "I moved to Berlin in June")],
                              summary="Sofia married Luis; Maya lives in Berlin.")),
    )
    result = LLMExtractor(llm(openai_server)).extract(episode, ExtractionContext(summary="Friends talk."))

    assert len(openai_server.requests) == 3 and result.usage.calls == 3
    first, second = user_message(openai_server, 1), user_message(openai_server, 2)
    assert "Tom: My sister Sofia" in first and "Maya: Congratulations" in first and "Berlin" not in first
    assert "Tom: Thanks." in second and "My sister" not in second
    # the second half reads on from the first: its names on the roster, its summary as the summary so far
    assert "Sofia | Person" in second and "Luis | Person" in second and "Summary so far: Sofia married Luis." in second
    assert "Summary so far: Friends talk." in first

    names = [e.name for e in result.entities]
    assert len(names) == len(set(names)) and {"Tom", "Sofia", "Luis", "Maya", "Berlin"} <= set(names)
    sofia = next(e for e in result.entities if e.name == "Sofia")
    assert [episode.content[s.start:s.end] for s in sofia.spans] == ["Sofia"] * 3  # found in both halves
    assert [s.start for s in sofia.spans] == sorted(s.start for s in sofia.spans)
    (fact,) = result.facts
    assert episode.content[fact.spans[0].start:fact.spans[0].end] == "Sofia got married to Luis"
    (moved,) = result.notes
    assert episode.content[moved.spans[0].start:moved.spans[0].end] == "I moved to Berlin in June"
    assert moved.asserted_by == "Maya"
    assert result.summary == "Sofia married Luis; Maya lives in Berlin."
    assert any("split" in w for w in result.warnings)


def test_cut_text_reply_splits_at_a_paragraph_boundary(openai_server: Any, wire: Any) -> None:
    first = "Ann Archer was elected mayor of Avalon in 1990. She served two terms and built the harbour. " * 2
    second = "Ben Baker succeeded her in 1995. He lived in Riverside and worked at the mill for years. " * 2
    episode = text_episode(first.strip() + "\n\n" + second.strip())
    openai_server.chat(wire.Reply.truncated('{"entities": [{"name": "Ann'),
                       wire.Reply.json(reply([entity("Ann Archer"), entity("Avalon", "Place")])),
                       wire.Reply.json(reply([entity("Ben Baker"), entity("Riverside", "Place")],
                                             notes=[note("Ben Baker lived in Riverside.", ["Ben Baker", "Riverside"],
                                                         "He lived in Riverside")])))
    result = LLMExtractor(llm(openai_server)).extract(episode, ExtractionContext())
    halves = [user_message(openai_server, i).split("Episode (text):\n", 1)[1] for i in (1, 2)]
    assert halves == [first.strip() + "\n\n", second.strip()]
    by_name = {e.name: e for e in result.entities}
    for name in ("Ann Archer", "Avalon", "Ben Baker", "Riverside"):
        assert by_name[name].spans and all(episode.content[s.start:s.end] == name for s in by_name[name].spans)
    assert len(by_name["Riverside"].spans) == 2
    (lived,) = result.notes
    span = lived.spans[0]
    assert episode.content[span.start:span.end] == "He lived in Riverside" and span.start > len(first)


def test_a_piece_that_cannot_be_split_fails_visibly_with_its_cost(openai_server: Any, wire: Any) -> None:
    cut = wire.Reply.truncated('{"entities": [{"name": "Tom", "type": "Person", "aliases": [], "desc')
    openai_server.chat(cut, cut, cut)
    extractor = LLMExtractor(llm(openai_server), max_split_depth=1)
    with pytest.raises(ExtractionError, match="finish_reason=length") as info:
        extractor.extract(TOM, ExtractionContext())
    # the cut call, the first half's cut call, its one repair turn (also cut): then stop, nothing else
    assert len(openai_server.requests) == 3
    assert info.value.details["calls"] == 3 and info.value.details["completion_tokens"] > 0
    assert "after splitting the episode 1 times" in str(info.value)


def test_a_single_long_message_splits_at_a_sentence_keeping_its_speaker(openai_server: Any, wire: Any) -> None:
    text = ("I grew up in Lyon and studied there for years. " * 3 + "Then I moved to Oslo for work at Equinor. " * 3)
    episode = chat([("Ines", text.strip())])
    openai_server.chat(wire.Reply.truncated("{"),
                       wire.Reply.json(reply([entity("Lyon", "Place")])),
                       wire.Reply.json(reply([entity("Oslo", "Place")],
                                             notes=[note("Ines moved to Oslo.", ["Ines", "Oslo"],
                                                         "Then I moved to Oslo")])))
    result = LLMExtractor(llm(openai_server)).extract(episode, ExtractionContext())
    assert "Ines: I grew up in Lyon" in user_message(openai_server, 1)
    assert "Ines: Then I moved to Oslo" in user_message(openai_server, 2)
    (moved,) = result.notes
    assert moved.asserted_by == "Ines" and episode.content[moved.spans[0].start:].startswith("Then I moved to Oslo")
    assert {e.name for e in result.entities} >= {"Lyon", "Oslo", "Ines"}


def test_short_text_cannot_be_split() -> None:
    assert split_episode(text_episode("Tom went to the gym. Maya moved to Berlin.")) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                        max_size=80), min_size=1, max_size=30),
       st.sampled_from([". ", "\n\n", " ", "! "]))
def test_pieces_cover_the_content_exactly(parts: list[str], joint: str) -> None:
    episode = text_episode(joint.join(parts))
    halves = split_episode(episode)
    if halves is None:
        return
    a, b = halves
    assert a.offset == 0 and b.offset == len(a.episode.content) > 0
    assert a.episode.content + b.episode.content == episode.content
    # a span found in a piece maps back to the same text in the original
    merged = merge_pieces(episode, [(p.offset, Extraction(
        episode_uuid=episode.uuid, extractor=ExtractorInfo(name="t"),
        entities=[ExtractedEntity(name="x", spans=[Span(start=0, end=len(p.episode.content))])]))
        for p in halves], ExtractorInfo(name="t"))
    spans = merged.entities[0].spans
    assert [episode.content[s.start:s.end] for s in spans] == [a.episode.content, b.episode.content]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "Bo", "Cy"]), st.text(min_size=1, max_size=60)),
                min_size=2, max_size=12))
def test_chat_halves_keep_every_message_with_its_text(lines: list[tuple[str, str]]) -> None:
    lines = [(s, " ".join(t.split()) or "ok") for s, t in lines]
    episode = chat(lines)
    a, b = split_episode(episode)  # type: ignore[misc]
    assert [(m.speaker, m.text) for p in (a, b) for m in p.episode.messages] == lines
    for piece in (a, b):
        for m in piece.episode.messages:
            assert piece.episode.content[m.start:m.end] == f"{m.speaker}: {m.text}"
