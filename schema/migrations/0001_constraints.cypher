// Uniqueness: every node kind has a uuid; entities are unique per (group_id, key).
CREATE CONSTRAINT source_uuid IF NOT EXISTS FOR (n:Source) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT episode_uuid IF NOT EXISTS FOR (n:Episode) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT entity_uuid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT entity_group_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.group_id, n.key) IS UNIQUE;
CREATE CONSTRAINT predicate_group_name IF NOT EXISTS FOR (n:Predicate) REQUIRE (n.group_id, n.name) IS UNIQUE;
CREATE CONSTRAINT passage_uuid IF NOT EXISTS FOR (n:Passage) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT job_uuid IF NOT EXISTS FOR (n:Job) REQUIRE n.uuid IS UNIQUE;
CREATE CONSTRAINT fact_uuid IF NOT EXISTS FOR ()-[r:RELATES_TO]-() REQUIRE r.uuid IS UNIQUE;
CREATE CONSTRAINT schema_migration_version IF NOT EXISTS FOR (n:SchemaMigration) REQUIRE n.version IS UNIQUE;
