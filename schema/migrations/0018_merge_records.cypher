// Merge records (schema/plan.py MergeRecordWrite): why names joined an entity, so a wrong merge can be undone.
CREATE CONSTRAINT merge_record_uuid IF NOT EXISTS FOR (n:MergeRecord) REQUIRE n.uuid IS UNIQUE;
CREATE INDEX merge_record_entity IF NOT EXISTS FOR (n:MergeRecord) ON (n.group_id, n.entity_uuid);
