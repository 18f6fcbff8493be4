"""A process that commits episodes applies a pending schema before its first episode; a store without the
schema is named as such, not as the caller's bad input."""

from __future__ import annotations

import pytest

from strata.graph import Graph
from strata.memory.runtime import build_runtime
from strata.schema.errors import SchemaMismatchError
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration



def _constraint_exists(graph: Graph, name: str) -> bool:
    return bool(graph.query("SHOW CONSTRAINTS YIELD name WHERE name = $name RETURN name", name=name))


def test_a_writer_applies_a_pending_migration_at_start(graph: Graph, settings: Settings) -> None:
    # Take a migration back: its constraint and its record (restored by the writer below).
    graph.query("DROP CONSTRAINT group_embedder IF EXISTS")
    graph.query("MATCH (m:SchemaMigration {version: 23}) DELETE m")
    assert not _constraint_exists(graph, "group_embedder")
    with build_runtime(settings, embedder=False, writes=True) as rt:
        assert rt.graph is not None
    assert _constraint_exists(graph, "group_embedder")
    assert graph.query("MATCH (m:SchemaMigration {version: 23}) RETURN m.name AS n") == [{"n": "group_embedder"}]


def test_a_reader_leaves_the_schema_alone(graph: Graph, settings: Settings) -> None:
    graph.query("DROP CONSTRAINT group_embedder IF EXISTS")
    graph.query("MATCH (m:SchemaMigration {version: 23}) DELETE m")
    try:
        with build_runtime(settings, embedder=False):
            pass
        assert not _constraint_exists(graph, "group_embedder")
    finally:
        with build_runtime(settings, embedder=False, writes=True):
            pass
    assert _constraint_exists(graph, "group_embedder")


def test_a_missing_index_is_a_schema_error_that_says_what_to_run(graph: Graph) -> None:
    with pytest.raises(SchemaMismatchError, match="strata schema apply"):
        graph.query("CALL db.index.fulltext.queryNodes('no_such_index_here', 'anything') YIELD node RETURN node")
