// What $name said: the attributed quotes, and whom each was said to.
MATCH (e:Entity {group_id: group_id})
WHERE e.expired_at IS NULL
  AND (toLower(e.name) = toLower($name) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($name)))
MATCH p = (e)-[:SAID]->(q:Quote)
WHERE q.group_id = group_id
OPTIONAL MATCH t = (q)-[:TO]->(:Entity)
RETURN p, t
ORDER BY q.episode_uuid, q.position
LIMIT 300
