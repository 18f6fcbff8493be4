"""Queries around a first load through ``neo4j-admin``: reading a group out to import files, and what the
importer cannot write."""

# A group is every node carrying its group_id, and the relationships between them. Streamed (the driver pulls
# records as they are read); ids are element ids, used only to connect relationships in the files. Both are
# read by a scan of the store, so in the order they were written: the imported store keeps it, and with it the
# order in which indexes break ties between equal scores.
# The group's text version is not exported: a first load sets every group's anew (graph/text_version.py).
EXPORT_NODES = """
MATCH (n) WHERE n.group_id = $group_id AND NOT n:TextVersion
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props
"""

EXPORT_RELATIONSHIPS = """
MATCH ()-[r]->()
WITH r, startNode(r) AS a, endNode(r) AS b
WHERE a.group_id = $group_id AND b.group_id = $group_id
RETURN elementId(a) AS start, elementId(b) AS end, type(r) AS type, properties(r) AS props
"""

# The importer reads an empty array as no property; the Cypher path stores []. Batched: a million facts.
SET_EMPTY_LIST_NODES = """
MATCH (n:$($token)) WHERE n[$key] IS NULL
CALL (n) { SET n += $value } IN TRANSACTIONS OF 50000 ROWS
"""

SET_EMPTY_LIST_RELATIONSHIPS = """
MATCH ()-[r:$($token)]->() WHERE r[$key] IS NULL
CALL (r) { SET r += $value } IN TRANSACTIONS OF 50000 ROWS
"""

USER_NODES = "MATCH (n) WHERE NOT n:SchemaMigration RETURN count(n) AS n"
