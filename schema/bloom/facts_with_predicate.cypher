// Every fact of one predicate (as stored, e.g. lives_in), ended ones included; retracted ones left out.
MATCH p = (:Entity)-[r:RELATES_TO]->(:Entity)
WHERE r.group_id = group_id AND r.predicate = $predicate AND r.expired_at IS NULL
RETURN p
LIMIT 1000
