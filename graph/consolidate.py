"""Reads and writes of the per-book consolidation pass (the rules are in strata.resolve.consolidate)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from strata.graph.driver import Graph
from strata.graph.queries import consolidate as q

# Facts that make two people a couple, for married names ("Mrs. Collins" is the woman married to Mr. Collins).
# Stored predicates are the ontology's canonical names: "married_to", "wife_of" are written as spouse_of.
MARRIAGE_PREDICATES = ("spouse_of", "engaged_to")
# A description the text ties to a name ("Mr. Bumble, the beadle": ingest/extractors/appositions.py).
DESCRIPTION_PREDICATES = ("described_as",)
ALIAS_PREDICATES = ("known_as",)


class CastRow(BaseModel):
    uuid: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    type: str = "Entity"
    episodes: list[int] = Field(default_factory=list)
    first_position: int = 0
    seen: list[list[str]] = Field(default_factory=list)  # surface forms of each mentioning episode
    apart: list[str] = Field(default_factory=list)  # entities kept apart from it


def sources(graph: Graph, group_id: str) -> list[str]:
    return [r["uuid"] for r in graph.query(q.SOURCES, group_id=group_id)]


def read_cast(graph: Graph, group_id: str, source_uuid: str | None) -> list[CastRow]:
    return [CastRow(**r) for r in graph.query(q.CAST, group_id=group_id, source_uuid=source_uuid)]


def read_marriages(graph: Graph, group_id: str, uuids: Sequence[str]) -> list[dict[str, object]]:
    return graph.query(q.MARRIAGES, group_id=group_id, uuids=list(uuids), predicates=list(MARRIAGE_PREDICATES))


def read_descriptions(graph: Graph, group_id: str, uuids: Sequence[str]) -> list[dict[str, object]]:
    """(a, b): the text says cast member ``b`` (a description) is ``a`` (a name); same query as marriages."""
    return graph.query(q.MARRIAGES, group_id=group_id, uuids=list(uuids), predicates=list(DESCRIPTION_PREDICATES))


def read_aliases(graph: Graph, group_id: str, uuids: Sequence[str]) -> list[dict[str, object]]:
    """(a, b): the text says cast members ``a`` and ``b`` are two names of one person; same query as marriages."""
    return graph.query(q.MARRIAGES, group_id=group_id, uuids=list(uuids), predicates=list(ALIAS_PREDICATES))


def read_replies(graph: Graph, group_id: str, source_uuid: str | None) -> list[dict[str, str]]:
    return graph.query(q.REPLIES, group_id=group_id, source_uuid=source_uuid)


def read_narrator_quotes(graph: Graph, group_id: str, source_uuid: str | None) -> list[dict[str, str | None]]:
    return graph.query(q.NARRATOR_QUOTES, group_id=group_id, source_uuid=source_uuid)


def assign_narrator(graph: Graph, group_id: str, entity_uuid: str, quotes: Sequence[str], confidence: float) -> int:
    """The entity said the given narrator's quotes that had no speaker; how many it took."""
    rows = graph.query(q.ASSIGN_NARRATOR, group_id=group_id, entity_uuid=entity_uuid, quotes=list(quotes),
                       confidence=confidence)
    return int(rows[0]["n"]) if rows else 0


def record_suggestions(graph: Graph, group_id: str, rows: Sequence[dict[str, object]], now: datetime) -> None:
    if rows:
        graph.query(q.SUGGEST, group_id=group_id, rows=list(rows), now=now)
