// Who talks to whom: the strongest interactions (scenes together + 2 x quotes either way).
MATCH (a:Entity {group_id: group_id})-[w:INTERACTS_WITH]->(b:Entity)
WHERE a.expired_at IS NULL AND b.expired_at IS NULL
RETURN a, w, b
ORDER BY w.weight DESC
LIMIT 100
