// Memory notes (schema/plan.py NoteWrite): one node per note, hanging off its passage, pointing at its entities.
CREATE CONSTRAINT note_uuid IF NOT EXISTS FOR (n:Note) REQUIRE n.uuid IS UNIQUE;
CREATE INDEX note_group_valid IF NOT EXISTS FOR (n:Note) ON (n.group_id, n.valid_at);
