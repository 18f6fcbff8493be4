"""LLM adjudication through the real openai client against the wire-format server."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from strata.ingest.adjudicator import LLMAdjudicator
from strata.ingest.llm_client import OpenAIChatLLM, RetryPolicy
from strata.resolve.planner import MentionQuery, PlanAids, build_plan
from strata.resolve.types import CandidateEntity
from strata.schema.models import Episode, ExtractedEntity, Extraction, ExtractorInfo, Span

TEXT = "Darcy bowed to Elizabeth at Pemberley; his sister Georgiana smiled."
REF = datetime(1813, 1, 28, tzinfo=UTC)
MR_DARCY = CandidateEntity(uuid="u-mr", name="Fitzwilliam Darcy", type="Person", aliases=["Mr. Darcy"])
MISS_DARCY = CandidateEntity(uuid="u-miss", name="Georgiana Darcy", type="Person", aliases=["Miss Darcy"])


def _llm(server: Any) -> OpenAIChatLLM:
    return OpenAIChatLLM(model="m", base_url=server.base_url, api_key="k", timeout_s=2.0,
                         retry=RetryPolicy(max_retries=1, backoff_base_s=0.01, backoff_max_s=0.02))


def _episode() -> tuple[Episode, Extraction]:
    ep = Episode(uuid="ep", group_id="g", kind="text", content=TEXT, reference_time=REF, content_hash="h")
    ext = Extraction(episode_uuid="ep", extractor=ExtractorInfo(name="t"), entities=[
        ExtractedEntity(name="Darcy", type="Person", spans=[Span(start=0, end=5)])])
    return ep, ext


def _lookup(group_id: str, queries: list[MentionQuery]) -> dict[int, list[CandidateEntity]]:
    return {q.index: [MR_DARCY, MISS_DARCY] for q in queries if q.name == "Darcy"}


def test_one_call_decides_the_ambiguous_mention(openai_server: Any, wire: Any) -> None:
    # candidates are listed best first, ties by uuid: 0 = Georgiana (u-miss), 1 = Fitzwilliam (u-mr)
    openai_server.chat(wire.Reply.json({"decisions": [{"case": 0, "candidate": 1}]}))
    episode, extraction = _episode()
    plan, report = build_plan(episode, extraction, lookup=_lookup, predicates=[],
                              aids=PlanAids(adjudicator=LLMAdjudicator(_llm(openai_server))))
    assert report.ambiguous == 1 and report.adjudication_calls == 1
    assert [e.uuid for e in plan.entities] == ["u-mr"]
    assert plan.suggestions == []
    assert len(openai_server.requests) == 1
    body = openai_server.requests[0].body
    assert body["response_format"]["json_schema"]["name"] == "entity_adjudication"
    prompt = body["messages"][1]["content"]
    assert "candidate 1: Fitzwilliam Darcy (Person); also called Mr. Darcy" in prompt
    assert "candidate 0: Georgiana Darcy" in prompt
    assert "Darcy bowed to Elizabeth" in prompt


def test_none_of_them_creates_a_new_entity(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.json({"decisions": [{"case": 0, "candidate": None}]}))
    episode, extraction = _episode()
    plan, report = build_plan(episode, extraction, lookup=_lookup, predicates=[],
                              aids=PlanAids(adjudicator=LLMAdjudicator(_llm(openai_server))))
    assert [e.uuid for e in plan.entities] not in (["u-mr"], ["u-miss"])
    assert {s.candidate_uuid for s in plan.suggestions} == {"u-mr", "u-miss"}


def test_a_broken_answer_falls_back_to_suggestions(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.text("I think it is Mr. Darcy"), wire.Reply.text("still not json"))
    episode, extraction = _episode()
    plan, report = build_plan(episode, extraction, lookup=_lookup, predicates=[],
                              aids=PlanAids(adjudicator=LLMAdjudicator(_llm(openai_server))))
    assert report.adjudication_calls == 1
    assert [e.uuid for e in plan.entities] not in (["u-mr"], ["u-miss"])
    assert {s.candidate_uuid for s in plan.suggestions} == {"u-mr", "u-miss"}


def test_out_of_range_answers_are_ignored(openai_server: Any, wire: Any) -> None:
    openai_server.chat(wire.Reply.json({"decisions": [{"case": 0, "candidate": 7}, {"case": 5, "candidate": 0}]}))
    episode, extraction = _episode()
    plan, _ = build_plan(episode, extraction, lookup=_lookup, predicates=[],
                         aids=PlanAids(adjudicator=LLMAdjudicator(_llm(openai_server))))
    assert [e.uuid for e in plan.entities] not in (["u-mr"], ["u-miss"])
