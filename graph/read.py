"""Typed reads: temporal fact listings, resolution candidates, entity timelines, the registry."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from strata.graph import lucene as lucene_syntax
from strata.graph import nearest
from strata.graph.driver import Graph
from strata.graph.queries import read as q
from strata.graph.story import story_params
from strata.schema.errors import InputError
from strata.schema.models import Entity, Fact, Note, Quote, QuotePage, QuoteQuery, as_utc, utcnow
from strata.schema.plan import Predicate
from strata.schema.queries import FactQuery
from strata.schema.story import StoryCut

MAX_PAGE = 1000


class FactPage(BaseModel):
    count: int
    items: list[Fact]
    next_cursor: str | None = None


class Candidate(BaseModel):
    query: str
    uuid: str
    name: str
    type: str = "Entity"
    aliases: list[str] = Field(default_factory=list)
    score: float
    channel: str
    embedding: list[float] | None = None  # key and full-text channels; a vector hit's score is its cosine
    # episodes that mention it: how prominent it is (a bare "Darcy" names the Darcy the text talks about)
    mentions: int = 0

    @property
    def cosine(self) -> float | None:
        """The name vector's cosine to the query's, when the vector channel found it (index scores are
        (1 + cosine) / 2)."""
        return 2.0 * self.score - 1.0 if self.channel == "vector" else None


def native(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.to_native() if hasattr(v, "to_native") else v) for k, v in row.items()}


def list_facts(graph: Graph, group_id: str, query: FactQuery | None = None, *, story: StoryCut | None = None,
               **filters: Any) -> FactPage:
    """A complete, countable listing (keyset pagination on uuid), current facts unless told otherwise.

    ``query`` holds the filters (or pass its fields as keywords); ``story`` cuts a book's story at a position
    instead of valid time (graph/story.py); ``agent`` keeps the facts that agent asserted (with others or alone).

    The first page pins "now" and counts; its cursor carries both, so every later page reads the same
    snapshot and none recounts (listing every page costs one count, not one per page).
    """
    query = query or FactQuery(**filters)
    cursor, limit, predicate = query.cursor, query.limit, query.predicate
    filters = {"group_id": group_id, **query.model_dump(exclude={"cursor", "limit"}),
               "as_of": as_utc(query.as_of), "known_at": as_utc(query.known_at), **story_params(story)}
    state = _decode_cursor(cursor, filters) if cursor else None
    now = state.now if state else utcnow()
    params = {**filters, "as_of": filters["as_of"] or now, "known_at": filters["known_at"] or now,
              "after": state.after if state else None, "limit": limit}
    by_predicate = predicate is not None and not (query.subject or query.subject_key or query.object
                                                  or query.object_key)
    rows = graph.query(q.LIST_PREDICATE_FACTS if by_predicate else q.LIST_FACTS, **params)
    count = state.count if state else graph.query(q.COUNT_FACTS, **params)[0]["n"]
    items = [Fact(**native(r)) for r in rows]
    next_cursor = None
    if len(items) == params["limit"]:
        next_cursor = _encode_cursor(_Cursor(after=items[-1].uuid, count=count, now=now,
                                            filters=_fingerprint(filters)))
    return FactPage(count=count, items=items, next_cursor=next_cursor)


def slot_history(graph: Graph, group_id: str, entities: Sequence[str], predicate: str, role: str | None,
                 either_side: bool, limit: int = 500) -> list[Fact]:
    """Every live fact (ended ones too) of one slot: ``predicate`` (and ``role``) on these entities as object,
    and as subject when ``either_side``; one query for all of them."""
    rows = graph.query(q.SLOT_HISTORY, entities=list(entities), group_id=group_id, predicate=predicate, role=role,
                       either_side=either_side, limit=limit)
    return [Fact(**native(r)) for r in rows]


class _Cursor(BaseModel):
    after: str
    count: int
    now: datetime
    filters: str


def _fingerprint(filters: dict[str, Any]) -> str:
    text = json.dumps(filters, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _encode_cursor(cursor: _Cursor) -> str:
    return base64.urlsafe_b64encode(cursor.model_dump_json().encode()).decode().rstrip("=")


def _decode_cursor(token: str, filters: dict[str, Any]) -> _Cursor:
    """The state of a listing; a cursor from another listing (other filters) or a damaged one is refused."""
    try:
        cursor = _Cursor.model_validate_json(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (ValueError, binascii.Error) as exc:
        raise InputError("cursor is not a next_cursor this service issued", {"cursor": token[:80]}) from exc
    if cursor.filters != _fingerprint(filters):
        raise InputError("cursor belongs to a listing with other filters; start again without a cursor",
                         {"cursor": token[:80]})
    return cursor


def entity_candidates(graph: Graph, group_id: str, *, keys: Sequence[str] = (),
                      lucene: Sequence[tuple[str, str]] = (),
                      vectors: Sequence[tuple[str, list[float]]] = (), limit: int = 10) -> list[Candidate]:
    """Candidates from three channels, each one batched query: exact key, full-text, name vectors."""
    found: list[Candidate] = []
    if keys:
        found += _key_candidates(graph, group_id, keys)
    if lucene:
        fields = lucene_syntax.NAME_FIELDS
        queries = [{"name": name, "lucene": lucene_syntax.in_group(group_id, text, fields)}
                   for name, text in lucene if text.strip()]
        if queries:
            found += [Candidate(**r, channel="fulltext") for r in graph.query(
                q.ENTITY_FULLTEXT, group_id=group_id, queries=queries, limit=limit)]
    if vectors:
        found += _vector_candidates(graph, group_id, [{"name": name, "embedding": vec} for name, vec in vectors],
                                    limit)
    return found


def _key_candidates(graph: Graph, group_id: str, keys: Sequence[str]) -> list[Candidate]:
    """Exact-key candidates; a key whose entity was merged away answers with the entity it lives on in."""
    rows = graph.query(q.ENTITY_BY_KEY, group_id=group_id, keys=list(keys))
    survivors = follow_merges(graph, group_id, [r["uuid"] for r in rows if r["merged_into"]])
    live = {r["uuid"]: r for r in graph.query(q.LIVE_ENTITIES, group_id=group_id,
                                              uuids=sorted(set(survivors.values())))} if survivors else {}
    found = []
    for r in rows:
        merged_into = r.pop("merged_into")
        if merged_into is None:
            found.append(Candidate(**r, channel="key"))
        elif (survivor := live.get(survivors.get(r["uuid"], ""))) is not None:
            found.append(Candidate(**survivor, query=r["query"], score=1.0, channel="key"))
    return found


def follow_merges(graph: Graph, group_id: str, uuids: Sequence[str], max_hops: int = 20) -> dict[str, str]:
    """For each entity, the live entity at the end of its merge chain (itself when live; absent when the chain
    ends in nothing live)."""
    at = {u: u for u in uuids}  # where each start stands on its chain
    survivors: dict[str, str] = {}
    for _ in range(max_hops):
        if not at:
            break
        step = {r["uuid"]: r["merged_into"]
                for r in graph.query(q.MERGE_STEP, group_id=group_id, uuids=sorted(set(at.values())))}
        for start, here in list(at.items()):
            if here not in step:  # gone: no survivor
                del at[start]
            elif step[here] is None:
                survivors[start] = here
                del at[start]
            else:
                at[start] = step[here]
    return survivors


# Indexes are shared by every group and filtered afterwards: a lookup the group filter left short while its
# index had more asks once more, this deep (search channels and the name-vector lookup alike).
MAX_INDEX_DEPTH = 1000
# The name-vector lookup asks this many per candidate wanted the first time.
VECTOR_DEPTH_PER_CANDIDATE = 4
# A short name-vector lookup asks again as deep as its first ask's yield says, times this margin (as search's
# vector channels do: graph/search.py DEEPEN_MARGIN), instead of straight to MAX_INDEX_DEPTH.
LOOKUP_DEEPEN_MARGIN = 2.0


def sized_depth(raw: int, kept: int, need: int, margin: float | None) -> int:
    """How deep a short vector ask asks again: as deep as its first ``raw`` entries, of which ``kept`` passed
    the filters, say ``need`` hits need (times ``margin``), at least twice ``raw``, at most MAX_INDEX_DEPTH;
    without a margin, MAX_INDEX_DEPTH."""
    if margin is None:
        return MAX_INDEX_DEPTH
    sized = -(-raw * need * margin // max(kept, 1))
    return min(max(int(sized), 2 * raw), MAX_INDEX_DEPTH)


def _vector_candidates(graph: Graph, group_id: str, queries: list[dict[str, Any]], limit: int) -> list[Candidate]:
    """Name-vector candidates. A group with at most ``graph.vector_scan_max`` entities is scanned exactly (no other
    group's names can crowd its own out); a larger one asks the shared index (graph/nearest.py), and a query left
    short by the group filter while the index had more asks again, as deep as its yield says (``sized_depth``),
    until it is not short or the index is asked as deep as allowed."""
    depth = limit * VECTOR_DEPTH_PER_CANDIDATE
    scanning = nearest.scans(graph, group_id, "entity")
    scan = {"scan_max": graph.vector_scan_max, "scan_cap": graph.vector_scan_max + 1}
    rows = graph.query(q.ENTITY_VECTOR_SCANNING if scanning else q.ENTITY_VECTOR, group_id=group_id, queries=queries,
                       limit=limit, depth=depth, **scan)
    if scanning and rows and not rows[0]["exact"]:
        nearest.found_large(graph, group_id, "entity")
    while depth < MAX_INDEX_DEPTH:  # each round as deep as the shortest query's yield says, at worst the maximum
        short = {r["query"]: r for r in rows if not r["exact"] and len(r["hits"]) < limit and r["raw"] >= depth}
        if not short:
            break
        depth = max(sized_depth(r["raw"], len(r["hits"]), limit, LOOKUP_DEEPEN_MARGIN) for r in short.values())
        again = graph.query(q.ENTITY_VECTOR, group_id=group_id, queries=[x for x in queries if x["name"] in short],
                            limit=limit, depth=depth)
        rows = [r for r in rows if r["query"] not in short] + again
    return [Candidate(**hit, query=r["query"], channel="vector") for r in rows for hit in r["hits"]]


def get_entity(graph: Graph, uuid: str, group_id: str | None = None) -> Entity | None:
    rows = graph.query(q.GET_ENTITY, uuid=uuid, group_id=group_id)
    if not rows:
        return None
    row = native(rows[0])
    row.pop("expired_at", None)
    return Entity(**row)


def entity_timeline(graph: Graph, group_id: str, uuid: str, include_expired: bool = False,
                    story: StoryCut | None = None) -> list[Fact]:
    """Every fact about the entity in (valid time, story position) order; with ``story``, those the story
    stated before the cut (their ``story_until`` says whether a later statement closed them by then)."""
    rows = graph.query(q.ENTITY_TIMELINE, uuid=uuid, group_id=group_id, include_expired=include_expired,
                       **story_params(story))
    return [Fact(**native(r)) for r in rows]


def entity_notes(graph: Graph, group_id: str, uuid: str, limit: int = 100) -> list[Note]:
    rows = graph.query(q.ENTITY_NOTES, uuid=uuid, group_id=group_id, limit=limit)
    return [Note(**r) for r in rows]


def list_quotes(graph: Graph, query: QuoteQuery) -> QuotePage:
    """Who said what to whom: a complete, countable listing in reading order (offset pagination)."""
    params = query.model_dump()
    rows = graph.query(q.LIST_QUOTES, **params)
    count = graph.query(q.COUNT_QUOTES, **params)[0]["n"]
    items = [Quote(**r) for r in rows]
    more = query.offset + len(items) < count and len(items) == query.limit
    return QuotePage(count=count, items=items, next_offset=query.offset + len(items) if more else None)


def predicates(graph: Graph, group_id: str, with_counts: bool = True) -> list[Predicate]:
    query = q.PREDICATES if with_counts else q.PREDICATE_NAMES
    return [Predicate(**r) for r in graph.query(query, group_id=group_id)]


def group_counts(graph: Graph, group_id: str) -> dict[str, int]:
    return graph.query(q.GROUP_COUNTS, group_id=group_id)[0]


class RosterRow(BaseModel):
    name: str
    type: str | None = "Entity"
    aliases: list[str] = Field(default_factory=list)


ROSTER_EPISODES = 100  # a group's latest committed episodes its roster is read from (a chat's recent weeks)


def roster(graph: Graph, group_id: str, source_uuid: str | None, seq: int, limit: int = 200) -> list[RosterRow]:
    """Known entities to hand the extractor: those of the same source so far, else those the group's latest
    episodes mention most."""
    rows = graph.query(q.ROSTER, source_uuid=source_uuid, seq=seq, limit=limit) if source_uuid else []
    if not rows:
        rows = graph.query(q.GROUP_ROSTER, group_id=group_id, episodes=ROSTER_EPISODES, limit=limit)
    return [RosterRow(**r) for r in rows]


def previous_summary(graph: Graph, source_uuid: str | None, seq: int) -> str:
    if not source_uuid:
        return ""
    rows = graph.query(q.PREVIOUS_SUMMARY, source_uuid=source_uuid, seq=seq)
    return rows[0]["summary"] if rows else ""


class MergeRecord(BaseModel):
    """Names that joined an entity, the rule that joined them and its evidence (schema/plan.py MergeRecordWrite)."""

    uuid: str
    entity_uuid: str
    forms: list[str]
    rule: str
    reason: str = ""
    score: float | None = None
    mention_form: str | None = None
    candidate_form: str | None = None
    episode_uuid: str | None = None
    created_at: datetime
    merged_uuid: str | None = None  # the entity a pass or manual merge expired (undo revives it)
    split_from: str | None = None  # a split: the entity these names left
    source_uuid: str | None = None  # the book whose consolidation pass made it
    undone_at: datetime | None = None
    actor: str | None = None  # who merged by hand: the API key's name (or id), or the CLI's user


def merge_records(graph: Graph, group_id: str, entity_uuid: str, limit: int = 200) -> list[MergeRecord]:
    rows = graph.query(q.MERGE_RECORDS, group_id=group_id, uuid=entity_uuid, limit=limit)
    return [MergeRecord(**{**r, "created_at": r["created_at"].to_native(),
                           "undone_at": r["undone_at"].to_native() if r["undone_at"] is not None else None})
            for r in rows]


class AgentActivity(BaseModel):
    agent: str
    episodes: int
    facts: int  # current facts it asserted (alone or with other agents)
    first_at: datetime | None = None
    last_at: datetime | None = None


def agents(graph: Graph, group_id: str) -> list[AgentActivity]:
    """Who wrote to the group: each agent's (not retracted) episodes and the current facts it asserted."""
    return [AgentActivity(**native(r)) for r in graph.query(q.AGENTS, group_id=group_id)]
