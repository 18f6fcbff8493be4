"""The rules a purge (graph/purge.py) is handed: the temporal rules, entity keys and, from the caller, vectors."""

from __future__ import annotations

from strata.graph.purge import EmbedFn, PurgeRules
from strata.resolve.normalize import entity_key
from strata.resolve.timeline import recompute_timeline


def purge_rules(embed: EmbedFn | None = None) -> PurgeRules:
    return PurgeRules(timeline=recompute_timeline, entity_key=entity_key, embed=embed)
