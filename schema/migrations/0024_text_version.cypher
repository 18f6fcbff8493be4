// A group's text version (graph/text_version.py): one record per group, set anew by every write to the group's
// searchable texts, read by a small group's full-text channels to tell their kept table current.
CREATE CONSTRAINT text_version IF NOT EXISTS FOR (v:TextVersion) REQUIRE v.group_id IS UNIQUE;
