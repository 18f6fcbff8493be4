// The facts true now around the selected entities.
MATCH (e:Entity)
WHERE elementId(e) IN $nodes AND e.group_id = group_id
MATCH p = (e)-[r:RELATES_TO]-(:Entity)
WHERE r.expired_at IS NULL AND NOT coalesce(r.negated, false)
  AND r.valid_at <= datetime() AND (r.invalid_at IS NULL OR r.invalid_at > datetime())
RETURN p
LIMIT 500
