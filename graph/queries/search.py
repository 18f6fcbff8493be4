"""Hybrid search channels: full-text (BM25) and vector indexes over facts, entities and passages, plus
graph expansion from entities. Every value is a parameter; index names are constants.

Neo4j 5.26 vector indexes are not filtered, so each channel over-fetches ($k_<kind>) and then filters by group,
time and type; the caller sizes the depth. A vector channel of a group with few items of its kind (at most
$scan_max) scans the group's own instead, exactly (``SCANNING_CHANNELS``). Channels return only uuid and score,
and several run as one query (``index_channels``): the few fused winners are read whole afterwards
(``HITS_BY_UUID``) with the quoted spans of their provenance, which keeps every reply small.
"""

from functools import cache

from strata.graph.queries.read import TEMPORAL_FILTER

FACT_HIT_FILTER = """
  r.group_id = $group_id
  AND ($said_after IS NULL OR r.valid_at >= $said_after) AND ($said_before IS NULL OR r.valid_at < $said_before)
  AND ($predicates IS NULL OR r.predicate IN $predicates)
  AND ($types IS NULL OR s.type IN $types OR o.type IN $types)
  AND ($agent IS NULL OR $agent IN coalesce(r.agents, []))
  AND """ + TEMPORAL_FILTER

# The fields of a hit, as the body of a map literal (the hydration query returns one map per hit, whatever its kind).
FACT_HIT_MAP = """
uuid: r.uuid, group_id: r.group_id, subject_uuid: s.uuid, subject_name: s.name, predicate: r.predicate,
object_uuid: o.uuid, object_name: o.name, fact: r.fact, valid_at: toString(r.valid_at),
invalid_at: toString(r.invalid_at), created_at: toString(r.created_at),
invalidated_at: toString(r.invalidated_at), invalidated_by: r.invalidated_by,
expired_at: toString(r.expired_at), confidence: r.confidence, episodes: r.episodes, asserted_by: r.asserted_by,
agents: r.agents, extractor: r.extractor, negated: coalesce(r.negated, false), evidence: r.evidence,
predicate_text: r.predicate_text, story_at: r.story_at, story_chapter: r.story_chapter,
story_until: r.story_until, role: r.role,
embedding: CASE WHEN $with_embedding THEN r.fact_embedding END
"""

def _similarity(vector: str) -> str:
    """Cosine of the query's vector and ``vector`` rescaled to [0, 1] as the vector indexes score; null without
    either (a full-text hit then still carries its semantic score, so the ranker sees every hit whole)."""
    return (f"CASE WHEN $embedding IS NULL OR {vector} IS NULL THEN null "
            f"ELSE vector.similarity.cosine({vector}, $embedding) END")


# Facts around the given entities (matched by the entity channels or named by the client as `center`), the
# closest to the query first (they compete on relevance, not on how many channels reached them). A body over
# the variable `entities`: alone (FACT_EXPANSION) or after the entity channels.
_EXPANSION = """
CALL (entities) {
  UNWIND range(0, size(entities) - 1) AS i
  MATCH (c:Entity {uuid: entities[i]})-[r:RELATES_TO]-(:Entity)
  WITH i, r, startNode(r) AS s, endNode(r) AS o
  WHERE """ + FACT_HIT_FILTER + """
  WITH r, min(i) AS rank_of_entity
  WITH r, rank_of_entity, """ + _similarity("r.fact_embedding") + """ AS sim
  ORDER BY sim DESC, rank_of_entity, r.valid_at DESC, r.uuid LIMIT $limit
  RETURN collect({uuid: r.uuid, score: 1.0 / (1 + rank_of_entity), sim: sim, said_at: toString(r.valid_at)})
         AS expansion
}
"""

FACT_EXPANSION = """
WITH $entities AS entities
""" + _EXPANSION + """
RETURN 'fact_expansion' AS channel, 0 AS raw, true AS exact, expansion AS hits, {seeds: entities} AS detail
"""

ENTITY_HIT_MAP = """
uuid: e.uuid, group_id: e.group_id, name: e.name, key: e.key, type: e.type, aliases: e.aliases,
summary: e.summary, created_at: toString(e.created_at), updated_at: toString(e.updated_at),
embedding: CASE WHEN $with_embedding THEN e.name_embedding END
"""

ENTITY_FILTER = """
e.group_id = $group_id AND e.expired_at IS NULL AND ($types IS NULL OR e.type IN $types)
  AND ($user_known_at IS NULL OR e.created_at <= $user_known_at)
"""

PASSAGE_FILTER = """
p.group_id = $group_id
WITH p, score, exact
MATCH (ep:Episode {uuid: p.episode_uuid})
WHERE ep.status = 'done' AND ep.group_id = $group_id
  AND ($user_as_of IS NULL OR ep.reference_time <= $user_as_of)
  AND ($story_at IS NULL OR (ep.source_uuid = $story_source AND ep.story_position + p.start < $story_at))
  AND ($user_known_at IS NULL OR ep.created_at <= $user_known_at)
  AND ($said_after IS NULL OR ep.reference_time >= $said_after)
  AND ($said_before IS NULL OR ep.reference_time < $said_before)
  AND ($agent IS NULL OR ep.agent = $agent)
"""

PASSAGE_HIT_MAP = """
uuid: p.uuid, episode_uuid: p.episode_uuid, start: p.start, end: p.end, text: p.text,
speaker: p.speaker, notes: [(p)-[:HAS_NOTE]->(n:Note) | n.text],
embedding: CASE WHEN $with_embedding THEN p.embedding END
"""

# Each index channel answers one row: its name, how many entries the index gave (`raw`: equal to its depth,
# $k_<kind> for vectors and $kt_<kind> for full text, means the index had more, so a short filtered list is worth
# another ask), whether the answer is already complete (`exact`: a scan of the group's own items) and the filtered
# hits, best first.
# kind -> (variable, filter, full-text index, vector index); a full-text channel reads $<kind>_lucene.
# Passages are found through their context (the passage before it and itself): it holds the passage's own
# words and what they answer, and two channels instead of four halve the passages' share of a search's cost
# for the same recall (docs/benchmarks.md). The passage's own vector still scores every hit (`sim`).
_CHANNEL_KINDS = {"fact": ("r", FACT_HIT_FILTER, "fact_text", "fact_embedding"),
                  "entity": ("e", ENTITY_FILTER, "entity_text", "entity_name_embedding"),
                  "passage": ("p", PASSAGE_FILTER, "passage_context_text", "passage_context_embedding")}
# What each hit carries for the ranker besides its channel score: its semantic scores (whichever channel
# found it) and, for passages, where it lies (the episode, for the episode's weight; the span, for entities'
# provenance).
_HIT_SIMS = {
    "r": "sim: " + _similarity("r.fact_embedding"),
    "e": "sim: " + _similarity("e.name_embedding"),
    "p": "sim: " + _similarity("p.embedding") + ", sim_context: " + _similarity("p.context_embedding"),
}
_HIT_PLACE = {"r": "said_at: toString(said_at)", "e": "",
              "p": "episode: p.episode_uuid, start: p.start, end: p.end, said_at: toString(said_at)"}
_HIT_FEATURES = {var: ", ".join(x for x in (sims, _HIT_PLACE[var]) if x) for var, sims in _HIT_SIMS.items()}
# When a hit was said (a passage: its episode's reference time) or became true (a fact: valid time), kept
# past the filter for the ranker's time window.
_SAID_AT = {"r": "r.valid_at", "e": "null", "p": "ep.reference_time"}


# A group's own items of each kind, through a group index (facts: fact_group; entities: entity_group; passages:
# their episodes through episode_group), and the property the vector index covers.
_OWN = {"r": "MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id",
        "e": "MATCH (e:Entity) WHERE e.group_id = $group_id",
        "p": "MATCH (own_ep:Episode) WHERE own_ep.group_id = $group_id MATCH (own_ep)-[:HAS_PASSAGE]->(p:Passage)"}
_VECTOR_PROPERTY = {"r": "fact_embedding", "e": "name_embedding", "p": "context_embedding"}


def _nearest(var: str, call: str, yielded: str) -> str:
    """``raw`` (the candidates, {var: item, score: index-scale cosine}) and ``exact``, from the shared index
    (``call``) or, for a group with at most $scan_max items of this kind, from every one of its own items.

    The index holds every group's items and cannot filter, so its nearest k may all be other groups'; the scan
    is exact whatever the neighbours hold. Which one runs is read per search from a bounded look at the group
    index (``own_look``: $scan_max + 1 entries at most, so a large group pays a fixed, small price; one look per
    kind and query, which the kind's full-text channel shares); the branch not taken costs nothing (its input
    row is filtered out before the procedure call).
    """
    return _NEAREST.format(var=var, prop=_VECTOR_PROPERTY[var], call=call, yielded=yielded)


# The bounded look at a group's own items of one kind, once per query for both of its channels (``own_<var>``).
_OWN_LOOK = """
CALL () {{
  {own}
  WITH {var} LIMIT $scan_cap
  RETURN collect({var}) AS own_{var}
}}
"""


def own_look(var: str) -> str:
    return _OWN_LOOK.format(own=_OWN[var], var=var)


_NEAREST = """
WITH own_{var} AS own
CALL (own) {{
  WITH own WHERE size(own) <= $scan_max
  UNWIND own AS {var}
  WITH {var} WHERE {var}.{prop} IS NOT NULL
  RETURN collect({{{var}: {var}, score: vector.similarity.cosine({var}.{prop}, $embedding)}}) AS scanned
}}
CALL (own) {{
  WITH own WHERE size(own) > $scan_max
  {call} YIELD {yielded}, score
  RETURN collect({{{var}: {yielded}, score: score}}) AS indexed
}}
WITH scanned + indexed AS raw, size(own) <= $scan_max AS exact
"""


# A full-text document's texts, one per field of the channel (lucene.TEXT_FIELDS order), '' where absent: the
# group-local BM25 of a small group (graph/bm25.py) reads them. Aliases are a list, indexed as one field.
_TEXTS = {"r": ("coalesce({v}.fact, '')", "coalesce({v}.predicate, '')"),
          "e": ("coalesce({v}.name, '')", "reduce(s = '', a IN coalesce({v}.aliases, []) | s + ' ' + a)",
                "coalesce({v}.summary, '')"),
          "p": ("coalesce({v}.context, '')",)}


def _texts(var: str, v: str) -> str:
    return "[" + ", ".join(t.format(v=v) for t in _TEXTS[var]) + "]"


# A small group's full-text channel asks no index: its documents are scored in process (graph/local_text.py) from
# a table of the group's own documents kept there, which the group's text version (graph/text_version.py: set
# anew by every write to its texts) and the statistics returned here (the number of documents holding each field
# and their total length, in characters) tell current or not. A larger group asks the index.
_OWN_TEXT = """
WITH size(own_{var}) <= $scan_max AS small, own_{var}
WITH small, CASE WHEN small THEN [{var} IN own_{var} | {texts}] ELSE [] END AS docs
WITH small, [i IN range(0, {fields} - 1) | {{docs: size([t IN docs WHERE t[i] <> '']),
                                           length: reduce(n = 0, t IN docs | n + size(t[i]))}}] AS stats
CALL (small) {{
  WITH small WHERE NOT small
  {call} YIELD {yielded}, score
  RETURN collect({{{var}: {yielded}, score: score}}) AS raw
}}
CALL (small) {{
  OPTIONAL MATCH (tv:TextVersion {{group_id: $group_id}}) WHERE small
  RETURN tv.version AS version
}}
WITH raw, small AS exact, CASE WHEN small THEN {{stats: stats, version: version}} END AS detail
"""


def _own_text(var: str, call: str, yielded: str) -> str:
    """A full-text channel of a group with at most $scan_max items of its kind returns the group's statistics
    (``detail``) and no hits: they are scored over the group's own documents in process (graph/local_text.py),
    since Lucene scores with index-wide statistics, which a neighbour moves, and then read in that order
    (``OWN_TEXT_HITS``). A larger group asks the shared index as before."""
    return _OWN_TEXT.format(var=var, call=call, yielded=yielded, texts=_texts(var, var), fields=len(_TEXTS[var]))


# Every document of a small group of one kind, with its texts ($group_id): what graph/local_text.py scores.
OWN_TEXTS = {kind: _OWN[var] + f"\nRETURN {var}.uuid AS uuid, {_texts(var, var)} AS texts"
             for kind, (var, *_) in {"fact": ("r",), "entity": ("e",), "passage": ("p",)}.items()}


def _index_channel(kind: str, method: str, scan: bool = False) -> str:
    """One channel's query: its name, ``raw`` (how many entries the index gave: equal to the depth asked means
    it had more), ``exact`` (the answer is complete: a scan of the group's own items, or a small group's in-group
    full-text answer; never asked again) and the filtered hits, best first. ``scan``: the channel looks at how
    many items of its kind the group has, and a small group's vector channel scans them, its full-text channel
    asks for its own matches only."""
    var, where, text_index, vector_index = _CHANNEL_KINDS[kind]
    target, yielded = ("Relationships", "relationship") if var == "r" else ("Nodes", "node")
    call = (f"CALL db.index.fulltext.query{target}('{text_index}', ${kind}_lucene, {{limit: $kt_{kind}}})"
            if method == "fulltext" else f"CALL db.index.vector.query{target}('{vector_index}', $k_{kind}, $embedding)")
    if method == "vector" and scan:
        source = _nearest(var, call, yielded)
    elif scan:
        source = _own_text(var, call, yielded)
    else:
        source = (call + f" YIELD {yielded}, score\n"
                  f"WITH collect({{{var}: {yielded}, score: score}}) AS raw\nWITH raw, false AS exact\n")
    ends = ", startNode(hit.r) AS s, endNode(hit.r) AS o" if var == "r" else ""
    # A scan's candidates (every item of the group) are sorted first and filtered only until $limit pass: the
    # filter reads several properties an item (a passage's episode), most of a scan's cost when it ran over all.
    # The index's few candidates come sorted and are filtered as before.
    scanned = scan and method == "vector"
    first, then = ("  WITH hit ORDER BY hit.score DESC\n", "") if scanned else ("", "ORDER BY score DESC ")
    own_text = scan and method == "fulltext"
    # $rerank: the index's candidates that pass the filter, scored by their exact cosine (the index's own score
    # comes from its int8-quantized copy); a scan's scores are exact already.
    score = (f"CASE WHEN $rerank AND NOT exact THEN vector.similarity.cosine({var}.{_VECTOR_PROPERTY[var]}, "
             "$embedding) ELSE score END" if method == "vector" else "score")
    return (source +
            "CALL (raw, exact) {\n"
            "  UNWIND raw AS hit\n" + first +
            f"  WITH hit.{var} AS {var}, hit.score AS score{ends}\n"
            f"  WHERE {where}\n"
            f"  WITH {var}, {score} AS score, {_SAID_AT[var]} AS said_at {then}LIMIT $limit\n"
            f"  RETURN collect({{uuid: {var}.uuid, score: score, {_HIT_FEATURES[var]}}}) AS hits\n"
            "}\n"
            f"RETURN '{kind}_{method}' AS channel, size(raw) AS raw, exact, hits, "
            f"{'detail' if own_text else 'null'} AS detail\n")


# A small group's full-text hits: its documents in the order of their group-local scores ($<kind>_ordered, with
# $<kind>_scores), filtered until $limit pass, as the vector scans are. One branch per kind, one round trip.
_BY_UUID = {"r": "MATCH (s)-[r:RELATES_TO {uuid: id}]->(o)", "e": "MATCH (e:Entity {uuid: id})",
            "p": "MATCH (p:Passage {uuid: id})"}


def _own_text_hits(kind: str) -> str:
    var, where = _CHANNEL_KINDS[kind][:2]
    return (f"UNWIND range(0, size(${kind}_ordered) - 1) AS i\n"
            f"WITH ${kind}_ordered[i] AS id, ${kind}_scores[i] AS score, true AS exact\n"
            f"{_BY_UUID[var]}\n"
            f"WHERE {where}\n"
            f"WITH {var}, score, {_SAID_AT[var]} AS said_at LIMIT $limit\n"
            f"RETURN '{kind}_fulltext' AS channel, collect({{uuid: {var}.uuid, score: score, {_HIT_FEATURES[var]}}})"
            " AS hits\n")


# Expansion seeds from the entity channels in `found`: $center first, then the top $seeds entities by reciprocal
# rank fusion (1 / ($rrf_k + rank)), ties by uuid, as graph/search.py fuses.
_RANKED_SEEDS = """CALL (found) {
  UNWIND found AS c
  WITH c WHERE c.channel STARTS WITH 'entity_'
  UNWIND range(0, size(c.hits) - 1) AS i
  WITH c.hits[i].uuid AS uuid, sum(1.0 / ($rrf_k + i + 1)) AS rrf
  ORDER BY rrf DESC, uuid LIMIT $seeds
  RETURN collect(uuid) AS ranked
}
WITH found, $center + [u IN ranked WHERE NOT u IN $center] AS entities
"""


@cache
def own_text_hits(kinds: tuple[str, ...], expand: bool = False) -> str:
    """The small group's full-text channels of ``kinds`` in one query; with ``expand``, the expansion from the
    best entities too ($entity_found: the other entity channels' hits, as {channel, hits}), which needs the
    entity full-text hits first."""
    union = "CALL () {\n" + "\nUNION ALL\n".join(_own_text_hits(k) for k in kinds) + "}\n"
    if not expand:
        return union + "RETURN channel, hits, null AS detail"
    return (union + "WITH collect({channel: channel, hits: hits}) AS own\n"
            + "WITH own, own + $entity_found AS found\n" + _RANKED_SEEDS.replace("WITH found,", "WITH own,")
            + _EXPANSION
            + "UNWIND own + [{channel: 'fact_expansion', hits: expansion, detail: {seeds: entities}}] AS c\n"
            + "RETURN c.channel AS channel, c.hits AS hits, c.detail AS detail")


INDEX_CHANNELS = {f"{kind}_{method}": _index_channel(kind, method)
                  for kind in _CHANNEL_KINDS for method in ("fulltext", "vector")}
# The channels that look at the group's size first: a small group's vector channels scan its own items instead
# of asking the shared index, its full-text channels ask the index for its own matches only.
_SCANNING_BRANCHES = {f"{kind}_{method}": _index_channel(kind, method, scan=True)
                      for kind in _CHANNEL_KINDS for method in ("fulltext", "vector")}
SCANNING_CHANNELS = {name: own_look(_CHANNEL_KINDS[name.split("_")[0]][0]) + branch
                     for name, branch in _SCANNING_BRANCHES.items()}


# Expansion seeds from the entity channels among those of the query.
_SEEDS = """
WITH collect({channel: channel, raw: raw, exact: exact, hits: hits, detail: detail}) AS found
""" + _RANKED_SEEDS


@cache
def index_channels(names: tuple[str, ...], expand: bool = False, scanning: tuple[str, ...] = ()) -> str:
    """Several index channels in one query (one round trip): a UNION of the constant channel queries above.

    With ``expand``, the facts around the channels' best entities come back as one more channel row,
    ``fact_expansion``, from the same round trip. The vector channels named in ``scanning`` read a small group's
    own items exactly ($scan_max, $scan_cap = $scan_max + 1) instead of the shared index.
    """
    chosen = [_SCANNING_BRANCHES[n] if n in scanning else INDEX_CHANNELS[n] for n in names]
    # one look per kind at the group's own items, shared by the kind's full-text and vector channels
    looked = list(dict.fromkeys(_CHANNEL_KINDS[n.split("_")[0]][0] for n in names if n in scanning))
    union = ("".join(own_look(var) for var in looked) + "CALL (" + ", ".join(f"own_{var}" for var in looked)
             + ") {\n" + "\nUNION ALL\n".join(chosen) + "\n}\n")
    if not expand:
        return union + "RETURN channel, raw, exact, hits, detail"
    return (union + _SEEDS + _EXPANSION
            + "UNWIND found + [{channel: 'fact_expansion', raw: 0, exact: true, hits: expansion,\n"
            + "                 detail: {seeds: entities}}] AS c\n"
            + "RETURN c.channel AS channel, c.raw AS raw, c.exact AS exact, c.hits AS hits, c.detail AS detail")


# The fused winners, read whole once the channels (which return only uuid and score) are fused: one query for
# every kind (a UNION, one round trip), a row per hit: its kind, its fields as a map, the episodes its provenance
# points into (a handful per hit) and the quoted spans.
# Times are ISO strings (`toString`), parsed by the pydantic models: the driver's own DateTime hydration cost
# about a millisecond of Python a search (30-odd values).
# Not the episode's content: only the quoted spans travel (`snippets`, keyed "episode:start:end" like evidence),
# and the messages only for chat episodes (to map a span to its message ids). Whole contents were most of a
# search's reply (2-3 KB an episode, up to five episodes a hit).
EPISODE_MAP = """
{uuid: ep.uuid, source_uuid: ep.source_uuid, source_name: coalesce(src.name, ep.source_name), seq: ep.seq,
 kind: ep.kind, speakers: ep.speakers, reference_time: toString(ep.reference_time), metadata_json: ep.metadata_json,
 messages_json: CASE WHEN ep.kind = 'chat' THEN ep.messages_json END}
"""

_SNIPPET = """
CASE WHEN {start} >= 0 AND {end} >= {start}
     THEN {{key: ep.uuid + ':' + toString({start}) + ':' + toString({end}),
           text: substring(ep.content, {start}, {end} - {start})}} END
"""

# Evidence keys are "episode:start:end"; evidence episodes come first, then episodes that stated it without a span.
_FACT_HITS = """
UNWIND $fact_uuids AS id
MATCH ()-[r:RELATES_TO {uuid: id}]->()
WITH r, startNode(r) AS s, endNode(r) AS o WHERE r.group_id = $group_id
CALL (r) {
  WITH [x IN coalesce(r.evidence, []) | split(x, ':')[0]] + coalesce(r.episodes, []) AS named
  UNWIND reduce(ids = [], x IN named | CASE WHEN x IN ids THEN ids ELSE ids + x END)[..$per_item] AS episode_uuid
  MATCH (ep:Episode {uuid: episode_uuid}) WHERE ep.group_id = $group_id
  OPTIONAL MATCH (src:Source {uuid: ep.source_uuid})
  WITH ep, src, [x IN coalesce(r.evidence, []) WHERE split(x, ':')[0] = ep.uuid
                 | [toInteger(split(x, ':')[1]), toInteger(split(x, ':')[2])]] AS spans
  RETURN collect(""" + EPISODE_MAP + """) AS provenance_episodes,
         reduce(out = [], s IN collect([x IN spans | """ + _SNIPPET.format(start="x[0]", end="x[1]") + """])
                | out + s) AS snippets
}
RETURN 'fact' AS kind, {""" + FACT_HIT_MAP + """} AS row, provenance_episodes, snippets
"""

# Where each entity was mentioned *for this query*: its mentions inside the passages among the hits
# ($passages, best first: {episode, start, end}), cited as those passages, best first. An entity none of whose
# mentions lies in one cites nothing (its mentions are listed by GET /v1/entities/{uuid}): a greeting that
# names it says nothing about the query. Bounded for hub entities: only the passages' episodes are read.
_ENTITY_HITS = """
UNWIND $entity_uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
CALL (e) {
  UNWIND range(0, size($passages) - 1) AS rank
  WITH rank, $passages[rank] AS p
  MATCH (ep:Episode {uuid: p.episode})-[m:MENTIONS]->(e)
  WHERE ep.group_id = $group_id AND ep.status = 'done'
    AND any(j IN range(0, size(m.spans) / 2 - 1) WHERE m.spans[2 * j] < p.end AND m.spans[2 * j + 1] > p.start)
  WITH ep, p, rank ORDER BY rank LIMIT $per_item
  OPTIONAL MATCH (src:Source {uuid: ep.source_uuid})
  RETURN collect({episode_uuid: ep.uuid, spans: [p.start, p.end]}) AS mentions,
         collect(""" + EPISODE_MAP + """) AS provenance_episodes,
         collect(""" + _SNIPPET.format(start="p.start", end="p.end") + """) AS snippets
}
RETURN 'entity' AS kind, {""" + ENTITY_HIT_MAP + """, mentions: mentions} AS row, provenance_episodes, snippets
"""

_PASSAGE_HITS = """
UNWIND $passage_uuids AS id
MATCH (p:Passage {uuid: id}) WHERE p.group_id = $group_id
CALL (p) {
  MATCH (ep:Episode {uuid: p.episode_uuid}) WHERE ep.group_id = $group_id
  OPTIONAL MATCH (src:Source {uuid: ep.source_uuid})
  RETURN collect(""" + EPISODE_MAP + """) AS provenance_episodes,
         collect(""" + _SNIPPET.format(start="p.start", end="p.end") + """) AS snippets
}
RETURN 'episode' AS kind, {""" + PASSAGE_HIT_MAP + """} AS row, provenance_episodes, snippets
"""

HITS_BY_UUID = ("CALL () {\n" + "\nUNION ALL\n".join((_FACT_HITS, _ENTITY_HITS, _PASSAGE_HITS))
                + "}\nRETURN kind, row, provenance_episodes, snippets")

# Exact cosine scans (benchmarks only): every fact of the group, or every embedded item the search's vector
# channels cover (facts, entities, passages), ranked together.
# Per vector channel: every item the channel could return (facts with their history, live entities, passages).
BRUTE_FORCE_BY_KIND = {kind: f"""
{own}{extra}
WITH {var}, vector.similarity.cosine({var}.{prop}, $embedding) AS score WHERE score IS NOT NULL
ORDER BY score DESC LIMIT $limit
RETURN {var}.uuid AS uuid, score
""" for kind, (own, var, prop, extra) in {
    "fact": (_OWN["r"], "r", _VECTOR_PROPERTY["r"], ""),
    "entity": (_OWN["e"], "e", _VECTOR_PROPERTY["e"], " AND e.expired_at IS NULL"),
    "passage": (_OWN["p"], "p", _VECTOR_PROPERTY["p"], "")}.items()}

BRUTE_FORCE_ALL = """
CALL () {
  MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.fact_embedding IS NOT NULL
  RETURN 'fact' AS kind, r.uuid AS uuid, vector.similarity.cosine(r.fact_embedding, $embedding) AS score
  UNION ALL
  MATCH (e:Entity) WHERE e.group_id = $group_id AND e.name_embedding IS NOT NULL
  RETURN 'entity' AS kind, e.uuid AS uuid, vector.similarity.cosine(e.name_embedding, $embedding) AS score
  UNION ALL
  MATCH (p:Passage) WHERE p.group_id = $group_id AND p.context_embedding IS NOT NULL
  RETURN 'episode' AS kind, p.uuid AS uuid, vector.similarity.cosine(p.context_embedding, $embedding) AS score
}
RETURN kind, uuid, score ORDER BY score DESC LIMIT $limit
"""
