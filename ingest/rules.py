"""The rules graph/ is handed from resolve/: graph/ never imports resolve/ (nor resolve/ graph/), so the wiring of
the temporal rules, entity keys and name folding into a purge or a split is done here, above both."""

from __future__ import annotations

from strata.graph.purge import EmbedFn, PurgeRules
from strata.graph.split import SplitRules
from strata.graph.upgrade import OfficeRules
from strata.resolve.normalize import entity_key, fold_name
from strata.resolve.ontology import load_ontology
from strata.resolve.roles import OFFICE_PREDICATE, roles
from strata.resolve.timeline import recompute_timeline
from strata.schema.ids import entity_uuid
from strata.schema.plan import Predicate


def purge_rules(embed: EmbedFn | None = None) -> PurgeRules:
    return PurgeRules(timeline=recompute_timeline, entity_key=entity_key, embed=embed)


def split_rules() -> SplitRules:
    return SplitRules(timeline=recompute_timeline, entity_key=entity_key, fold_name=fold_name)


def office_rules() -> OfficeRules:
    office = load_ontology().predicates[OFFICE_PREDICATE]
    return OfficeRules(split=roles().split_office, organization_key=lambda name: entity_key(name, "Organization"),
                       entity_uuid=entity_uuid, timeline=recompute_timeline,
                       office=Predicate(name=office.name, description=office.description, functional=office.functional))
