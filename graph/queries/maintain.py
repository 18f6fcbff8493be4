"""Index maintenance after bulk loads: vector indexes rebuilt from the data they cover."""

VECTOR_INDEXES = """
SHOW VECTOR INDEXES YIELD id, name, entityType, labelsOrTypes, properties, options, state
RETURN id, name, entityType, labelsOrTypes[0] AS token, properties[0] AS property,
       options.indexConfig AS config, state
"""

AWAIT_INDEX = "CALL db.awaitIndex($name, $timeout_s)"
