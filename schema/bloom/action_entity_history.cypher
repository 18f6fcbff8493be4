// Every fact the selected entities ever had, ended and retracted ones included (drawn grey).
MATCH (e:Entity)
WHERE elementId(e) IN $nodes AND e.group_id = group_id
MATCH p = (e)-[r:RELATES_TO]-(:Entity)
RETURN p
ORDER BY r.valid_at
LIMIT 1000
