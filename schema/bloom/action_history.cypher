// The history of the selected facts' slots: every fact of the same subject and predicate, ended and
// retracted ones included (drawn grey).
MATCH (s:Entity)-[r:RELATES_TO]->(:Entity)
WHERE elementId(r) IN $relationships AND r.group_id = group_id
WITH DISTINCT s, r.predicate AS predicate
MATCH p = (s)-[h:RELATES_TO]->(:Entity)
WHERE h.predicate = predicate
RETURN p
ORDER BY h.valid_at
LIMIT 1000
