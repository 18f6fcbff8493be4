"""The LLM path on real Neo4j with the wire-format server as the only double: the production pipeline
(build_pipeline) with its cache, roster and summary context, adjudication, and the usage a job records."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from strata.graph import Graph
from strata.ingest.sources import parse_source_text
from strata.ingest.submit import episode_info, submit_document
from strata.ingest.tasks import build_pipeline
from strata.ingest.testing import openai_server as wire
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration

SESSIONS = {"sessions": [
    {"date": "2024-03-01", "session_id": "s1", "messages": [
        {"speaker": "Maya", "text": "I moved to Berlin in June. I work at Northwind now."},
        {"speaker": "Tom", "text": "Congratulations! Berlin suits you."}]},
    {"date": "2024-03-08", "session_id": "s2", "messages": [
        {"speaker": "Tom", "text": "How is the new job going, Maya?"},
        {"speaker": "Maya", "text": "She is great, my boss Ann Archer. We had lunch by the Spree."}]},
]}
ENTITIES = {  # what the scripted model "finds" in each session, by a word only that session holds
    "June": [("Maya", "Person"), ("Berlin", "Place"), ("Northwind", "Organization"), ("Tom", "Person")],
    "lunch": [("Maya", "Person"), ("Tom", "Person"), ("Ann Archer", "Person"), ("Spree", "Place")],
}
SUMMARIES = {"June": "Maya moved to Berlin and works at Northwind.",
             "lunch": "Maya moved to Berlin; her boss at Northwind is Ann Archer."}


def extraction_reply(body: dict[str, Any]) -> Any:
    """A deterministic model: entities and a summary by session, one note quoting the first line; an entity's
    summary from its first statement."""
    if body["response_format"]["json_schema"]["name"] == "summary":
        return wire.Reply.json({"summary": body["messages"][1]["content"].split("\n")[2].split(". ", 1)[1]})
    if body["response_format"]["json_schema"]["name"] != "strata_extraction":
        return wire.Reply.json({"decisions": []})
    episode = body["messages"][1]["content"].split("Episode (chat):\n", 1)[1]
    word = next(w for w in ENTITIES if w in episode)
    first_line = episode.split("\n")[0].split(": ", 1)[1]
    return wire.Reply.json({
        "entities": [{"name": n, "type": t, "aliases": [], "description": ""} for n, t in ENTITIES[word]],
        "facts": [], "summary": SUMMARIES[word],
        "notes": [{"text": f"Said: {first_line}", "entities": [ENTITIES[word][0][0]], "evidence": first_line,
                   "valid_at": None}]})


@pytest.fixture
def server() -> Iterator[Any]:
    with wire.OpenAIServer(chat_default=extraction_reply) as s:
        yield s


@pytest.fixture
def llm_settings(settings: Settings, server: Any, tmp_path: Path) -> Settings:
    return settings.model_copy(update={
        "extractor": "llm", "embedder": "hash", "llm_base_url": server.base_url, "llm_api_key": None,
        "llm_model": "wire-test", "llm_max_retries": 1, "llm_cache": "directory", "llm_cache_dir": tmp_path / "llm"})


@pytest.fixture
def second_group(graph: Graph) -> Iterator[str]:
    gid = f"test-{uuid.uuid4().hex[:10]}"
    yield gid
    graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=gid)


def _doc(group_id: str) -> Any:
    return parse_source_text(json.dumps(SESSIONS), "sessions-json", name="two-sessions.json", group_id=group_id)


def _chat_requests(server: Any) -> list[Any]:
    return [r for r in server.requests_to("chat/completions")
            if r.body["response_format"]["json_schema"]["name"] == "strata_extraction"]


def test_roster_and_running_summary_reach_the_next_episode(graph: Graph, llm_settings: Settings, server: Any,
                                                           group_id: str) -> None:
    info = submit_document(graph, None, _doc(group_id), inline_pipeline=build_pipeline(llm_settings, graph))
    assert (info.status, info.done) == ("done", 2), episode_info(graph, _doc(group_id).episodes[0].uuid)["error"]
    first, second = (r.body["messages"][1]["content"] for r in _chat_requests(server))
    assert "Known entities (name | type | aliases):\n(none)" in first and "(start of source)" in first
    roster = second.split("Known entities (name | type | aliases):\n", 1)[1].split("\nSummary so far:", 1)[0]
    # the first episode's entities as committed to the graph, then its running summary
    assert {line.split(" | ")[0] for line in roster.splitlines()} == {"Maya", "Berlin", "Northwind", "Tom"}
    assert re.search(r"^Berlin \| Place$", roster, re.MULTILINE)
    assert f"Summary so far: {SUMMARIES['June']}\n" in second
    assert "Reference time: 2024-03-08" in second and "June" not in second.split("Episode (chat):", 1)[1]
    # the model's notes are stored like the offline path's: about the entity, said by the speaker, spanned
    notes = graph.query("MATCH (n:Note {group_id: $g})-[:ABOUT]->(x:Entity) MATCH (e:Episode {uuid: n.episode_uuid}) "
                        "RETURN n.text AS text, x.name AS about, n.speaker AS speaker, "
                        "substring(e.content, n.start, n.end - n.start) AS quoted ORDER BY text", g=group_id)
    assert [(n["about"], n["speaker"]) for n in notes] == [("Maya", "Tom"), ("Maya", "Maya")]
    assert notes[1]["quoted"] == "I moved to Berlin in June. I work at Northwind now."


def test_reingest_costs_no_llm_call_and_usage_is_recorded(graph: Graph, llm_settings: Settings, server: Any,
                                                          group_id: str, second_group: str) -> None:
    first = submit_document(graph, None, _doc(group_id), inline_pipeline=build_pipeline(llm_settings, graph))
    calls = server.requests_to("chat/completions")
    assert first.status == "done" and len(_chat_requests(server)) == 2
    u = first.llm
    assert u.extraction_calls == 2
    assert u.calls == len(calls) == u.extraction_calls + u.adjudication_calls + u.summary_calls
    # Maya's summary after the first session (its note), then once more when the job ends (the second note)
    assert u.summary_calls == 2
    assert u.prompt_tokens == sum(r.prompt_tokens for r in calls) > 0
    assert u.completion_tokens > 0 and u.cache_hits == 0
    per_episode = [episode_info(graph, e.uuid)["llm"] for e in _doc(group_id).episodes]
    assert [e["extraction_calls"] for e in per_episode] == [1, 1]
    assert sum(e["prompt_tokens"] for e in per_episode) == u.prompt_tokens

    # the same sessions into another group, by a fresh pipeline (another worker): answered from the cache
    again = submit_document(graph, None, _doc(second_group), inline_pipeline=build_pipeline(llm_settings, graph))
    assert len(server.requests_to("chat/completions")) == len(calls)
    assert again.status == "done" and again.duplicate_of is None
    assert (again.llm.calls, again.llm.prompt_tokens, again.llm.cache_hits) == \
        (0, 0, 2 + u.adjudication_calls + u.summary_calls)
    names = "MATCH (e:Entity {group_id: $g}) RETURN e.name AS n ORDER BY n"
    assert graph.query(names, g=second_group) == graph.query(names, g=group_id)
    notes = episode_info(graph, _doc(second_group).episodes[1].uuid)
    assert notes["status"] == "done" and notes["llm"]["cache_hits"] >= 1


def test_ambiguous_mentions_are_adjudicated_and_counted(graph: Graph, llm_settings: Settings, server: Any,
                                                        group_id: str) -> None:
    text = {"sessions": [
        {"date": "2024-01-01", "messages": [
            {"speaker": "Narrator", "text": "Fitzwilliam Darcy met Georgiana Darcy at Pemberley."}]},
        {"date": "2024-01-02", "messages": [{"speaker": "Narrator", "text": "Darcy smiled at Elizabeth."}]}]}
    replies = [
        {"entities": [{"name": "Fitzwilliam Darcy", "type": "Person", "aliases": [], "description": ""},
                      {"name": "Georgiana Darcy", "type": "Person", "aliases": [], "description": ""},
                      {"name": "Pemberley", "type": "Place", "aliases": [], "description": ""}],
         "facts": [], "notes": [], "summary": "The Darcys at Pemberley."},
        {"entities": [{"name": "Darcy", "type": "Person", "aliases": [], "description": ""},
                      {"name": "Elizabeth", "type": "Person", "aliases": [], "description": ""}],
         "facts": [], "notes": [], "summary": "Darcy smiled."}]
    server.chat(*(wire.Reply.json(r) for r in replies))
    server.chat(wire.Reply.json({"decisions": [{"case": 0, "candidate": None}]}))
    doc = parse_source_text(json.dumps(text), "sessions-json", name="darcy.json", group_id=group_id)
    info = submit_document(graph, None, doc, inline_pipeline=build_pipeline(llm_settings, graph))
    adjudications = [r for r in server.requests_to("chat/completions")
                     if r.body["response_format"]["json_schema"]["name"] == "entity_adjudication"]
    assert info.status == "done" and len(adjudications) == 1
    schema = adjudications[0].body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["decisions"]["maxItems"] >= 1  # bounded by the number of cases
    assert (info.llm.extraction_calls, info.llm.adjudication_calls, info.llm.calls) == (2, 1, 3)
    assert info.llm.prompt_tokens == sum(r.prompt_tokens for r in server.requests_to("chat/completions"))
    second = episode_info(graph, doc.episodes[1].uuid)["llm"]
    assert second["adjudication_calls"] == 1 and second["calls"] == 2


def test_a_failed_episode_keeps_what_it_cost(graph: Graph, llm_settings: Settings, server: Any,
                                             group_id: str) -> None:
    server.chat(wire.Reply.text("not json"), wire.Reply.text("still not json"))
    doc = parse_source_text(json.dumps({"sessions": SESSIONS["sessions"][:1]}), "sessions-json", name="one.json",
                            group_id=group_id)
    info = submit_document(graph, None, doc, inline_pipeline=build_pipeline(llm_settings, graph))
    assert (info.status, info.failed) == ("failed", 1)
    assert (info.llm.calls, info.llm.extraction_calls) == (2, 2) and info.llm.prompt_tokens > 0
    assert "extraction_failed" in episode_info(graph, doc.episodes[0].uuid)["error"]
    assert len(server.requests_to("chat/completions")) == 2  # failed visibly: not retried into more calls


def test_usage_shown_by_jobs_show_and_the_api(graph: Graph, llm_settings: Settings, server: Any, group_id: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from strata.api.app import create_app
    from strata.api.cli import app

    info = submit_document(graph, None, _doc(group_id), inline_pipeline=build_pipeline(llm_settings, graph))
    monkeypatch.setenv("STRATA_NEO4J_URI", llm_settings.neo4j_uri)
    shown = CliRunner().invoke(app, ["jobs", "show", info.uuid])
    assert shown.exit_code == 0, shown.output
    assert f"LLM: {info.llm.calls} calls ({info.llm.extraction_calls} extraction" in shown.output
    assert f"{info.llm.prompt_tokens:,} prompt" in shown.output
    as_json = json.loads(CliRunner().invoke(app, ["jobs", "show", info.uuid, "--json"]).output)
    assert as_json["llm"] == info.llm.model_dump()
    api_settings = llm_settings.model_copy(update={"auth_disabled": True})
    with TestClient(create_app(api_settings, inline=True)) as client:
        body = client.get(f"/v1/jobs/{info.uuid}").json()
        episode = client.get(f"/v1/episodes/{_doc(group_id).episodes[0].uuid}").json()
    assert body["llm"] == info.llm.model_dump() and body["llm"]["extraction_calls"] == 2
    assert episode["llm"]["extraction_calls"] == 1 and episode["llm"]["prompt_tokens"] > 0


def test_estimate_prints_calls_and_tokens_and_submits_nothing(graph: Graph, llm_settings: Settings, server: Any,
                                                              group_id: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from strata.api.cli import app
    from strata.ingest.estimate import count_tokens

    path = tmp_path / "two-sessions.json"
    path.write_text(json.dumps(SESSIONS))
    env = {"STRATA_NEO4J_URI": llm_settings.neo4j_uri, "STRATA_EXTRACTOR": "llm", "STRATA_LLM_MODEL": "wire-test",
           "STRATA_LLM_CACHE_DIR": str(llm_settings.llm_cache_dir)}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    cmd = ["ingest", str(path), "--group", group_id, "--format", "sessions-json", "--estimate"]
    result = CliRunner().invoke(app, cmd)
    assert result.exit_code == 0, result.output
    assert "episodes: 2" in result.output and "2 extraction (0 of 2 episodes already in the LLM cache)" in result.output
    tokens = int(re.search(r"prompt tokens: ~([\d,]+)", result.output).group(1).replace(",", ""))
    assert tokens > 2 * count_tokens(["You extract a temporal knowledge graph"])[0]
    assert graph.query("MATCH (n {group_id: $g}) RETURN count(n) AS n", g=group_id)[0]["n"] == 0
    assert server.requests == []

    # once ingested, the same file is estimated as answered from the cache
    submit_document(graph, None, _doc(group_id), inline_pipeline=build_pipeline(llm_settings, graph))
    again = CliRunner().invoke(app, cmd)
    assert "0 extraction (2 of 2 episodes already in the LLM cache)" in again.output
    assert "prompt tokens: ~0" in again.output


def test_cache_backends_from_settings(settings: Settings, tmp_path: Path) -> None:
    import redis

    from strata.ingest.extractors.cache import DirectoryCache, RedisCache, make_cache

    assert make_cache(settings.model_copy(update={"llm_cache": "off"})) is None
    folder = make_cache(settings.model_copy(update={"llm_cache_dir": None, "cache_dir": tmp_path}))
    assert isinstance(folder, DirectoryCache) and folder.root == tmp_path / "llm-extractions"
    shared = make_cache(settings.model_copy(update={"llm_cache": "redis", "llm_cache_ttl_s": 60}))
    assert isinstance(shared, RedisCache)
    key = f"test-{uuid.uuid4().hex}"
    shared.set(key, {"answer": [1, 2]})
    assert shared.get(key) == {"answer": [1, 2]} and shared.get(key + "x") is None
    client = redis.Redis.from_url(settings.redis_url)
    assert 0 < client.ttl(shared.prefix + key) <= 60
    client.delete(shared.prefix + key)
    # a cache that cannot be reached or written is a miss, never a failed episode
    away = RedisCache.from_url("redis://127.0.0.1:1/0", 60)
    away.set(key, {"a": 1})
    assert away.get(key) is None
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    DirectoryCache(blocked).set(key, {"a": 1})
    assert DirectoryCache(blocked).get(key) is None
