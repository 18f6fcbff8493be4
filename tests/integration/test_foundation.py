"""The foundation against the real services: indexes on relationships, idempotent migrations, Celery."""

from __future__ import annotations

import math
import subprocess
import sys
import time

import pytest

from strata.graph import Graph, apply_migrations, load_migrations, lucene
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration


def _unit(vec: list[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in vec))
    return [v / norm for v in vec]


def _basis(i: int, dim: int, tilt: float = 0.0) -> list[float]:
    vec = [0.0] * dim
    vec[i] = 1.0
    vec[(i + 1) % dim] = tilt
    return _unit(vec)


def test_relationship_vector_and_fulltext_indexes(graph: Graph, settings: Settings, group_id: str) -> None:
    dim = settings.embedding_dim
    rows = [
        {"uuid": f"{group_id}-f1", "fact": "Elizabeth Bennet marries Fitzwilliam Darcy", "vec": _basis(1, dim, 1.0)},
        {"uuid": f"{group_id}-f2", "fact": "Jane Bennet visits Netherfield", "vec": _basis(2, dim)},
        {"uuid": f"{group_id}-f3", "fact": "Charles Bingley leases Netherfield", "vec": _basis(2, dim, 2.0)},
    ]
    graph.query(
        """
        UNWIND $rows AS row
        CREATE (a:Entity {uuid: row.uuid + '-s', group_id: $g, key: row.uuid + '-s', name: 'a'})
        CREATE (b:Entity {uuid: row.uuid + '-o', group_id: $g, key: row.uuid + '-o', name: 'b'})
        CREATE (a)-[r:RELATES_TO {uuid: row.uuid, group_id: $g, group_tag: $tag, fact: row.fact, predicate: 'rel'}]->(b)
        WITH r, row CALL db.create.setRelationshipVectorProperty(r, 'fact_embedding', row.vec)
        """,
        rows=rows, g=group_id, tag=lucene.group_tag(group_id),
    )
    graph.query("CALL db.awaitIndexes(60)")
    # Cosines to the query: f2 0.99, f1 0.70, f3 0.53, all above what other groups' facts in the shared index reach.
    query_vec = _basis(2, dim, tilt=0.1)
    hits: list[dict] = []
    deadline = time.monotonic() + 30  # index updates are asynchronous
    while time.monotonic() < deadline:
        hits = graph.query(
            """
            CALL db.index.vector.queryRelationships('fact_embedding', 50, $vec) YIELD relationship, score
            WHERE relationship.group_id = $g RETURN relationship.uuid AS uuid, score
            """,
            vec=query_vec, g=group_id,
        )
        if len(hits) == 3:
            break
        time.sleep(0.3)
    assert [h["uuid"] for h in hits] == [f"{group_id}-f2", f"{group_id}-f1", f"{group_id}-f3"]
    assert hits[0]["score"] > hits[1]["score"] > hits[2]["score"]

    text_hits = graph.query(
        """
        CALL db.index.fulltext.queryRelationships('fact_text', $q) YIELD relationship, score
        WHERE relationship.group_id = $g RETURN relationship.uuid AS uuid ORDER BY score DESC
        """,
        q=lucene.in_group(group_id, "netherfield", lucene.TEXT_FIELDS["fact"]), g=group_id,
    )
    assert {h["uuid"] for h in text_hits} == {f"{group_id}-f2", f"{group_id}-f3"}


def _schema_names(graph: Graph) -> set[str]:
    idx = graph.query("SHOW INDEXES YIELD name RETURN name")
    cons = graph.query("SHOW CONSTRAINTS YIELD name RETURN name")
    return {r["name"] for r in idx} | {r["name"] for r in cons}


def test_migrations_apply_twice_without_change(graph: Graph, settings: Settings) -> None:
    first = apply_migrations(graph, settings.embedding_dim)
    names_before = _schema_names(graph)
    recorded_before = graph.query("MATCH (m:SchemaMigration) RETURN m.version AS v, m.applied_at AS t ORDER BY v")
    second = apply_migrations(graph, settings.embedding_dim)
    assert second.applied == []
    assert len(second.already_applied) == len(load_migrations())
    assert _schema_names(graph) == names_before
    assert graph.query("MATCH (m:SchemaMigration) RETURN m.version AS v, m.applied_at AS t ORDER BY v") \
        == recorded_before
    assert (second.indexes, second.constraints) == (first.indexes, first.constraints)
    expected = {"entity_text", "fact_text", "entity_name_embedding", "fact_embedding",
                "entity_group_key", "fact_uuid"}
    assert expected <= names_before


def test_migrations_reject_a_different_vector_dimension(graph: Graph, settings: Settings) -> None:
    from strata.schema.errors import SchemaMismatchError

    with pytest.raises(SchemaMismatchError, match="dimension"):
        apply_migrations(graph, settings.embedding_dim + 1)


def test_uniqueness_constraint_rejects_duplicate_entity_key(graph: Graph, group_id: str) -> None:
    from strata.schema.errors import InputError

    graph.query("CREATE (:Entity {uuid: $u, group_id: $g, key: 'k'})", u=f"{group_id}-1", g=group_id)
    with pytest.raises(InputError):
        graph.query("CREATE (:Entity {uuid: $u, group_id: $g, key: 'k'})", u=f"{group_id}-2", g=group_id)


def test_celery_round_trip_through_real_redis(settings: Settings, tmp_path) -> None:
    from strata.ingest.celery_app import make_celery

    queue = f"test-{tmp_path.name[-12:]}"
    env_cmd = [
        sys.executable, "-m", "celery", "-A", "strata.memory.worker", "worker",
        "--pool=solo", "--concurrency=1", "-Q", queue, "--without-heartbeat", "--without-gossip",
        "--without-mingle", "--loglevel=WARNING",
    ]
    env = {"STRATA_REDIS_URL": settings.redis_url, "PATH": "/usr/bin:/bin"}
    worker = subprocess.Popen(env_cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        app = make_celery(settings)
        result = app.send_task("strata.ping", args=["hello"], queue=queue)
        reply = result.get(timeout=60)
        assert reply["reply"] == "pong"
        assert reply["payload"] == "hello"
    finally:
        worker.terminate()
        worker.wait(timeout=30)
