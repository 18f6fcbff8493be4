"""Traversal: one hop of a neighbourhood, shortest paths, entity lookups by name, episode and object groups.

Variable-length bounds cannot be parameters in Cypher, so ``SHORTEST_PATHS`` holds one prebuilt query per
allowed depth (integers from this module, never user text).
"""

from strata.graph.queries.read import FACT_FIELDS, TEMPORAL_FILTER

MAX_PATH_DEPTH = 6

NEIGHBOR_HOP = """
UNWIND $frontier AS id
MATCH (c:Entity {uuid: id})-[r:RELATES_TO]-(other:Entity)
WHERE r.group_id = $group_id AND other.expired_at IS NULL AND """ + TEMPORAL_FILTER + """
WITH DISTINCT r, startNode(r) AS s, endNode(r) AS o, other
ORDER BY r.valid_at DESC, r.uuid LIMIT $limit
RETURN """ + FACT_FIELDS + """, other.uuid AS other_uuid
"""

ENTITIES_BY_UUID = """
UNWIND $uuids AS id
MATCH (e:Entity {uuid: id}) WHERE e.group_id = $group_id
RETURN e.uuid AS uuid, e.group_id AS group_id, e.name AS name, e.key AS key, e.type AS type,
       e.aliases AS aliases, e.summary AS summary, e.created_at AS created_at, e.updated_at AS updated_at
"""

_PATHS = """
MATCH (a:Entity {uuid: $from_uuid, group_id: $group_id}), (b:Entity {uuid: $to_uuid, group_id: $group_id})
MATCH p = allShortestPaths((a)-[:RELATES_TO*..DEPTH]-(b))
WHERE all(r IN relationships(p) WHERE r.group_id = $group_id AND """ + TEMPORAL_FILTER + """)
WITH p LIMIT $limit
RETURN [n IN nodes(p) | n.uuid] AS nodes, [r IN relationships(p) | r.uuid] AS facts
"""
SHORTEST_PATHS = {depth: _PATHS.replace("DEPTH", str(depth)) for depth in range(1, MAX_PATH_DEPTH + 1)}

FACTS_BY_UUID = """
UNWIND $uuids AS id
MATCH (s:Entity)-[r:RELATES_TO {uuid: id}]->(o:Entity) WHERE r.group_id = $group_id
RETURN """ + FACT_FIELDS

ENTITY_GROUP = "MATCH (e:Entity {uuid: $uuid}) RETURN e.group_id AS group_id"
FACT_GROUP = "MATCH ()-[r:RELATES_TO {uuid: $uuid}]->() RETURN r.group_id AS group_id"
EPISODE_GROUP = "MATCH (ep:Episode {uuid: $uuid}) RETURN ep.group_id AS group_id"
SOURCE_GROUP = "MATCH (s:Source {uuid: $uuid}) RETURN s.group_id AS group_id"
JOB_GROUP = "MATCH (j:Job {uuid: $uuid}) RETURN j.group_id AS group_id"

ENTITY_TYPES = """
MATCH (e:Entity {group_id: $group_id}) WHERE e.expired_at IS NULL
RETURN e.type AS name, count(*) AS count ORDER BY count DESC, name
"""
