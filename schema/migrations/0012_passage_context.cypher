// A passage's context (the passage before it and itself, resolve/passages.py) is searched on its own: a reply
// matches the question that asks for it only together with the turn it answers. Passages committed before
// this migration have no context (they stay searchable through passage_text and passage_embedding).
CREATE FULLTEXT INDEX passage_context_text IF NOT EXISTS FOR (n:Passage) ON EACH [n.context, n.group_tag]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE VECTOR INDEX passage_context_embedding IF NOT EXISTS FOR (n:Passage) ON (n.context_embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dim, `vector.similarity_function`: 'cosine'}};
