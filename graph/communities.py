"""Reads and writes of communities (the partition is in strata.resolve.communities, the run in
strata.ingest.communities)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from neo4j import ManagedTransaction, Query
from pydantic import BaseModel

from strata.graph import lucene
from strata.graph.driver import Graph, mapped_errors
from strata.graph.queries import communities as q
from strata.schema.errors import InputError
from strata.schema.requests import MAX_COMMUNITIES
from strata.schema.summaries import Community

MAX_LISTED = MAX_COMMUNITIES
COMMUNITY_FIELDS = ("title", "summary")


class Edge(BaseModel):
    a: str
    b: str
    weight: float


class EntityInfo(BaseModel):
    uuid: str
    name: str
    type: str = "Entity"
    summary: str = ""


class CommunityWrite(BaseModel):
    uuid: str
    title: str
    summary: str
    size: int
    level: int = 0
    members: list[dict]  # {uuid, strength}, most connected first


def read_edges(graph: Graph, group_id: str, now: datetime, max_edges: int, timeout_s: float) -> list[Edge] | None:
    """The group's weighted entity pairs (strongest ``max_edges``); None when the read ran past ``timeout_s``
    (Neo4j ends the transaction)."""
    try:
        with mapped_errors(), graph.driver.session(database=graph.database, default_access_mode="READ") as session:
            result = session.run(Query(q.EDGES, timeout=max(timeout_s, 1.0)),
                                 {"group_id": group_id, "now": now, "max_edges": max_edges})
            return [Edge(a=r["a"], b=r["b"], weight=float(r["weight"])) for r in result]
    except InputError as exc:
        if "TransactionTimedOut" in str(exc.details.get("code", "")):
            return None
        raise


def entity_info(graph: Graph, group_id: str, uuids: Sequence[str]) -> dict[str, EntityInfo]:
    rows = graph.query(q.ENTITY_INFO, group_id=group_id, uuids=list(uuids)) if uuids else []
    return {r["uuid"]: EntityInfo(**r) for r in rows}


def write_communities(graph: Graph, group_id: str, rows: Sequence[CommunityWrite], now: datetime) -> None:
    """Replace the group's communities with ``rows`` in one transaction (unchanged ones keep their nodes)."""
    def work(tx: ManagedTransaction) -> None:
        tx.run(q.DROP_OTHERS, group_id=group_id, keep=[r.uuid for r in rows]).consume()
        if rows:
            tx.run(q.UPSERT, group_id=group_id, group_tag=lucene.group_tag(group_id), now=now,
                   rows=[r.model_dump() for r in rows]).consume()

    graph.write(work)


def list_communities(graph: Graph, group_id: str, query: str = "", entity_uuid: str | None = None,
                     limit: int = 20, members: int = 10) -> list[Community]:
    """The group's communities, largest first; with ``query``, those whose title or summary match it (full text,
    best first); with ``entity_uuid``, those it belongs to."""
    limit = max(1, min(limit, MAX_LISTED))
    params = {"group_id": group_id, "limit": limit, "members": members}
    if entity_uuid:
        rows = graph.query(q.OF_ENTITY, entity_uuid=entity_uuid, **params)
    elif query.strip():
        text = lucene.any_terms(query, drop_stop_words=True)
        if not text:
            return []
        rows = graph.query(q.SEARCH, lucene=lucene.in_group(group_id, text, COMMUNITY_FIELDS), **params)
    else:
        rows = graph.query(q.LIST, **params)
    return [Community.model_validate(r) for r in rows]


def changed_groups(graph: Graph, since: datetime, limit: int = 1000) -> list[str]:
    return [r["group_id"] for r in graph.query(q.CHANGED_GROUPS, since=since, limit=limit)]
