"""Cypher of the data upgrades that follow a migration (graph/upgrade.py)."""

# Facts migration 0022 marked: role predicates folded to holds_office, and holds_office facts without a role.
PENDING_OFFICE_FACTS = """
MATCH (s:Entity)-[r:RELATES_TO]->(o:Entity) WHERE r.slot_pending = true
RETURN r.group_id AS group_id, r.uuid AS uuid, s.uuid AS subject_uuid, o.uuid AS object_uuid, o.name AS object_name,
       r.role AS role, coalesce(r.negated, false) AS negated
LIMIT $limit
"""

# An office object ("Mayor of Alvorada") gives way to its organization with the role: the fact keeps its uuid
# and every property on a relationship to the organization (found by key, else created as a new entity).
MOVE_TO_ORGANIZATION = """
UNWIND $rows AS row
MATCH (s:Entity {uuid: row.subject_uuid})-[r:RELATES_TO {uuid: row.uuid}]->(:Entity)
MERGE (org:Entity {group_id: $group_id, key: row.org_key})
ON CREATE SET org.uuid = row.org_uuid, org.group_tag = $group_tag, org.name = row.org_name,
              org.type = 'Organization', org.aliases = [], org.summary = '', org.description = '',
              org.created_at = $now, org.updated_at = $now, org:Organization
WITH s, r, org, row, properties(r) AS props
DELETE r
CREATE (s)-[n:RELATES_TO]->(org)
SET n = props, n.role = row.role
"""

CLEAR_PENDING = """
UNWIND $uuids AS uuid
MATCH ()-[r:RELATES_TO {uuid: uuid}]->()
REMOVE r.slot_pending
"""

FACT_ENDS = """
UNWIND $uuids AS uuid
MATCH (s:Entity)-[r:RELATES_TO {uuid: uuid}]->(o:Entity)
RETURN s.uuid AS subject_uuid, o.uuid AS object_uuid
"""
