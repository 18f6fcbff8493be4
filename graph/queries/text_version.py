"""A group's text version: a token set anew by every write to the group's searchable texts (graph/text_version.py)."""

# A fresh random token rather than a counter: a group purged (its record deleted) and written again can never
# come back to a version a process saw before.
BUMP = """
MERGE (v:TextVersion {group_id: $group_id})
SET v.version = randomUUID()
"""

# Several groups at once (an upgrade pass, an import).
BUMP_MANY = """
UNWIND $group_ids AS gid
MERGE (v:TextVersion {group_id: gid})
SET v.version = randomUUID()
"""

# Every group holding entities (a first load: the importer writes no version; facts and passages come with
# their entities and episodes).
BUMP_ALL = """
MATCH (e:Entity) WITH DISTINCT e.group_id AS gid WHERE gid IS NOT NULL
MERGE (v:TextVersion {group_id: gid})
SET v.version = randomUUID()
"""
