// What $name said to $other.
MATCH (e:Entity {group_id: group_id})
WHERE e.expired_at IS NULL
  AND (toLower(e.name) = toLower($name) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($name)))
MATCH p = (e)-[:SAID]->(q:Quote)-[:TO]->(o:Entity)
WHERE q.group_id = group_id AND o.expired_at IS NULL
  AND (toLower(o.name) = toLower($other) OR any(a IN coalesce(o.aliases, []) WHERE toLower(a) = toLower($other)))
RETURN p
ORDER BY q.episode_uuid, q.position
LIMIT 300
