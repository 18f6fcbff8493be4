"""The schema read behind a Bloom perspective: the same entity types and predicates the schema endpoint
lists, and which types each relationship type joins."""

from __future__ import annotations

from strata.graph.driver import Graph
from strata.graph.queries import bloom as q
from strata.graph.read import predicates
from strata.graph.traverse import entity_types
from strata.schema.bloom import GroupBrowseSchema, Segment, TypeShare


def browse_schema(graph: Graph, group_id: str) -> GroupBrowseSchema:
    types = [TypeShare(name=t.name, count=t.count) for t in entity_types(graph, group_id) if t.name]
    preds = [TypeShare(name=p.name, count=p.count) for p in predicates(graph, group_id)]
    segments = [Segment(**row) for row in graph.query(q.TYPE_SEGMENTS, group_id=group_id)]
    return GroupBrowseSchema(group_id=group_id, entity_types=types, predicates=preds, segments=segments)
