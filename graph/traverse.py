"""Traversal reads: neighbourhood to depth N, shortest paths, the group an object belongs to, the schema."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from strata.graph.driver import Graph
from strata.graph.queries import traverse as q
from strata.graph.read import native
from strata.graph.story import story_params
from strata.schema.models import Entity, Fact, as_utc, utcnow
from strata.schema.story import StoryCut

MAX_DEPTH = 3
OwnerKind = str  # "entity" | "fact" | "episode" | "source" | "job"
_OWNER = {"entity": q.ENTITY_GROUP, "fact": q.FACT_GROUP, "episode": q.EPISODE_GROUP, "source": q.SOURCE_GROUP,
          "job": q.JOB_GROUP}


class Neighborhood(BaseModel):
    center: str
    entities: list[Entity]
    facts: list[Fact]
    truncated: bool = False


class Path(BaseModel):
    entities: list[Entity]
    facts: list[Fact]


class TypeCount(BaseModel):
    name: str | None
    count: int


@dataclass(frozen=True)
class ReadCut:
    """When a traversal reads the graph: valid time and transaction time (None: now), with retracted history
    or not, or at a book's story point."""

    as_of: datetime | None = None
    known_at: datetime | None = None
    include_history: bool = False
    story: StoryCut | None = None


def _temporal(as_of: datetime | None, known_at: datetime | None, include_history: bool,
              story: StoryCut | None = None) -> dict[str, Any]:
    now = utcnow()
    return {"as_of": as_utc(as_of) or now, "known_at": as_utc(known_at) or now, "include_history": include_history,
            **story_params(story)}


def group_of(graph: Graph, kind: OwnerKind, uuid: str) -> str | None:
    rows = graph.query(_OWNER[kind], uuid=uuid)
    return rows[0]["group_id"] if rows else None


def entities(graph: Graph, group_id: str, uuids: list[str]) -> list[Entity]:
    rows = graph.query(q.ENTITIES_BY_UUID, uuids=uuids, group_id=group_id)
    by_id = {r["uuid"]: Entity(**native(r)) for r in rows}
    return [by_id[u] for u in uuids if u in by_id]


def neighborhood(graph: Graph, group_id: str, uuid: str, depth: int = 1, *, cut: ReadCut = ReadCut(),
                 limit: int = 200) -> Neighborhood:
    """Breadth-first over facts true at (as_of, known_at), or at a story cut; at most ``limit`` facts per hop."""
    depth = max(1, min(depth, MAX_DEPTH))
    seen, frontier, truncated = {uuid}, [uuid], False
    facts: dict[str, Fact] = {}
    for _ in range(depth):
        if not frontier:
            break
        rows = graph.query(q.NEIGHBOR_HOP, frontier=frontier, group_id=group_id, limit=limit,
                           **_temporal(cut.as_of, cut.known_at, cut.include_history, cut.story))
        truncated = truncated or len(rows) >= limit
        nxt = []
        for row in rows:
            other = row.pop("other_uuid")
            facts.setdefault(row["uuid"], Fact(**native(row)))
            if other not in seen:
                seen.add(other)
                nxt.append(other)
        frontier = nxt
    return Neighborhood(center=uuid, entities=entities(graph, group_id, sorted(seen)),
                        facts=sorted(facts.values(), key=lambda f: f.uuid), truncated=truncated)


def shortest_paths(graph: Graph, group_id: str, from_uuid: str, to_uuid: str, max_depth: int = 4, *,
                   cut: ReadCut = ReadCut(), limit: int = 10) -> list[Path]:
    """Shortest paths over the facts true at the cut (history never counts: a path is what holds)."""
    depth = max(1, min(max_depth, q.MAX_PATH_DEPTH))
    rows = graph.query(q.SHORTEST_PATHS[depth], from_uuid=from_uuid, to_uuid=to_uuid, group_id=group_id,
                       limit=limit, **_temporal(cut.as_of, cut.known_at, False, cut.story))
    if not rows:
        return []
    ent = {e.uuid: e for e in entities(graph, group_id, sorted({n for r in rows for n in r["nodes"]}))}
    fact_rows = graph.query(q.FACTS_BY_UUID, uuids=sorted({f for r in rows for f in r["facts"]}), group_id=group_id)
    facts = {r["uuid"]: Fact(**native(r)) for r in fact_rows}
    return [Path(entities=[ent[n] for n in r["nodes"] if n in ent], facts=[facts[f] for f in r["facts"] if f in facts])
            for r in rows]


def entity_types(graph: Graph, group_id: str) -> list[TypeCount]:
    return [TypeCount(**r) for r in graph.query(q.ENTITY_TYPES, group_id=group_id)]
