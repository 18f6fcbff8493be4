MATCH (ep:Episode {group_id: group_id})
WHERE ep.source_name IS NOT NULL
RETURN DISTINCT ep.source_name AS name
ORDER BY name
LIMIT 500
