// The embedder each group's vectors were made with (graph/embedder_meta.py): one record per group.
CREATE CONSTRAINT group_embedder IF NOT EXISTS FOR (m:GroupEmbedder) REQUIRE m.group_id IS UNIQUE;
