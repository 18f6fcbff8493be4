// Search finds passages through their context (migration 0012): a passage committed before it gets itself as
// context, as the first passage of an episode has (resolve/passages.py), so it stays findable by full text and
// by vector. Re-ingesting its episode gives it the turn before as well.
MATCH (p:Passage) WHERE p.context IS NULL
CALL (p) {
  SET p.context = p.text, p.context_embedding = p.embedding
} IN TRANSACTIONS OF 10000 ROWS;
