MATCH (p:Predicate {group_id: group_id})
RETURN p.name AS name
ORDER BY name
