"""Queries for the migrations runner."""

APPLIED_VERSIONS = """
MATCH (m:SchemaMigration) RETURN m.version AS version, m.name AS name, m.checksum AS checksum
ORDER BY m.version
"""

RECORD_MIGRATION = """
MERGE (m:SchemaMigration {version: $version})
ON CREATE SET m.name = $name, m.checksum = $checksum, m.applied_at = datetime(), m.params = $params
"""

AWAIT_INDEXES = "CALL db.awaitIndexes($timeout_s)"

SHOW_VECTOR_INDEXES = """
SHOW VECTOR INDEXES YIELD name, state, options
RETURN name, state, options.indexConfig['vector.dimensions'] AS dimensions
"""

COUNT_INDEXES = """
SHOW INDEXES YIELD name, type, owningConstraint
WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN count(*) AS n
"""

COUNT_CONSTRAINTS = "SHOW CONSTRAINTS YIELD name RETURN count(*) AS n"
