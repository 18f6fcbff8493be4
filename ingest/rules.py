"""The rules graph/ is handed from resolve/: graph/ never imports resolve/ (nor resolve/ graph/), so the wiring of
the temporal rules, entity keys and name folding into a purge or a split is done here, above both."""

from __future__ import annotations

from strata.graph.purge import EmbedFn, PurgeRules
from strata.graph.split import SplitRules
from strata.resolve.normalize import entity_key, fold_name
from strata.resolve.timeline import recompute_timeline


def purge_rules(embed: EmbedFn | None = None) -> PurgeRules:
    return PurgeRules(timeline=recompute_timeline, entity_key=entity_key, embed=embed)


def split_rules() -> SplitRules:
    return SplitRules(timeline=recompute_timeline, entity_key=entity_key, fold_name=fold_name)
