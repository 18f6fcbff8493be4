// Vector indexes (cosine). $embedding_dim comes from the configured embedder.
CREATE VECTOR INDEX entity_name_embedding IF NOT EXISTS FOR (n:Entity) ON (n.name_embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dim, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.fact_embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dim, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX passage_embedding IF NOT EXISTS FOR (n:Passage) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dim, `vector.similarity_function`: 'cosine'}};
