MATCH (e:Entity {group_id: group_id})
WHERE e.expired_at IS NULL
RETURN DISTINCT e.name AS name
ORDER BY name
LIMIT 2000
