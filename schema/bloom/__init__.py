"""Neo4j Bloom perspectives generated from a group's schema (docs/browse.md)."""

from strata.schema.bloom.generate import build_perspective, cypher_literal, query_body, saved_cypher, scoped
from strata.schema.bloom.models import GroupBrowseSchema, Perspective, Segment, TypeShare

__all__ = ["GroupBrowseSchema", "Perspective", "Segment", "TypeShare", "build_perspective", "cypher_literal",
           "query_body", "saved_cypher", "scoped"]
