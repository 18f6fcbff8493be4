"""Story-clock lookups: a group's books and where a chapter of one ends (docs/story-time.md)."""

# Books of the group whose episodes carry story positions (a book ingested before the story clock has none).
BOOKS = """
MATCH (s:Source {group_id: $group_id}) WHERE s.kind = 'book' AND s.retracted_at IS NULL
  AND EXISTS { MATCH (s)-[:HAS_EPISODE]->(ep:Episode) WHERE ep.story_position IS NOT NULL }
RETURN s.uuid AS uuid, s.name AS name
ORDER BY s.name, s.uuid
"""

# The end of a chapter: the last character of its last window (offsets are exclusive ends).
CHAPTER_END = """
MATCH (ep:Episode {source_uuid: $source_uuid, chapter_index: $chapter})
WHERE ep.story_position IS NOT NULL
RETURN max(ep.span_end) AS end, count(ep) AS windows
"""

CHAPTERS = """
MATCH (ep:Episode {source_uuid: $source_uuid}) WHERE ep.story_position IS NOT NULL AND ep.chapter_index IS NOT NULL
RETURN min(ep.chapter_index) AS first, max(ep.chapter_index) AS last
"""

# The clock of a group, for a time slider: the days on which a stored fact starts or ends (valid time), and
# each book's chapters and length (story time).
CLOCK_DAYS = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $group_id AND r.expired_at IS NULL
UNWIND [r.valid_at, r.invalid_at] AS t
WITH t WHERE t IS NOT NULL
RETURN DISTINCT date(t) AS day
ORDER BY day
LIMIT $limit
"""

CLOCK_BOOKS = """
MATCH (s:Source {group_id: $group_id}) WHERE s.kind = 'book' AND s.retracted_at IS NULL
MATCH (s)-[:HAS_EPISODE]->(ep:Episode) WHERE ep.story_position IS NOT NULL
RETURN s.uuid AS uuid, s.name AS name, min(ep.chapter_index) AS first_chapter, max(ep.chapter_index) AS last_chapter,
       max(ep.span_end) AS length
ORDER BY name, uuid
"""
