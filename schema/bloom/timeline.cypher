// Every fact about $name that the graph still holds, ended ones included (they are drawn grey).
MATCH (e:Entity {group_id: group_id})
WHERE e.expired_at IS NULL
  AND (toLower(e.name) = toLower($name) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($name)))
OPTIONAL MATCH p = (e)-[r:RELATES_TO]-(:Entity)
WHERE r.expired_at IS NULL
RETURN e, p
ORDER BY r.valid_at
LIMIT 1000
