// Complete listings of one predicate page through this index in uuid order (keyset pagination), instead of
// sorting every matching fact again for each page.
CREATE INDEX fact_group_predicate_uuid IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.group_id, r.predicate, r.uuid);
