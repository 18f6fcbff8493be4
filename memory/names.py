"""Names to entities: the ranked lookup (``GET /entities?name=``, MCP ``resolve_entity``, ``strata entity``) and
the uuid-or-exact-name filters of fact listings and paths."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from strata.graph import Graph, lucene
from strata.graph.read import Candidate, entity_candidates
from strata.graph.search import EmbedFn, embed_query
from strata.resolve.lookup import looser_forms, looser_pick, one_letter_off, rank_by_name, related
from strata.resolve.normalize import entity_key, name_keys
from strata.resolve.types import CandidateEntity
from strata.schema.errors import InputError

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
# What a name filter that matches no entity becomes: a uuid no entity has, so the listing is empty.
NO_ENTITY = "00000000-0000-0000-0000-000000000000"
# Candidates each channel proposes before the name rules rank them (the best by name may be a channel's 5th).
LOOKUP_POOL = 20


class Resolution(BaseModel):
    name: str
    candidates: list[Candidate]
    # "vector" when the name could not be embedded: exact and full-text matches only (as in search).
    degraded: list[Literal["vector"]] = Field(default_factory=list)


def resolve_name(graph: Graph, group: str, name: str, limit: int, embed: EmbedFn | None) -> Resolution:
    """Exact key, full-text and name-vector matches, on one score scale, ranked by the name rules. A name the
    rules relate to nobody is tried without the modifiers written before it ("Little Mary Joe"), then as a
    misspelling of the one entity one letter away ("Miss Lucillia Harris")."""
    found, order, degraded = _ranked(graph, group, name, embed, limit)
    if not related(order):
        for form in looser_forms(name):
            loose, loose_order, _ = _ranked(graph, group, form, embed, limit)
            if looser_pick(form, _as_entities(loose), loose_order):
                found, order = loose, loose_order
                break
        else:
            near = one_letter_off(name, _as_entities(found))
            if near is not None:
                order = [(near, 1.0)]
    picked = [found[i].model_copy(update={"query": name}) for i, _ in order]
    return Resolution(name=name, candidates=picked[:limit], degraded=degraded)


def _ranked(graph: Graph, group: str, name: str, embed: EmbedFn | None,
            limit: int) -> tuple[list[Candidate], list[tuple[int, float]], list[Literal["vector"]]]:
    embedding, degraded = embed_query(embed, name)
    vectors = [("q", embedding)] if embedding is not None else []
    text = lucene.any_terms(name, fuzzy=True)
    hits = entity_candidates(graph, group, keys=name_keys(name), lucene=[("q", text)] if text else [],
                             vectors=vectors, limit=max(limit, LOOKUP_POOL))
    best: dict[str, Candidate] = {}
    for hit in hits:
        hit = hit.model_copy(update={"query": name, "embedding": None, "score": _scaled(hit.channel, hit.score)})
        if hit.uuid not in best or hit.score > best[hit.uuid].score:
            best[hit.uuid] = hit
    found = sorted(best.values(), key=lambda c: (-c.score, c.name))
    # Channels say how alike two strings are; the name rules say whether the name can mean the entity.
    return found, rank_by_name(name, _as_entities(found), [c.score for c in found]), degraded


def _as_entities(found: list[Candidate]) -> list[CandidateEntity]:
    return [CandidateEntity(uuid=c.uuid, name=c.name, type=c.type or "Entity", aliases=c.aliases,
                            mentions=c.mentions) for c in found]


def _scaled(channel: str, score: float) -> float:
    """One scale for the three channels: key 1.0, vector cosine as is, BM25 squashed below 0.9."""
    if channel == "key":
        return 1.0
    if channel == "fulltext":
        return round(0.9 * score / (score + 1.0), 6)
    return round(float(score), 6)


def entity_ref(graph: Graph, group: str, value: str | None, type_: str | None, role: str) -> str | None:
    """A subject/object filter: a uuid as is, a name through its exact key (ambiguity is an error)."""
    if value is None or UUID.match(value):
        return value
    keys = [entity_key(value, type_)] if type_ else name_keys(value)
    found = {c.uuid: c for c in entity_candidates(graph, group, keys=keys)} if keys else {}
    if len(found) > 1:
        raise InputError(f"{role} {value!r} names several entities; pass a uuid or {role}_type",
                         {"candidates": [{"uuid": c.uuid, "name": c.name, "type": c.type} for c in found.values()]})
    return next(iter(found), NO_ENTITY)
