"""The Bloom perspective on the real services: the endpoint's read right, the CLI, every saved query planned by
Neo4j, and the search phrases and scene actions run as Bloom runs them, on two groups that share names."""

from __future__ import annotations

import json
from typing import Any

import pytest
from neo4j.graph import Node, Path, Relationship
from typer.testing import CliRunner

from strata.schema.bloom import GroupBrowseSchema, build_perspective, scoped
from strata.schema.models import utcnow
from tests.e2e.test_api_flow import office
from tests.e2e.test_api_quotes import STORY
from tests.unit.schema.test_bloom_perspective import SHAPE, json_type, objects

pytestmark = pytest.mark.integration

# What a Bloom user types for each parameter.
TYPED = {"$name": "ann archer", "$other": "anna hale", "$date": "1995-06-01", "$source": "gazette",
         "$predicate": "holds_office"}


def lives(place: str, year: int) -> dict[str, Any]:
    return {"source": "chat", "facts": [
        {"subject": "Ann Archer", "subject_type": "Person", "predicate": "lives_in", "object": place,
         "object_type": "Place", "valid_at": f"{year}-01-01T00:00:00Z", "functional": "subject"}]}


@pytest.fixture
def seeded(client, group_id, other_group, make_key) -> dict[str, Any]:
    """Group A: Ann was mayor from 1990 until Bob from 2000; lived in Porto from 2005; "Lisbon from 2010" was
    said and retracted; Tom and Anna talk. Group B: another Ann Archer, mayor of Camelot, same source name."""
    h = make_key([group_id], "rw")

    def post(group: str, body: dict[str, Any], headers: dict[str, str]) -> str:
        r = client.post(f"/v1/groups/{group}/episodes", headers=headers, json=body)
        assert r.status_code == 202, r.text
        return r.json()["episode_uuid"]

    post(group_id, {**office("Ann Archer", 1990), "source": "gazette"}, h)
    post(group_id, {**office("Bob Baker", 2000), "source": "gazette"}, h)
    post(group_id, lives("Porto", 2005), h)
    lisbon = post(group_id, lives("Lisbon", 2010), h)
    assert client.delete(f"/v1/episodes/{lisbon}", headers=h).status_code == 200
    post(group_id, STORY, h)
    hb = make_key([other_group], "rw")
    camelot = {"source": "gazette", "facts": [
        {"subject": "Ann Archer", "subject_type": "Person", "predicate": "holds_office", "object": "Mayor of Camelot",
         "object_type": "Office", "valid_at": "1980-01-01T00:00:00Z", "functional": "object"}]}
    post(other_group, camelot, hb)
    return {"h": h, "hb": hb}


def perspective(client, group: str, headers: dict[str, str]) -> dict[str, Any]:
    r = client.get(f"/v1/groups/{group}/bloom-perspective", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def run(graph, cypher: str, **params: Any) -> tuple[dict[str, dict], list[dict[str, Any]]]:
    """Run a saved query as Bloom does and keep what it would draw: nodes by element id, and relationships."""
    records, _, _ = graph.driver.execute_query(cypher, params, database_=graph.database)
    nodes: dict[str, dict] = {}
    rels: dict[str, dict[str, Any]] = {}

    def take(value: Any) -> None:
        if isinstance(value, Path):
            for n in value.nodes:
                take(n)
            for r in value.relationships:
                take(r)
        elif isinstance(value, Node):
            nodes[value.element_id] = {"labels": set(value.labels), **dict(value)}
        elif isinstance(value, Relationship):
            rels[value.element_id] = {"type": value.type, "start": value.start_node.element_id,
                                      "end": value.end_node.element_id, **dict(value)}
            take(value.start_node)
            take(value.end_node)
        elif isinstance(value, list):
            for v in value:
                take(v)

    for record in records:
        for value in record.values():
            take(value)
    return nodes, list(rels.values())


def phrase(p: dict[str, Any], text: str) -> str:
    return next(t["cypher"] for t in p["templates"] if t["text"] == text)


def action(p: dict[str, Any], name: str) -> str:
    return next(a["cypher"] for a in p["sceneActions"] if a["name"] == name)


def facts(rels: list[dict[str, Any]], nodes: dict[str, dict]) -> set[tuple[str, str, str]]:
    return {(nodes[r["start"]]["name"], r["predicate"], nodes[r["end"]]["name"]) for r in rels
            if r["type"] == "RELATES_TO"}


def test_the_endpoint_needs_the_read_right(client, group_id, other_group, make_key, seeded) -> None:
    url = f"/v1/groups/{group_id}/bloom-perspective"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=make_key([other_group], "rw")).status_code == 403
    assert client.get(url, headers=make_key([group_id], "w")).status_code == 403
    body = perspective(client, group_id, make_key([group_id], "r"))
    found = objects(body)
    for kind, keys in SHAPE.items():
        for obj in found[kind]:
            assert all(k in obj and json_type(obj[k]) & set(t) for k, t in keys.items()), (kind, obj)


def test_categories_are_the_groups_entity_types(client, group_id, seeded) -> None:
    h = seeded["h"]
    types = [t["name"] for t in client.get(f"/v1/groups/{group_id}/schema", headers=h).json()["entity_types"]]
    assert {"Person", "Organization", "Place"} <= set(types)
    names = [c["name"] for c in perspective(client, group_id, h)["categories"]]
    assert names == [*[t for t in types if t != "Entity"], "Entity", "Source", "Episode", "Passage", "Note",
                     "Quote", "Community"]
    body = perspective(client, group_id, h)
    assert "Camelot" not in json.dumps(body)
    segments = {(s["source"], s["relationshipType"], s["target"]) for s in body["metadata"]["pathSegments"]}
    assert {("Person", "RELATES_TO", "Organization"), ("Person", "RELATES_TO", "Place")} <= segments


def test_every_saved_query_is_planned_by_neo4j(graph, client, group_id, seeded) -> None:
    p = perspective(client, group_id, seeded["h"])
    params = {k.lstrip("$"): v for k, v in TYPED.items()} | {"nodes": [], "relationships": []}
    queries = [t["cypher"] for t in p["templates"]] + [a["cypher"] for a in p["sceneActions"]]
    queries += [x["cypher"] for t in p["templates"] for x in t["params"] if x["cypher"]]
    assert len(queries) >= 17
    for cypher in queries:
        graph.query("EXPLAIN " + cypher, **params)  # raises on a syntax or semantic error
    # A group id no API would accept still makes a literal that reads back as itself.
    odd = "it's \\ odd"
    for t in build_perspective(GroupBrowseSchema(group_id=odd), utcnow()).to_bloom()["templates"]:
        graph.query("EXPLAIN " + t["cypher"], **params)
    assert graph.query(scoped("RETURN group_id AS g", odd))[0]["g"] == odd


def test_search_phrases_read_one_group_and_its_time(graph, client, group_id, seeded) -> None:
    p = perspective(client, group_id, seeded["h"])
    nodes, rels = run(graph, phrase(p, "facts about $name"), name="ann archer")
    assert facts(rels, nodes) == {("Ann Archer", "member_of", "Avalon Council"), ("Ann Archer", "lives_in", "Porto")}
    assert {n["group_id"] for n in nodes.values()} == {group_id}

    nodes, rels = run(graph, phrase(p, "$name as of $date"), name="Ann Archer", date="1995-06-01")
    assert ("Ann Archer", "holds_office", "Avalon") in facts(rels, nodes)  # the office: Avalon's mayor
    nodes, rels = run(graph, phrase(p, "$name as of $date"), name="Ann Archer", date="1985-01-01")
    assert facts(rels, nodes) == set()  # B's Ann was mayor of Camelot then; A's was nothing yet

    nodes, rels = run(graph, phrase(p, "timeline of $name"), name="ANN ARCHER")
    timeline = facts(rels, nodes)
    assert ("Ann Archer", "holds_office", "Avalon") in timeline  # ended, still drawn
    assert not any(o in ("Lisbon", "Camelot") for _, _, o in timeline)  # retracted; other group
    ended = [r for r in rels if r["predicate"] == "holds_office"]
    assert ended and all(r.get("invalid_at") is not None for r in ended)  # what the grey rule styles

    nodes, rels = run(graph, phrase(p, "facts from $source"), source="gazette")
    assert {o for _, _, o in facts(rels, nodes)} == {"Avalon", "Avalon Council"}
    nodes, rels = run(graph, phrase(p, "facts with predicate $predicate"), predicate="holds_office")
    assert {s for s, _, _ in facts(rels, nodes)} == {"Ann Archer", "Bob Baker"}

    nodes, rels = run(graph, phrase(p, "what did $name say"), name="tom grey")
    quotes = {n["text"] for n in nodes.values() if "Quote" in n["labels"]}
    assert quotes == {"Will you walk with me, Anna?", "Then tomorrow?"}
    nodes, rels = run(graph, phrase(p, "what did $name say to $other"), name="Anna Hale", other="Tom Grey")
    assert {n["text"] for n in nodes.values() if "Quote" in n["labels"]} == {"Not today,", "Perhaps."}

    suggest = next(x["cypher"] for t in p["templates"] for x in t["params"] if x["name"] == "$name")
    names = {r["name"] for r in graph.query(suggest)}
    assert {"Ann Archer", "Bob Baker", "Tom Grey"} <= names and "Mayor of Camelot" not in names


def test_scene_actions_on_the_selection(graph, client, group_id, other_group, seeded) -> None:
    p = perspective(client, group_id, seeded["h"])
    ann = graph.query("MATCH (e:Entity {group_id: $g, name: 'Ann Archer'}) RETURN elementId(e) AS id", g=group_id)
    other_ann = graph.query("MATCH (e:Entity {group_id: $g, name: 'Ann Archer'}) RETURN elementId(e) AS id",
                            g=other_group)
    selected = [ann[0]["id"], other_ann[0]["id"]]  # a selection cannot reach into another group
    nodes, rels = run(graph, action(p, "expand current facts"), nodes=selected)
    assert facts(rels, nodes) == {("Ann Archer", "member_of", "Avalon Council"), ("Ann Archer", "lives_in", "Porto")}

    porto = graph.query("MATCH (:Entity {group_id: $g})-[r:RELATES_TO {predicate: 'lives_in'}]->(:Entity "
                        "{name: 'Porto'}) RETURN elementId(r) AS id, r.episodes AS episodes", g=group_id)[0]
    nodes, rels = run(graph, action(p, "show history"), relationships=[porto["id"]])
    history = {(nodes[r["end"]]["name"], r.get("expired_at") is not None) for r in rels}
    assert history == {("Porto", False), ("Lisbon", True)}  # the retracted move is drawn (grey)

    nodes, rels = run(graph, action(p, "show evidence"), relationships=[porto["id"]])
    episodes = {n["uuid"] for n in nodes.values() if "Episode" in n["labels"]}
    assert episodes == set(porto["episodes"])
    mentioned = {nodes[r["end"]]["name"] for r in rels if r["type"] == "MENTIONS"}
    assert mentioned == {"Ann Archer", "Porto"}
    said = [nodes[r["end"]]["text"] for r in rels if r["type"] == "HAS_PASSAGE"]  # the span the fact cites
    assert said and all("Porto" in text for text in said), said

    nodes, rels = run(graph, action(p, "show full history"), nodes=[ann[0]["id"]])
    assert ("Ann Archer", "lives_in", "Lisbon") in facts(rels, nodes)


def test_cli_export_writes_the_same_perspective(settings, client, group_id, seeded, tmp_path) -> None:
    from strata.api.cli import app

    out = tmp_path / "bloom.json"
    env = {"STRATA_NEO4J_URI": settings.neo4j_uri}
    result = CliRunner().invoke(app, ["bloom", "export", "--group", group_id, "--out", str(out)], env=env)
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    served = perspective(client, group_id, seeded["h"])
    for key in ("categories", "templates"):
        assert [c["name"] for c in written[key]] == [c["name"] for c in served[key]]
    assert [t["cypher"] for t in written["templates"]] == [t["cypher"] for t in served["templates"]]
    assert written["id"] == served["id"]
    bad = CliRunner().invoke(app, ["bloom", "export", "--group", "no spaces"], env=env)
    assert bad.exit_code != 0
