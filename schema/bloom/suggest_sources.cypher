MATCH (s:Source {group_id: group_id})
RETURN DISTINCT s.name AS name
ORDER BY name
LIMIT 500
