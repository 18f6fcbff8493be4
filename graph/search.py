"""Hybrid search over facts, entities and episode passages, with precise provenance.

Channels generate candidates: full-text (BM25) and vector indexes for facts, entities and passages (through
their context), and graph expansion from the best matched entities and from entities the caller names
(``center``). The ranking stage (graph/ranking.py) orders them by relevance to the query; maximal marginal
relevance optionally diversifies the result. ``gather`` runs the channels, ``answer`` ranks and reads the
winners whole. Facts are current ones unless ``as_of``/``known_at``/``include_history`` say otherwise.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel

from strata.graph import local_text, lucene, nearest, rescore, retention
from strata.graph.driver import Graph
from strata.graph.queries import search as q
from strata.graph.ranking import Candidate, RankWeights, rank, rescored
from strata.graph.read import MAX_INDEX_DEPTH, native, sized_depth
from strata.graph.story import story_params
from strata.schema.errors import UpstreamUnavailableError
from strata.schema.models import Entity, Fact, as_utc, utcnow
from strata.schema.search import (
    HitKind,
    MessageRef,
    PassageHit,
    Provenance,
    SearchHit,
    SearchQuery,
    SearchResult,
)

log = logging.getLogger(__name__)

RRF_K = 60
# Each channel ranks this many hits per hit asked, for the fusion.
CHANNEL_DEPTH = 3
# Indexes are shared by all groups and filtered afterwards, so each channel over-fetches: per hit asked, at least,
# by kind. The ranker reads CHANNEL_DEPTH hits per hit asked of each channel, so 5 per hit asks 5/3 of what it
# reads: facts are also filtered by time (a third of a busy graph's facts are history), entities and passages by
# group and expiry. Facts asked 10 per hit (session 16) cost a third more of their query at 100k facts and changed
# 0.25% of the top 10 when halved (docs/benchmarks.md, session 17); the HNSW ask's cost grows with the depth. A
# channel left short (fewer hits than asked) while its index had more asks again (below). A vector
# channel of a group with at most `graph.vector_scan_max` items of its kind reads its own items instead (exact,
# never asked again).
OVERFETCH: dict[str, tuple[int, int]] = {"fact": (5, 50), "entity": (5, 50), "passage": (5, 50)}
# A short vector channel asks again as deep as its first ask's yield (hits kept / entries read) says `want` hits
# need (the caller's; DEEPEN_TO), times this margin (a yield from a few kept hits is a rough estimate), at least
# twice as deep, at most MAX_INDEX_DEPTH; still short, it asks again the same way (each round deeper: at worst it
# ends at MAX_INDEX_DEPTH). None: straight to MAX_INDEX_DEPTH (session 17). At 100k facts the re-asks went from
# 1,000 to 674 entries deep on average with the same top 10 and top 20 (docs/benchmarks.md, "A re-ask sized").
DEEPEN_MARGIN: float | None = 2.0
# What that ask is sized for and asks again until: "want" (the hits the caller asked for) or "limit" (all the
# ranker reads of a channel: the maximum depth's answer whenever that depth holds them; costs more, since the
# first entries of a crowded channel are the least of its own, so the yield mostly says MAX_INDEX_DEPTH).
DEEPEN_TO: Literal["want", "limit"] = "want"
EXPANSION_SEEDS = 3
# A fact cites at most this many evidence spans; an entity its mentions inside the passages among the hits
# (what the caller reads anyway), this many at most.
MAX_PROVENANCE = 5
# MMR picks its `limit` hits from this many times as many fused candidates.
MMR_POOL = 3
# The kinds whose channels run in a query of their own beside the caller's (the entity channels, with the
# expansion from their best entities, run in the caller's thread). A query's UNION runs its branches one after
# another, and each kind asks other indexes (its own HNSW and Lucene index): apart, the three kinds' asks wait
# for the slowest instead of their sum.
BESIDE_KINDS = ("fact", "passage")
EmbedFn = Callable[[Sequence[str]], list[list[float]]]


class _Item:
    __slots__ = ("kind", "uuid", "row", "score", "channels", "embedding")

    def __init__(self, kind: HitKind, uuid: str, row: dict[str, Any]) -> None:
        self.kind, self.uuid, self.row = kind, uuid, row
        self.score = 0.0
        self.channels: list[str] = []
        self.embedding: list[float] | None = None


class Gathered(BaseModel):
    """What the channels found for one search, before ranking: the candidates and what hydration needs."""

    model_config = {"arbitrary_types_allowed": True}

    query: SearchQuery
    params: dict[str, Any]
    kinds: set[str]
    embedding: list[float] | None
    degraded: list[Literal["vector"]]
    candidates: list[Candidate]
    text_channels: dict[str, list[str]]
    rescore_query: list[float] | None = None  # the query's vector under the rescoring model, once computed


def search(graph: Graph, group_id: str, query: SearchQuery, embed: EmbedFn | None = None,
           weights: RankWeights | None = None, rescorer: rescore.Rescorer | None = None) -> SearchResult:
    # The rescoring model embeds the question beside the channels' round trips (ONNX releases the GIL).
    asking = (graph.beside(rescorer.embed_query, [query.q.strip()]) if rescorer is not None and not rescorer.stored
              and (weights or RankWeights()).rescore and query.q.strip() else None)
    gathered = gather(graph, group_id, query, embed)
    if asking is not None:
        gathered.rescore_query = asking.result()[0]
    decay = retention.half_life(graph, group_id)
    if decay is None:  # the default: no salience, no write
        return answer(graph, gathered, weights, rescorer)
    now = utcnow()
    found = retention.saliences(graph, group_id, [c.uuid for c in gathered.candidates if c.kind == "fact"],
                                [c.uuid for c in gathered.candidates if c.kind == "entity"], now, decay)
    for c in gathered.candidates:
        c.salience = found.get(c.uuid, 1.0)
    result = answer(graph, gathered, weights, rescorer)
    retention.touch(graph, group_id, [h.fact.uuid for h in result.hits if h.fact],
                    [h.entity.uuid for h in result.hits if h.entity],
                    [h.episode.uuid for h in result.hits if h.episode], now)
    return result


def gather(graph: Graph, group_id: str, query: SearchQuery, embed: EmbedFn | None = None) -> Gathered:
    """Run the channels (three round trips side by side) and turn their hits into candidates."""
    text = query.q.strip()
    embedding, degraded = embed_query(embed, text)
    # Per index kind: the fact and passage indexes drop stop words (english analyzer), so their queries do too.
    terms = {kind: lucene.any_terms(text, drop_stop_words=kind in lucene.STEMMED_KINDS) if text else ""
             for kind in lucene.TEXT_FIELDS}
    now = utcnow()
    params: dict[str, Any] = {
        "group_id": group_id, "as_of": as_utc(query.as_of) or now, "known_at": as_utc(query.known_at) or now,
        "user_as_of": as_utc(query.as_of), "user_known_at": as_utc(query.known_at),
        "include_history": query.include_history, "said_after": as_utc(query.said_after),
        "said_before": as_utc(query.said_before), **story_params(query.story),
        "types": query.types or None, "predicates": query.predicates or None, "with_embedding": query.mmr,
        "agent": query.agent, "limit": query.limit * CHANNEL_DEPTH, "want": query.limit,
        **{f"{k}_{kind}": _depth(kind, query.limit) for kind in OVERFETCH for k in ("k", "kt")},
    }
    kinds = set(query.kinds or ("fact", "entity", "episode"))
    if query.agent:  # an entity is nobody's assertion
        kinds.discard("entity")
    ranked = _channels(graph, params, terms, embedding, kinds, query.center, text)
    return Gathered(query=query, params=params, kinds=kinds, embedding=embedding,
                    degraded=degraded, candidates=_candidates(ranked), text_channels=_text_channels(ranked))


def answer(graph: Graph, gathered: Gathered, weights: RankWeights | None = None,
           rescorer: rescore.Rescorer | None = None) -> SearchResult:
    """Rank the candidates and read the winners whole (one round trip). Ranking rescores the candidates from
    what the channels found, so one gathering can be answered with several weightings (bench/fit_ranking.py).
    With a ``rescorer`` (and a rescoring weight) the best candidates are ordered again (graph/rescore.py)."""
    query, embedding = gathered.query, gathered.embedding
    weights = weights or RankWeights()
    candidates = rank(gathered.candidates, weights, gathered.text_channels, query.around)
    if rescorer is not None and weights.rescore and query.q.strip():
        candidates = [c for c in candidates if c.kind in gathered.kinds]
        if gathered.rescore_query is None and not rescorer.stored:
            gathered.rescore_query = rescorer.embed_query([query.q.strip()])[0]
        rescore.fill(graph, gathered.params["group_id"], gathered.rescore_query, candidates[:rescorer.depth],
                     rescorer)
        candidates = rescored(candidates, rescorer.depth, weights)
    use_mmr = query.mmr and embedding is not None
    chosen = [c for c in candidates if c.kind in gathered.kinds][: query.limit * (MMR_POOL if use_mmr else 1)]
    # An entity cites its mentions in the passages the answer holds (never a greeting the answer left out).
    relevant = [{"episode": c.episode, "start": c.start, "end": c.end}
                for c in chosen if c.kind == "episode" and c.episode]
    items, provenance = _hydrate(graph, gathered.params, [_item(c) for c in chosen], relevant)
    if use_mmr:
        items = _mmr(items, query.limit, query.mmr_lambda)
    items = items[: query.limit]
    return SearchResult(query=query.q, hits=[_hit(i, provenance) for i in items], degraded=gathered.degraded)


def embed_query(embed: EmbedFn | None, text: str) -> tuple[list[float] | None, list[Literal["vector"]]]:
    """The query's vector, or None and the vector channels marked missing when the embedder is unreachable:
    an answer from full text and the graph, flagged, serves a caller better than an error."""
    if embed is None or not text:
        return None, []
    try:
        return embed([text])[0], []
    except UpstreamUnavailableError as exc:
        log.warning("no vector matches for this query: %s", exc)
        return None, ["vector"]


def _depth(kind: str, limit: int) -> int:
    """How many entries a channel asks its index for, to answer `limit` hits once filtered."""
    per_hit, least = OVERFETCH[kind]
    return min(max(limit * per_hit, least), MAX_INDEX_DEPTH)


def _channels(graph: Graph, params: dict[str, Any], terms: dict[str, str], embedding: list[float] | None,
              kinds: AbstractSet[str], center: list[str], question: str = "") -> dict[str, list[_Item]]:
    """The index channels in three queries side by side (the entity channels with the expansion from the best
    entities here, the fact and the passage channels in the pool), then a small group's full-text hits in one
    more."""
    passages = ("passage",) if "episode" in kinds else ()
    names = [f"{kind}_fulltext" for kind in ("fact", "entity", *passages) if terms[kind]]
    if embedding is not None:
        names += ["fact_vector", "entity_vector"] + [f"{kind}_vector" for kind in passages]
    center = list(dict.fromkeys(center))
    # the entity index's summary field is asked the query's content words only (lucene.PROSE_FIELDS)
    prose = terms.get("fact", "")
    text = {f"{kind}_lucene": lucene.on_fields(terms[kind], fields, prose)
            for kind, fields in lucene.TEXT_FIELDS.items()}
    # a short full-text channel asks again with the group required inside Lucene (see _index_channels)
    retry = {f"{kind}_lucene": lucene.in_group(params["group_id"], terms[kind], fields, prose)
             for kind, fields in lucene.TEXT_FIELDS.items()}
    args = {**params, **text, **{f"{name}_own": query for name, query in retry.items()}, "embedding": embedding,
            "center": center, "entities": center, "rrf_k": RRF_K, "seeds": EXPANSION_SEEDS, "question": question}
    expand = "fact" in kinds
    here = tuple(n for n in names if not n.startswith(BESIDE_KINDS))
    beside = [graph.beside(_index_channels, graph, args, of_kind, retry=retry)
              for kind in BESIDE_KINDS if (of_kind := tuple(n for n in names if n.startswith(kind)))]
    rows: dict[str, dict[str, Any]] = {}
    later = False
    if here:
        rows, later = _index_channels(graph, args, here, expand=expand, retry=retry)
    elif center and expand:
        rows, _ = _index_channels(graph, args, (), expand=True)
    for pending in beside:
        rows.update(pending.result()[0])
    local_text.answer(graph, args, rows, expand=later)  # the expansion after a small group's entity hits
    out = _items(rows)
    if here and expand:
        seeds = list(dict.fromkeys([*center, *_rrf_order([out[n] for n in here if n.startswith("entity")])
                                    [:EXPANSION_SEEDS]]))
        if seeds != (rows.get("fact_expansion", {}).get("detail") or {}).get("seeds"):
            # A deeper entity channel changed the seeds the query expanded from: expand again (only then).
            out.update(_items(_index_channels(graph, {**args, "entities": seeds}, (), expand=True)[0]))
    return {n: out[n] for n in [*names, "fact_expansion"] if n in out}


def _items(rows: dict[str, dict[str, Any]]) -> dict[str, list[_Item]]:
    return {name: [_Item(_KIND_OF_CHANNEL[name.split("_")[0]], h["uuid"], h) for h in row["hits"]]
            for name, row in rows.items()}


_KIND_OF_CHANNEL: dict[str, HitKind] = {"fact": "fact", "entity": "entity", "passage": "episode"}


def _index_channels(graph: Graph, args: dict[str, Any], names: tuple[str, ...], expand: bool = False,
                    retry: dict[str, str] | None = None) -> tuple[dict[str, dict[str, Any]], bool]:
    """Run index channels in one round trip (no names: the expansion alone, from ``args["entities"]``).

    A channel left short by the group and time filters while its index had more entries (the index is shared
    by every group: a small group beside a large one can have its matches crowded out of the first k) asks
    once more: a full-text channel with the group required inside Lucene (cheap for a small
    group, and not paid by a large one whose first ask suffices), a vector channel as deep as its first ask's
    yield says (``_deeper``), and again while still short. Every short channel asks again in one more round
    trip, whatever their number. Short means fewer hits
    than the caller asked for (``want``), while ``limit`` hits per channel are kept for the ranker. A vector
    channel of a group with at most ``graph.vector_scan_max`` items of its kind scans them instead of asking the
    index, and its full-text channel asks the index for the group's own matches at once (``exact``): these
    answers are complete, and are never asked again. A group found larger is remembered for a while and asks the
    index alone (graph/nearest.py).
    ``retry``: each full-text channel's Lucene query with the group inside, for that second ask.
    A small group's full-text channels come back without hits (``exact``, with the group's statistics):
    graph/local_text.py answers them.
    Returns the channels' rows and whether the expansion is left for that answer (its seeds need the small
    group's entity full-text hits).
    """
    group = args["group_id"]
    scanning = tuple(n for n in names if nearest.scans(graph, group, n.split("_")[0]))
    args = {**args, "scan_max": graph.vector_scan_max, "scan_cap": graph.vector_scan_max + 1,
            "rerank": graph.vector_rerank}
    # A small group's entity full-text hits come in a second query (graph/local_text.py): the expansion from the
    # best entities goes with them then.
    later = expand and "entity_fulltext" in scanning
    cypher = q.index_channels(names, expand and not later, scanning) if names else q.FACT_EXPANSION
    rows = {row["channel"]: row for row in _rows(graph, cypher, args)}
    for name, row in rows.items():
        if name in scanning and not row["exact"]:  # the group is larger than the threshold for this kind
            nearest.found_large(graph, group, name.split("_")[0])
    answered, asked, first = rows, args, True
    while answered:
        again: dict[str, Any] = {}
        deepened = []
        for name, row in answered.items():
            prefix, text = name.split("_")[0], name.endswith("_fulltext")
            depth = f"kt_{prefix}" if text else f"k_{prefix}"
            # short: fewer hits than asked for (after a sized ask: than DEEPEN_TO says)
            if name in names and not row["exact"] and len(row["hits"]) < args["want" if first else DEEPEN_TO] \
                    and row["raw"] >= asked[depth] and asked[depth] < MAX_INDEX_DEPTH \
                    and (first or not text):  # a full-text channel asks again once
                if text:  # the group required inside Lucene, as deep as before
                    again[f"{prefix}_lucene"] = (retry or {})[f"{prefix}_lucene"]
                else:
                    again[depth] = _deeper(row["raw"], len(row["hits"]), args[DEEPEN_TO])
                deepened.append(name)
        if not deepened:
            break
        # every short channel asks again in one more round trip
        asked, first = {**asked, **again}, False
        answered = {row["channel"]: row for row in _rows(graph, q.index_channels(tuple(deepened)), asked)}
        rows.update(answered)
    return rows, later


def _deeper(raw: int, kept: int, need: int) -> int:
    """How deep a short vector channel asks again (graph/read.py ``sized_depth`` with DEEPEN_MARGIN)."""
    return sized_depth(raw, kept, need, DEEPEN_MARGIN)


def _rows(graph: Graph, cypher: str, args: dict[str, Any]) -> list[dict[str, Any]]:
    return graph.fetch(cypher, **args)


def _hydrate(graph: Graph, params: dict[str, Any], items: list[_Item],
             passages: list[dict[str, Any]]) -> tuple[list[_Item], dict[str, dict[str, Any]]]:
    """Read the ranked winners whole with their provenance episodes, every kind in one round trip; an entity
    cites its mentions inside ``passages`` (the relevant ones, best first).

    An item deleted since the channels ran drops out. Returns the items and the episodes by uuid.
    """
    wanted: dict[str, list[str]] = {"fact": [], "entity": [], "episode": []}
    for item in items:
        wanted[item.kind].append(item.uuid)
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    episodes: dict[str, dict[str, Any]] = {}
    if items:
        found = _rows(graph, q.HITS_BY_UUID, {
            "group_id": params["group_id"], "with_embedding": params["with_embedding"], "per_item": MAX_PROVENANCE,
            "fact_uuids": wanted["fact"], "entity_uuids": wanted["entity"], "passage_uuids": wanted["episode"],
            "passages": passages})
        for r in found:
            for ep in r["provenance_episodes"]:
                episodes.setdefault(ep["uuid"], native(ep))
            for snippet in r["snippets"]:
                if snippet is not None:
                    episodes[snippet["key"].partition(":")[0]].setdefault("snippets", {})[snippet["key"]] = \
                        snippet["text"]
            rows[(r["kind"], r["row"]["uuid"])] = native(r["row"])
    kept = []
    for item in items:
        row = rows.get((item.kind, item.uuid))
        if row is not None:
            item.embedding = row.pop("embedding", None)
            item.row = row
            kept.append(item)
    return kept, episodes


def _rrf_order(lists: list[list[_Item]]) -> list[str]:
    """Uuids in fused order, without touching the items (used to pick expansion seeds)."""
    scores: dict[str, float] = {}
    for items in lists:
        for position, item in enumerate(items, start=1):
            scores[item.uuid] = scores.get(item.uuid, 0.0) + 1.0 / (RRF_K + position)
    return sorted(scores, key=lambda u: (-scores[u], u))


def _candidates(ranked: dict[str, list[_Item]]) -> list[Candidate]:
    """One candidate per hit, whichever channels found it: its full-text scores, semantic scores and place,
    and its reciprocal-rank fusion (k=60) as the tie-break."""
    found: dict[tuple[str, str], Candidate] = {}
    for channel, items in ranked.items():
        for position, item in enumerate(items, start=1):
            c = found.get((item.kind, item.uuid))
            if c is None:
                c = found[(item.kind, item.uuid)] = Candidate(kind=item.kind, uuid=item.uuid)
            c.channels.append(channel)
            c.fusion += 1.0 / (RRF_K + position)
            hit = item.row
            if channel.endswith("_fulltext"):
                c.text[channel] = float(hit["score"])
            if not c.semantic and "sim" in hit:
                c.semantic = [hit["sim"], hit["sim_context"]] if item.kind == "episode" else [hit["sim"]]
            if c.said_at is None and hit.get("said_at"):
                c.said_at = as_utc(datetime.fromisoformat(hit["said_at"]))
            if item.kind == "episode" and c.episode is None:
                c.episode, c.start, c.end = hit.get("episode"), hit.get("start"), hit.get("end")
    return list(found.values())


def _text_channels(ranked: dict[str, list[_Item]]) -> dict[str, list[str]]:
    """The full-text channels asked for each hit kind."""
    out: dict[str, list[str]] = {}
    for channel in ranked:
        if channel.endswith("_fulltext"):
            out.setdefault(_KIND_OF_CHANNEL[channel.split("_")[0]], []).append(channel)
    return out


def _item(c: Candidate) -> _Item:
    item = _Item(c.kind, c.uuid, {})  # type: ignore[arg-type]
    item.score, item.channels = c.score, c.channels
    return item


def _mmr(items: list[_Item], limit: int, lam: float) -> list[_Item]:
    """Greedy MMR on the fused list: relevance is the fused score, redundancy the cosine to picked items."""
    if not items:
        return items
    top = max(i.score for i in items)
    vecs = [None if i.embedding is None else _unit(np.asarray(i.embedding, dtype=np.float32)) for i in items]
    picked: list[int] = []
    remaining = list(range(len(items)))
    while remaining and len(picked) < limit:
        def value(idx: int) -> float:
            v = vecs[idx]
            redundancy = max((float(v @ vecs[j]) for j in picked if v is not None and vecs[j] is not None),
                             default=0.0)
            return lam * items[idx].score / top - (1 - lam) * redundancy
        best = max(remaining, key=value)
        picked.append(best)
        remaining.remove(best)
    return [items[i] for i in picked] + [items[i] for i in remaining]


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n else v


def _spans(item: _Item) -> list[tuple[str, int | None, int | None]]:
    if item.kind == "episode":
        return [(item.row["episode_uuid"], item.row["start"], item.row["end"])]
    if item.kind == "fact":
        spans: list[tuple[str, int | None, int | None]] = []
        for ev in item.row.get("evidence") or []:
            ep, _, rest = ev.partition(":")
            start, _, end = rest.partition(":")
            if start.isdigit() and end.isdigit():
                spans.append((ep, int(start), int(end)))
        covered = {s[0] for s in spans}
        spans += [(ep, None, None) for ep in item.row.get("episodes") or [] if ep not in covered]
        return spans[:MAX_PROVENANCE]
    return [(m["episode_uuid"], *_first_span(m.get("spans"))) for m in item.row.get("mentions", [])]


def _first_span(flat: list[int] | None) -> tuple[int | None, int | None]:
    return (flat[0], flat[1]) if flat and len(flat) >= 2 else (None, None)


def _parsed(episode: dict[str, Any], field: str, empty: str) -> Any:
    """A JSON field of an episode row (``messages_json``, ``metadata_json``), parsed once per answer: several
    hits often share an episode."""
    key = f"{field}:parsed"
    if key not in episode:
        episode[key] = json.loads(episode.get(field) or empty)
    return episode[key]


def provenance_for(episode: dict[str, Any], start: int | None, end: int | None,
                   speaker: str | None = None) -> Provenance:
    """Locate a span inside an episode: the quoted text and, for chat, the messages it covers."""
    messages = []
    if start is not None and end is not None:
        for index, m in enumerate(_parsed(episode, "messages_json", "[]")):
            m_start, m_end = m.get("start", 0), m.get("end", 0)
            if (m_start < end and m_end > start) or (start == end and m_start <= start <= m_end):
                messages.append(MessageRef(index=index, speaker=m.get("speaker"), text=m.get("text") or "",
                                           timestamp=m.get("timestamp"), start=m_start, end=m_end,
                                           metadata=m.get("metadata") or {}))
    speakers = episode.get("speakers") or []
    if speaker is None:
        speaker = messages[0].speaker if messages else (speakers[0] if len(speakers) == 1 else None)
    return Provenance(
        episode_uuid=episode["uuid"], source_uuid=episode.get("source_uuid"), source_name=episode.get("source_name"),
        seq=episode.get("seq"), kind=episode.get("kind"), reference_time=episode.get("reference_time"),
        start=start, end=end, text=episode.get("snippets", {}).get(f"{episode['uuid']}:{start}:{end}"), speaker=speaker,
        metadata=dict(_parsed(episode, "metadata_json", "{}")), messages=messages)


def _hit(item: _Item, episodes: dict[str, dict[str, Any]]) -> SearchHit:
    prov = []
    for ep, start, end in _spans(item):
        if ep in episodes:
            speaker = item.row.get("speaker") if item.kind == "episode" else None
            prov.append(provenance_for(episodes[ep], start, end, speaker))
    row = {k: v for k, v in item.row.items() if k not in ("score", "mentions")}
    said = [p.reference_time for p in prov if p.reference_time is not None]
    hit = SearchHit(kind=item.kind, score=round(item.score, 6), channels=item.channels, provenance=prov,
                    said_at=min(said, default=None))
    if item.kind == "fact":
        hit.fact = Fact(**row)
    elif item.kind == "entity":
        hit.entity = Entity(**{k: v for k, v in row.items() if k in Entity.model_fields})
    else:
        hit.episode = PassageHit(**{k: v for k, v in row.items() if k in PassageHit.model_fields})
    return hit


def fact_with_provenance(graph: Graph, group_id: str, uuid: str) -> SearchHit | None:
    """One fact with where it came from (the spans, messages, speakers and sources that state it), read the
    way search reads its winners; None when the group holds no such fact."""
    kept, episodes = _hydrate(graph, {"group_id": group_id, "with_embedding": False}, [_Item("fact", uuid, {})], [])
    return _hit(kept[0], episodes) if kept else None


def brute_force_fact_scan(graph: Graph, group_id: str, embedding: list[float], limit: int = 10) -> list[dict]:
    """The same ranking as the fact vector channel, by scanning every fact (for benchmarks only)."""
    return exact_channel(graph, group_id, "fact", embedding, limit)


def exact_channel(graph: Graph, group_id: str, kind: str, embedding: list[float], limit: int = 10) -> list[dict]:
    """What a vector channel ("fact", "entity", "passage") would rank first if its index were exact: every item
    of the group it covers, by cosine (``uuid``, ``score``; for benchmarks only)."""
    return graph.query(q.BRUTE_FORCE_BY_KIND[kind], group_id=group_id, embedding=embedding, limit=limit)


def brute_force_scan(graph: Graph, group_id: str, embedding: list[float], limit: int = 10) -> list[dict]:
    """A query answered without the vector indexes: every embedded fact, entity and passage of the group
    scored by cosine and ranked together, `kind`, `uuid`, `score` (for benchmarks only)."""
    return graph.query(q.BRUTE_FORCE_ALL, group_id=group_id, embedding=embedding, limit=limit)


def fact_vector_channel(graph: Graph, group_id: str, embedding: list[float], limit: int = 10) -> list[dict]:
    """The fact vector channel alone, over every fact of the group (history included), with the over-fetch
    ``search`` uses: what ``brute_force_fact_scan`` ranks exactly, through the index (for benchmarks only)."""
    return vector_channel(graph, group_id, "fact", embedding, limit)


def vector_channel(graph: Graph, group_id: str, kind: str, embedding: list[float], limit: int = 10,
                   depth: int | None = None, rerank: bool | None = None) -> list[dict]:
    """One vector channel alone, through its index (facts with their history), asking the index ``depth``
    entries (by default the over-fetch ``search`` uses), its candidates ordered by exact cosine or not
    (``rerank``, by default ``graph.vector_rerank``): each hit's ``score`` and ``sim`` (its exact cosine on the
    same scale), in the channel's order (for benchmarks only)."""
    now = utcnow()
    rerank = graph.vector_rerank if rerank is None else rerank
    depth = depth or _depth(kind, limit)
    rows = graph.query(q.INDEX_CHANNELS[f"{kind}_vector"], group_id=group_id, embedding=embedding, as_of=now,
                       known_at=now, user_as_of=None, user_known_at=None, include_history=True, types=None,
                       predicates=None, said_after=None, said_before=None, agent=None, **story_params(None),
                       with_embedding=False, limit=limit, rerank=rerank, **{f"k_{kind}": depth, f"kt_{kind}": depth})
    return rows[0]["hits"]
