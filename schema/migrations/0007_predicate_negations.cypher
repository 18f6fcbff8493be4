// Predicates that have had a negated fact: the commit reads pair slots (subject, predicate, object) only for these.
MATCH (p:Predicate)
WHERE EXISTS { ()-[r:RELATES_TO {predicate: p.name}]->() WHERE r.group_id = p.group_id AND r.negated }
SET p.has_negations = true;
