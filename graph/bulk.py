"""Bulk loading of synthetic benchmark graphs (``bench-`` groups only) and their removal."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from strata.graph import lucene
from strata.graph.driver import Graph
from strata.graph.queries import bulk as q
from strata.graph.text_version import bump as bump_text_version
from strata.schema.errors import InputError

PREFIX = "bench-"


def check_group(group_id: str) -> None:
    if not group_id.startswith(PREFIX):
        raise InputError(f"bulk loading is only for {PREFIX}* groups", {"group": group_id})


def _write(graph: Graph, cypher: str, group_id: str, rows: Sequence[dict[str, Any]], now: datetime) -> None:
    check_group(group_id)
    if rows:
        def work(tx: ManagedTransaction) -> None:
            tx.run(cypher, rows=list(rows), group_id=group_id, group_tag=lucene.group_tag(group_id), now=now).consume()
            bump_text_version(tx, group_id)

        graph.write(work)


def bulk_entities(graph: Graph, group_id: str, rows: Sequence[dict[str, Any]], now: datetime) -> None:
    """Rows: uuid, key, name, type, summary, embedding."""
    _write(graph, q.BULK_ENTITIES, group_id, rows, now)


def bulk_episodes(graph: Graph, group_id: str, rows: Sequence[dict[str, Any]], now: datetime) -> None:
    """Rows: uuid, passage_uuid, content, content_hash, source_name, reference_time, seq, embedding,
    mentions [{entity_uuid, spans}]. Each episode gets one passage over its whole content."""
    _write(graph, q.BULK_EPISODES, group_id, rows, now)


def bulk_facts(graph: Graph, group_id: str, rows: Sequence[dict[str, Any]], now: datetime) -> None:
    """Rows: uuid, subject_uuid, object_uuid, predicate, fact, valid_at, invalid_at, invalidated_by,
    invalidated_at, episode_uuid, evidence ("episode:start:end"), embedding."""
    _write(graph, q.BULK_FACTS, group_id, rows, now)


def bulk_predicates(graph: Graph, group_id: str, rows: Sequence[dict[str, Any]], now: datetime) -> None:
    """Rows: name, description, functional, count."""
    _write(graph, q.BULK_PREDICATES, group_id, rows, now)


def drop_group(graph: Graph, group_id: str, batch: int = 10_000) -> int:
    """Delete every fact and node of a bench group, in bounded transactions; returns the number deleted."""
    check_group(group_id)
    total = 0
    for cypher in (q.DROP_FACTS_BATCH, q.DROP_NODES_BATCH):
        while n := graph.query(cypher, group_id=group_id, batch=batch)[0]["n"]:
            total += n
    return total


def delete_key(graph: Graph, key_id: str) -> None:
    graph.query(q.DELETE_KEY, id=key_id)
