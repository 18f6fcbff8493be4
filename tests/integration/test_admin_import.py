"""A first load through ``neo4j-admin`` gives the store the Cypher bulk path gives: the same nodes, relationships
and properties, the same search answers and entity reads; and a group exported from a store imports back the
same. Runs its own Neo4j (the import needs the server stopped), on free ports under the test's folder."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from strata.graph import Graph, apply_migrations
from strata.graph.admin_export import export_group
from strata.graph.embedder_meta import check_group
from strata.graph.read import entity_timeline, get_entity
from strata.graph.search import SearchQuery, search
from strata.ingest.embedders import HashEmbedder
from strata.ingest.embedders.queries import embedder_record
from strata.ingest.testing.synthetic import generate, load, write_import_files
from strata.memory.admin_load import first_load
from strata.schema.settings import Settings
from strata.services.neo4j import Neo4jService

# Each test restarts its own Neo4j once or twice (import, schema, population): minutes on a shared machine.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]
NOW = datetime(2026, 1, 1, tzinfo=UTC)
GROUP = "bench-admin-import"
QUESTIONS = ("who works for", "lives in", "chief executive", "born in", "knows", "head office moved")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def own_neo4j(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    bolt, http = _port(), _port()
    settings = Settings(services_dir=tmp_path_factory.mktemp("svc"), neo4j_bolt_port=bolt, neo4j_http_port=http,
                        neo4j_uri=f"bolt://127.0.0.1:{bolt}", neo4j_heap="512m", neo4j_pagecache="128m",
                        embedder="hash", _env_file=None)
    service = Neo4jService(settings)
    service.start()
    yield settings
    service.stop()


def _snapshot(graph: Graph) -> dict[str, Any]:
    """Every node and relationship of the group (by content: element ids differ), searches and entity reads."""
    # the text version (a cache token) is set anew by a first load, not carried (graph/text_version.py)
    nodes = graph.query("MATCH (n {group_id: $g}) WHERE NOT n:TextVersion "
                        "RETURN labels(n) AS labels, properties(n) AS props", g=GROUP)
    rels = graph.query("MATCH (a {group_id: $g})-[r]->(b {group_id: $g}) RETURN type(r) AS type, "
                       "coalesce(a.uuid, a.name) AS start, coalesce(b.uuid, b.name) AS end, properties(r) AS props",
                       g=GROUP)
    embed = HashEmbedder().embed
    answers = {q: [(h.kind, (h.fact or h.entity or h.episode).uuid, round(h.score, 6))  # type: ignore[union-attr]
                   for h in search(graph, GROUP, SearchQuery(q=q, limit=10), embed).hits] for q in QUESTIONS}
    some = sorted(r["uuid"] for r in graph.query("MATCH (e:Entity {group_id: $g}) RETURN e.uuid AS uuid", g=GROUP))
    entities = {u: (get_entity(graph, u, GROUP), entity_timeline(graph, GROUP, u, include_expired=True))
                for u in some[:: max(1, len(some) // 15)]}
    for r in nodes:  # when the group's embedder was recorded: the writing path's clock, not content
        if "GroupEmbedder" in r["labels"]:
            r["props"].pop("recorded_at")
    canon = sorted(json.dumps({**r, "labels": sorted(r["labels"])}, sort_keys=True, default=str) for r in nodes)
    return {"nodes": canon, "relationships": sorted(json.dumps(r, sort_keys=True, default=str) for r in rels),
            "answers": answers, "entities": {u: (e.model_dump() if e else None, [f.model_dump() for f in t])
                                             for u, (e, t) in entities.items()}}


def _schema(graph: Graph) -> list[str]:
    """Indexes and constraints by definition (their ids and population aside)."""
    indexes = graph.query("SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, options, "
                          "owningConstraint RETURN *")
    constraints = graph.query("SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties RETURN *")
    return sorted(json.dumps(r, sort_keys=True, default=str) for r in indexes + constraints)


def test_import_gives_the_store_the_cypher_path_gives(own_neo4j: Settings, tmp_path: Path) -> None:
    gen = generate(GROUP, 300)
    with Graph.from_settings(own_neo4j) as graph:  # the Cypher bulk path, into the empty store
        apply_migrations(graph, own_neo4j.embedding_dim)
        load(graph, gen, now=NOW)
        graph.query("CALL db.awaitIndexes(300)")
        cypher = _snapshot(graph)
        schema = _schema(graph)
        exported = export_group(graph, GROUP, tmp_path / "exported")
    assert len(cypher["relationships"]) > 300 and any(hits for hits in cypher["answers"].values())

    written = write_import_files(gen, tmp_path / "generated", now=NOW)
    assert written["facts"] == 300
    report = first_load(own_neo4j, tmp_path / "generated", replace=True)
    assert report.nodes == len(cypher["nodes"]) and report.relationships == len(cypher["relationships"])
    with Graph.from_settings(own_neo4j) as graph:
        imported = _snapshot(graph)
        assert _schema(graph) == schema  # every index and constraint, built once over the loaded data
        assert graph.query("MATCH (n) WHERE n.group_id <> $g RETURN count(n) AS n", g=GROUP)[0]["n"] == 0
    for part in ("nodes", "relationships", "answers", "entities"):
        assert imported[part] == cypher[part], part
    with Graph.from_settings(own_neo4j) as graph:  # the API's check: the group's vectors are the hash embedder's
        check_group(graph, GROUP, embedder_record(HashEmbedder()), write=False)

    assert exported.counts == {"nodes": report.nodes, "relationships": report.relationships}
    first_load(own_neo4j, tmp_path / "exported", replace=True)
    with Graph.from_settings(own_neo4j) as graph:
        assert _snapshot(graph) == cypher


def test_a_store_holding_data_is_not_replaced_unless_asked(own_neo4j: Settings, tmp_path: Path) -> None:
    from strata.schema.errors import InputError

    write_import_files(generate(GROUP, 50), tmp_path / "small", now=NOW)
    with Graph.from_settings(own_neo4j) as graph:
        apply_migrations(graph, own_neo4j.embedding_dim)
        graph.query("MERGE (:Entity {uuid: 'keep-me', group_id: 'other', key: 'k'})")
    with pytest.raises(InputError):
        first_load(own_neo4j, tmp_path / "small")
    with Graph.from_settings(own_neo4j) as graph:
        assert graph.query("MATCH (e:Entity {uuid: 'keep-me'}) RETURN count(e) AS n")[0]["n"] == 1


def test_maintain_rebuilds_vector_indexes_with_their_settings_and_answers(own_neo4j: Settings) -> None:
    from strata.graph.maintain import vector_indexes
    from strata.memory.admin_load import rebuild_vectors

    group = "bench-maintain"
    with Graph.from_settings(own_neo4j) as graph:
        apply_migrations(graph, own_neo4j.embedding_dim)
        load(graph, generate(group, 200), now=NOW)
        graph.query("CALL db.awaitIndexes(300)")
        before = {i.name: i.config for i in vector_indexes(graph)}
        ask = SearchQuery(q="who lives in", limit=10)
        answers = [h.model_dump() for h in search(graph, group, ask, HashEmbedder().embed).hits]
    report = rebuild_vectors(own_neo4j)
    assert sorted(r.name for r in report.rebuilt) == sorted(before)
    assert set(report.segments_after) == set(before) and all(n >= 1 for n in report.segments_after.values())
    with Graph.from_settings(own_neo4j) as graph:
        assert {i.name: i.config for i in vector_indexes(graph)} == before
        assert [h.model_dump() for h in search(graph, group, ask, HashEmbedder().embed).hits] == answers
