// The entity named $name (name or alias, any case) and the facts true about it now.
MATCH (e:Entity {group_id: group_id})
WHERE e.expired_at IS NULL
  AND (toLower(e.name) = toLower($name) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($name)))
OPTIONAL MATCH p = (e)-[r:RELATES_TO]-(:Entity)
WHERE r.expired_at IS NULL AND NOT coalesce(r.negated, false)
  AND r.valid_at <= datetime() AND (r.invalid_at IS NULL OR r.invalid_at > datetime())
RETURN e, p
LIMIT 500
