"""Purge removes what it purges: a canary (invented words) ingested beside episodes that share its entities, then
purged over REST, is found nowhere in the database afterwards (every string property of every node and
relationship, every full-text index, the nearest neighbours of its embedding in every vector index), while what
the kept episodes support stays."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from strata.graph import Graph

pytestmark = pytest.mark.integration

WORDS = ["Vrellnox", "Quaddibar", "Zorplewick", "Glimmerquist", "Quenbrook"]
KEPT = {"source": "chat-kept", "messages": [
    {"speaker": "Maya", "text": "I started working at Acme Corp in Berlin last week.",
     "timestamp": "2024-03-01T10:00:00Z"},
    {"speaker": "Tom", "text": "Congratulations Maya! My sister Lena lives in Berlin too.",
     "timestamp": "2024-03-01T10:01:00Z"}]}
CANARY = {"source": "chat-canary", "messages": [
    {"speaker": "Maya", "text": "I moved to Vrellnox with my friend Quaddibar Zorplewick last month.",
     "timestamp": "2024-03-02T10:00:00Z"},
    {"speaker": "Tom", "text": "Maya Quenbrook, did Quaddibar Zorplewick bring his dog named Glimmerquist?",
     "timestamp": "2024-03-02T10:01:00Z"},
    {"speaker": "Maya", "text": "Yes, and Glimmerquist loves the Vrellnox harbour.",
     "timestamp": "2024-03-02T10:02:00Z"}]}

# Every string and list-of-strings value of every node and relationship in the database that holds a word.
SCAN = """
CALL () {
  MATCH (n) UNWIND keys(n) AS k
  WITH n, k, n[k] AS v
  WITH n, k, CASE WHEN v IS :: STRING THEN [v] WHEN v IS :: LIST<STRING NOT NULL> THEN v ELSE [] END AS vs
  UNWIND vs AS x
  WITH n, k, x WHERE any(w IN $words WHERE toLower(x) CONTAINS toLower(w))
  RETURN labels(n)[0] + '.' + k AS at, x
  UNION ALL
  MATCH ()-[n]->() UNWIND keys(n) AS k
  WITH n, k, n[k] AS v
  WITH n, k, CASE WHEN v IS :: STRING THEN [v] WHEN v IS :: LIST<STRING NOT NULL> THEN v ELSE [] END AS vs
  UNWIND vs AS x
  WITH n, k, x WHERE any(w IN $words WHERE toLower(x) CONTAINS toLower(w))
  RETURN type(n) + '.' + k AS at, x
}
RETURN at, x
"""


def scan(graph: Graph, words: list[str]) -> list[tuple[str, str]]:
    return [(r["at"], r["x"]) for r in graph.query(SCAN, words=words)]


def fulltext_hits(graph: Graph, words: list[str]) -> list[tuple[str, Any]]:
    hits = []
    for index in graph.query("SHOW FULLTEXT INDEXES YIELD name, entityType RETURN name, entityType"):
        node = index["entityType"] == "NODE"
        call, key = ("db.index.fulltext.queryNodes", "node") if node else ("db.index.fulltext.queryRelationships",
                                                                          "relationship")
        for word in words:
            rows = graph.query(f"CALL {call}($name, $q) YIELD {key} AS hit RETURN elementId(hit) AS id",
                               name=index["name"], q=word)
            hits += [(index["name"], r["id"]) for r in rows]
    return hits


def nearest(graph: Graph, vector: list[float], k: int = 25) -> set[str]:
    """The uuids of the k nearest items of every vector index."""
    found: set[str] = set()
    for index in graph.query("SHOW VECTOR INDEXES YIELD name, entityType RETURN name, entityType"):
        node = index["entityType"] == "NODE"
        call, key = ("db.index.vector.queryNodes", "node") if node else ("db.index.vector.queryRelationships",
                                                                        "relationship")
        rows = graph.query(f"CALL {call}($name, $k, $v) YIELD {key} AS hit RETURN hit.uuid AS uuid",
                           name=index["name"], k=k, v=vector)
        found |= {r["uuid"] for r in rows}
    return found


def derived_from(graph: Graph, episode: str) -> set[str]:
    """What only the episode gave the graph: its passages and notes, the facts only it states, the entities
    only it mentions."""
    rows = graph.query("""
        MATCH (ep:Episode {uuid: $ep})
        CALL (ep) { MATCH (ep)-[:HAS_PASSAGE]->(p) RETURN p.uuid AS uuid
                    UNION MATCH (n:Note {episode_uuid: ep.uuid}) RETURN n.uuid AS uuid
                    UNION MATCH ()-[r:RELATES_TO]->() WHERE r.episodes = [ep.uuid] RETURN r.uuid AS uuid
                    UNION MATCH (ep)-[:MENTIONS]->(e) WHERE COUNT { (:Episode)-[:MENTIONS]->(e) } = 1
                          RETURN e.uuid AS uuid }
        RETURN uuid""", ep=episode)
    return {r["uuid"] for r in rows}


def post(client, group: str, headers: dict, body: dict) -> str:
    r = client.post(f"/v1/groups/{group}/episodes", headers=headers, json=body)
    assert r.status_code == 202, r.text
    assert client.get(f"/v1/jobs/{r.json()['job_id']}", headers=headers).json()["status"] == "done"
    return r.json()["episode_uuid"]


def facts(client, group: str, headers: dict, **params: Any) -> list[dict]:
    r = client.get(f"/v1/groups/{group}/facts", headers=headers, params={"limit": 1000, **params})
    assert r.status_code == 200, r.text
    return r.json()["items"]


def embed(client, texts: list[str]) -> list[list[float]]:
    return client.app.state.runtime.embed(texts)


def assert_gone(client, graph: Graph, words: list[str], derived: set[str], texts: list[str]) -> None:
    assert scan(graph, words) == []
    assert fulltext_hits(graph, words) == []
    for vector in embed(client, texts + words):
        assert not nearest(graph, vector) & derived


def test_purging_an_episode_removes_what_only_it_gave(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    kept = post(client, group_id, h, KEPT)
    canary = post(client, group_id, h, CANARY)
    kept_facts = {f["uuid"] for f in facts(client, group_id, h) if kept in f["episodes"]}
    assert len(kept_facts) >= 2
    derived = derived_from(graph, canary)
    texts = [m["text"] for m in CANARY["messages"]]
    # the checks can fail: before the purge the canary is everywhere
    assert {at for at, _ in scan(graph, WORDS)} >= {"Episode.content", "Passage.text", "Entity.name",
                                                    "RELATES_TO.fact", "Note.text"}
    assert fulltext_hits(graph, WORDS)
    assert nearest(graph, embed(client, texts[:1])[0]) & derived
    network = client.get(f"/v1/groups/{group_id}/network", headers=h).json()["interactions"]
    assert {(i["a_name"], i["b_name"], i["scenes"]) for i in network} >= {("Tom", "Maya", 2)} or \
        {(i["b_name"], i["a_name"], i["scenes"]) for i in network} >= {("Tom", "Maya", 2)}

    r = client.delete(f"/v1/episodes/{canary}", headers=h, params={"purge": "true"})
    assert r.status_code == 200, r.text
    purged = r.json()["purged"]
    assert purged["scope"] == "episode" and purged["episodes"] == 1
    assert purged["facts_deleted"] >= 3 and purged["entities_deleted"] >= 3 and purged["passages"] == 3

    assert_gone(client, graph, WORDS, derived, texts)
    # what the kept episode supports stands
    assert client.get(f"/v1/episodes/{canary}", headers=h).status_code == 404
    assert client.get(f"/v1/episodes/{kept}", headers=h).json()["status"] == "done"
    assert {f["uuid"] for f in facts(client, group_id, h)} == kept_facts
    maya = client.get(f"/v1/groups/{group_id}/entities", headers=h, params={"name": "Maya"}).json()["candidates"]
    assert maya and maya[0]["name"] == "Maya"
    network = client.get(f"/v1/groups/{group_id}/network", headers=h).json()["interactions"]
    assert all(i["scenes"] == 1 for i in network) and network
    hits = client.get(f"/v1/groups/{group_id}/search", headers=h, params={"q": "Acme Corp Berlin"}).json()["hits"]
    assert hits
    # an audit record without content
    record = graph.query("MATCH (p:PurgeRecord {group_id: $g}) RETURN properties(p) AS p", g=group_id)
    assert len(record) == 1
    audit = record[0]["p"]
    assert audit["scope"] == "episode" and audit["target"] == canary and audit["episode_uuids"] == [canary]
    assert audit["key_id"] == h["Authorization"].split("_")[1] and audit["facts_deleted"] == purged["facts_deleted"]


FACT = {"subject": "Maya", "subject_type": "Person", "predicate": "lives_in", "object": "Berlin",
        "object_type": "Place", "valid_at": "2024-01-01T00:00:00Z"}


def test_a_fact_a_kept_episode_also_states_stays_with_its_words(client, graph, group_id, make_key) -> None:
    canary_key, kept_key = make_key([group_id], "rw"), make_key([group_id], "rw")
    canary = post(client, group_id, canary_key, {"agent": "canary-agent", "facts": [
        {**FACT, "fact": "Maya lives in Berlin near the Vrellnox Quaddibar"},
        {**FACT, "predicate": "likes", "object": "Zorplewick", "object_type": "Concept"}]})
    kept = post(client, group_id, kept_key,
                {"agent": "kept-agent", "facts": [{**FACT, "fact": "Maya lives in Berlin"}]})
    [shared] = facts(client, group_id, kept_key, predicate="lives_in")
    assert shared["fact"] == "Maya lives in Berlin near the Vrellnox Quaddibar"
    assert sorted(shared["episodes"]) == sorted([canary, kept]) and len(shared["asserted_by"]) == 2
    derived = derived_from(graph, canary)

    r = client.delete(f"/v1/episodes/{canary}", headers=canary_key, params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert r.json()["purged"]["facts_updated"] == 1

    [after] = facts(client, group_id, kept_key, predicate="lives_in")
    assert after["uuid"] == shared["uuid"] and after["fact"] == "Maya lives in Berlin"
    assert after["episodes"] == [kept] and all(e.startswith(kept) for e in after["evidence"])
    assert after["asserted_by"] == ["kept-agent"]
    assert facts(client, group_id, kept_key, predicate="likes") == []
    # the sentence's vector is the kept sentence's
    [row] = graph.query("""MATCH ()-[r:RELATES_TO {uuid: $u}]->()
                           RETURN vector.similarity.cosine(r.fact_embedding, $v) AS c""",
                        u=shared["uuid"], v=embed(client, ["Maya lives in Berlin"])[0])
    assert row["c"] > 0.999
    assert_gone(client, graph, WORDS, derived, ["Maya lives in Berlin near the Vrellnox Quaddibar"])


def test_an_episode_retracted_earlier_is_purged_as_well(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    kept = post(client, group_id, h, KEPT)
    canary = post(client, group_id, h, CANARY)
    derived = derived_from(graph, canary)
    assert client.delete(f"/v1/episodes/{canary}", headers=h).status_code == 200
    assert scan(graph, WORDS)  # retraction keeps history
    r = client.delete(f"/v1/episodes/{canary}", headers=h, params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert_gone(client, graph, WORDS, derived, [m["text"] for m in CANARY["messages"]])
    assert client.get(f"/v1/episodes/{kept}", headers=h).json()["status"] == "done"
    # posted again after the purge, it is a new episode that is processed
    assert post(client, group_id, h, CANARY) == canary
    assert scan(graph, WORDS)


BOOK_KEPT = (b"CHAPTER I\n\nElizabeth Bennet walked to Netherfield with Jane Bennet.\n\n"
             b'"The fields are muddy," said Elizabeth to Jane.\n')
BOOK_CANARY = (b"CHAPTER I\n\nElizabeth Bennet met Quaddibar Zorplewick at Vrellnox Hall.\n\n"
               b'"Glimmerquist is a fine horse," said Quaddibar Zorplewick to Elizabeth.\n\n'
               b'"Vrellnox is lovely," said Elizabeth.\n')


def test_purging_a_source_removes_its_episodes_quotes_and_job(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")

    def upload(name: str, data: bytes) -> dict:
        r = client.post(f"/v1/groups/{group_id}/sources", headers=h, data={"format": "book", "name": name},
                        files={"file": (f"{name}.txt", data, "text/plain")})
        assert r.status_code == 202, r.text
        return r.json()

    upload("kept", BOOK_KEPT)
    kept_quotes = client.get(f"/v1/groups/{group_id}/quotes", headers=h).json()["count"]
    canary = upload("canary", BOOK_CANARY)
    assert client.get(f"/v1/groups/{group_id}/quotes", headers=h).json()["count"] >= kept_quotes + 2
    episodes = [r["uuid"] for r in graph.query("MATCH (e:Episode {source_uuid: $s}) RETURN e.uuid AS uuid",
                                               s=canary["source_uuid"])]
    derived = set().union(*(derived_from(graph, e) for e in episodes))
    kept_facts = {f["uuid"] for f in facts(client, group_id, h)} - {
        f["uuid"] for f in facts(client, group_id, h) if set(f["episodes"]) <= set(episodes)}

    r = client.delete(f"/v1/sources/{canary['source_uuid']}", headers=h, params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert r.json()["purged"]["scope"] == "source" and r.json()["purged"]["quotes"] >= 2

    assert_gone(client, graph, WORDS, derived, [BOOK_CANARY.decode()])
    assert graph.query("MATCH (n) WHERE n.uuid IN [$s, $j] RETURN n", s=canary["source_uuid"], j=canary["uuid"]) == []
    assert client.get(f"/v1/groups/{group_id}/quotes", headers=h).json()["count"] == kept_quotes
    assert {f["uuid"] for f in facts(client, group_id, h)} == kept_facts
    # the same file uploaded again is a new source, ingested again
    again = upload("canary", BOOK_CANARY)
    assert again["duplicate_of"] is None and again["done"] == again["total"]


def test_purging_a_group_needs_the_write_right_and_leaves_only_the_audit(client, graph, make_key) -> None:
    group = f"test-{uuid.uuid4().hex[:10]}"
    try:
        h, reader = make_key([group], "rw"), make_key([group], "r")
        post(client, group, h, KEPT)
        post(client, group, h, CANARY)
        assert client.delete(f"/v1/groups/{group}", headers=reader, params={"purge": "true"}).status_code == 403
        assert client.delete(f"/v1/groups/{group}", headers=h).status_code == 422  # purge=true is required
        assert client.delete(f"/v1/groups/{group}", headers=h, params={"purge": "false"}).status_code == 400
        r = client.delete(f"/v1/groups/{group}", headers=h, params={"purge": "true"})
        assert r.status_code == 200, r.text
        assert r.json()["scope"] == "group" and r.json()["episodes"] == 2 and r.json()["entities_deleted"] >= 6
        left = graph.query("MATCH (n {group_id: $g}) RETURN labels(n) AS labels", g=group)
        assert left == [{"labels": ["PurgeRecord"]}]
        assert graph.query("MATCH ()-[r {group_id: $g}]->() RETURN count(r) AS n", g=group) == [{"n": 0}]
        assert scan(graph, WORDS) == []
        assert client.get(f"/v1/groups/{group}/facts", headers=h).json()["count"] == 0
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)


def test_an_entity_named_only_by_the_purge_takes_its_remaining_name(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    canary = post(client, group_id, h, {"source": "chat-canary", "messages": [
        {"speaker": "Tom", "text": "I had lunch with Maya Quenbrook at the Vrellnox harbour.",
         "timestamp": "2024-02-02T10:00:00Z"}]})
    post(client, group_id, h, KEPT)
    [maya] = client.get(f"/v1/groups/{group_id}/entities", headers=h, params={"name": "Maya"}).json()["candidates"][:1]
    assert maya["name"] == "Maya Quenbrook" and "Maya" in maya["aliases"]
    derived = derived_from(graph, canary)

    r = client.delete(f"/v1/episodes/{canary}", headers=h, params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert r.json()["purged"]["entities_updated"] >= 1
    after = client.get(f"/v1/entities/{maya['uuid']}", headers=h).json()
    assert (after["name"], after["aliases"]) == ("Maya", ["Maya"])
    [row] = graph.query("""MATCH (e:Entity {uuid: $u})
                           RETURN e.key AS key, vector.similarity.cosine(e.name_embedding, $v) AS c""",
                        u=maya["uuid"], v=embed(client, ["Maya"])[0])
    assert row["key"] == "person:maya" and row["c"] > 0.999
    assert_gone(client, graph, WORDS, derived, ["I had lunch with Maya Quenbrook at the Vrellnox harbour."])


# What a retraction left before retractions kept their links: no mention of any kind, no statements.
LEGACY_RETRACTION = """
MATCH (ep:Episode {uuid: $ep}) SET ep.status = 'retracted', ep.retracted_at = datetime()
WITH ep
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = ep.group_id
SET r.episodes = [x IN r.episodes WHERE x <> ep.uuid],
    r.evidence = [x IN r.evidence WHERE NOT x STARTS WITH ep.uuid + ':'],
    r.expired_at = CASE WHEN size(r.episodes) = 1 AND r.episodes[0] = ep.uuid THEN datetime() ELSE r.expired_at END
REMOVE r.statement_episodes, r.statements, r.statement_speakers
WITH DISTINCT ep
MATCH (ep)-[m:MENTIONS]->(e:Entity)
DELETE m
WITH DISTINCT e WHERE NOT EXISTS { (:Episode)-[:MENTIONS]->(e) }
SET e.expired_at = datetime()
"""


def test_an_episode_retracted_before_retractions_kept_links(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    kept = post(client, group_id, h, KEPT)
    canary = post(client, group_id, h, CANARY)
    kept_facts = {f["uuid"] for f in facts(client, group_id, h) if kept in f["episodes"]}
    derived = derived_from(graph, canary)
    graph.query(LEGACY_RETRACTION, ep=canary)
    r = client.delete(f"/v1/episodes/{canary}", headers=h, params={"purge": "true"})
    assert r.status_code == 200, r.text
    assert_gone(client, graph, WORDS, derived, [m["text"] for m in CANARY["messages"]])
    assert {f["uuid"] for f in facts(client, group_id, h)} == kept_facts


def test_an_episode_being_processed_is_not_purged(client, graph, group_id, make_key) -> None:
    h = make_key([group_id], "rw")
    canary = post(client, group_id, h, CANARY)
    graph.query("MATCH (ep:Episode {uuid: $ep}) SET ep.status = 'processing'", ep=canary)
    r = client.delete(f"/v1/episodes/{canary}", headers=h, params={"purge": "true"})
    assert r.status_code == 400 and r.json()["error"]["details"]["episodes"] == [canary]
    assert scan(graph, WORDS)


def test_the_cli_purges_an_episode_and_a_group(client, graph, settings, make_key, monkeypatch) -> None:
    import json

    from typer.testing import CliRunner

    from strata.api.cli import app

    monkeypatch.setenv("STRATA_NEO4J_URI", settings.neo4j_uri)
    group = f"test-{uuid.uuid4().hex[:10]}"
    try:
        h = make_key([group], "rw")
        kept = post(client, group, h, KEPT)
        canary = post(client, group, h, CANARY)
        derived = derived_from(graph, canary)
        assert CliRunner().invoke(app, ["purge", "episode", canary, "--group", "elsewhere"]).exit_code != 0
        done = CliRunner().invoke(app, ["purge", "episode", canary, "--group", group])
        assert done.exit_code == 0, done.output
        record = json.loads(done.output)["purged"]
        assert (record["scope"], record["target"], record["key_id"]) == ("episode", canary, "cli")
        assert_gone(client, graph, WORDS, derived, [m["text"] for m in CANARY["messages"]])
        assert client.get(f"/v1/episodes/{kept}", headers=h).json()["status"] == "done"

        assert CliRunner().invoke(app, ["purge", "group", group]).exit_code != 0  # no --yes
        done = CliRunner().invoke(app, ["purge", "group", group, "--yes"])
        assert done.exit_code == 0, done.output
        assert json.loads(done.output)["episodes"] == 1
        assert graph.query("MATCH (n {group_id: $g}) WHERE NOT n:PurgeRecord RETURN count(n) AS n", g=group) == [
            {"n": 0}]
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
