// What was true about $name on $date (valid time, as the graph believes it now), e.g. 2024-03-01.
MATCH (e:Entity {group_id: group_id})
WHERE e.expired_at IS NULL
  AND (toLower(e.name) = toLower($name) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($name)))
WITH e, datetime($date) AS at
OPTIONAL MATCH p = (e)-[r:RELATES_TO]-(:Entity)
WHERE r.expired_at IS NULL AND NOT coalesce(r.negated, false)
  AND r.valid_at <= at AND (r.invalid_at IS NULL OR r.invalid_at > at)
RETURN e, p
LIMIT 500
