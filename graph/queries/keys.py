"""API keys: stored hashed; the secret itself is never written."""

CREATE_KEY = """
CREATE (k:ApiKey {id: $id, hash: $hash, groups: $groups, rights: $rights, name: $name, created_at: $now})
RETURN k.id AS id
"""

GET_KEY = """
MATCH (k:ApiKey {id: $id}) WHERE k.revoked_at IS NULL
RETURN k.id AS id, k.hash AS hash, k.groups AS groups, k.rights AS rights, k.name AS name
"""

REVOKE_KEY = """
MATCH (k:ApiKey {id: $id}) WHERE k.revoked_at IS NULL SET k.revoked_at = $now RETURN k.id AS id
"""

LIST_KEYS = """
MATCH (k:ApiKey) WHERE k.revoked_at IS NULL
RETURN k.id AS id, k.groups AS groups, k.rights AS rights, k.name AS name, k.created_at AS created_at
ORDER BY k.created_at
"""
